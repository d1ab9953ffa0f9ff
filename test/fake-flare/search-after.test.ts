/**
 * The global search as a search_after walk, over real HTTP: cursors that carry the sort key of the last
 * record, the two sort orders, the two ends of a walk, walks resumed after the data moved (credentials
 * added later, late, far in the future, without id), the fake's clock offset, and the tally of searches.
 */
import { z } from 'zod';

import { CredentialRecord, type GlobalSearchBodyInput, pageOf } from '../contract';
import { call, search, tokenFor } from './client';
import {
	decodeCursor,
	type EndCursor,
	FakeFlare,
	type FakeFlareOptions,
	type SearchOrder,
	type SortKey,
} from './index';

/** Flare's record, but an added credential may have no id or no credential hash. */
const Record = CredentialRecord.extend({
	id: z.number().int().nullable(),
	credential_hash: z
		.string()
		.regex(/^[0-9a-f]{32}$/)
		.nullable(),
});
type Record = z.infer<typeof Record>;
const Page = pageOf(Record);
type Page = z.infer<typeof Page>;

const NO_QUIRKS = { emptyPageEvery: 0, shortPageEvery: 0 };
const ACME = { type: 'domain', fqdn: 'acme.com' } as const;
const START = Date.UTC(2024, 0, 1);
const MINUTE = 60_000;

let fake: FakeFlare;
let token: string;

beforeAll(async () => {
	fake = await FakeFlare.start();
});
afterAll(async () => fake.stop());

async function restart(options: FakeFlareOptions = {}): Promise<void> {
	fake.reset({ quirks: NO_QUIRKS, ...options });
	token = await tokenFor(fake);
}

async function page(body: object): Promise<Page> {
	const result = await search(fake, token, body);
	expect(result.status).toBe(200);
	return Page.parse(result.json);
}

/** The sort key a cursor carries. */
function keyIn(cursor: string): SortKey | null {
	const decoded = decodeCursor(cursor, (p): p is SortKey | null => true);
	if (!decoded) throw new Error(`not a cursor: ${cursor}`);
	return decoded.p;
}

/**
 * Walks from `from` as Flare's own clients do: until `next` is null, or (resumable end) until an empty
 * page gives back the cursor sent. `saved` is the cursor to resume from later: the last non-null `next`.
 */
async function walk(
	body: object,
	from: string | null = null,
): Promise<{ items: Record[]; sizes: number[]; saved: string | null }> {
	const items: Record[] = [];
	const sizes: number[] = [];
	for (let count = 0; count < 500; count++) {
		const answer = await page({ ...body, from });
		items.push(...answer.items);
		sizes.push(answer.items.length);
		if (answer.next === null || (answer.next === from && answer.items.length === 0))
			return { items, sizes, saved: from };
		from = answer.next;
	}
	throw new Error('the walk did not end');
}

const ids = (records: Array<{ id: number | null }>) => records.map((record) => record.id);
const iso = (ms: number) => new Date(ms).toISOString();
/** Generated credential index i is imported at START + floor(i / 3) minutes; its id is i + 1. */
const importedAt = (index: number) => START + Math.floor(index / 3) * MINUTE;
/** Ids of acme.com (domain 1 of 5) among the 1000 generated credentials, ascending. */
const ACME_IDS = Array.from({ length: 200 }, (_, k) => 5 * k + 2);

describe('cursors carry the sort key of the last record returned', () => {
	it('importedAt: [imported_at in ms, id]; domainThenId: [reversed domain, id]; n is the page it fetches', async () => {
		await restart();
		const body = { query: ACME, size: 3, order: 'asc' };
		const first = await page(body);
		expect(ids(first.items)).toEqual([2, 7, 12]);
		expect(keyIn(first.next!)).toEqual([importedAt(11), 12]);
		expect(decodeCursor(first.next!, (p): p is unknown => true)).toEqual({
			p: [importedAt(11), 12],
			n: 2,
			f: expect.stringMatching(/^[0-9a-f]{16}$/),
		});

		await restart({ searchOrder: 'domainThenId' });
		const keyword = { type: 'keyword', keyword: fake.dataset.username(0) };
		const byDomain = await page({ query: keyword, size: 6, order: 'asc' });
		expect(byDomain.items.map((record) => [record.domain, record.id])).toEqual([
			['acme.com', 2],
			['acme.com', 252],
			['acme.com', 502],
			['acme.com', 752],
			['example.com', 1],
			['example.com', 251],
		]);
		expect(keyIn(byDomain.next!)).toEqual(['com.example', 251]);
	});

	it('a cursor is bound to the order and the parameters: another order, a bad key or other parameters are refused', async () => {
		await restart();
		const body = { query: ACME, size: 3, order: 'asc' };
		const { next } = await page(body);
		await restart({ searchOrder: 'domainThenId' });
		const other = await search(fake, token, { ...body, from: next });
		expect(other.status).toBe(422);
		expect(other.json).toEqual({
			detail: [expect.objectContaining({ loc: ['body', 'from'], msg: 'Invalid cursor' })],
		});
		const { next: byDomain } = await page(body);
		const forged = (p: unknown) =>
			Buffer.from(JSON.stringify({ p, n: 2, f: fingerprintOf(byDomain!) })).toString('base64url');
		for (const p of [['com.acme', -1], ['com.acme', 1.5], [7, 2], ['com.acme', 'x', 1], 12]) {
			const answer = await search(fake, token, { ...body, from: forged(p) });
			expect([p, answer.status]).toEqual([p, 422]);
		}
		expect((await search(fake, token, { ...body, from: forged(['com.acme', 7]) })).status).toBe(
			200,
		);
		const changed = await search(fake, token, { ...body, size: 4, from: byDomain });
		expect(changed.status).toBe(422);
	});
});

/** The fingerprint of a cursor. */
function fingerprintOf(cursor: string): string {
	return decodeCursor(cursor, (p): p is unknown => true)!.f;
}

describe("searchOrder 'domainThenId'", () => {
	const username = () => fake.dataset.username(0);
	/** username(0) is on indices 5u + d + 250m: per domain, ids d + 1 + {0, 250, 500, 750}. */
	const byDomain = (d: number) => [0, 250, 500, 750].map((offset) => d + 1 + offset);
	// example.com 0, acme.com 1, globex.io 2, initech.net 3, umbrella.org 4; reversed, acme sorts first.
	const KEYWORD_ASC = [1, 0, 2, 3, 4].flatMap(byDomain);

	it('a keyword query interleaves domains (reversed label by label, then id); a domain query sorts by id', async () => {
		await restart({ searchOrder: 'domainThenId' });
		const query = { type: 'keyword', keyword: username() };
		expect(ids((await walk({ query, size: 7, order: 'asc' })).items)).toEqual(KEYWORD_ASC);
		expect(ids((await walk({ query, size: 7, order: 'desc' })).items)).toEqual(
			KEYWORD_ASC.slice().reverse(),
		);
		expect(ids((await walk({ query: ACME, size: 70, order: 'asc' })).items)).toEqual(ACME_IDS);
		expect(ids((await walk({ query: ACME, size: 70 })).items)).toEqual(ACME_IDS.slice().reverse());
		// imported_at bounds still filter: the credentials from index 250 on.
		const later = {
			query,
			size: 7,
			order: 'asc',
			filters: { imported_at: { gte: iso(importedAt(250)) } },
		};
		expect(ids((await walk(later)).items)).toEqual(KEYWORD_ASC.filter((id) => id > 250));
		for (const body of [{ query, order: 'asc' }, { query }, { query: ACME }, later]) {
			expect(ids(fake.dataset.searchAll(body as never))).toEqual(
				ids((await walk({ size: 9, ...body })).items),
			);
		}
	});

	it('the paging quirks and the paging faults work on key cursors', async () => {
		await restart({
			searchOrder: 'domainThenId',
			quirks: { emptyPageEvery: 4, shortPageEvery: 3 },
		});
		const body = { query: { type: 'keyword', keyword: username() }, size: 2, order: 'asc' };
		const { items, sizes } = await walk(body);
		expect(ids(items)).toEqual(KEYWORD_ASC);
		expect(sizes).toEqual([2, 2, 1, 0, 2, 1, 2, 0, 1, 2, 2, 0, 2, 2, 1]);

		const path = `/${fake.options.productSegment}/v4/credentials/global/_search`;
		fake.faults.add({ path, skip: 1, fault: { repeatCursor: true } });
		const first = await page(body);
		const repeated = await page({ ...body, from: first.next });
		expect(repeated.next).toBe(first.next);
		expect(ids(repeated.items)).toEqual(KEYWORD_ASC.slice(2, 4));
		fake.faults.add({ path, fault: { freshDuplicatePages: true } });
		const duplicate = await page({ ...body, from: first.next });
		expect(ids(duplicate.items)).toEqual(ids(first.items));
		expect(duplicate.next).toMatch(/^fresh-/);
	});
});

describe.each<EndCursor>(['null', 'resumable'])(
	"a walk resumed from a saved cursor (endCursor '%s')",
	(endCursor) => {
		it('importedAt: finds what was added after its point (newer, or same imported_at and a higher id), not credentials imported late', async () => {
			await restart({ endCursor });
			const body: GlobalSearchBodyInput = { query: ACME, size: 50, order: 'asc' };
			const done = await walk(body);
			expect(ids(done.items)).toEqual(ACME_IDS);
			expect(done.sizes).toEqual(endCursor === 'null' ? [50, 50, 50, 50] : [50, 50, 50, 50, 0]);
			// Flare's clients save the last non-null next: under 'null' the last page's cursor (after the
			// 150th record), under 'resumable' the cursor after the last record.
			const lastId = endCursor === 'null' ? ACME_IDS[149] : 997;
			const lastIndex = lastId - 1;
			expect(keyIn(done.saved!)).toEqual([importedAt(lastIndex), lastId]);

			const first = fake.addCredentials(3, '2025-01-01T00:00:00Z', { domain: 'acme.com' });
			fake.addCredentials(2, '2023-06-01T00:00:00Z', { domain: 'acme.com' }); // late: older imported_at
			fake.addCredentials(1, iso(importedAt(996)), { domain: 'acme.com' }); // same instant as id 997
			fake.addCredentials(1, iso(importedAt(993)), { domain: 'acme.com' }); // a minute earlier
			expect(first).toBe(1000);
			expect(fake.dataset.size).toBe(1007);

			const resumed = await walk(body, done.saved);
			// under 'null' the last page is read again, with the credential of minute 331 inside it
			const reread = endCursor === 'null' ? [...ACME_IDS.slice(150, 199), 1007, 997] : [];
			expect(ids(resumed.items)).toEqual([...reread, 1006, 1001, 1002, 1003]);
			expect(resumed.items.slice(-3).map((record) => record.imported_at)).toEqual(
				Array(3).fill('2025-01-01T00:00:00+00:00'),
			);
			expect(fake.dataset.searchAll(body, keyIn(done.saved!))).toEqual(resumed.items);

			// A fresh walk shows the late ones where they sort, with their higher ids.
			const fresh = await walk(body);
			expect(ids(fresh.items)).toEqual([
				1004,
				1005,
				...ACME_IDS.slice(0, 199),
				1007,
				997,
				1006,
				1001,
				1002,
				1003,
			]);
			expect(fresh.items[0].imported_at).toBe('2023-06-01T00:00:00+00:00');
			expect(ids(fresh.items)).toEqual(ids(fake.dataset.searchAll(body)));
		});

		it('importedAt, desc: records newer than the walk sort before its point and are not found; late ones are', async () => {
			await restart({ endCursor });
			const body = { query: ACME, size: 100 };
			const done = await walk(body);
			expect(ids(done.items)).toEqual(ACME_IDS.slice().reverse());
			fake.addCredentials(2, '2025-01-01T00:00:00Z', { domain: 'acme.com' });
			fake.addCredentials(1, '2023-06-01T00:00:00Z', { domain: 'acme.com' });
			const resumed = await walk(body, done.saved);
			const reread = endCursor === 'null' ? ACME_IDS.slice(0, 100).reverse() : [];
			expect(ids(resumed.items)).toEqual([...reread, 1003]);
		});

		it('domainThenId: a keyword walk finds records that sort after its point (a later domain, a higher id on its domain), not before', async () => {
			await restart({ endCursor, searchOrder: 'domainThenId' });
			const username = fake.dataset.username(0);
			const body: GlobalSearchBodyInput = {
				query: { type: 'keyword', keyword: username },
				size: 8,
				order: 'asc',
			};
			const done = await walk(body);
			// acme (2, 252, 502, 752), example (1, …), globex (3, …), initech (4, …), umbrella (5, …)
			expect(done.sizes).toEqual(endCursor === 'null' ? [8, 8, 4] : [8, 8, 4, 0]);
			expect(keyIn(done.saved!)).toEqual(
				endCursor === 'null' ? ['net.initech', 754] : ['org.umbrella', 755],
			);

			for (const domain of ['zulu.org', 'umbrella.org', 'acme.com', 'aaa.com', 'initech.net'])
				fake.addCredentials(1, undefined, { domain, username });
			// ids 1001 zulu.org, 1002 umbrella.org, 1003 acme.com, 1004 aaa.com, 1005 initech.net
			const resumed = await walk(body, done.saved);
			expect(ids(resumed.items)).toEqual(
				endCursor === 'null' ? [1005, 5, 255, 505, 755, 1002, 1001] : [1002, 1001],
			);
			expect(resumed.items.map((record) => record.identity_name)).toContain(`${username}@zulu.org`);
			expect(fake.dataset.searchAll(body, keyIn(done.saved!))).toEqual(resumed.items);
			const fresh = await walk(body);
			expect(ids(fresh.items).slice(0, 6)).toEqual([1004, 2, 252, 502, 752, 1003]);
			expect(ids(fresh.items)).toEqual(ids(fake.dataset.searchAll(body)));
		});
	},
);

describe("endCursor 'resumable'", () => {
	it('the last page carries the cursor after its last record; nothing new: an empty page whose next is the cursor sent, byte for byte', async () => {
		await restart({ endCursor: 'resumable' });
		const body = { query: ACME, size: 150, order: 'asc' };
		const first = await page(body);
		const last = await page({ ...body, from: first.next });
		expect(ids(last.items)).toEqual(ACME_IDS.slice(150));
		expect(decodeCursor(last.next!, (p): p is unknown => true)).toEqual({
			p: [importedAt(996), 997],
			n: 3,
			f: fingerprintOf(first.next!),
		});
		const nothing = await page({ ...body, from: last.next });
		expect(nothing).toEqual({ items: [], next: last.next });
		expect(await page({ ...body, from: last.next })).toEqual({ items: [], next: last.next });

		fake.addCredentials(1, undefined, { domain: 'acme.com' });
		const found = await page({ ...body, from: last.next });
		expect(ids(found.items)).toEqual([1001]);
		expect(keyIn(found.next!)).toEqual([Date.parse(found.items[0].imported_at), 1001]);
		expect(await page({ ...body, from: found.next })).toEqual({ items: [], next: found.next });
	});

	it('a first page that finds nothing carries the start cursor, which later finds what arrives', async () => {
		await restart({ endCursor: 'resumable' });
		const body = { query: { type: 'email', email: 'zed.quinn@acme.com' }, size: 10 };
		const none = await page(body);
		expect(none.items).toEqual([]);
		expect(decodeCursor(none.next!, (p): p is unknown => true)).toEqual({
			p: null,
			n: 1,
			f: expect.any(String),
		});
		fake.addCredentials(2, undefined, { domain: 'acme.com', username: 'zed.quinn' });
		const found = await page({ ...body, from: none.next });
		expect(found.items.map((record) => [record.id, record.identity_name])).toEqual([
			[1002, 'zed.quinn@acme.com'],
			[1001, 'zed.quinn@acme.com'],
		]);
	});

	it("pages before the last are those of 'null', quirks included", async () => {
		const body = { query: ACME, size: 30 };
		await restart({ quirks: { emptyPageEvery: 4, shortPageEvery: 3 } });
		const documented = await walk(body);
		await restart({ endCursor: 'resumable', quirks: { emptyPageEvery: 4, shortPageEvery: 3 } });
		const resumable = await walk(body);
		expect(resumable.sizes).toEqual([...documented.sizes, 0]);
		expect(resumable.items).toEqual(documented.items);
	});
});

describe('the ASTP credential search', () => {
	it('shares the order, the cursors and the end of a walk, with cursors of its own', async () => {
		await restart({ searchOrder: 'domainThenId', endCursor: 'resumable' });
		const body = { query: { type: 'keyword', keyword: fake.dataset.username(0) }, size: 8 };
		const astp = async (from: string | null) => {
			const result = await call(fake, 'POST', '/astp/v2/credentials/_search', {
				token,
				body: { ...body, from },
			});
			expect(result.status).toBe(200);
			return Page.parse(result.json);
		};
		const pages = [await astp(null)];
		while (pages[pages.length - 1].items.length > 0)
			pages.push(await astp(pages[pages.length - 1].next));
		expect(pages.flatMap((answer) => ids(answer.items))).toEqual(ids((await walk(body)).items));
		const last = pages[pages.length - 1];
		expect(last.next).toBe(pages[pages.length - 2].next);
		expect(keyIn(last.next!)).toEqual(['com.acme', 2]);
		expect((await search(fake, token, { ...body, from: last.next })).status).toBe(422);
	});
});

describe('data that moves like real data', () => {
	it('a far-future imported_at sorts last under importedAt asc: a walk resumed after it finds nothing new', async () => {
		await restart({ endCursor: 'resumable' });
		const body = { query: ACME, size: 100, order: 'asc' };
		const done = await walk(body);
		fake.addCredentials(1, '9999-12-31T23:59:59Z', { domain: 'acme.com' });
		const bogus = await walk(body, done.saved);
		expect(bogus.items.map((record) => [record.id, record.imported_at])).toEqual([
			[1001, '9999-12-31T23:59:59+00:00'],
		]);
		expect(keyIn(bogus.saved!)).toEqual([Date.UTC(9999, 11, 31, 23, 59, 59), 1001]);

		fake.addCredentials(2, undefined, { domain: 'acme.com' });
		expect(await walk(body, bogus.saved)).toEqual({ items: [], sizes: [0], saved: bogus.saved });
		expect(ids((await walk(body, done.saved)).items)).toEqual([1002, 1003, 1001]);
		expect(ids(fake.dataset.searchAll({ query: ACME, size: 3 }).slice(0, 3))).toEqual([
			1001, 1003, 1002,
		]);
		// imported_at bounds treat it as any date
		const beyond = { query: ACME, filters: { imported_at: { gte: '3000-01-01T00:00:00Z' } } };
		expect(ids((await page(beyond)).items)).toEqual([1001]);
	});

	it('credentials without id (and without credential hash) come after those with one of the same primary, in either order', async () => {
		await restart();
		const at = '2025-01-01T00:00:00Z';
		fake.addCredentials(2, at, { domain: 'acme.com' }); // ids 1001, 1002
		const nulls = fake.addCredentials(3, at, { domain: 'acme.com', nullId: true }); // indices 1002-1004
		fake.addCredentials(1, at, { domain: 'acme.com' }); // id 1006: index 1005
		fake.addCredentials(1, '2025-01-01T00:00:01Z', {
			domain: 'acme.com',
			nullId: true,
			nullCredentialHash: true,
		});
		const hashes = [0, 1, 2].map((k) => fake.dataset.credentialHash(nulls + k));
		const label = (record: Record) => record.id ?? record.credential_hash;

		const body = { query: ACME, size: 2, order: 'asc', filters: { imported_at: { gte: at } } };
		const asc = await walk(body);
		expect(asc.items.map(label)).toEqual([1001, 1002, 1006, ...hashes, null]);
		expect(asc.sizes).toEqual([2, 2, 2, 1]);
		expect(asc.items[6]).toMatchObject({ id: null, credential_hash: null, domain: 'acme.com' });
		// the cursor after a record without id names its place in the dataset
		const second = await page({ ...body, from: (await page(body)).next });
		expect(keyIn(second.next!)).toEqual([Date.parse(at), null, nulls]);

		const desc = await walk({ ...body, order: 'desc' });
		expect(desc.items.map(label)).toEqual([null, 1006, 1002, 1001, ...hashes.slice().reverse()]);
		expect(fake.dataset.searchAll({ ...body, order: 'desc' }).map(label)).toEqual(
			desc.items.map(label),
		);

		// the same under domainThenId, within acme.com
		await restart({ searchOrder: 'domainThenId' });
		fake.addCredentials(1, at, { domain: 'acme.com', nullId: true });
		fake.addCredentials(1, at, { domain: 'acme.com' });
		const acme = await walk({ query: ACME, size: 50, order: 'asc' });
		expect(ids(acme.items)).toEqual([...ACME_IDS, 1002, null]);
		const acmeDesc = await walk({ query: ACME, size: 50 });
		expect(ids(acmeDesc.items)).toEqual([1002, ...ACME_IDS.slice().reverse(), null]);
	});

	it('a chosen username and domain are served and searched everywhere: email, keyword, the legacy keyword lookup', async () => {
		await restart();
		const first = fake.addCredentials(2, '2025-02-01T00:00:00Z', {
			domain: 'Zulu.ORG',
			username: 'zed.quinn',
		});
		expect(fake.dataset.credential(first)).toMatchObject({
			id: 1001,
			identity_name: 'zed.quinn@zulu.org',
			domain: 'zulu.org',
		});
		for (const query of [
			{ type: 'email', email: 'Zed.Quinn@zulu.org' },
			{ type: 'keyword', keyword: 'zed.quinn' },
			{ type: 'domain', fqdn: 'zulu.org' },
		]) {
			expect([query, ids((await walk({ query, size: 5 })).items)]).toEqual([query, [1002, 1001]]);
		}
		// formulas never match a chosen field: no generated-looking credential of these indices leaks in
		const formulaDomain = { type: 'domain', fqdn: fake.dataset.domains()[first % 5] };
		expect(ids((await walk({ query: formulaDomain, size: 1000 })).items)).not.toContain(1001);
		const lookup = await call(fake, 'GET', '/leaksdb/identities/by_keyword/zed.quinn', { token });
		expect(lookup.status).toBe(200);
		expect(lookup.json).toEqual(fake.dataset.identitiesByKeyword('zed.quinn'));
		expect(lookup.json).toEqual([
			expect.objectContaining({
				name: 'zed.quinn@zulu.org',
				passwords: [expect.objectContaining({ id: 1001 }), expect.objectContaining({ id: 1002 })],
			}),
		]);
		const suffix = await call(fake, 'GET', '/leaksdb/identities/by_keyword/*zulu.org', { token });
		expect(suffix.json).toEqual(lookup.json);
		expect(() => fake.addCredentials(1, undefined, { username: 'a@b' })).toThrow(
			/invalid username/,
		);
		expect(() => fake.addCredentials(1, 'yesterday')).toThrow(/invalid date-time/);
	});
});

describe('the clock offset', () => {
	it('clockOffsetMs sets the fake behind (or ahead of) the host; credentials added now take its time', async () => {
		await restart({ clockOffsetMs: -90_000 });
		expect(fake.clockOffsetMs).toBe(-90_000);
		const before = Date.now() - 90_000;
		const index = fake.addCredentials(1);
		const after = Date.now() - 90_000;
		const stamped = fake.dataset.importedAtMs(index);
		expect(stamped).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
		expect(stamped).toBeLessThanOrEqual(after);
		expect(Math.abs(fake.now() - (Date.now() - 90_000))).toBeLessThan(1000);

		const exchange = await call(fake, 'POST', '/tokens/generate', {
			authorization: fake.apiKeys.full,
		});
		const expiry = (exchange.json as { refresh_token_exp: number }).refresh_token_exp * 1000;
		expect(Math.abs(expiry - (Date.now() - 90_000 + 3_600_000))).toBeLessThan(2000);
		expect(fake.requests[fake.requests.length - 1].at).toBeLessThan(Date.now() - 80_000);

		fake.setClockOffset(7_200_000);
		const ahead = fake.addCredentials(1);
		expect(fake.dataset.importedAtMs(ahead)).toBeGreaterThan(Date.now() + 7_100_000);
		// the token of the restart is now past its hour on the fake's clock
		expect((await search(fake, token, { query: ACME })).status).toBe(401);
		expect((await search(fake, await tokenFor(fake), { query: ACME })).status).toBe(200);

		fake.advanceClock(1000);
		expect(fake.clockOffsetMs).toBe(7_201_000);
		fake.reset();
		expect(fake.clockOffsetMs).toBe(0);
		expect(() => fake.setClockOffset(Number.NaN)).toThrow(/not a number/);
	});
});

describe('counting searches per poll', () => {
	it('globalSearches(since) tallies requests, pages, results and quota; every from/next page logs its results', async () => {
		await restart();
		const path = `/${fake.options.productSegment}/v4/credentials/global/_search`;
		fake.faults.add({ path, skip: 1, fault: { status: 503, body: {} } });
		const since = fake.requests.length;
		const body = { query: ACME, size: 80 };
		const first = await page(body);
		expect((await search(fake, token, { ...body, from: first.next })).status).toBe(503);
		const second = await page({ ...body, from: first.next });
		await page({ ...body, from: second.next });
		expect(fake.globalSearches(since)).toEqual({
			requests: 4,
			pages: 3,
			results: 200,
			quotaCharged: 2,
		});
		expect(fake.requests.slice(since).map((entry) => entry.results)).toEqual([
			80,
			undefined,
			80,
			40,
		]);
		expect(fake.globalSearches(fake.requests.length)).toEqual({
			requests: 0,
			pages: 0,
			results: 0,
			quotaCharged: 0,
		});
		await call(fake, 'GET', `/${fake.options.productSegment}/v4/identifiers/`, { token });
		expect(fake.requests[fake.requests.length - 1].results).toBe(20);
	});
});

describe.each<SearchOrder>(['importedAt', 'domainThenId'])('the oracle under %s', (searchOrder) => {
	it('searchAll equals every walk, with quirks, additions and bounds', async () => {
		await restart({ searchOrder, quirks: { emptyPageEvery: 4, shortPageEvery: 3 } });
		fake.addCredentials(30, '2023-01-01T00:00:00Z');
		fake.addCredentials(20, '2024-01-01T02:00:00Z', { username: fake.dataset.username(3) });
		fake.addCredentials(5, '2030-01-01T00:00:00Z', { domain: 'globex.io', nullId: true });
		const secret = fake.dataset.credential(7).hash;
		const queries = [
			ACME,
			{ type: 'domain', fqdn: 'globex.io' },
			{ type: 'keyword', keyword: fake.dataset.username(3) },
			{ type: 'secret', secret },
		];
		for (const query of queries) {
			for (const extra of [
				{},
				{ order: 'asc' },
				{ filters: { imported_at: { gte: '2024-01-01T01:00:00Z', lte: '2024-01-01T03:00:00Z' } } },
			]) {
				const body = { query, size: 7, ...extra };
				const expected = fake.dataset.searchAll(body as never);
				expect([body, ids((await walk(body)).items)]).toEqual([body, ids(expected)]);
			}
		}
	});
});
