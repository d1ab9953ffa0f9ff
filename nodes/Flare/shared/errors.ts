/**
 * The errors a user reads (docs/api-contract.md, "Errors"): a request's {@link FlareFailure}
 * (failure.ts) as a `NodeApiError` that says what happened and how to fix it, naming the operation's
 * own fields and never a secret; a batched write's failure per item; a parameter or a credential
 * setting that cannot be used, as a `NodeOperationError` before any request.
 */
import type { INode, INodeProperties, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { FlareSettingsError } from './connection';
import { isQuotaExceeded, isRefusedCursor, mayHaveApplied, type FlareFailure } from './failure';
import type { FlareItem } from './item';

/** What the error messages need to know about the operation that failed. */
export interface FailureContext {
	/** Sentence-case action, e.g. "search leaked credentials". */
	action: string;
	/** Entitlement the operation needs, named in 403 messages. */
	entitlement?: 'ASTP' | 'threat intelligence' | 'reports';
	/** What a 403 means for this operation, and what to do, when it is not an entitlement. */
	forbidden?: string;
	/** Flare field names (as in a 422 `loc`) mapped to the display names of our parameters. */
	fields?: Record<string, string>;
	/** What a 404 means, e.g. "Identifier 7001". */
	target?: string;
	/** Whether the operation changes data in Flare. */
	write?: boolean;
	/**
	 * How to narrow this operation's search, naming its own fields (e.g. "set Imported From/To under
	 * Options"), for the messages that advise asking for less.
	 */
	narrow?: string;
	/** The operation's form: the messages advise a smaller Limit only where it has one. */
	properties?: INodeProperties[];
	/** The tenant the node works in, when its Tenant field names one (not the credential's). */
	tenant?: number;
}

/** Whether `error` is the node's error for a refused cursor ({@link isRefusedCursor}). */
export function isRefusedCursorError(error: unknown): boolean {
	return error instanceof NodeApiError && error.context.refusedCursor === true;
}

/** A wait in words, e.g. "3 minutes", "2 hours", "5 days". */
export function describeWait(ms: number): string {
	const minutes = Math.ceil(ms / 60_000);
	if (minutes < 120) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
	const hours = Math.round(minutes / 60);
	return hours < 48 ? `${hours} hours` : `${Math.round(hours / 24)} days`;
}

/** Whether a 422's `loc` points at the page size (`size`). */
export function namesPageSize(failure: FlareFailure): boolean {
	return (failure.details ?? []).some(({ loc }) => loc[loc.length - 1] === 'size');
}

/** Display name of the parameter that a 422 `loc` points at, if we know it. */
function fieldOf(failure: FlareFailure, fields: Record<string, string> = {}): string | undefined {
	for (const { loc } of failure.details ?? []) {
		for (let index = loc.length - 1; index >= 0; index--) {
			const name = fields[String(loc[index])];
			if (name) return name;
		}
	}
	return undefined;
}

const CHECK_BASE_URL = `Check the Base URL in the Flare API credential: Flare's API is https://api.flare.io.`;

function explain(
	failure: FlareFailure,
	context: FailureContext,
): { message: string; description: string } {
	const flareSays = failure.message ? ` Flare says: "${failure.message}".` : '';
	const tried =
		failure.attempts && failure.attempts > 1 ? ` after ${failure.attempts} attempts` : '';
	const { status, code } = failure;
	const notSentAgain =
		'The request was not sent again because Flare may already have applied it. Check the result in Flare before running the workflow again.';
	if (code === 'CANCELLED') {
		return {
			message: `The execution was cancelled while trying to ${context.action}`,
			description: 'Nothing more was sent to Flare.',
		};
	}
	if (code === 'TOKEN_EXCHANGE') {
		return {
			message: failure.message ?? 'Flare did not issue an access token',
			// The tenant is worth checking only when Flare refused the key for it, not when it did not
			// answer.
			description:
				context.tenant === undefined || !failure.refused
					? 'Open the Flare API credential, check the API key and the Base URL, and use Test to confirm.'
					: `Check the Tenant field: tenant ${context.tenant} must be one that the API key's user can access (Tenant → Get Many lists them). Then open the Flare API credential, check the API key and the Base URL, and use Test to confirm.`,
		};
	}
	if (code === 'CREDENTIAL_CHANGED') {
		return {
			message: `The Flare API credential changed while the request to ${context.action} waited to be sent: nothing was sent`,
			description:
				'Its Base URL, Tenant ID or API key was edited during the run. A request goes only with the settings it was made with, so that no token goes to another host or tenant. Run the workflow again to use the credential as it is now.',
		};
	}
	if (code === 'REDIRECT') {
		return {
			message: `Flare answered with a redirect to ${failure.location} (HTTP ${status}) while trying to ${context.action}`,
			description: `Requests to Flare never follow redirects, so nothing was sent to ${failure.location}. ${CHECK_BASE_URL}`,
		};
	}
	if (code === 'TOO_LARGE') {
		const advice = [
			...(context.properties?.some((property) => property.name === 'limit')
				? ['ask for fewer results at once (Limit)']
				: []),
			...(context.narrow ? [`narrow the search (${context.narrow})`] : []),
		].join(', or ');
		const fix = advice
			? `${advice[0].toUpperCase()}${advice.slice(1)}.`
			: 'Run the workflow again later; if it persists, report it to Flare.';
		return {
			message: `Flare's answer was too large to read while trying to ${context.action}`,
			description: `The answer was cut off at ${Math.round((failure.maxBytes ?? 256 * 1024 * 1024) / 1024 / 1024)} MiB and nothing of it was used. ${fix}`,
		};
	}
	if (code === 'UNEXPECTED_ANSWER' && !context.write) {
		return {
			message: `Flare's answer could not be used while trying to ${context.action}`,
			description: `${failure.message ?? 'It does not have the documented shape'}. Nothing of it was used. Run the workflow again later; if it persists, report it to Flare.`,
		};
	}
	if (status === 401) {
		return {
			message: `Flare refused the credentials while trying to ${context.action}`,
			description: `A fresh access token was requested and still refused.${flareSays} Check the API key in the Flare API credential, or create a new one under Profile → API Keys.`,
		};
	}
	if (isQuotaExceeded(failure)) {
		return {
			message: 'The global search quota of your Flare organization is used up',
			description: `Global searches (of leaked credentials and of all of Flare's events) count toward a monthly quota, which resets each month; waiting does not help. Ask an administrator to check usage on the Tenants page or contact Flare to raise it.${flareSays}`,
		};
	}
	if (status === 403 && context.forbidden) {
		return {
			message: `Flare refused to ${context.action} (HTTP 403)`,
			description: `${context.forbidden}${flareSays}`,
		};
	}
	if (status === 403 && context.entitlement === 'threat intelligence') {
		// Flare names no such feature: its roles page lists "use threat flow" as a permission (api-audit part 4, C3).
		return {
			message: `Your Flare account has no access to Threat Flow, needed to ${context.action}`,
			description: `Threat Flow is a feature of your Flare account and a permission of your user's role: ask your Flare Customer Success Manager to enable it, or an administrator for a role that may use Threat Flow, or use the API key of a user who has it.${flareSays}`,
		};
	}
	if (status === 403) {
		const feature = context.entitlement ? `the ${context.entitlement} feature` : 'this feature';
		return {
			message: `Your Flare account has no access to ${feature}, needed to ${context.action}`,
			description: `Ask your Flare Customer Success Manager to enable ${feature}, or use the API key of a user who has it.${flareSays}`,
		};
	}
	if (status === 404) {
		const tenant =
			context.tenant === undefined
				? 'the tenant selected in the credential'
				: `tenant ${context.tenant} (the node's Tenant)`;
		return {
			message: `${context.target ?? 'The requested item'} was not found in Flare`,
			description: `Check the ID, and that it belongs to ${tenant}.${flareSays}`,
		};
	}
	if (isRefusedCursor(failure)) {
		return {
			message: `Flare refused the page cursor while trying to ${context.action}`,
			description: `Flare no longer accepts where the walk had got to (HTTP ${status}).${flareSays} Run the workflow again to start the walk over.`,
		};
	}
	if (status === 422 && failure.pageSize !== undefined && namesPageSize(failure)) {
		return {
			message: `Flare rejected the page size of ${failure.pageSize} results that the node asked for`,
			description: `${failure.message ?? 'The request did not pass validation'}. With Return All the node chooses the page size: turn off Return All and set a Limit instead.`,
		};
	}
	if (status === 422) {
		const field = fieldOf(failure, context.fields);
		return {
			message: field
				? `Flare rejected the value of '${field}'`
				: `Flare rejected the request to ${context.action}`,
			description: `${failure.message ?? 'The request did not pass validation'}. Correct ${field ? `'${field}'` : 'the parameters'} and try again.`,
		};
	}
	if (code === 'RETRY_AFTER_TOO_LONG') {
		const wait = describeWait(failure.retryAfterMs ?? 0);
		return {
			message: `Flare asks to wait ${wait} before the next request to ${context.action}`,
			description: `The node waits at most 2 minutes for Flare's rate limit, so it stopped instead of holding the execution. Try again later.${flareSays}`,
		};
	}
	if (status === 429) {
		return {
			message: `Flare kept rate-limiting the requests to ${context.action}${tried}`,
			description:
				'Flare allows 1 global search and 4 other requests per second per organization, shared by every workflow that uses the same API key. Run fewer such workflows at once, or run the workflow again later.',
		};
	}
	if (context.write && status !== undefined && status < 300 && failure.malformed) {
		return {
			message: `Flare accepted the request to ${context.action} (HTTP ${status}), but its answer could not be read`,
			description: notSentAgain,
		};
	}
	if (context.write && status !== undefined && status < 300 && code === 'UNEXPECTED_ANSWER') {
		return {
			message: `Flare accepted the request to ${context.action} (HTTP ${status}), but its answer could not be used`,
			description: `${failure.message ?? 'It does not have the documented shape'}. ${notSentAgain}`,
		};
	}
	if (context.write && (status === undefined || status >= 500) && mayHaveApplied(failure)) {
		const what =
			code === 'TIMEOUT'
				? `Flare did not answer within the Timeout (${failure.timeoutMs} ms)`
				: status
					? `Flare answered HTTP ${status}`
					: `The connection failed (${code})`;
		return {
			message: `Flare did not confirm the request to ${context.action}`,
			description: `${what}. ${notSentAgain}`,
		};
	}
	if (code === 'REPEATED_CURSOR') {
		return {
			message: `Flare returned the same page cursor twice while trying to ${context.action}`,
			description:
				'The walk was stopped to avoid an endless loop, and nothing was returned for this item. Run the workflow again later; if it persists, report it to Flare.',
		};
	}
	if (code === 'NO_PROGRESS') {
		const pages = (failure.pages ?? 0).toLocaleString('en-US');
		const message = `Flare returned ${pages} pages in a row without a new result while trying to ${context.action}`;
		if (!context.narrow) {
			return {
				message,
				description: `The walk was stopped after ${pages} pages that were empty or held only results already returned, and nothing was returned for this item. Run the workflow again later; if it persists, report it to Flare.`,
			};
		}
		return {
			message,
			description: `Flare leaves a page empty when its filters (e.g. ignored events) drop every result of it, so the walk went on through ${pages} pages in a row that were empty or held only results already returned, then stopped; nothing was returned for this item. Narrow the search (${context.narrow}) and run it again.`,
		};
	}
	if (failure.malformed) {
		return {
			message: `Flare sent a response that is not valid JSON${tried}`,
			description: 'This is usually temporary. Run the workflow again later.',
		};
	}
	if (code === 'TIMEOUT') {
		return {
			message: `Flare did not answer within the Timeout (${failure.timeoutMs} ms)${tried}`,
			description:
				'Run the workflow again later, or raise Request Options → Timeout. A large Limit also makes each page take longer.',
		};
	}
	if (status === undefined) {
		return {
			message: `Could not reach Flare${tried}`,
			description: `The connection failed (${code}). ${CHECK_BASE_URL} Also check the network between n8n and Flare, then try again.`,
		};
	}
	if (status >= 500) {
		return {
			message: `Flare is temporarily unavailable (HTTP ${status})${tried}`,
			description: `Run the workflow again later.${flareSays}`,
		};
	}
	return {
		message: `Flare could not ${context.action} (HTTP ${status})`,
		description: failure.message ?? 'Check the parameters and try again.',
	};
}

/** The `NodeApiError` for a failed request: what happened, how to fix it, never a secret. */
export function flareApiError(
	node: INode,
	failure: FlareFailure,
	context: FailureContext,
	itemIndex?: number,
): NodeApiError {
	return apiError(node, failure, explain(failure, context), itemIndex);
}

/** A `NodeApiError` that shows `message` and `description` (and the status), never Flare's raw answer. */
function apiError(
	node: INode,
	failure: FlareFailure,
	{ message, description }: { message: string; description: string },
	itemIndex?: number,
): NodeApiError {
	const httpCode = failure.status ? String(failure.status) : null;
	const error = new NodeApiError(node, { message, description, httpCode } as JsonObject, {
		message,
		description,
		httpCode: httpCode ?? undefined,
		itemIndex,
	});
	if (isRefusedCursor(failure)) error.context.refusedCursor = true;
	// What failed, for a caller that decides by it (the Flare Trigger's activation, lifecycle.ts).
	error.context.failure = { status: failure.status, code: failure.code, refused: failure.refused };
	return error;
}

/** Input items in words: "item 3", "items 0–9", "items 0–2, 5 and 7–9". */
export function itemsText(indices: number[]): string {
	const runs: string[] = [];
	const sorted = [...new Set(indices)].sort((a, b) => a - b);
	for (let start = 0; start < sorted.length; ) {
		let end = start;
		while (end + 1 < sorted.length && sorted[end + 1] === sorted[end] + 1) end++;
		runs.push(end === start ? `${sorted[start]}` : `${sorted[start]}–${sorted[end]}`);
		start = end + 1;
	}
	const list =
		runs.length > 1 ? `${runs.slice(0, -1).join(', ')} and ${runs[runs.length - 1]}` : runs[0];
	return `${sorted.length === 1 ? 'item' : 'items'} ${list ?? ''}`;
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** One request of a batched write that failed, and where it stood in the execution. */
export interface BatchRequestFailure {
	failure: FlareFailure;
	/** Input indices of the items the request carried. */
	items: number[];
	/** Those whose target Flare's message names (e.g. the unknown event of a 404). */
	named: number[];
	/**
	 * When the node stops here (no continue on fail): the items Flare applied in earlier requests,
	 * and those not sent.
	 */
	progress?: { applied: number[]; notSent: number[] };
}

/**
 * The error of one item of a failed batched request (docs/api-contract.md, "Errors"), with its own
 * `itemIndex`: what happened to the request, whether Flare may have applied this item, and, when
 * the node stops, which items Flare applied before (for a write; a read says which item Flare
 * refused, if it named one). `label` names the item's target, e.g. "Event 'leak/leak_site/1'".
 */
export function batchItemError(
	node: INode,
	context: FailureContext,
	label: string,
	index: number,
	request: BatchRequestFailure,
): NodeApiError {
	const { failure, items, progress } = request;
	// Whatever Flare says of a request of one item is about that item.
	const named = items.length === 1 ? items : request.named;
	const refused = !mayHaveApplied(failure);
	const flareSays = failure.message ? ` Flare says: "${failure.message}".` : '';
	let { message, description } = explain(failure, { ...context, target: label });
	if (!context.write) {
		// A read (Check Accounts) changes nothing: what counts is which item Flare refused.
		if (named.length > 0 && !named.includes(index)) {
			message = `${label} was not checked: Flare refused its request because of ${itemsText(named)}`;
			description = `Correct or remove ${itemsText(named)}, then run the others again.${flareSays}`;
		}
		if (items.length > 1) description += ` The same request carried ${itemsText(items)}.`;
		return apiError(node, failure, { message, description }, index);
	}
	if (refused && named.length > 0 && !named.includes(index)) {
		message = `${label} was not changed: Flare refused its request because of ${itemsText(named)}`;
		description = `Correct or remove ${itemsText(named)}, then run the others again.${flareSays}`;
	} else if (refused && failure.status === 404 && named.length === 0) {
		message = `Flare refused the request with ${label} (HTTP 404)`;
		description = `Flare did not say which one it could not find. Check that each one exists in the tenant selected in the credential.${flareSays}`;
	}
	if (items.length > 1) {
		description += !refused
			? ` The same request carried ${itemsText(items)}: Flare may have applied any of them.`
			: failure.status !== undefined
				? ` Flare refused the whole request of ${itemsText(items)}: none of them was changed.`
				: ` The request of ${itemsText(items)} did not reach Flare: none of them was changed.`;
	}
	if (progress && progress.applied.length + progress.notSent.length > 0) {
		const { applied, notSent } = progress;
		const before = applied.length
			? `${capitalized(itemsText(applied))} ${applied.length === 1 ? 'was' : 'were'} applied in Flare before this`
			: 'Nothing was applied in Flare before this';
		const after = refused ? [...items, ...notSent] : notSent;
		const rest = refused
			? `${itemsText(after)} ${after.length === 1 ? 'was' : 'were'} not`
			: `Flare may have applied ${itemsText(items)}${notSent.length ? `, and ${itemsText(notSent)} ${notSent.length === 1 ? 'was' : 'were'} not sent` : ''}`;
		description += ` ${before}; ${rest}.`;
	}
	return apiError(node, failure, { message, description }, index);
}

/** The `NodeOperationError` for a parameter value that cannot be sent, naming its display name. */
export function parameterError(
	item: FlareItem,
	name: string,
	problem: string,
	hint?: string,
): NodeOperationError {
	return new NodeOperationError(
		item.node(),
		`'${item.displayName(name)}' ${problem} [item ${item.index}]`,
		{ itemIndex: item.index, description: hint },
	);
}

/** The `NodeOperationError` for a credential setting that cannot be used. */
export function settingsError(item: FlareItem, error: FlareSettingsError): NodeOperationError {
	return new NodeOperationError(item.node(), `${error.message} [item ${item.index}]`, {
		itemIndex: item.index,
		description: `Open the Flare API credential and correct ${error.field}. ${error.hint}`,
	});
}
