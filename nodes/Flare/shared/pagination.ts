import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INodeExecutionData,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { flareBaseUrl } from '../../../credentials/FlareApi.credentials';
import { flareApiError, parameterError, type FailureContext } from './errors';
import { FlareItem } from './item';
import {
	CREDENTIAL_TYPE,
	flareRequest,
	FlareRequestFailed,
	REQUEST_TIMEOUT_MS,
	type FlareContext,
	type FlareRequestPolicy,
	type RateTier,
} from './transport';

/**
 * How an endpoint pages:
 * - `cursor`: `from`/`next` (opaque string), walked until `next` is null, missing or empty;
 * - `idCursor`: `from` = the largest credential id seen (identity lookups), walked until an empty page.
 */
export interface Paging {
	style: 'cursor' | 'idCursor';
	/** The endpoint's maximum page size. */
	maxPageSize: number;
}

/** The parts of a request an operation fills in from its parameters. */
export interface FlareRequestParts {
	/** Values for the `{name}` placeholders of the path, percent-encoded when the URL is built. */
	pathParameters: Record<string, string | number>;
	qs?: IDataObject;
	body?: IDataObject;
}

/** Everything the runner needs to know about one operation of the Flare node. */
export interface FlareOperation extends Omit<FailureContext, 'target'> {
	method: IHttpRequestMethods;
	/** Path below the base URL; `{segment}` is the credential's product segment, `{name}` a path parameter. */
	path: string;
	tier: RateTier;
	paging?: Paging;
	/** Validates the item's parameters and fills in the request, before anything is sent. */
	prepare?: (item: FlareItem, request: FlareRequestParts) => void;
	/** What a 404 is about, e.g. "Identifier 7001". */
	target?: (item: FlareItem) => string;
	/** Output items (JSON) for the records of one page, or for a single-request answer. */
	output: (
		item: FlareItem,
		records: IDataObject[],
		response: IN8nHttpFullResponse,
	) => IDataObject[];
}

/** Builds the URL path: the product segment, and each path parameter encoded so it cannot change the path. */
export function buildPath(
	template: string,
	segment: string,
	values: Record<string, string | number>,
): string {
	return template.replace(/\{(\w+)\}/g, (placeholder, name: string) => {
		if (name === 'segment') return segment;
		if (!(name in values)) throw new Error(`No value for the path parameter ${placeholder}`);
		return encodeURIComponent(String(values[name]));
	});
}

/** The records of an answer: a plain array, the `items` of a page, or the object itself. */
function recordsOf(body: unknown): IDataObject[] {
	if (Array.isArray(body)) return body as IDataObject[];
	if (body && typeof body === 'object') {
		const { items } = body as IDataObject;
		return Array.isArray(items) ? (items as IDataObject[]) : [body as IDataObject];
	}
	return [];
}

/** The cursor of the next page, or undefined when the walk is complete. */
function nextCursor(
	style: Paging['style'],
	body: unknown,
	records: IDataObject[],
): string | number | undefined {
	if (style === 'cursor') {
		const next = (body as IDataObject | undefined)?.next;
		return typeof next === 'string' && next !== '' ? next : undefined;
	}
	if (records.length === 0) return undefined;
	const last = records[records.length - 1];
	const ids = ((last.passwords as IDataObject[] | undefined) ?? []).map((password) =>
		Number(password.id),
	);
	return ids.length ? Math.max(...ids) : undefined;
}

function withCursor(
	request: IHttpRequestOptions,
	size: number,
	cursor: string | number | undefined,
): IHttpRequestOptions {
	const paging: IDataObject = { size, ...(cursor === undefined ? {} : { from: cursor }) };
	return request.method === 'GET'
		? { ...request, qs: { ...request.qs, ...paging } }
		: { ...request, body: { ...(request.body as IDataObject), ...paging } };
}

/** Reads Return All and Limit: how many output items to deliver at most. */
function wantedItems(item: FlareItem): number {
	if (item.parameter('returnAll', false)) return Infinity;
	const limit = item.parameter<number>('limit', 50);
	if (!Number.isInteger(limit) || limit < 1) {
		throw parameterError(
			item,
			'Limit',
			'must be a whole number of at least 1',
			'Set Limit to 1 or more, or turn on Return All.',
		);
	}
	return limit;
}

/** The Timeout of Request Options, checked like every other parameter. */
export function requestTimeout(item: FlareItem): number {
	const timeout = item.parameter<number>('requestOptions.timeout', REQUEST_TIMEOUT_MS);
	if (!Number.isInteger(timeout) || timeout < 1) {
		throw parameterError(item, 'Timeout', 'must be a whole number of milliseconds, at least 1');
	}
	// Node.js timers cannot wait longer: a larger value would silently become 1 ms.
	if (timeout > MAX_TIMEOUT_MS) {
		throw parameterError(
			item,
			'Timeout',
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
export const MAX_URL_VALUE_LENGTH = 2_048;

/**
 * Checks the values that go into the URL, before anything is sent: each path parameter stays one
 * segment (`.` and `..` would move the request elsewhere, since URLs resolve them), and no value is
 * too long to send or impossible to encode. Errors name the parameter (via the operation's fields).
 */
export function checkUrlValues(
	item: FlareItem,
	operation: FlareOperation,
	parts: FlareRequestParts,
): void {
	const check = (key: string, value: unknown, inPath: boolean) => {
		const displayName = operation.fields?.[key] ?? key;
		const text = String(value);
		if (inPath && (text === '.' || text === '..')) {
			throw parameterError(
				item,
				displayName,
				`cannot be "${text}": it would change the address of the request`,
			);
		}
		let encoded: string;
		try {
			encoded = encodeURIComponent(text);
		} catch {
			throw parameterError(
				item,
				displayName,
				'contains characters that cannot be sent (an incomplete Unicode surrogate pair)',
			);
		}
		if (encoded.length > MAX_URL_VALUE_LENGTH) {
			throw parameterError(
				item,
				displayName,
				`is too long to send: ${encoded.length} characters once encoded for the URL, at most ${MAX_URL_VALUE_LENGTH}`,
			);
		}
	};
	for (const [key, value] of Object.entries(parts.pathParameters)) check(key, value, true);
	for (const [key, value] of Object.entries(parts.qs ?? {})) {
		if (typeof value === 'string') check(key, value, false);
	}
}

/** Where a page walk stopped. */
export interface PageWalkEnd {
	/** Cursor of the page after the last one read; undefined when the walk reached its end. */
	next?: string | number;
}

/**
 * The one page walker. Sends the request with the page size and a cursor (none for the first page,
 * or `from` to resume a walk), hands each page's records to `onPage`, and follows the cursors until
 * the walk ends or `onPage` returns false. Only `from` changes between pages: the page size and every
 * other parameter stay as given (Flare asks for that). A cursor that does not advance is a server
 * fault and stops the walk with an error instead of looping.
 *
 * `prefetch`, for walks that go to the end whatever `onPage` finds (Return All): the next page is
 * asked for as soon as its cursor is known, before `onPage` shapes this one, so that Flare prepares
 * and sends it meanwhile. Still one request at a time on the wire, in order, through the same retries
 * and rate gate; if `onPage` throws, the page asked for is dropped.
 */
export async function walkPages(
	context: FlareContext,
	request: IHttpRequestOptions,
	policy: FlareRequestPolicy,
	walk: { style: Paging['style']; pageSize: number; from?: string | number; prefetch?: boolean },
	onPage: (records: IDataObject[], response: IN8nHttpFullResponse) => boolean,
): Promise<PageWalkEnd> {
	const fetch = (cursor: string | number | undefined) =>
		flareRequest(context, withCursor(request, walk.pageSize, cursor), policy);
	let cursor = walk.from;
	let pending = fetch(cursor);
	for (;;) {
		const response = await pending;
		const records = recordsOf(response.body);
		const next = nextCursor(walk.style, response.body, records);
		const repeated =
			next !== undefined &&
			cursor !== undefined &&
			(next === cursor || (walk.style === 'idCursor' && next < cursor));
		let ahead: Promise<IN8nHttpFullResponse> | undefined;
		if (walk.prefetch && next !== undefined && !repeated) {
			ahead = fetch(next);
			// Awaited below; if onPage throws first, its outcome no longer matters.
			ahead.catch(() => undefined);
		}
		const more = onPage(records, response);
		if (next === undefined) return {};
		if (!more) return { next };
		if (repeated) {
			throw new FlareRequestFailed({ code: 'REPEATED_CURSOR', status: response.statusCode });
		}
		cursor = next;
		pending = ahead ?? fetch(cursor);
	}
}

/** How the requests of an operation are retried (transport.ts). */
export function requestPolicy(operation: FlareOperation): FlareRequestPolicy {
	return { tier: operation.tier, write: operation.write === true };
}

/**
 * Sends the request and walks the pages, and adds the output items to `results`, each paired with its
 * input item. The page size is chosen once, min(Limit, maximum), and kept for the whole walk; no page
 * is fetched once Limit is reached. If the walk fails, the caller takes back out what it had added.
 */
async function collect(
	item: FlareItem,
	operation: FlareOperation,
	request: IHttpRequestOptions,
	results: INodeExecutionData[],
): Promise<void> {
	const policy = requestPolicy(operation);
	const pairedItem = { item: item.index };
	if (!operation.paging) {
		const response = await flareRequest(item.context, request, policy);
		for (const json of operation.output(item, recordsOf(response.body), response)) {
			results.push({ json, pairedItem });
		}
		return;
	}
	const { style, maxPageSize } = operation.paging;
	const wanted = wantedItems(item);
	const pageSize = Math.min(wanted, maxPageSize);
	const end = results.length + wanted;
	await walkPages(
		item.context,
		request,
		policy,
		{ style, pageSize, prefetch: wanted === Infinity },
		(records, response) => {
			// One at a time: spreading a large array into push() overflows the call stack.
			for (const json of operation.output(item, records, response)) {
				if (results.length >= end) break;
				results.push({ json, pairedItem });
			}
			return results.length < end;
		},
	);
}

/** Any failure of an operation as the error n8n shows: what happened and how to fix it. */
export function asNodeError(item: FlareItem, operation: FlareOperation, error: unknown) {
	if (error instanceof FlareRequestFailed) {
		return flareApiError(
			item.node(),
			error.failure,
			{ ...operation, target: operation.target?.(item) },
			item.index,
		);
	}
	if (error instanceof NodeOperationError || error instanceof NodeApiError) return error;
	return new NodeOperationError(item.node(), error as Error, { itemIndex: item.index });
}

/** Where the requests made with the node's Flare credential go. */
export interface FlareTarget {
	baseURL: string;
	/** The credential's product segment, e.g. `firework`. */
	segment: string;
}

export async function flareTarget(context: FlareContext): Promise<FlareTarget> {
	const credentials = await context.getCredentials(CREDENTIAL_TYPE);
	return {
		baseURL: flareBaseUrl(credentials),
		segment: String(credentials.productSegment || 'firework').replace(/^\/+|\/+$/g, ''),
	};
}

/** The request of an operation, from the parts that its parameters filled in. */
export function buildRequest(
	operation: FlareOperation,
	target: FlareTarget,
	parts: FlareRequestParts,
): IHttpRequestOptions {
	return {
		method: operation.method,
		baseURL: target.baseURL,
		url: buildPath(operation.path, target.segment, parts.pathParameters),
		qs: parts.qs,
		body: parts.body,
	};
}

/**
 * The one paginator and runner of the Flare node. For each input item, in turn: validate the
 * parameters before anything is sent, send and page, shape the output, pair every output item with
 * its input item; a failure becomes a clear error, or a paired error item when the node continues on
 * fail. Items run one after another, which keeps one execution within Flare's rate limits.
 */
export async function runFlareOperation(
	context: IExecuteFunctions,
	operation: FlareOperation,
): Promise<INodeExecutionData[][]> {
	const target = await flareTarget(context);
	const results: INodeExecutionData[] = [];
	for (let index = 0; index < context.getInputData().length; index++) {
		const item = FlareItem.ofInput(context, index);
		const start = results.length;
		try {
			const parts: FlareRequestParts = { pathParameters: {} };
			operation.prepare?.(item, parts);
			checkUrlValues(item, operation, parts);
			const request = buildRequest(operation, target, parts);
			request.timeout = requestTimeout(item);
			await collect(item, operation, request, results);
		} catch (error) {
			// None of a failed item's records go out, only its error.
			results.length = start;
			const nodeError = asNodeError(item, operation, error);
			if (!context.continueOnFail()) throw nodeError;
			// n8n shows error items as { error: message } and keeps the whole error beside the item.
			results.push({
				json: { error: nodeError.message },
				error: nodeError,
				pairedItem: { item: index },
			});
		}
	}
	return [results];
}
