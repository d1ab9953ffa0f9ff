import type { IDataObject, IHttpRequestMethods, INodeProperties } from 'n8n-workflow';

import type { FailureContext } from './errors';
import type { FlareItem } from './item';

/** Flare's two rate-limit tiers: Search (the global searches) and Basic (everything else). */
export type RateTier = 'search' | 'basic';

/** An answer of Flare, its body parsed from JSON (undefined when empty). */
export interface FlareResponse {
	body: unknown;
	headers: IDataObject;
	statusCode: number;
}

/** How an endpoint pages; each operation that pages says how to read its cursor. */
export interface Paging {
	/** The endpoint's largest page. */
	maxPageSize: number;
	/**
	 * Where the global-search quota counts results: Return All's first page. When the results fit in
	 * it, they cost no more than they count; otherwise a new walk with the largest pages follows.
	 */
	firstPageSize?: number;
	/** The cursor of the page after this one (sent as `from`), or undefined when the walk is complete. */
	next(body: unknown, records: IDataObject[]): string | number | undefined;
	/**
	 * For a walk resumed later (the Flare Trigger's): an empty page that hands back the cursor it was
	 * asked with means nothing more for now, and ends the walk instead of counting as a cursor cycle.
	 */
	resumable?: boolean;
	/**
	 * What identifies a record within a walk. A record seen before in the walk is not delivered again,
	 * and a page with nothing new counts as empty (docs/api-contract.md, "Paging").
	 */
	key?(record: IDataObject): unknown;
}

/** Flare's `from`/`next` paging: the walk is complete when `next` is null, missing or empty. */
export function nextCursor(body: unknown): string | undefined {
	const next = (body as IDataObject | undefined)?.next;
	return typeof next === 'string' && next !== '' ? next : undefined;
}

/**
 * A request that Flare takes for several targets at once (e.g. event actions, at most 10 a request;
 * accounts to check, at most 100): each input item gives one target, and items whose `shared` part is
 * the same go in one request as `{ ...shared, targets: [...] }`, or as `body` builds it.
 */
export interface Batch {
	/** Most targets a request may carry. */
	size: number;
	/** The item's target, checked before anything is sent (e.g. `{ uid }`). */
	target(item: FlareItem): IDataObject;
	/** The rest of the body, from the item's parameters (e.g. `{ action: { type: 'remediate' } }`). */
	shared(item: FlareItem): IDataObject;
	/** The body of one request, when Flare does not name the list `targets` (e.g. `{ accounts }`). */
	body?(shared: IDataObject, targets: IDataObject[]): IDataObject;
}

/** The parts of a request an operation fills in from its parameters. */
export interface FlareRequestParts {
	/** Values for the `{name}` placeholders of the path, percent-encoded when the URL is built. */
	pathParameters: Record<string, string | number>;
	qs?: IDataObject;
	body?: IDataObject;
}

/**
 * One operation of the Flare node (or a picker's list, or the trigger's search): its endpoint, how its
 * parameters become the request, and how records become output items. Each operation's form file
 * defines it beside its fields.
 */
export interface FlareOperation extends Omit<FailureContext, 'target' | 'fields'> {
	method: IHttpRequestMethods;
	/** Path below the base URL; `{segment}` is the credential's product segment, `{name}` a path parameter. */
	path: string;
	tier: RateTier;
	paging?: Paging;
	/** For a write that takes several input items in one request; `output` then gets each item's target. */
	batch?: Batch;
	/** The operation's form: the fields whose display names its messages use. */
	properties: INodeProperties[];
	/** Flare's field names (as in a 422 `loc`) mapped to the names of our parameters. */
	apiFields?: Record<string, string>;
	/**
	 * Validates the item's parameters and fills in the request, before anything is sent. It may be
	 * async and read from Flare first (through `callFlare`), e.g. an update that merges the changes
	 * into the current record: a promise it returns is awaited.
	 */
	prepare?: (item: FlareItem, request: FlareRequestParts) => void | Promise<void>;
	/** What a 404 is about, e.g. "Identifier 7001". */
	target?: (item: FlareItem) => string;
	/** Output items (JSON) for the records of one page, or for a single-request answer. */
	output: (item: FlareItem, records: IDataObject[], response: FlareResponse) => IDataObject[];
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
export function recordsOf(body: unknown): IDataObject[] {
	if (Array.isArray(body)) return body as IDataObject[];
	if (body && typeof body === 'object') {
		const { items } = body as IDataObject;
		return Array.isArray(items) ? (items as IDataObject[]) : [body as IDataObject];
	}
	return [];
}
