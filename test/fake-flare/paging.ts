/**
 * The from/next cursor scheme and the paging quirks of the real API (empty and short pages mid-walk).
 *
 * A cursor is base64url JSON of {p: position to resume at, n: number of the page it fetches, f: fingerprint
 * of every other request parameter}. Reusing it with changed parameters is a validation error.
 */
import { createHash } from 'crypto';

export interface Cursor {
	p: number;
	n: number;
	f: string;
}

export interface Quirks {
	emptyPageEvery: number;
	shortPageEvery: number;
}

export function fingerprint(scope: string, params: unknown): string {
	return createHash('sha256')
		.update(`${scope}:${JSON.stringify(params)}`)
		.digest('hex')
		.slice(0, 16);
}

export function encodeCursor(cursor: Cursor): string {
	return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

/** The cursor encoded in `text`, or undefined when it is not one of ours. */
export function decodeCursor(text: string): Cursor | undefined {
	try {
		const value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Partial<Cursor>;
		const isCount = (n: unknown) => typeof n === 'number' && Number.isInteger(n) && n >= 0;
		if (isCount(value.p) && isCount(value.n) && value.n! >= 1 && typeof value.f === 'string') {
			return value as Cursor;
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
