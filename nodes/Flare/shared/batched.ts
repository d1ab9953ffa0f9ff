/**
 * Writes that Flare takes for several targets at once (`operation.batch`: Take Action on events and
 * credentials, Check Accounts), run in input order (docs/api-contract.md, "Event feeds, full events
 * and actions"): every item checked before anything is sent, consecutive items that share the rest
 * of the request grouped, each request's failure given to each of its items, naming those Flare's
 * message names. The runner (runner.ts) hands such operations here.
 */
import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type NodeApiError,
} from 'n8n-workflow';

import { AppliedWrites } from './applied';
import { batchItemError } from './errors';
import {
	FlareRequestFailed,
	maskFailure,
	mayHaveApplied,
	type FlareFailure,
} from './failure';
import { FlareItem } from './item';
import type { Batch, FlareOperation, FlareResponse } from './operation';
import {
	asNodeError,
	failureContextOf,
	outputProtectionOf,
	sendToFlare,
	SHARED_FIELDS,
	tenantOf,
	tenantStamp,
	timeoutOf,
} from './runner';

/** An input item of a batched write, checked: its target and the rest of its request. */
interface BatchEntry {
	item: FlareItem;
	/**
	 * Protects the item's output items, as its Leaked Value Output says (`outputProtectionOf`), and
	 * names their tenant (`tenantStamp`).
	 */
	protect: (json: IDataObject) => IDataObject;
	target: IDataObject;
	targetKey: string;
	shared: IDataObject;
	sharedKey: string;
}

/**
 * Groups checked items into requests: consecutive items with the same shared part, at most
 * `size` distinct targets each, so that Flare applies the writes in input order (a new action
 * starts a new request); a target repeated within a request counts once.
 */
function requestsOf(entries: BatchEntry[], size: number): BatchEntry[][] {
	const requests: BatchEntry[][] = [];
	let targets = new Set<string>();
	for (const entry of entries) {
		const last = requests[requests.length - 1];
		const joins =
			last !== undefined &&
			last[0].sharedKey === entry.sharedKey &&
			(targets.has(entry.targetKey) || targets.size < size);
		if (joins) {
			last.push(entry);
		} else {
			requests.push([entry]);
			targets = new Set();
		}
		targets.add(entry.targetKey);
	}
	return requests;
}

/** Whether `text` holds `value` as a whole word (".../1" is not in ".../10 not found"). */
function mentions(text: string, value: string): boolean {
	for (let at = text.indexOf(value); at >= 0; at = text.indexOf(value, at + 1)) {
		const before = text[at - 1] ?? ' ';
		const after = text[at + value.length] ?? ' ';
		if (!/[\w/-]/.test(before) && !/\w/.test(after)) return true;
	}
	return false;
}

/**
 * The numbers a message names as targets: after `#`, `id`, `ids`, `recommendation`, `target` or
 * `identifier` (a list too: "recommendation 4242, 4243 not found", `"id": 4242`, `ids=[1, 2]`). Any
 * other number (a tenant, a limit) names no item.
 */
const NAMED_NUMBERS =
	/(?:#|\b(?:ids?|recommendations?|targets?|identifiers?)\b["']?[ \t]*[:=]?[ \t]*\[?[ \t]*)(#?\d+(?:[ \t]*(?:,|\band\b|\bor\b)[ \t]*#?\d+)*)/g;

function namedNumbers(text: string): Set<string> {
	const numbers = new Set<string>();
	for (const match of text.matchAll(NAMED_NUMBERS)) {
		for (const [number] of match[1].matchAll(/\d+/g)) numbers.add(String(Number(number)));
	}
	return numbers;
}

/**
 * The input items of a failed request whose target Flare's message names (e.g. an unknown uid): a
 * text as a whole word, a number only where a word names it as a target ({@link NAMED_NUMBERS}).
 */
function namedIn(failure: FlareFailure, request: BatchEntry[]): number[] {
	const text = [failure.message ?? '', ...(failure.details ?? []).map((detail) => detail.msg)]
		.join('\n')
		.toLowerCase();
	let numbers: Set<string> | undefined;
	const names = (value: unknown) => {
		if (typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value))) {
			numbers ??= namedNumbers(text);
			return numbers.has(String(Number(value)));
		}
		return typeof value === 'string' && value !== '' && mentions(text, value.toLowerCase());
	};
	return request
		.filter(({ target }) => Object.values(target).some(names))
		.map(({ item }) => item.index);
}

/**
 * Runs a request that Flare takes for several targets at once (operation.batch), in input order
 * (docs/api-contract.md, "Event feeds, full events and actions"): every item is checked before
 * anything is sent; consecutive items that share the rest of the request go together, at most
 * `batch.size` targets to a request, each target once; a write is sent once, a read (Check Accounts) is
 * retried as any read. Each output item is paired with its input item, its leaked values protected
 * as that item's Leaked Value Output says (an invalid one fails that item only). When a request fails, each of its items gets an error of its own
 * (its own `itemIndex`) that says whether Flare may have applied it; without continue on fail, the
 * error also says which items Flare applied in earlier requests.
 */
export async function runBatched(
	context: IExecuteFunctions,
	operation: FlareOperation,
	batch: Batch,
): Promise<INodeExecutionData[][]> {
	const properties = [...operation.properties, ...SHARED_FIELDS];
	const outputs: INodeExecutionData[][] = [];
	const writes = AppliedWrites.of(context, operation.write === true);
	const applied: number[] = [];
	const failed = (index: number, nodeError: NodeApiError | NodeOperationError) => {
		if (!context.continueOnFail()) throw nodeError;
		// n8n shows error items as { error: message } and keeps the whole error beside the item.
		outputs[index] = [
			{ json: { error: nodeError.message }, error: nodeError, pairedItem: { item: index } },
		];
	};
	const entries: BatchEntry[] = [];
	for (let index = 0; index < context.getInputData().length; index++) {
		const item = FlareItem.ofInput(context, index, properties);
		try {
			// Applied by an earlier try of this node run (applied.ts): its outcome again, not sent.
			const earlier = writes.replayed(index);
			if (earlier) {
				outputs[index] = earlier;
				applied.push(index);
				continue;
			}
			timeoutOf(item);
			const protect = outputProtectionOf(item, properties, operation.outputsCookies);
			const tenant = tenantOf(item);
			const stamp = tenantStamp(tenant, operation);
			const target = batch.target(item);
			const shared = batch.shared(item);
			entries.push({
				item,
				protect: (json) => stamp(protect(json)),
				target,
				targetKey: JSON.stringify(target),
				shared,
				// Items of different tenants never share a request: each goes with its tenant's token.
				sharedKey: JSON.stringify([tenant ?? null, shared]),
			});
		} catch (error) {
			failed(index, asNodeError(item, operation, error));
		}
	}
	const requests = requestsOf(entries, batch.size);
	for (const [position, request] of requests.entries()) {
		const targets = [...new Map(request.map((entry) => [entry.targetKey, entry.target])).values()];
		const body = batch.body?.(request[0].shared, targets) ?? { ...request[0].shared, targets };
		let answer: FlareResponse | undefined;
		try {
			await sendToFlare(
				request[0].item,
				{
					...operation,
					prepare: (_item, parts) => {
						parts.body = body;
					},
				},
				{
					onPage: (_records, response) => {
						answer = response;
						return false;
					},
				},
			);
		} catch (error) {
			if (!(error instanceof FlareRequestFailed)) {
				// Nothing was sent (e.g. the credential's settings): each item fails with the same cause.
				const cause = asNodeError(request[0].item, operation, error);
				for (const { item } of request) {
					const { message, description } = cause;
					failed(
						item.index,
						new NodeOperationError(item.node(), message, {
							itemIndex: item.index,
							description: description ?? undefined,
						}),
					);
				}
				continue;
			}
			const failure = maskFailure(
				error.failure,
				request.flatMap(({ item }) => item.secretValues()),
			);
			const items = request.map(({ item }) => item.index);
			const named = namedIn(failure, request);
			const progress = context.continueOnFail()
				? undefined
				: {
						applied,
						notSent: requests
							.slice(position + 1)
							.flatMap((later) => later.map(({ item }) => item.index)),
					};
			const errors = request.map(({ item }) =>
				batchItemError(
					item.node(),
					failureContextOf(item, operation),
					operation.target?.(item) ?? `Item ${item.index}`,
					item.index,
					{ failure, items, named, progress },
				),
			);
			const thrown = progress ? errors[Math.max(0, items.indexOf(named[0]))] : undefined;
			if (mayHaveApplied(failure)) {
				errors.forEach((nodeError, k) => writes.applied(items[k], { error: thrown ?? nodeError }));
			}
			if (thrown) throw thrown;
			errors.forEach((nodeError, k) => failed(items[k], nodeError));
			continue;
		}
		for (const { item, protect, target } of request) {
			applied.push(item.index);
			try {
				outputs[item.index] = operation.output(item, [target], answer!).map((json) => ({
					json: protect(json),
					pairedItem: { item: item.index },
				}));
				writes.applied(item.index, { outputs: outputs[item.index] });
			} catch (error) {
				// Flare answered, but not with what this item needs (e.g. a read's record for it).
				const nodeError = asNodeError(item, operation, error);
				writes.applied(item.index, { error: nodeError });
				failed(item.index, nodeError);
			}
		}
	}
	return [outputs.flat()];
}
