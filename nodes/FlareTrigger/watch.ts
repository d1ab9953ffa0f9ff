import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { FlareOperation, FlareResponse } from '../Flare/shared/operation';

/**
 * What each kind of Flare Trigger (newEvent.ts, newLeakedCookie.ts, newLeakedCredential.ts) gives
 * the poll (poll.ts): the search it watches and what it makes of the records found.
 */

/** Records one poll reads at most; the rest waits for the next poll. */
export const MAX_RECORDS_PER_POLL = 1_000;

/** What a kind of trigger watches (a search of Flare), and what it makes of new records. */
export interface Watch {
	/** The paged search; the poll walks it as a resumable walk. */
	operation: FlareOperation;
	/** Values of the search path's placeholders, e.g. `{identifier_id}`. */
	pathParameters?: Record<string, string | number>;
	/** What the user asks for (query, filters): a change starts a new long-lived search. */
	asked: IDataObject;
	/**
	 * The searches that together list every record, when Flare leaves some out unless asked (the
	 * event feeds: remediated and ignored events), each as what it adds to the request's filters.
	 * The long-lived search walks the first; each sweep walks them all, in turn, and so does one at
	 * activation (from the second: the long-lived search reads the first). Default: one.
	 */
	partitions?: IDataObject[];
	/**
	 * The request body of partition `part` (default the first): what the user asks for, arrived at or
	 * after `gte` (ISO 8601), ascending.
	 */
	body(gte: string, part?: number): IDataObject;
	/**
	 * Whether a record read goes out, by what the search cannot ask Flare for good: what the tenant
	 * changes after the record arrived (a severity override, tags, remediated, ignored), `partition`
	 * being what the page's search added. Decided once, at the record's first read, and remembered
	 * (state.ts `rejected`): a later change never makes it go out. Default: every record.
	 */
	accepts?(record: IDataObject, partition?: IDataObject): boolean;
	/** Keys an earlier version gave the record, which saved states may still hold: those count too. */
	legacyKeysOf?(record: IDataObject): string[];
	/** The request body of a test: what the user asks for, newest first. */
	newest: IDataObject;
	/** What the test's search adds to the request's filters (for {@link accepts}). */
	newestPartition?: IDataObject;
	/** What identifies a record, stable across searches. */
	keyOf(record: IDataObject): string;
	/** When the record reached Flare (the field `body` filters on). */
	arrivedAt(record: IDataObject): unknown;
	/** Results asked for per page, the same for the trigger's life (Flare's paging rule). */
	pageSize: number;
	/** Most new records one poll emits; the rest waits for the next poll. */
	maxRecords: number;
	/**
	 * Whether a new record goes out when the poll finds it (at `now`, ms); one that does not is noted
	 * as seen, never emitted (e.g. a leaked cookie that expired before). Default: every one.
	 */
	wanted?(record: IDataObject, now: number): boolean;
	/**
	 * Requests `output` sends per new record (e.g. one to fetch each full event): their time, counted
	 * as a page's, is kept free within the poll's time limit, so that the whole poll ends within it.
	 */
	outputRequestsPerRecord?: number;
	/**
	 * The output item of a new record (may ask Flare for more), or {@link OutputLater} when what it
	 * asked for failed in a way that may pass.
	 */
	output(record: IDataObject, response: FlareResponse): Promise<IDataObject | OutputLater>;
}

/**
 * What {@link Watch.output} returns when Flare could not send what the item needs, for now (e.g. a
 * full event, a 5xx): the record and those after it wait for the next poll, which asks again, until
 * that request has failed in {@link tries} polls in a row; then `anyway` goes out, and so does every
 * record whose request fails the same way, until one succeeds (docs/trigger.md, "New Event").
 */
export class OutputLater {
	constructor(
		/** The failure, as the poll reports it until the record goes out. */
		readonly reason: Error,
		/** What the message calls the record, e.g. "the full event of event 'uid'". */
		readonly what: string,
		/** Polls in a row in which the request fails before the record goes out anyway. */
		readonly tries: number,
		/** The item that goes out then, marked with the failure. */
		readonly anyway: IDataObject,
	) {}
}

/** The watched search with the trigger's form, sending `body`. */
export function searchFor(
	watch: Watch,
	properties: INodeProperties[],
	body: IDataObject,
): FlareOperation {
	return {
		...watch.operation,
		// The node's hints name fields of the node's form, not of the trigger's.
		narrow: undefined,
		properties,
		prepare(_item, request) {
			request.pathParameters = { ...watch.pathParameters };
			request.body = body;
		},
	};
}
