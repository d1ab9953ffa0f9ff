import type { IDataObject } from 'n8n-workflow';

import { FlareRequestFailed } from './errors';
import { recordsOf, type FlareResponse, type Paging } from './operation';

/** Pages in a row that bring nothing new before a walk is stopped as a server fault. */
export const MAX_PAGES_WITHOUT_NEW_RECORDS = 50;

/** Where a walk stopped. */
export interface WalkEnd {
	/** Cursor of the page after the last one read; undefined when the walk reached its end. */
	next?: string | number;
	/** Cursor the last page read was asked for with; undefined for a first page. */
	lastFrom?: string | number;
}

/**
 * The one page walker. Asks `fetchPage` for each page (none for the first, or `from` to resume),
 * hands each page's new records to `onPage`, and follows the cursors that `paging` reads until the
 * walk ends or `onPage` returns false. It ends every walk a server could stretch forever
 * (docs/api-contract.md, "Paging"): a cursor seen before in the walk, or 50 pages in a row without a
 * new record, stops it with an error; a record seen before in the walk is not delivered again.
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
		const records = recordsOf(response.body);
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
		if (pagesWithoutNew >= MAX_PAGES_WITHOUT_NEW_RECORDS) {
			throw new FlareRequestFailed({ code: 'NO_PROGRESS', status: response.statusCode });
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
