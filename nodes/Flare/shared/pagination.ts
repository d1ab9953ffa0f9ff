import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INodeExecutionData,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { flareApiError, parameterError, type FailureContext } from './errors';
import { flareRequest, FlareRequestFailed, type RateTier } from './transport';

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

/** Everything the runner needs to know about one operation; routing supplies the request itself. */
export interface FlareOperation extends Omit<FailureContext, 'target'> {
	tier: RateTier;
	paging?: Paging;
	/** Validates the parameters and completes the request, before anything is sent. */
	prepare?: (this: IExecuteSingleFunctions, request: IHttpRequestOptions) => void;
	/** What a 404 is about, e.g. "Identifier 7001". */
	target?: (this: IExecuteSingleFunctions) => string;
	/** Output items (JSON) for the records of one page, or for a single-request answer. */
	output: (this: IExecuteSingleFunctions, records: IDataObject[], response: IN8nHttpFullResponse) => IDataObject[];
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
function nextCursor(style: Paging['style'], body: unknown, records: IDataObject[]): string | number | undefined {
	if (style === 'cursor') {
		const next = (body as IDataObject | undefined)?.next;
		return typeof next === 'string' && next !== '' ? next : undefined;
	}
	if (records.length === 0) return undefined;
	const last = records[records.length - 1];
	const ids = ((last.passwords as IDataObject[] | undefined) ?? []).map((password) => Number(password.id));
	return ids.length ? Math.max(...ids) : undefined;
}

function withCursor(request: IHttpRequestOptions, size: number, cursor: string | number | undefined): IHttpRequestOptions {
	const paging: IDataObject = { size, ...(cursor === undefined ? {} : { from: cursor }) };
	return request.method === 'GET'
		? { ...request, qs: { ...request.qs, ...paging } }
		: { ...request, body: { ...(request.body as IDataObject), ...paging } };
}

/** Reads Return All and Limit: how many output items to deliver at most. */
function wantedItems(ctx: IExecuteSingleFunctions): number {
	if (ctx.getNodeParameter('returnAll', false) as boolean) return Infinity;
	const limit = ctx.getNodeParameter('limit', 50) as number;
	if (!Number.isInteger(limit) || limit < 1) {
		throw parameterError(ctx, 'Limit', 'must be a whole number of at least 1', 'Set Limit to 1 or more, or turn on Return All.');
	}
	return limit;
}

/**
 * Walks the pages. The page size is chosen once, min(Limit, maximum), and kept for the whole walk
 * (Flare asks that only `from` changes); no page is fetched once Limit is reached.
 */
async function collect(ctx: IExecuteSingleFunctions, operation: FlareOperation, request: IHttpRequestOptions) {
	const policy = { tier: operation.tier, write: operation.write === true };
	if (!operation.paging) {
		const response = await flareRequest(ctx, request, policy);
		return operation.output.call(ctx, recordsOf(response.body), response);
	}
	const { style, maxPageSize } = operation.paging;
	const wanted = wantedItems(ctx);
	const pageSize = Math.min(wanted, maxPageSize);
	const items: IDataObject[] = [];
	let cursor: string | number | undefined;
	for (;;) {
		const response = await flareRequest(ctx, withCursor(request, pageSize, cursor), policy);
		const records = recordsOf(response.body);
		items.push(...operation.output.call(ctx, records, response));
		if (items.length >= wanted) return items.slice(0, wanted);
		const next = nextCursor(style, response.body, records);
		if (next === undefined) return items;
		if (cursor !== undefined && (next === cursor || (style === 'idCursor' && next < cursor))) {
			throw new FlareRequestFailed({ code: 'REPEATED_CURSOR', status: response.statusCode });
		}
		cursor = next;
	}
}

function asNodeError(ctx: IExecuteSingleFunctions, operation: FlareOperation, error: unknown) {
	if (error instanceof FlareRequestFailed) {
		return flareApiError(ctx, error.failure, { ...operation, target: operation.target?.call(ctx) });
	}
	if (error instanceof NodeOperationError || error instanceof NodeApiError) return error;
	return new NodeOperationError(ctx.getNode(), error as Error, { itemIndex: ctx.getItemIndex() });
}

/**
 * The one paginator: every operation of the Flare node runs through it (routing builds the request,
 * `send.paginate` hands it over). It validates before sending, pages, shapes the output, pairs each
 * item with its input item, and turns failures into clear errors, or into paired error items when
 * the node continues on fail.
 */
export function runFlareOperation(operation: FlareOperation) {
	return async function (
		this: IExecutePaginationFunctions,
		requestData: DeclarativeRestApiSettings.ResultOptions,
	): Promise<INodeExecutionData[]> {
		const pairedItem = { item: this.getItemIndex() };
		try {
			const request = { ...requestData.options } as IHttpRequestOptions;
			operation.prepare?.call(this, request);
			const items = await collect(this, operation, request);
			return items.map((json) => ({ json, pairedItem }));
		} catch (error) {
			const nodeError = asNodeError(this, operation, error);
			if (!this.continueOnFail()) throw nodeError;
			return [{ json: { error: nodeError.message, description: nodeError.description ?? null }, error: nodeError, pairedItem }];
		}
	};
}
