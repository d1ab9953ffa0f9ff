/**
 * The one entry of the request path (docs/architecture.md, "The request path"): `callFlare` checks an
 * item's parameters and the credential's settings before anything is sent, chooses the tenant a
 * request is for (`tenantOf`; its token: transport.ts), sends it or walks its pages (the `from`/`size`
 * of each page, Return All and Limit: `sendToFlare`, paging.ts) and turns a failure into the error a
 * user reads (`asNodeError`, errors.ts); `runFlareOperation` runs it for each input item of the Flare
 * node, pairing outputs and errors with their items. Batched writes: batched.ts.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import {
	CREDENTIAL_TYPE,
	FlareSettingsError,
	organizationKey,
	readSettings,
	TENANT_ID,
	tokenFingerprint,
	type FlareSettings,
} from './connection';
import { DEFAULT_TIMEOUT_MS, requestOptions, tenantField } from './descriptions';
import {
	flareApiError,
	namesPageSize,
	parameterError,
	settingsError,
	type FailureContext,
} from './errors';
import { FlareRequestFailed, maskFailure } from './failure';
import { FlareItem } from './item';
import {
	buildPath,
	multiSegmentParameters,
	recordsOf,
	type FileAnswer,
	type FlareOperation,
	type FlareRequestParts,
	type FlareResponse,
} from './operation';
import { LEAKED_VALUE_OUTPUTS, protectLeakedValuesWith, type LeakedValueOutput } from './masking';
import { walkPages, type WalkEnd } from './paging';
import { batchReached, searchesRemaining } from './quota';
import { flareRequest, type FlareRequest } from './transport';
import { AppliedWrites, mayHaveBeenApplied } from './applied';
import { runBatched } from './batched';
import { oneAtATime } from './records';
import { optionValue, urlEncoded } from './validation';

/** How much of an operation to fetch, and what to do with each page. */
export interface CallOptions {
	/** Page size of a paged operation, the same for the whole walk (default: the endpoint's largest). */
	pageSize?: number;
	/** Cursor to resume a walk at. */
	from?: string | number;
	/** Whether the walk goes to the end (Return All): see `Paging.firstPageSize`. */
	returnAll?: boolean;
	/** Gets each page's records (a single request's, once); returns false to stop the walk. */
	onPage(records: IDataObject[], response: FlareResponse): boolean;
	/** Called just before a single request (not a walk) goes to the transport: a write may then apply. */
	onSend?(): void;
}

/** The Timeout of Request Options, checked like every other parameter. */
export function timeoutOf(item: FlareItem): number {
	const timeout = item.parameter<number>('requestOptions.timeout', DEFAULT_TIMEOUT_MS);
	if (!Number.isInteger(timeout) || timeout < 1) {
		throw parameterError(
			item,
			'requestOptions.timeout',
			'must be a whole number of milliseconds, at least 1',
		);
	}
	// Node.js timers cannot wait longer: a larger value would silently become 1 ms.
	if (timeout > MAX_TIMEOUT_MS) {
		throw parameterError(
			item,
			'requestOptions.timeout',
			`must be at most ${MAX_TIMEOUT_MS} milliseconds (about 24 days)`,
		);
	}
	return timeout;
}

/** The longest wait Node.js timers support. */
const MAX_TIMEOUT_MS = 2_147_483_647;

/**
 * Longest text a path segment or a query value may take once percent-encoded. Servers and proxies
 * refuse much longer request lines (HTTP 414 or 431); this leaves room for the rest of the URL.
 */
const MAX_URL_VALUE_LENGTH = 2_048;

/**
 * Checks the values that go into the URL, before anything is sent: each path parameter stays one
 * segment (`.` and `..` would move the request elsewhere, since URLs resolve them), and no value is
 * too long to send or impossible to encode.
 */
function checkUrlValues(
	item: FlareItem,
	operation: FlareOperation,
	parts: FlareRequestParts,
	template: string,
): void {
	const multi = multiSegmentParameters(template);
	const check = (key: string, value: unknown, inPath: boolean) => {
		const name = operation.apiFields?.[key] ?? key;
		const text = String(value);
		if (inPath && (text === '.' || text === '..')) {
			throw parameterError(
				item,
				name,
				`cannot be "${text}": it would change the address of the request`,
			);
		}
		// A value that spans segments (an event UID) keeps its slashes: each part is one segment.
		if (
			inPath &&
			multi.includes(key) &&
			text.split('/').some((part) => ['', '.', '..'].includes(part))
		) {
			throw parameterError(
				item,
				name,
				`has an empty, "." or ".." part between its slashes: it would change the address of the request`,
			);
		}
		const encoded = urlEncoded(item, name, text);
		if (encoded.length > MAX_URL_VALUE_LENGTH) {
			throw parameterError(
				item,
				name,
				`is too long to send: ${encoded.length} characters once encoded for the URL, at most ${MAX_URL_VALUE_LENGTH}`,
			);
		}
	};
	for (const [key, value] of Object.entries(parts.pathParameters)) check(key, value, true);
	for (const [key, value] of Object.entries(parts.qs ?? {})) {
		if (typeof value === 'string') check(key, value, false);
	}
}

/**
 * The form fields the runner adds to every operation's own: Tenant and Request Options (the node's
 * description shows them for every operation, the trigger's for both kinds).
 */
export const SHARED_FIELDS: INodeProperties[] = [tenantField, requestOptions];

/** The field of the item's output that names the tenant it came from (with a Tenant set). */
export const TENANT_OUTPUT_FIELD = 'tenantId';

/**
 * The item's Tenant, checked before anything is sent, and read once per item (FlareItem `once`):
 * undefined when the field is empty (the credential's tenant then), else a tenant ID, from a picked
 * tenant, an ID typed, or an expression (a number or digits). An expression that gives nothing for
 * the item (undefined, null, blanks) fails it: only an empty field means the credential's tenant
 * (docs/usage.md, "One credential, every tenant").
 */
export function tenantOf(item: FlareItem): number | undefined {
	return item.once(tenantField.name, () => readTenant(item));
}

function readTenant(item: FlareItem): number | undefined {
	let value: unknown;
	try {
		value = item.locator(tenantField.name);
	} catch (error) {
		throw parameterError(
			item,
			tenantField.name,
			`could not be read: ${(error as Error).message}`,
			'Pick a tenant From List, enter its ID, or use an expression that n8n can resolve here.',
		);
	}
	const text =
		typeof value === 'number'
			? String(value)
			: typeof value === 'string'
				? value.trim()
				: undefined;
	const nothing = value === null || value === undefined || text === '';
	if (nothing && item.isExpression(tenantField.name)) {
		const shown = value === undefined ? 'undefined' : JSON.stringify(value);
		throw parameterError(
			item,
			tenantField.name,
			`is an expression that gave no tenant ID for this item (${shown}), so nothing was sent`,
			"Check that the expression finds the tenant's ID in this item, e.g. {{ $json.id }} over the items of Tenant → Get Many. To work in the credential's tenant, clear the field.",
		);
	}
	if (nothing) return undefined;
	if (text === undefined || !TENANT_ID.test(text) || Number(text) < 1) {
		const shown =
			typeof value === 'string'
				? `"${value.slice(0, 100)}"`
				: (JSON.stringify(value)?.slice(0, 100) ?? String(value));
		throw parameterError(
			item,
			tenantField.name,
			`must be empty or the ID of a tenant (a positive whole number), not ${shown}`,
			"Pick a tenant From List, or give the ID that Tenant → Get Many lists as 'id'. Leave it empty to work in the credential's tenant.",
		);
	}
	return Number(text);
}

/** {@link tenantOf}, or undefined when it cannot be read (for messages about another failure). */
function tenantNamed(item: FlareItem): number | undefined {
	try {
		return tenantOf(item);
	} catch {
		return undefined;
	}
}

/**
 * How an output item says where it came from: with the item's Tenant set, `tenantId` is added
 * (docs/usage.md, "One credential, every tenant"); otherwise the item is as Flare's record is.
 * Operations whose items are tenants themselves leave them as they are.
 */
export function tenantStamp(
	tenant: number | undefined,
	operation: Pick<FlareOperation, 'outputsTenants'>,
): (json: IDataObject) => IDataObject {
	if (tenant === undefined || operation.outputsTenants) return (json) => json;
	return (json) => ({ ...json, [TENANT_OUTPUT_FIELD]: tenant });
}

/** The credential's settings, or a clear error naming the setting that cannot be used. */
export async function settingsOf(item: FlareItem): Promise<FlareSettings> {
	try {
		return readSettings(await item.context.getCredentials(CREDENTIAL_TYPE));
	} catch (error) {
		throw error instanceof FlareSettingsError ? settingsError(item, error) : error;
	}
}

/** What the error messages of `operation` need to know, for `item`. */
export function failureContextOf(item: FlareItem, operation: FlareOperation): FailureContext {
	const fields: Record<string, string> = {};
	for (const [apiField, name] of Object.entries(operation.apiFields ?? {})) {
		fields[apiField] = item.displayName(name);
	}
	// The tenant the request worked in: the credential's (none named) for the Tenant picker.
	const tenant = operation.credentialTenant ? undefined : tenantNamed(item);
	return { ...operation, fields, target: operation.target?.(item), tenant };
}

/**
 * Any failure of an operation as the error n8n shows: what happened and how to fix it, Flare's text
 * masked (failure.ts `maskFailure`).
 */
export function asNodeError(item: FlareItem, operation: FlareOperation, error: unknown) {
	if (error instanceof FlareRequestFailed) {
		const failure = maskFailure(error.failure, item.secretValues());
		return flareApiError(item.node(), failure, failureContextOf(item, operation), item.index);
	}
	if (error instanceof NodeOperationError || error instanceof NodeApiError) return error;
	return new NodeOperationError(item.node(), error as Error, { itemIndex: item.index });
}

/** `request` asking for one page: the page size and the cursor, in the query or the body. */
function pageOf(
	request: IHttpRequestOptions,
	size: number,
	from: string | number | undefined,
): IHttpRequestOptions {
	const paging: IDataObject = { size, ...(from === undefined ? {} : { from }) };
	return request.method === 'GET'
		? { ...request, qs: { ...request.qs, ...paging } }
		: { ...request, body: { ...(request.body as IDataObject), ...paging } };
}

/**
 * The one entry into the request path, for the node, the trigger and the pickers: validates the
 * item's parameters and the credential's settings before anything is sent, sends the operation's
 * request (and walks its pages), and hands the records to `options.onPage`. Failures come out as the
 * errors n8n shows, naming the parameter or saying what Flare did and how to fix it.
 */
export async function callFlare(
	item: FlareItem,
	operation: FlareOperation,
	options: CallOptions,
): Promise<WalkEnd> {
	try {
		return await sendToFlare(item, operation, options);
	} catch (error) {
		throw asNodeError(item, operation, error);
	}
}

/**
 * The answer to one request of `operation` (its first page, for a list), for code that reads a record
 * before writing it (an update) or after (a read-back); failures as {@link callFlare}'s.
 */
export async function answerOf(item: FlareItem, operation: FlareOperation): Promise<FlareResponse> {
	let answer: FlareResponse | undefined;
	await callFlare(item, operation, {
		onPage(_records, response) {
			answer = response;
			return false;
		},
	});
	return answer!;
}

/** A failed page's error, noting its size when the node chose it (Return All) rather than Limit. */
function withPageSize(error: unknown, size: number, options: CallOptions): unknown {
	if (error instanceof FlareRequestFailed && options.returnAll) error.failure.pageSize = size;
	return error;
}

/** A message about a size limit, e.g. "size must be at most 20" (not "header size too large"). */
const mentionsSizeLimit = (message: string) => /\bsize\b/i.test(message) && /\d/.test(message);

/** Whether Flare refused a page for its size (a 400 or 422 whose `loc` or message names `size`). */
function refusesPageSize(error: unknown): boolean {
	if (!(error instanceof FlareRequestFailed)) return false;
	const { failure } = error;
	return (
		(failure.status === 400 || failure.status === 422) &&
		(namesPageSize(failure) || mentionsSizeLimit(failure.message ?? ''))
	);
}

/** {@link callFlare} without the translation of failures: they come out as thrown. */
export async function sendToFlare(
	item: FlareItem,
	operation: FlareOperation,
	options: CallOptions,
): Promise<WalkEnd> {
	const parts: FlareRequestParts = { pathParameters: {} };
	await operation.prepare?.(item, parts);
	const template = parts.path ?? operation.path;
	if (parts.path !== undefined && !operation.otherPaths?.includes(parts.path)) {
		throw new Error(`${parts.path} is not an endpoint of the operation`);
	}
	checkUrlValues(item, operation, parts, template);
	const timeoutMs = timeoutOf(item);
	const tenant = operation.credentialTenant ? undefined : tenantOf(item);
	const settings = await settingsOf(item);
	const request: FlareRequest = {
		options: {
			method: operation.method,
			baseURL: settings.baseUrl,
			url: buildPath(template, settings.segment, parts.pathParameters),
			qs: parts.qs,
			// Flare reads a list in the query from a repeated key (`types=ip&types=bin`).
			arrayFormat: 'repeat',
			body: parts.body,
			// A file: whatever its type (Flare's OpenAPI gives none).
			...(operation.file ? { headers: { accept: '*/*' } } : {}),
		},
		timeoutMs,
		tier: operation.tier,
		write: operation.write === true,
		// Flare counts rate limits per organization, all its tenants together.
		organization: organizationKey(settings),
		// The credential's own tenant goes with the token n8n stores for it.
		tenant: tenant === settings.tenantId ? undefined : tenant,
		// Sent only as long as the credential has these settings, for this tenant.
		fingerprint: tokenFingerprint({ ...settings, tenantId: tenant ?? settings.tenantId }),
		cancel: item.cancelSignal(),
		raw: operation.file !== undefined,
	};
	const { paging } = operation;
	if (!paging) {
		options.onSend?.();
		const response = await flareRequest(item.context, request);
		// An answer whose schema Flare leaves empty is only a confirmation: any body will do; a file
		// is not read as records.
		const records = operation.answerIgnored || operation.file ? [] : recordsOf(response);
		options.onPage(records, response);
		return {};
	}
	// Whether the next page would start a global search that no quota unit is left for: Flare said
	// that none remains and that the search has returned what its unit covers (Batch-Reached). Until
	// then, the next pages are the same search, already paid for (docs/api-contract.md, "Global-search
	// quota").
	let quotaUsedUp = false;
	let pagesDelivered = 0;
	const walk = async (size: number, onPage: CallOptions['onPage']) =>
		await walkPages(
			paging,
			async (from) => {
				if (quotaUsedUp) throw new FlareRequestFailed({ code: 'QUOTA_USED_UP' });
				const page = await flareRequest(item.context, {
					...request,
					options: pageOf(request.options, size, from),
				}).catch((error: unknown) => Promise.reject(withPageSize(error, size, options)));
				if (operation.tier === 'search') {
					quotaUsedUp = searchesRemaining(page) === 0 && batchReached(page);
				}
				return page;
			},
			options.from,
			(...page) => {
				pagesDelivered++;
				return onPage(...page);
			},
		);
	if (options.returnAll && paging.firstPageSize !== undefined) {
		// Where the quota counts results: one small page first, delivered if it holds them all;
		// otherwise a new walk with the largest pages (the page size may not change within a walk).
		let firstPage: Parameters<CallOptions['onPage']> | undefined;
		const end = await walk(paging.firstPageSize, (...page) => {
			firstPage = page;
			return false;
		});
		if (end.next === undefined) {
			if (firstPage) options.onPage(...firstPage);
			return end;
		}
		pagesDelivered = 0;
	}
	const size = Math.min(options.pageSize ?? paging.maxPageSize, paging.maxPageSize);
	const first = await walk(size, options.onPage).then(
		(end) => ({ end }),
		(error: unknown) => ({ error }),
	);
	if ('end' in first) return first.end;
	// A page size beyond what Flare documents is a bet (docs/api-contract.md, "Paging"): refused
	// before any page was delivered, the walk starts again with the documented size.
	const fallback = paging.documentedPageSize;
	if (
		fallback === undefined ||
		size <= fallback ||
		pagesDelivered > 0 ||
		!refusesPageSize(first.error)
	)
		return await Promise.reject(first.error);
	return await walk(fallback, options.onPage);
}

/**
 * The page size for `wanted` results: the fewest pages of at most `max`, filled evenly, so that
 * little beyond `wanted` is asked for (Flare counts the global-search quota in results).
 */
function pageSizeFor(wanted: number, max: number): number {
	if (wanted === Infinity) return max;
	return Math.ceil(wanted / Math.ceil(wanted / max));
}

/** Reads Return All and Limit: how many output items to deliver at most. */
function wantedItems(item: FlareItem): number {
	if (item.parameter('returnAll', false)) return Infinity;
	const limit = item.parameter<number>('limit', 50);
	if (!Number.isInteger(limit) || limit < 1) {
		throw parameterError(
			item,
			'limit',
			'must be a whole number of at least 1',
			'Set Limit to 1 or more, or turn on Return All.',
		);
	}
	return limit;
}

/**
 * Where a form offers Leaked Value Output: at the top (the identity lookups, as saved workflows have
 * it), in Options, or nowhere.
 */
function leakedValueOutputPath(properties: INodeProperties[]): string | undefined {
	const named = (property: { name: string }) => property.name === 'leakedValueOutput';
	if (properties.some(named)) return 'leakedValueOutput';
	const options = properties.find((property) => property.name === 'options');
	return (options?.options as INodeProperties[] | undefined)?.some(named)
		? 'options.leakedValueOutput'
		: undefined;
}

/**
 * The item's Leaked Value Output, checked before anything is sent: Masked where the form has no such
 * option, so that every output is protected (docs/api-contract.md, "Masking").
 */
export function leakedValueOutputOf(
	item: FlareItem,
	properties: INodeProperties[],
): LeakedValueOutput {
	const path = leakedValueOutputPath(properties);
	return path === undefined ? 'masked' : optionValue(item, path, LEAKED_VALUE_OUTPUTS, 'masked');
}

/**
 * How the item's outputs are protected, checked before anything is sent: as its Leaked Value Output
 * says, the secrets it was given (its password fields) masked where Flare quotes them too; each output
 * a leaked cookie when `outputsCookies` says so.
 */
export function outputProtectionOf(
	item: FlareItem,
	properties: INodeProperties[],
	outputsCookies = false,
): (json: IDataObject) => IDataObject {
	const mode = leakedValueOutputOf(item, properties);
	const given = mode === 'full' ? [] : item.secretValues();
	return (json) => protectLeakedValuesWith(json, mode, given, outputsCookies);
}

/**
 * Runs an operation of the Flare node for each input item, in turn: an exact Limit with the fewest
 * pages (the page size is chosen once, for the whole walk: the fewest pages, filled evenly), Return
 * All with the largest pages (after a small first page where the quota counts results), one output
 * item per record, each paired with its input item, its leaked values protected as the item's Leaked
 * Value Output says. A failed item gives none of its records, only its error: thrown, or a paired
 * error item when the node continues on fail. Items run one after another, which keeps one execution
 * within Flare's rate limits.
 */
export async function runFlareOperation(
	context: IExecuteFunctions,
	operation: FlareOperation,
): Promise<INodeExecutionData[][]> {
	const properties = [...operation.properties, ...SHARED_FIELDS];
	if (operation.batch) return await runBatched(context, operation, operation.batch);
	const results: INodeExecutionData[] = [];
	// Writes an earlier try of this node run applied are not sent again (applied.ts).
	const writes = AppliedWrites.of(context, operation.write === true);
	for (let index = 0; index < context.getInputData().length; index++) {
		const item = FlareItem.ofInput(context, index, properties);
		const pairedItem = { item: index };
		const start = results.length;
		let sent = false;
		let answered = false;
		try {
			const earlier = writes.replayed(index);
			if (earlier) {
				results.push(...earlier);
				continue;
			}
			const protect = outputProtectionOf(item, properties, operation.outputsCookies);
			const stamp = tenantStamp(tenantOf(item), operation);
			const wanted = operation.paging ? wantedItems(item) : Infinity;
			const end = start + wanted;
			let file: FlareResponse | undefined;
			const written: IDataObject[] = [];
			const send = async () => {
				await sendToFlare(item, operation, {
					pageSize: pageSizeFor(wanted, operation.paging?.maxPageSize ?? 1),
					returnAll: wanted === Infinity,
					onSend: () => (sent = true),
					onPage(records, response) {
						answered = true;
						if (operation.file) file = response;
						// One at a time: spreading a large array into push() overflows the call stack.
						for (const json of operation.output(item, records, response)) {
							if (results.length >= end) break;
							if (operation.readBack) written.push(json);
							results.push({ json: stamp(protect(json)), pairedItem });
						}
						return results.length < end;
					},
				});
				await operation.readBack?.(item, written);
			};
			// An update that reads its record first: one at a time per record of a Flare, whatever
			// the API key (records.ts).
			if (operation.record) {
				const record = operation.record(item);
				await oneAtATime(`${(await settingsOf(item)).baseUrl}|${record}`, send);
			} else await send();
			if (operation.file && file)
				await attachFile(context, item, operation.file, file, results.slice(start));
			if (sent) writes.applied(index, { outputs: results.slice(start) });
		} catch (error) {
			results.length = start;
			const nodeError = asNodeError(item, operation, error);
			if (mayHaveBeenApplied(sent, answered, error)) writes.applied(index, { error: nodeError });
			if (!context.continueOnFail()) throw nodeError;
			// n8n shows error items as { error: message } and keeps the whole error beside the item.
			results.push({ json: { error: nodeError.message }, error: nodeError, pairedItem });
		}
	}
	return [results];
}

/**
 * Puts the file Flare answered (its bytes as they came) on the item's output as n8n binary data,
 * stored by n8n's binary data service (in memory, on disk or in the database, as n8n is set up).
 */
async function attachFile(
	context: IExecuteFunctions,
	item: FlareItem,
	file: FileAnswer,
	response: FlareResponse,
	outputs: INodeExecutionData[],
): Promise<void> {
	const bytes = Buffer.isBuffer(response.body) ? response.body : Buffer.alloc(0);
	const property = file.property(item);
	for (const output of outputs) {
		const binary = await context.helpers.prepareBinaryData(
			bytes,
			file.name(item),
			file.mimeType(item),
		);
		output.binary = { ...output.binary, [property]: binary };
	}
}
