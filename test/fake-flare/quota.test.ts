/**
 * The global-search quota as Flare documents it, over real HTTP: units of 100 results per search
 * session (same organization and query, 10 minutes of the fake's clock), the Remaining and
 * Batch-Reached headers, both readings of "results", both exhaustion answers, and the fake's clock.
 */
import { CredentialRecord, ErrorEnvelope, pageOf } from '../contract';
import { call, type Result, search, searchPath, tokenFor } from './client';
import { FakeFlare, QUOTA_SESSION_MS } from './index';

let fake: FakeFlare;

beforeAll(async () => {
	fake = await FakeFlare.start();
});
afterAll(async () => fake.stop());
beforeEach(() => fake.reset({ quirks: { emptyPageEvery: 0, shortPageEvery: 0 } }));

const CredentialPage = pageOf(CredentialRecord);
const ACME = { type: 'domain', fqdn: 'acme.com' } as const;
const GLOBEX = { type: 'domain', fqdn: 'globex.io' } as const;
const INITECH = { type: 'domain', fqdn: 'initech.net' } as const;
const MINUTE = 60_000;

const remaining = (result: Result) => result.headers.get('x-flare-global-searches-remaining');
const batchReached = (result: Result) =>
	result.headers.get('x-flare-global-searches-batch-reached');
const lastCharge = () => fake.requests[fake.requests.length - 1].quotaCharged;

/** A secret shared by exactly `count` credentials of the dataset. */
function secretOf(count: number): string {
	for (let i = 0; i < fake.dataset.size; i++) {
		const secret = fake.dataset.credential(i).hash;
		if (fake.dataset.searchAll({ query: { type: 'secret', secret } }).length === count)
			return secret;
	}
	throw new Error(`no secret shared by ${count} credentials`);
}

/** Walks a search with `size`, returning per page: results, units charged, Remaining, Batch-Reached. */
async function walk(token: string, query: object, size: number) {
	const pages: Array<[number, number | undefined, string | null, string | null]> = [];
	let from: string | null = null;
	do {
		const result = await search(fake, token, { query, size, from });
		expect(result.status).toBe(200);
		const page = CredentialPage.parse(result.json);
		pages.push([page.items.length, lastCharge(), remaining(result), batchReached(result)]);
		from = page.next;
	} while (from !== null);
	return pages;
}

describe('units of 100 results', () => {
	it("'returned' (the default) counts the results returned: a walk costs a unit per 100, charged as it crosses each", async () => {
		expect(fake.options.quotaReading).toBe('returned');
		expect(fake.dataset.searchAll({ query: ACME })).toHaveLength(200);
		const token = await tokenFor(fake);
		expect(await walk(token, ACME, 30)).toEqual([
			[30, 1, '999999', null],
			[30, 0, '999999', null],
			[30, 0, '999999', null],
			[30, 1, '999998', null],
			[30, 0, '999998', null],
			[30, 0, '999998', null],
			[20, 0, '999998', 'true'],
		]);
		expect(fake.quotaUsed()).toBe(2);

		// The first search of a session costs a unit even when it finds nothing.
		const none = await search(fake, token, {
			query: { type: 'email', email: 'nobody@nowhere.test' },
		});
		expect(CredentialPage.parse(none.json).items).toEqual([]);
		expect(remaining(none)).toBe('999997');
		expect(batchReached(none)).toBeNull();
	});

	it("'requested' counts the size asked for, whatever comes back", async () => {
		fake.reset({ quotaReading: 'requested', quirks: { emptyPageEvery: 0, shortPageEvery: 0 } });
		const token = await tokenFor(fake);
		const secret = secretOf(3);
		const large = await search(fake, token, { query: { type: 'secret', secret }, size: 10_000 });
		expect(CredentialPage.parse(large.json).items).toHaveLength(3);
		expect(lastCharge()).toBe(100);
		expect(remaining(large)).toBe('999900');
		expect(batchReached(large)).toBe('true');

		// A first small page, then larger ones in the same session: 1 unit, then what the sizes add.
		expect(await walk(token, ACME, 100)).toEqual([
			[100, 1, '999899', 'true'],
			[100, 1, '999898', 'true'],
		]);
		const small = await search(fake, token, { query: GLOBEX, size: 10 });
		expect([lastCharge(), batchReached(small)]).toEqual([1, null]);
		const more = await search(fake, token, { query: GLOBEX, size: 95 });
		expect([lastCharge(), remaining(more), batchReached(more)]).toEqual([1, '999896', null]);
		expect(fake.quotaUsed()).toBe(104);

		// Under 'returned' the same large search costs one unit.
		fake.reset({ quotaReading: 'returned' });
		await search(fake, await tokenFor(fake), { query: { type: 'secret', secret }, size: 10_000 });
		expect(lastCharge()).toBe(1);
	});
});

describe('search sessions', () => {
	it('repeating a search or adjusting its filters within 10 minutes is free; the session ends 10 minutes after its first search', async () => {
		const token = await tokenFor(fake);
		const first = await search(fake, token, { query: ACME, size: 5 });
		expect([lastCharge(), remaining(first)]).toEqual([1, '999999']);
		const started = fake.requests[fake.requests.length - 1].at;

		fake.advanceClock(9 * MINUTE);
		const adjusted = [
			{ query: ACME, size: 5 },
			{ query: ACME, size: 7, order: 'asc' },
			{ query: ACME, size: 5, filters: { imported_at: { gte: '2024-01-01T01:00:00Z' } } },
			{ query: ACME, size: 5, include: ['auth_domains'] },
		];
		for (const body of adjusted) {
			const result = await search(fake, token, body);
			expect(result.status).toBe(200);
			expect([lastCharge(), remaining(result)]).toEqual([0, '999999']);
		}
		// Another query is another session; so is the same value of another type.
		await search(fake, token, { query: GLOBEX, size: 5 });
		expect(lastCharge()).toBe(1);
		await search(fake, token, { query: { type: 'keyword', keyword: 'acme.com' }, size: 5 });
		expect(lastCharge()).toBe(1);

		// Sessions are timed by arrival: a second of margin for the real time that passes meanwhile.
		fake.advanceClock(started + QUOTA_SESSION_MS - 1_000 - fake.now());
		await search(fake, token, { query: ACME, size: 5 });
		expect(lastCharge()).toBe(0);
		fake.advanceClock(1_000);
		const again = await search(fake, token, { query: ACME, size: 5 });
		expect([lastCharge(), remaining(again)]).toEqual([1, '999996']);
		// The new session is free for its own 10 minutes, and counts from zero.
		fake.advanceClock(5 * MINUTE);
		await search(fake, token, { query: ACME, size: 5 });
		expect(lastCharge()).toBe(0);
		expect(fake.quotaUsed()).toBe(4);
	});

	it('requests refused before the quota (validation, bad cursor, auth) neither charge nor open a session', async () => {
		fake.reset({ quota: 1 });
		const token = await tokenFor(fake);
		const invalid = await search(fake, token, { query: ACME, size: 0 });
		expect(invalid.status).toBe(422);
		expect(remaining(invalid)).toBe('1');
		expect((await search(fake, token, { query: ACME, from: 'garbage' })).status).toBe(422);
		const unauthorised = await search(fake, 'ftok_unknown', { query: ACME });
		expect(unauthorised.status).toBe(401);
		expect(remaining(unauthorised)).toBeNull();
		expect(fake.quotaUsed()).toBe(0);
		expect(remaining(await search(fake, token, { query: ACME }))).toBe('0');
	});
});

describe('exhaustion', () => {
	it("'envelope' (the default): 429 QUOTA_EXCEEDED when a unit is needed and none is left; searches inside their batch go on", async () => {
		fake.reset({ quota: 3, quirks: { emptyPageEvery: 0, shortPageEvery: 0 } });
		const token = await tokenFor(fake);
		expect(remaining(await search(fake, token, { query: GLOBEX, size: 5 }))).toBe('2');
		const first = await search(fake, token, { query: ACME, size: 60 });
		const next = CredentialPage.parse(first.json).next;
		expect(remaining(first)).toBe('1');
		// Needs 2 more units (60 + 150 results: 3 units), 1 is left: answered, and takes it.
		const over = await search(fake, token, { query: ACME, size: 150, from: null });
		expect(over.status).toBe(200);
		expect([lastCharge(), remaining(over)]).toEqual([1, '0']);

		const exhausted = await search(fake, token, { query: INITECH, size: 5 });
		expect(exhausted.status).toBe(429);
		expect(exhausted.json).toEqual({
			error: {
				code: 'QUOTA_EXCEEDED',
				message: 'global search quota exceeded: no global searches remaining',
			},
		});
		expect(remaining(exhausted)).toBe('0');
		expect(exhausted.headers.get('retry-after')).toBeNull();
		expect(exhausted.headers.get('x-flare-global-searches-batch-reached')).toBeNull();
		expect(fake.requests[fake.requests.length - 1].quotaCharged).toBeUndefined();

		// Inside their sessions' units: still answered at 0 left.
		const inside = await search(fake, token, { query: GLOBEX, size: 5, order: 'asc' });
		expect([inside.status, remaining(inside)]).toEqual([200, '0']);
		const page = await search(fake, token, { query: ACME, size: 60, from: next });
		expect(page.status).toBe(200);
		// A page that needs a unit (270 + 100 results: a 4th) is refused.
		const beyond = await search(fake, token, { query: ACME, size: 100, from: null });
		expect(beyond.status).toBe(429);
		expect(fake.quotaUsed()).toBe(3);
		// Other endpoints do not use the quota.
		const urls = await call(fake, 'POST', '/astp/urls/by_credential_hash', {
			token,
			body: { credential_hash: fake.dataset.credentialHash(1) },
		});
		expect(urls.status).toBe(200);
	});

	it("'remainingThen403': the answer that takes the last unit says 0, later searches that need one get 403", async () => {
		fake.reset({ quota: 1, quotaExhaustion: 'remainingThen403' });
		const token = await tokenFor(fake);
		const last = await search(fake, token, { query: ACME, size: 5 });
		expect([last.status, remaining(last)]).toEqual([200, '0']);
		const refused = await search(fake, token, { query: GLOBEX, size: 5 });
		expect(refused.status).toBe(403);
		expect(ErrorEnvelope.parse(refused.json)).toEqual({
			error: { code: 'FORBIDDEN', message: 'global search quota exceeded' },
		});
		expect(remaining(refused)).toBe('0');
		expect((await search(fake, token, { query: ACME, size: 9 })).status).toBe(200);
		fake.advanceClock(QUOTA_SESSION_MS);
		expect((await search(fake, token, { query: ACME, size: 5 })).status).toBe(403);
	});

	it('each organization has its own quota and its own sessions', async () => {
		fake.reset({ quota: 2 });
		const full = await tokenFor(fake, 'full');
		const other = await tokenFor(fake, 'noAstp');
		expect(remaining(await search(fake, full, { query: ACME }))).toBe('1');
		expect(remaining(await search(fake, full, { query: GLOBEX }))).toBe('0');
		expect((await search(fake, full, { query: INITECH })).status).toBe(429);

		const theirs = await search(fake, other, { query: ACME });
		expect([theirs.status, remaining(theirs), lastCharge()]).toEqual([200, '1', 1]);
		expect(remaining(await search(fake, other, { query: INITECH }))).toBe('0');
		expect((await search(fake, other, { query: GLOBEX })).status).toBe(429);
		expect([
			fake.quotaUsed('full'),
			fake.quotaUsed('noAstp'),
			fake.quotaUsed('noThreatIntel'),
		]).toEqual([2, 2, 0]);
		expect(fake.quotaLeft).toBe(0);
		expect(
			remaining(await search(fake, await tokenFor(fake, 'noThreatIntel'), { query: ACME })),
		).toBe('1');
	});

	it('a status fault on the search keeps a Remaining header of its own, else gets the real one', async () => {
		const token = await tokenFor(fake);
		fake.faults.add({ path: searchPath(fake), fault: { status: 503, rawBody: 'down' } });
		fake.faults.add({
			path: searchPath(fake),
			fault: {
				status: 200,
				body: { items: [], next: null },
				headers: { 'X-Flare-Global-Searches-Remaining': '0' },
			},
		});
		expect(remaining(await search(fake, token, { query: ACME }))).toBe('1000000');
		expect(remaining(await search(fake, token, { query: ACME }))).toBe('0');
		expect(fake.quotaUsed()).toBe(0);
	});
});

describe("the fake's clock", () => {
	it('dates requests, token expiry and new credentials; reset() sets it back', async () => {
		const token = await tokenFor(fake);
		const before = Date.now();
		expect(fake.now()).toBeGreaterThanOrEqual(before);
		fake.advanceClock(59 * MINUTE);
		expect((await call(fake, 'GET', '/tokens/test', { token })).status).toBe(200);
		expect(fake.requests[fake.requests.length - 1].at).toBeGreaterThanOrEqual(before + 59 * MINUTE);
		fake.advanceClock(MINUTE);
		const expired = await call(fake, 'GET', '/tokens/test', { token });
		expect(ErrorEnvelope.parse(expired.json).error.message).toBe('token expired');

		const now = Math.floor(fake.now() / 1000) * 1000;
		fake.addCredentials(1);
		const [newest] = fake.dataset.searchAll({ query: { type: 'domain', fqdn: 'example.com' } });
		expect(Date.parse(newest.imported_at)).toBeGreaterThanOrEqual(now);
		expect(Date.parse(newest.imported_at)).toBeGreaterThan(before + 59 * MINUTE);

		expect(() => fake.advanceClock(-1)).toThrow(/not a duration/);
		fake.reset();
		expect(fake.now() - Date.now()).toBeLessThan(1_000);
	});
});
