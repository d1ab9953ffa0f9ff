/**
 * What an operation declares (`FlareOperation`): its method and path, its query or body, how its
 * answer is paged (`Paging`, `nextCursor`), where its records are in the answer (`recordsOf`), its
 * rate tier and what its errors say. Each resources/<resource>/<operation>.ts exports one.
 */
import type { IDataObject, IHttpRequestMethods, INodeProperties } from 'n8n-workflow';

import { type FailureContext } from './errors';
import { describeShape, unexpectedAnswer } from './failure';
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
	 * The page size Flare documents, when `maxPageSize` is larger than it and so a bet: a walk whose
	 * first page Flare refuses for its size (a 400 or 422 naming `size`) starts again with this one.
	 */
	documentedPageSize?: number;
	/**
	 * Where the global-search quota counts results: Return All's first page. When the results fit in
	 * it, they cost no more than they count; otherwise a new walk with the largest pages follows.
	 */
	firstPageSize?: number;
	/** The cursor of the page after this one (sent as `from`), or undefined when the walk is complete. */
	next(body: unknown, records: IDataObject[]): string | number | undefined;
	/**
	 * For a walk resumed later (the Flare Trigger's): an empty page that hands back the cursor it was
	 * asked with means nothing more for now, and ends the walk instead of counting as a cursor cycle;
	 * and a walk that reaches its bound of pages without a new record returns its cursor
	 * (`WalkEnd.next`, with `atBound`) instead of failing, so that the next walk goes on from there.
	 */
	resumable?: boolean;
	/**
	 * Pages in a row without a new record a walk goes through before it stops: 50 unless the
	 * endpoint's filters leave pages empty (docs/api-contract.md, "Paging").
	 */
	maxPagesWithoutNew?: number;
	/**
	 * What identifies a record within a walk. A record seen before in the walk is not delivered again,
	 * and a page with nothing new counts as empty (docs/api-contract.md, "Paging").
	 */
	key?(record: IDataObject): unknown;
	/**
	 * The records of a page, when Flare does not list them under `items` (e.g. `members`); default
	 * `recordsOf` of a page.
	 */
	records?(response: FlareResponse): IDataObject[];
}

/** Flare's `from`/`next` paging: the walk is complete when `next` is null, missing or empty. */
export function nextCursor(body: unknown): string | undefined {
	const next = (body as IDataObject | undefined)?.next;
	return typeof next === 'string' && next !== '' ? next : undefined;
}

/**
 * A request that Flare takes for several targets at once (e.g. event actions, at most 10 a request;
 * accounts to check, at most 100): each input item gives one target, and consecutive items whose
 * `shared` part is the same go in one request as `{ ...shared, targets: [...] }`, or as `body` builds
 * it, each target once (runner.ts `runBatched`).
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
	/**
	 * Values for the `{name}` placeholders of the path, percent-encoded when the URL is built; a
	 * `{+name}` placeholder takes several segments, each encoded, its slashes kept.
	 */
	pathParameters: Record<string, string | number>;
	/** One of the operation's `otherPaths`, when `prepare` picks it for this item instead of `path`. */
	path?: string;
	qs?: IDataObject;
	body?: IDataObject;
}

/**
 * An answer that is a file (a report as PDF or DOCX): the node outputs it as n8n binary data, with
 * the item's JSON from `output` beside it. Flare's file is passed on as it is: n8n cannot mask what
 * it holds (docs/api-contract.md, "Masking").
 */
export interface FileAnswer {
	/** The binary property the file goes to, e.g. `data`. */
	property(item: FlareItem): string;
	/** The file's name, e.g. `threat-report-880001.pdf`, and its media type. */
	name(item: FlareItem): string;
	mimeType(item: FlareItem): string;
}

/**
 * One operation of the Flare node (or a picker's list, or the trigger's search): its endpoint, how its
 * parameters become the request, and how records become output items. Each operation's form file
 * defines it beside its fields.
 */
export interface FlareOperation extends Omit<FailureContext, 'target' | 'fields'> {
	method: IHttpRequestMethods;
	/**
	 * Path below the base URL; `{segment}` is the credential's product segment, `{name}` a path
	 * parameter (one segment), `{+name}` one that spans segments (an event UID: `index/source/id`).
	 */
	path: string;
	/**
	 * The operation's other endpoints, e.g. an identifier group's alert rules where `path` is an
	 * identifier's: `prepare` picks one for each item (`FlareRequestParts.path`).
	 */
	otherPaths?: string[];
	tier: RateTier;
	paging?: Paging;
	/**
	 * The answer is only a confirmation (Flare documents an empty schema, which may come as `null`):
	 * the output does not read it, so its shape is not checked.
	 */
	answerIgnored?: boolean;
	/**
	 * Every output record is a leaked cookie: its `value` is masked as a secret whatever its other
	 * fields (docs/api-contract.md, "Masking").
	 */
	outputsCookies?: boolean;
	/**
	 * Every output record is a tenant (Tenant → Get Many), or is about the tenant or member an
	 * administration operation names (Target Tenant), whatever the node's Tenant: output items are
	 * not stamped with the tenant the request was made in (runner.ts `tenantStamp`).
	 */
	outputsTenants?: boolean;
	/**
	 * Always works in the credential's tenant, whatever the node's Tenant says (the Tenant picker,
	 * which lists the tenants to choose from).
	 */
	credentialTenant?: boolean;
	/** For a write that takes several input items in one request; `output` then gets each item's target. */
	batch?: Batch;
	/** The answer is a file, output as binary data (its bytes are not parsed). */
	file?: FileAnswer;
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
	/**
	 * For an update that reads the record it writes back, and the writes of that record whose result
	 * the update reads (records.ts): the record, e.g. `alertRule:5101`. The runner runs the item's reads, write and read-back one at a time per record
	 * of a Flare (its Base URL), whatever the API key, within the n8n process.
	 */
	record?: (item: FlareItem) => string;
	/**
	 * After Flare answered the write: reads back what Flare stored (or checks what its answer says it
	 * stored) and throws `records.ts` `readBackError` when it differs from what was sent. `outputs` are
	 * the item's output items, before masking. Nothing is sent again.
	 */
	readBack?: (item: FlareItem, outputs: IDataObject[]) => Promise<void>;
	/** What a 404 is about, e.g. "Identifier 7001". */
	target?: (item: FlareItem) => string;
	/** Output items (JSON) for the records of one page, or for a single-request answer. */
	output: (item: FlareItem, records: IDataObject[], response: FlareResponse) => IDataObject[];
}

/** The placeholders of a path template that span segments (`{+uid}`). */
export function multiSegmentParameters(template: string): string[] {
	return [...template.matchAll(/\{\+(\w+)\}/g)].map((match) => match[1]);
}

/**
 * Builds the URL path: the product segment, and each path parameter encoded so it cannot change the
 * path; a `{+name}` parameter keeps its slashes, each of its segments encoded (the runner refuses
 * empty, `.` and `..` segments before).
 */
export function buildPath(
	template: string,
	segment: string,
	values: Record<string, string | number>,
): string {
	return template.replace(/\{(\+?)(\w+)\}/g, (placeholder, multi: string, name: string) => {
		if (name === 'segment') return segment;
		if (!(name in values)) throw new Error(`No value for the path parameter ${placeholder}`);
		const text = String(values[name]);
		return multi ? text.split('/').map(encodeURIComponent).join('/') : encodeURIComponent(text);
	});
}

/** Whether a JSON value is an object (not null, not a list): a record. */
export const isObject = (value: unknown): value is IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The list an answer holds under `key` (e.g. `assets_groups`). An answer without it is not read as an
 * empty list: it fails, saying what came.
 */
export function listUnder(
	{ body, statusCode }: FlareResponse,
	key: string,
	what: string,
): unknown[] {
	const list = isObject(body) ? body[key] : undefined;
	if (!Array.isArray(list)) {
		const shape = !isObject(body)
			? describeShape(body)
			: list === undefined
				? `an object without '${key}'`
				: `an object whose '${key}' is ${describeShape(list)}`;
		throw unexpectedAnswer(statusCode, `Flare answered with ${shape}, not ${what}`);
	}
	return list;
}

/**
 * The record an answer holds under `key` (e.g. `report`). An answer without it is not read as
 * nothing: it fails, saying what came.
 */
export function recordUnder(
	{ body, statusCode }: FlareResponse,
	key: string,
	what: string,
): IDataObject[] {
	const record = isObject(body) ? body[key] : undefined;
	if (!isObject(record)) {
		const shape = !isObject(body)
			? describeShape(body)
			: record === undefined
				? `an object without '${key}'`
				: `an object whose '${key}' is ${describeShape(record)}`;
		throw unexpectedAnswer(statusCode, `Flare answered with ${shape}, not ${what}`);
	}
	return [record];
}

/**
 * The one record an answer must be (a matching policy, an event's tenant metadata): an object with
 * each of the `required` keys. Anything else (an empty list, `{detail}`, nothing) is not read as the
 * record, nor as the confirmation of a write: it fails, saying what came (docs/api-contract.md,
 * "Errors").
 */
export function recordOfAnswer(
	{ body, statusCode }: FlareResponse,
	required: readonly string[],
	what: string,
): IDataObject[] {
	if (!isObject(body)) {
		throw unexpectedAnswer(statusCode, `Flare answered with ${describeShape(body)}, not ${what}`);
	}
	const missing = required.filter((key) => body[key] === undefined || body[key] === null);
	if (missing.length > 0) {
		const keys = missing.map((key) => `'${key}'`).join(', ');
		throw unexpectedAnswer(
			statusCode,
			`Flare answered with an object without ${keys}, not ${what}`,
		);
	}
	return [body];
}

/**
 * The records of an answer, each an object: a plain array, the `items` of a page, or (not for a
 * page) the object itself, and none for an empty answer. Any other answer fails as unexpected
 * (docs/api-contract.md, "Errors"), rather than reading as "no results".
 */
export function recordsOf({ body, statusCode }: FlareResponse, page = false): IDataObject[] {
	let records: unknown[];
	if (Array.isArray(body)) records = body;
	else if (isObject(body) && Array.isArray(body.items)) records = body.items;
	else if (isObject(body) && !page) return [body];
	else if (body === undefined && !page) return [];
	else {
		const what = isObject(body) ? "an object without 'items'" : describeShape(body);
		throw unexpectedAnswer(
			statusCode,
			`Flare answered with ${what}, not ${page ? 'a page of results' : 'a record or a list of records'}`,
		);
	}
	const odd = records.filter((record) => !isObject(record)).length;
	if (odd > 0) {
		throw unexpectedAnswer(
			statusCode,
			`Flare's answer holds ${odd} of ${records.length} entries that are not objects`,
		);
	}
	return records as IDataObject[];
}
