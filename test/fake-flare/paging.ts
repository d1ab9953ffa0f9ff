/**
 * The from/next cursor scheme and the paging quirks of the real API (empty and short pages mid-walk).
 *
 * A cursor is base64url JSON of {p: where the page starts, n: number of the page it fetches, f: fingerprint
 * of every other request parameter}. Reusing it with changed parameters is a validation error. `p` is a
 * position to resume at (lists), or the sort key the page starts after (the global search: see
 * search-after.ts).
 */
import { createHash } from 'crypto';

export interface Cursor<P = number> {
	p: P;
	n: number;
	f: string;
}

export interface Quirks {
	emptyPageEvery: number;
	shortPageEvery: number;
}

/** Bumped by {@link expireCursors}: part of every fingerprint, so that older cursors are refused. */
let cursorEpoch = 0;

/** Makes every cursor handed out so far one that Flare refuses (422 at `from`), as if it expired. */
export function expireCursors(): void {
	cursorEpoch++;
}

export function fingerprint(scope: string, params: unknown): string {
	return createHash('sha256')
		.update(`${cursorEpoch}:${scope}:${JSON.stringify(params)}`)
		.digest('hex')
		.slice(0, 16);
}

export function encodeCursor<P>(cursor: Cursor<P>): string {
	return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0;

/**
 * The cursor encoded in `text`, or undefined when it is not one of ours; `isPosition` checks `p` (by
 * default a position).
 */
export function decodeCursor<P = number>(
	text: string,
	isPosition: (p: unknown) => p is P = isCount as (p: unknown) => p is P,
): Cursor<P> | undefined {
	try {
		const value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Partial<Cursor>;
		if (isPosition(value.p) && isCount(value.n) && value.n >= 1 && typeof value.f === 'string') {
			return value as Cursor<P>;
		}
	} catch {
		// not base64url JSON: not a cursor
	}
	return undefined;
}

export interface PageDraft {
	/** Position the page started at. */
	start: number;
	/** 1-based page number within the walk. */
	pageNumber: number;
	/** Positions found, up to size + 1 (one extra proves that more results remain). */
	found: number[];
	/** Where the scan stopped early (scan cap), or null when the range was exhausted. */
	resume: number | null;
	size: number;
}

/**
 * The positions a page returns and where the next page resumes (null = last page). The quirks apply only
 * while more results remain, so the walk still ends on a normal page.
 */
export function shapePage(
	draft: PageDraft,
	quirks: Quirks,
): { positions: number[]; nextPosition: number | null } {
	let positions = draft.found.slice(0, draft.size);
	let nextPosition = draft.found.length > draft.size ? draft.found[draft.size] : draft.resume;
	if (nextPosition === null) return { positions, nextPosition };
	const { emptyPageEvery, shortPageEvery } = quirks;
	if (emptyPageEvery > 0 && draft.pageNumber % emptyPageEvery === 0) {
		return { positions: [], nextPosition: draft.start };
	}
	if (shortPageEvery > 0 && draft.pageNumber % shortPageEvery === 0 && positions.length >= 2) {
		const half = Math.floor(positions.length / 2);
		nextPosition = positions[half];
		positions = positions.slice(0, half);
	}
	return { positions, nextPosition };
}

export interface AfterPageDraft<K> {
	/** The key the page starts after (null: the start of the walk). */
	after: K | null;
	/** 1-based page number within the walk. */
	pageNumber: number;
	/** Matches in sort order, up to size + 1 (one extra proves that more results remain). */
	found: number[];
	/** When the scan stopped early (scan cap): the key of the last candidate it examined. */
	cut: K | null;
	size: number;
	keyOf: (position: number) => K;
}

/**
 * The positions a search_after page returns and its next cursor (without fingerprint): the key of the
 * last record returned (or the one the page started after, for an empty page), with the same quirks as
 * {@link shapePage}. At the end of the walk, `null` with `end: 'null'`; with `'resumable'` the cursor
 * after the last record returned, or, when the page returned nothing, the page's own cursor (`p` after,
 * `n` pageNumber: the `from` sent, unchanged).
 */
export function shapeAfterPage<K>(
	draft: AfterPageDraft<K>,
	quirks: Quirks,
	end: 'null' | 'resumable',
): { positions: number[]; next: { p: K | null; n: number } | null } {
	const { after, pageNumber, found, cut, size, keyOf } = draft;
	let positions = found.slice(0, size);
	const afterLast = (records: number[]) => ({
		p: keyOf(records[records.length - 1]),
		n: pageNumber + 1,
	});
	if (found.length <= size && cut === null) {
		if (end === 'null') return { positions, next: null };
		return {
			positions,
			next: positions.length > 0 ? afterLast(positions) : { p: after, n: pageNumber },
		};
	}
	let next = found.length > size ? afterLast(positions) : { p: cut, n: pageNumber + 1 };
	const { emptyPageEvery, shortPageEvery } = quirks;
	if (emptyPageEvery > 0 && pageNumber % emptyPageEvery === 0) {
		return { positions: [], next: { p: after, n: pageNumber + 1 } };
	}
	if (shortPageEvery > 0 && pageNumber % shortPageEvery === 0 && positions.length >= 2) {
		positions = positions.slice(0, Math.floor(positions.length / 2));
		next = afterLast(positions);
	}
	return { positions, next };
}

/**
 * The positions of one page over `count` records from the cursor's position (the first page from 0),
 * with the paging quirks, and the next cursor (without fingerprint).
 */
export function positionsPage(
	cursor: Cursor | undefined,
	count: number,
	size: number,
	quirks: Quirks,
): { items: number[]; next: Omit<Cursor, 'f'> | null } {
	const start = Math.min(cursor?.p ?? 0, count);
	const pageNumber = cursor?.n ?? 1;
	const found: number[] = [];
	for (let j = start; j < count && found.length <= size; j++) found.push(j);
	const page = shapePage({ start, pageNumber, found, resume: null, size }, quirks);
	return {
		items: page.positions,
		next: page.nextPosition === null ? null : { p: page.nextPosition, n: pageNumber + 1 },
	};
}
