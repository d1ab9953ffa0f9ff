/**
 * The one page walker (`walkPages`, docs/api-contract.md, "Paging"): follows Flare's `from`/`next`
 * cursors page after page, each record once, and stops on a cursor seen before, pages in a row
 * without a new record, or what the caller has enough of.
 */
import type { IDataObject } from 'n8n-workflow';

import { FlareRequestFailed } from './failure';
import { recordsOf, type FlareResponse, type Paging } from './operation';

/**
 * Pages in a row without a new record after which a walk stops, unless its paging says otherwise
 * (docs/api-contract.md, "Paging"): more than enough for endpoints that do not filter pages after
 * selecting them.
 */
export const MAX_PAGES_WITHOUT_NEW_RECORDS = 50;

/**
 * The same bound for the event feeds: Flare leaves a page empty when its filters drop every result of
 * it (ignored events, severity, tags); pages hold 10 events, so this is 10,000 events filtered out in
 * a row, about 4 minutes at Flare's Basic pace.
 */
export const FILTERED_FEED_PAGES_WITHOUT_NEW_RECORDS = 1_000;

/** Where a walk stopped. */
export interface WalkEnd {
	/** Cursor of the page after the last one read; undefined when the walk reached its end. */
	next?: string | number;
	/** Cursor the last page read was asked for with; undefined for a first page. */
	lastFrom?: string | number;
	/**
	 * A resumable walk only: it stopped at its bound of pages in a row without a new record, and
	 * `next` goes on from there. The walk is not complete.
	 */
	atBound?: true;
}

/**
 * The one page walker. Asks `fetchPage` for each page (none for the first, or `from` to resume),
 * hands each page's new records to `onPage`, and follows the cursors that `paging` reads until the
 * walk ends or `onPage` returns false. It ends every walk a server could stretch forever
 * (docs/api-contract.md, "Paging"):
 * - a cursor seen before in the walk stops it with an error (`REPEATED_CURSOR`);
 * - pages whose cursors are new are progress, even empty ones (Flare's filters make them), up to
 *   `paging.maxPagesWithoutNew` (default {@link MAX_PAGES_WITHOUT_NEW_RECORDS}) in a row without a
 *   new record: then a walk fails with
 *   `NO_PROGRESS`, and a resumable walk (`paging.resumable`) returns `{ next, atBound: true }` so
 *   that it goes on from `next` later;
 * - a record seen before in the walk is not delivered again.
 */
export async function walkPages(
	paging: Paging,
	fetchPage: (from: string | number | undefined) => Promise<FlareResponse>,
	from: string | number | undefined,
	onPage: (records: IDataObject[], response: FlareResponse) => boolean,
): Promise<WalkEnd> {
	const cursorsSent = new Set<string | number>();
	const recordsSeen = new Set<unknown>();
	let pagesWithoutNew = 0;
	let cursor = from;
	for (;;) {
		if (cursor !== undefined) cursorsSent.add(cursor);
		const response = await fetchPage(cursor);
		const records = paging.records ? paging.records(response) : recordsOf(response, true);
		const next = paging.next(response.body, records);
		const fresh = paging.key
			? records.filter((record) => isNew(recordsSeen, paging.key!(record)))
			: records;
		pagesWithoutNew = fresh.length > 0 ? 0 : pagesWithoutNew + 1;
		const more = onPage(fresh, response);
		if (next === undefined) return { lastFrom: cursor };
		if (paging.resumable && records.length === 0 && next === cursor)
			return { next, lastFrom: cursor };
		if (!more) return { next, lastFrom: cursor };
		if (cursorsSent.has(next))
			throw new FlareRequestFailed({ code: 'REPEATED_CURSOR', status: response.statusCode });
		if (pagesWithoutNew >= (paging.maxPagesWithoutNew ?? MAX_PAGES_WITHOUT_NEW_RECORDS)) {
			if (paging.resumable) return { next, lastFrom: cursor, atBound: true };
			throw new FlareRequestFailed({
				code: 'NO_PROGRESS',
				status: response.statusCode,
				pages: pagesWithoutNew,
			});
		}
		cursor = next;
	}
}

/** Whether `key` is new to `seen` (and remember it). Records without a key always count as new. */
function isNew(seen: Set<unknown>, key: unknown): boolean {
	if (key === undefined || key === null) return true;
	if (seen.has(key)) return false;
	seen.add(key);
	return true;
}
