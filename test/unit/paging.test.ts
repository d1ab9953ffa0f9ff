/**
 * The one page walker's contract (nodes/Flare/shared/paging.ts; docs/api-contract.md, "Paging"), on
 * scripted pages: a cursor seen before is an error; pages with new cursors are progress, empty ones
 * too, up to the walk's bound in a row without a new record; then a walk fails and a
 * resumable walk (the Flare Trigger's) returns its cursor, from which the next walk goes on.
 */
import type { IDataObject } from 'n8n-workflow';

import { byPasswordId } from '../../nodes/Flare/resources/identity/lookup';
import { FlareRequestFailed } from '../../nodes/Flare/shared/failure';
import { nextCursor, type FlareResponse, type Paging } from '../../nodes/Flare/shared/operation';
import {
	FILTERED_FEED_PAGES_WITHOUT_NEW_RECORDS,
	MAX_PAGES_WITHOUT_NEW_RECORDS,
	walkPages,
} from '../../nodes/Flare/shared/paging';

const BOUND = MAX_PAGES_WITHOUT_NEW_RECORDS;
const paging: Paging = { maxPageSize: 10, next: nextCursor, key: (record) => record.id };
const resumable: Paging = { ...paging, resumable: true };

/** A scripted feed: page n (asked with `from` "c<n>", the first without) holds `pages[n]`'s ids. */
function feed(pages: number[][], { end = 'null' }: { end?: 'null' | 'echo' } = {}) {
	const asked: Array<string | undefined> = [];
	const fetchPage = async (from: string | number | undefined): Promise<FlareResponse> => {
		asked.push(from as string | undefined);
		const index = from === undefined ? 0 : Number(String(from).slice(1));
		const items = (pages[index] ?? []).map((id) => ({ id }));
		const last = index >= pages.length - 1;
		const next = !last ? `c${index + 1}` : end === 'echo' ? (from ?? null) : null;
		return { statusCode: 200, headers: {}, body: { items, next } };
	};
	return { asked, fetchPage };
}

/** Collects what a walk delivers. */
function collector() {
	const delivered: unknown[] = [];
	return {
		delivered,
		onPage: (records: IDataObject[]) => {
			delivered.push(...records.map((record) => record.id));
			return true;
		},
	};
}

const empty = (count: number) => Array.from({ length: count }, () => [] as number[]);

describe('walkPages', () => {
	it('walks through a long run of empty pages with new cursors: every record once, no error', async () => {
		const pages = [[1, 2], ...empty(BOUND - 1), [3], ...empty(BOUND - 1), [4], ...empty(BOUND - 1)];
		const { asked, fetchPage } = feed(pages);
		const { delivered, onPage } = collector();

		const end = await walkPages(paging, fetchPage, undefined, onPage);

		expect(delivered).toEqual([1, 2, 3, 4]);
		expect(asked).toHaveLength(pages.length);
		expect(end).toEqual({ lastFrom: `c${pages.length - 1}` });
	});

	it(`stops a walk after ${BOUND} pages in a row without a new record, with the count`, async () => {
		const { asked, fetchPage } = feed([[1], ...empty(BOUND + 5), [2]]);
		const { delivered, onPage } = collector();

		const error = await walkPages(paging, fetchPage, undefined, onPage).catch((thrown: unknown) => thrown);

		expect(error).toBeInstanceOf(FlareRequestFailed);
		expect((error as FlareRequestFailed).failure).toEqual({ code: 'NO_PROGRESS', status: 200, pages: BOUND });
		expect(asked).toHaveLength(1 + BOUND);
		expect(delivered).toEqual([1]);
	});

	it('counts pages of records already delivered as pages without a new record', async () => {
		const { asked, fetchPage } = feed([[1, 2], ...Array.from({ length: BOUND + 1 }, () => [1, 2])]);

		const error = await walkPages(paging, fetchPage, undefined, () => true).catch((thrown: unknown) => thrown);

		expect((error as FlareRequestFailed).failure.code).toBe('NO_PROGRESS');
		expect(asked).toHaveLength(1 + BOUND);
	});

	it('a resumable walk stops at the bound and returns its cursor; the next walk goes on from it', async () => {
		const pages = [[1], ...empty(BOUND + 10), [2, 3], ...empty(3)];
		const { asked, fetchPage } = feed(pages, { end: 'echo' });
		const { delivered, onPage } = collector();

		const first = await walkPages(resumable, fetchPage, undefined, onPage);

		expect(first).toEqual({ next: `c${BOUND + 1}`, lastFrom: `c${BOUND}`, atBound: true });
		expect(asked).toHaveLength(1 + BOUND);
		expect(delivered).toEqual([1]);

		const second = await walkPages(resumable, fetchPage, first.next, onPage);

		expect(delivered).toEqual([1, 2, 3]);
		// Caught up: the last page hands back the cursor it was asked with.
		const last = `c${pages.length - 1}`;
		expect(second).toEqual({ next: last, lastFrom: last });
		expect(asked.slice(1 + BOUND)).toEqual(Array.from({ length: pages.length - 1 - BOUND }, (_, k) => `c${BOUND + 1 + k}`));
	});

	it('a resumable walk that ends within the bound is complete (no atBound)', async () => {
		const { fetchPage } = feed([[1], ...empty(BOUND - 1)]);

		await expect(walkPages(resumable, fetchPage, undefined, () => true)).resolves.toEqual({ lastFrom: `c${BOUND - 1}` });
	});

	it('a cursor seen before stays an error, in a resumable walk and within a run of empty pages', async () => {
		const fetchPage = async (from: string | number | undefined): Promise<FlareResponse> => {
			const next = from === undefined ? 'A' : from === 'A' ? 'B' : 'A';
			return { statusCode: 200, headers: {}, body: { items: [], next } };
		};
		for (const walk of [paging, resumable]) {
			const error = await walkPages(walk, fetchPage, undefined, () => true).catch((thrown: unknown) => thrown);
			expect((error as FlareRequestFailed).failure).toEqual({ code: 'REPEATED_CURSOR', status: 200 });
		}
	});

	it("an endpoint's own bound replaces the default (the event feeds go further, the credential search less far)", async () => {
		for (const bound of [3, FILTERED_FEED_PAGES_WITHOUT_NEW_RECORDS]) {
			const { asked, fetchPage } = feed([[1], ...empty(bound - 1), [2], ...empty(bound + 1)]);
			const { delivered, onPage } = collector();

			const error = await walkPages({ ...paging, maxPagesWithoutNew: bound }, fetchPage, undefined, onPage).catch((thrown: unknown) => thrown);

			expect((error as FlareRequestFailed).failure).toEqual({ code: 'NO_PROGRESS', status: 200, pages: bound });
			expect(delivered).toEqual([1, 2]);
			expect(asked).toHaveLength(1 + (bound - 1) + 1 + bound);
		}
	});

	it('stops when the caller asks, with the cursor to go on from', async () => {
		const { asked, fetchPage } = feed([[1], [], [2], [3]]);

		const end = await walkPages(paging, fetchPage, undefined, (records) => records.length === 0);

		expect(end).toEqual({ next: 'c1', lastFrom: undefined });
		expect(asked).toEqual([undefined]);
	});
});

describe('the identity lookup pages by password id (Identity → Check Accounts, docs/api-contract.md)', () => {
	it('goes on from the largest password id of a page of 10,000 identities with 13 passwords each (more ids than a call takes as arguments)', () => {
		const identities = Array.from({ length: 10_000 }, (_, identity) => ({
			name: `user${identity}@acme.com`,
			passwords: Array.from({ length: 13 }, (_, index) => ({ id: identity * 13 + index + 1 })),
		}));
		expect(byPasswordId.next({}, identities)).toBe(130_000);
		expect(byPasswordId.next({}, [])).toBeUndefined();
	});
});
