/**
 * Hostile answers and settings, against the request path (docs/api-contract.md): redirects, waits a
 * server asks for, answers that drip or never end, a silent token endpoint, walks that would never
 * end, one organization rate-limited beside another, edited and bad credential settings. Each
 * scenario runs the node in n8n's real engine against the fake API, asserts the exact outcome, and
 * records a row for docs/reliability.md: requests to another origin, secrets leaked, records lost and
 * duplicated, requests, time and memory, each against its bound.
 */
import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { FakeFlare, type FaultRule } from '../fake-flare';
import { lastCollectedHits } from '../harness/collect';
import { MAX_PAGE_BYTES } from '../../nodes/Flare/shared/body';
import { MAX_PAGES_WITHOUT_NEW_RECORDS } from '../../nodes/Flare/shared/paging';
import { Harness, withoutRatePacing } from '../harness/engine';
import { untilDisconnected } from '../integration/support';
import { realSleep } from '../support/clock';
import { performance, processRef } from '../support/node';
import { CANARY_API_KEY } from './secret-scan';
import { CANARY_OPTIONS, Recorder, type HostileRow } from './support';

/** Scheduling delays allowed on top of each time bound (see `record`). */
const SCHEDULING_SLACK_MS = 3_000;
const SEARCH_PATH = '/firework/v4/credentials/global/_search';
const REPORT_PATH = '/firework/v4/threat_flow/reports/requests';
const URLS_PATH = '/astp/urls/by_credential_hash';
const RATE_LIMITED = { error: { code: 'RATELIMIT_REACHED', message: 'ratelimit reached' } };
const MiB = 2 ** 20;

const search = (extra: IDataObject = {}): IDataObject => ({
	resource: 'leakedCredential',
	operation: 'search',
	queryType: 'domain',
	fqdn: 'acme.com',
	limit: 3,
	...extra,
});

describe('Hostile answers and settings', () => {
	let fake: FakeFlare;
	let harness: Harness;
	const recorder = new Recorder('hostile');

	beforeAll(async () => {
		fake = await FakeFlare.start({ credentials: 2_000, ...CANARY_OPTIONS });
		harness = await Harness.create();
	});
	afterAll(async () => {
		recorder.save();
		await fake.stop();
	});
	beforeEach(() => {
		fake.reset();
		harness.addFlareCredential({ apiKey: CANARY_API_KEY, baseUrl: fake.url });
	});

	const otherHost = () => new URL(fake.otherOrigin.url).host;
	const urlsOf = (index: number) => ({ resource: 'astpUrl', operation: 'getAll', credentialHash: fake.dataset.credentialHash(index), returnAll: true });

	/**
	 * Runs `work`, timing it and sampling, every 20 ms of real time, the memory the process holds in
	 * JavaScript objects and buffers (what an answer read into memory takes; the resident size would
	 * hide it in pages freed by earlier tests). Its time is the virtual clock's waits (Retry-After,
	 * Timeouts: what a user would wait) plus the real time of the work, during which the virtual clock
	 * stands still (an endless body read to its cap).
	 */
	async function measured<T>(work: () => Promise<T>): Promise<{ result: T; ms: number; memoryMiB: number; samples: number }> {
		const held = () => {
			const { heapUsed, arrayBuffers } = processRef.memoryUsage();
			return heapUsed + arrayBuffers;
		};
		const before = held();
		let peak = before;
		let samples = 0;
		let running = true;
		const sampling = (async () => {
			while (running) {
				peak = Math.max(peak, held());
				samples++;
				await realSleep(20);
			}
		})();
		const [startedAt, startedReal] = [Date.now(), performance.now()];
		try {
			const result = await work();
			const ms = Date.now() - startedAt + Math.round(performance.now() - startedReal);
			return { result, ms, memoryMiB: (peak - before) / MiB, samples };
		} finally {
			running = false;
			await sampling;
		}
	}

	/** A first run that leaves a valid token in the credential, then a clean log. */
	async function warmUp(): Promise<void> {
		expect((await harness.runNode({ parameters: { resource: 'source', operation: 'get', sourceId: 'collection-1' } })).status).toBe('success');
		fake.clearLog();
	}

	/** Runs the node, measured: after the warm-up when `warm`, with `faults` added just before. */
	async function run(parameters: IDataObject, options: { warm?: boolean; faults?: FaultRule[] } = {}) {
		if (options.warm) await warmUp();
		for (const fault of options.faults ?? []) fake.faults.add(fault);
		return await measured(async () => await harness.runNode({ parameters }));
	}

	function record(row: Omit<HostileRow, 'kind' | 'otherOrigin' | 'leaks' | 'lost' | 'duplicated'> & Partial<HostileRow>): void {
		const full: HostileRow = {
			kind: 'hostile',
			otherOrigin: fake.otherOrigin.requests.length,
			leaks: lastCollectedHits().length,
			lost: 0,
			duplicated: 0,
			...row,
			// The bound each row is held to (and the table prints): what the decisions allow, plus the
			// scheduling delays of a loaded 2-core machine running the suites in parallel.
			msBound: row.msBound + SCHEDULING_SLACK_MS,
		};
		recorder.add(full);
		expect(full.otherOrigin).toBe(0);
		expect(full.leaks).toBe(0);
		expect(full.requests).toBeLessThanOrEqual(full.requestBound);
		expect(full.ms).toBeLessThanOrEqual(full.msBound);
		if (full.memoryBoundMiB !== undefined) expect(full.memoryMiB).toBeLessThanOrEqual(full.memoryBoundMiB);
	}

	describe('a redirect is never followed: nothing reaches its target, and the item fails', () => {
		const kinds = [
			{
				kind: 'at the token exchange',
				path: '/tokens/generate',
				parameters: search(),
				warm: false,
				message: (status: number, host: string) =>
					`Flare at ${new URL(fake.url).host} answered the token request with a redirect to ${host} (HTTP ${status}); nothing was sent there. Check the Base URL in the Flare API credential.`,
			},
			{
				kind: 'on a read',
				path: SEARCH_PATH,
				parameters: search(),
				warm: true,
				message: (status: number, host: string) => `Flare answered with a redirect to ${host} (HTTP ${status}) while trying to search leaked credentials`,
			},
			{
				kind: 'on a write',
				path: REPORT_PATH,
				parameters: { resource: 'threatReport', operation: 'createRequest', reportTitle: 'Redirected' },
				warm: true,
				message: (status: number, host: string) =>
					`Flare answered with a redirect to ${host} (HTTP ${status}) while trying to create the threat report request`,
			},
		];
		const cases = [301, 302, 307, 308].flatMap((status) => kinds.map((kind) => [`${status} ${kind.kind}`, status, kind] as const));

		it.each(cases)('%s', async (scenario, status, kind) => {
			const redirect: FaultRule = { path: kind.path, times: Infinity, fault: { redirect: { status: status as 301 } } };

			const { result, ms } = await run(kind.parameters, { warm: kind.warm, faults: [redirect] });

			expect(result.status).toBe('error');
			expect(result.error?.message).toBe(kind.message(status, otherHost()));
			expect(fake.otherOrigin.requests).toEqual([]);
			expect(fake.requests.map((request) => [request.path, request.status])).toEqual([[kind.path, status]]);
			expect(fake.state.writes).toEqual([]);
			record({ fault: 'Redirects (301, 302, 307, 308) at the token exchange, on a read and on a write', scenario, requests: fake.requests.length, requestBound: 1, ms, msBound: 2_000, outcome: 'failed as decided', error: result.error?.message });
		});
	});

	describe('Retry-After: bounded, and a wait ends when the execution is cancelled', () => {
		const source = { resource: 'source', operation: 'get', sourceId: 'collection-1' };
		const rateLimitedOnce = (retryAfter: string): FaultRule => ({ path: '/astp/sources/collection-1', fault: { status: 429, body: RATE_LIMITED, headers: { 'Retry-After': retryAfter } } });

		it.each([
			['86400 (a day)', '86400', 'Flare asks to wait 24 hours before the next request to get a source'],
			['121 (over the 2-minute bound)', '121', 'Flare asks to wait 3 minutes before the next request to get a source'],
			['an HTTP date in 2100', 'Fri, 31 Dec 2100 23:59:59 GMT', /^Flare asks to wait \d+ days before the next request to get a source$/],
		])('%s: fails at once, naming the wait', async (scenario, retryAfter, message) => {
			const { result, ms } = await run(source, { warm: true, faults: [rateLimitedOnce(retryAfter)] });

			expect(result.error?.message).toEqual(typeof message === 'string' ? message : expect.stringMatching(message));
			expect(result.error?.description).toMatch(/^The node waits at most 2 minutes for Flare's rate limit/);
			expect(fake.requests.map((request) => request.status)).toEqual([429]);
			record({ fault: 'Hostile Retry-After (a day, 121 s, a date in 2100, -5, 0, unreadable) and a cancelled wait', scenario: `Retry-After ${scenario}`, requests: 1, requestBound: 1, ms, msBound: 2_000, outcome: 'failed as decided', error: result.error?.message });
		});

		it.each([
			['-5', '-5', 1_000],
			['0', '0', 1_000],
			['unreadable ("soon")', 'soon', 10_000],
		])('%s: waits %#', async (scenario, retryAfter, waitMs) => {
			const { result, ms } = await run(source, { warm: true, faults: [rateLimitedOnce(retryAfter)] });

			expect(result.status).toBe('success');
			expect(fake.requests.map((request) => request.status)).toEqual([429, 200]);
			const waited = fake.requests[1].at - fake.requests[0].at;
			expect(waited).toBeGreaterThanOrEqual(waitMs);
			expect(waited).toBeLessThan(waitMs + 1_000);
			record({ fault: 'Hostile Retry-After (a day, 121 s, a date in 2100, -5, 0, unreadable) and a cancelled wait', scenario: `Retry-After ${scenario}`, requests: 2, requestBound: 2, ms, msBound: waitMs + 2_000, outcome: 'recovered' });
		}, 20_000);

		it('a cancelled execution stops waiting at once and sends nothing more', async () => {
			// A fake of its own: the 60 s that Flare asks for hold its organization after the test too.
			const held = await FakeFlare.start({ credentials: 100, ...CANARY_OPTIONS });
			harness.addFlareCredential({ apiKey: CANARY_API_KEY, baseUrl: held.url });
			held.faults.add({ ...rateLimitedOnce('60'), path: '/astp/sources/collection-1' });
			harness.lastSettledAt = undefined;
			const started = Date.now();

			const result = await harness.runNode({ parameters: source }, { cancelAfterMs: 500 });
			await sleep(1_500);
			await held.stop();

			expect(result.status).toBe('canceled');
			const cancelledAt = harness.cancelledAt!;
			expect(harness.lastSettledAt).toBeDefined();
			expect(harness.lastSettledAt! - cancelledAt).toBeLessThan(1_000);
			expect(held.requests.map((request) => [request.path, request.status])).toEqual([
				['/tokens/generate', 200],
				['/astp/sources/collection-1', 429],
			]);
			record({ fault: 'Hostile Retry-After (a day, 121 s, a date in 2100, -5, 0, unreadable) and a cancelled wait', scenario: 'cancelled 0.5 s into a 60 s wait', requests: held.requests.length, requestBound: 2, ms: harness.lastSettledAt! - started, msBound: 500 + 1_000, outcome: 'failed as decided' });
		}, 20_000);
	});

	it('two organizations: one rate-limited for 5 s, the other searches at the documented pace meanwhile', async () => {
		harness.addFlareCredential({ apiKey: fake.apiKeys.noThreatIntel, baseUrl: fake.url }, 'cred-b');
		fake.faults.add({ path: SEARCH_PATH, key: 'full', fault: { status: 429, body: RATE_LIMITED, headers: { 'Retry-After': '5' } } });
		const domains = ['example.com', 'acme.com', 'globex.io', 'initech.net', 'umbrella.org'];

		const { result } = await measured(async () => {
			const a = harness.runNode({ parameters: search({ limit: 1 }) });
			await sleep(300);
			const startedB = Date.now();
			const b = await harness.runNode({ parameters: search({ fqdn: '={{ $json.domain }}', limit: 1 }) }, { credentialId: 'cred-b', items: domains.map((domain) => ({ domain })) });
			return { a: await a, b, bMs: Date.now() - startedB };
		});

		expect(result.a.status).toBe('success');
		expect(result.b.status).toBe('success');
		expect(result.b.output.map((item) => String(item.json.identity_name).split('@')[1])).toEqual(domains);
		const searchesOf = (key: string) => fake.requests.filter((request) => request.path === SEARCH_PATH && request.key === key);
		const a = searchesOf('full');
		const b = searchesOf('noThreatIntel');
		expect(a.map((request) => request.status)).toEqual([429, 200]);
		expect(a[1].at - a[0].at).toBeGreaterThanOrEqual(5_000);
		expect(b.map((request) => request.status)).toEqual(Array(5).fill(200));
		// B: one search per second from its first, all before A's wait is over.
		for (let index = 1; index < b.length; index++) expect(b[index].at - b[index - 1].at).toBeLessThan(1_500);
		expect(b[4].at).toBeLessThan(a[1].at);
		record({ fault: 'Two organizations, one rate-limited', scenario: 'A told to wait 5 s; B searches 5 items', requests: fake.requests.length, requestBound: 9, ms: result.bMs, msBound: 4 * 1_010 + 1_500, outcome: 'recovered' });
	}, 30_000);

	describe('answers that drip, never end, or never come: each attempt ends within Timeout + 1 s', () => {
		it('a drip answer (1 byte per 200 ms), once: the attempt ends at the Timeout, the retry delivers every record', async () => {
			const drip: FaultRule = { path: SEARCH_PATH, fault: { drip: { intervalMs: 200 } } };

			const { result, ms } = await run(search({ requestOptions: { timeout: 2_000 } }), { warm: true, faults: [drip] });

			expect(result.status).toBe('success');
			const expected = fake.dataset.searchAll({ query: { type: 'domain', fqdn: 'acme.com' } }).slice(0, 3).map((record) => record.id);
			expect(result.output.map((item) => item.json.id)).toEqual(expected);
			const [dripped] = fake.requests;
			expect(dripped.disconnectedAt! - dripped.at).toBeLessThanOrEqual(3_000);
			record({ fault: 'Drip answer (1 byte per 200 ms)', scenario: 'once, Timeout 2 s', requests: fake.requests.length, requestBound: 2, ms, msBound: 2_000 + 1_000 + 1_500, outcome: 'recovered' });
		}, 20_000);

		it('a drip answer on every attempt: five attempts, each ended at the Timeout, then a clear error', async () => {
			const drip: FaultRule = { path: SEARCH_PATH, times: Infinity, fault: { drip: { intervalMs: 200 } } };

			const { result, ms } = await run(search({ requestOptions: { timeout: 1_000 } }), { warm: true, faults: [drip] });

			expect(result.error?.message).toBe('Flare did not answer within the Timeout (1000 ms) after 5 attempts');
			expect(fake.requests).toHaveLength(5);
			// The fake learns of the last disconnection a moment after the node gave up.
			for (let waited = 0; fake.requests.some((attempt) => attempt.disconnectedAt === undefined) && waited < 2_000; waited += 20) await sleep(20);
			for (const attempt of fake.requests) expect(attempt.disconnectedAt! - attempt.at).toBeLessThanOrEqual(2_000);
			// Five attempts of at most Timeout + 1 s, and the waits between them (0.5, 1, 2, 4 s).
			record({ fault: 'Drip answer (1 byte per 200 ms)', scenario: 'every attempt, Timeout 1 s', requests: 5, requestBound: 5, ms, msBound: 5 * 2_000 + 7_500, outcome: 'failed as decided', error: result.error?.message });
		}, 30_000);

		it('an endless body: cut off at 256 MiB, memory bounded, not retried', async () => {
			const endless: FaultRule = { path: SEARCH_PATH, times: Infinity, fault: { endlessBody: true } };

			const { result, ms, memoryMiB, samples } = await run(search({ requestOptions: { timeout: 60_000 } }), { warm: true, faults: [endless] });

			expect(result.error?.message).toBe("Flare's answer was too large to read while trying to search leaked credentials");
			expect(fake.requests).toHaveLength(1);
			// The node stopped reading at its cap (the fake's bytes in flight aside) and went away.
			await untilDisconnected(fake.requests[0]);
			expect([fake.requests[0].status, fake.requests[0].cutOffByFake]).toEqual([200, undefined]);
			expect(fake.requests[0].bytesSent).toBeLessThanOrEqual(MAX_PAGE_BYTES + 16 * MiB);
			// Memory was sampled while it read (the row checks its peak against the bound).
			expect(samples).toBeGreaterThan(1);
			record({ fault: 'Endless body', scenario: 'cut at 256 MiB, Timeout 60 s', requests: 1, requestBound: 1, ms, msBound: 61_000, memoryMiB, memoryBoundMiB: 256 + 128, outcome: 'failed as decided', error: result.error?.message });
		}, 90_000);

		it('a silent token endpoint, once: the attempt ends at the Timeout, the retry exchanges and succeeds', async () => {
			const { result, ms } = await run(search({ requestOptions: { timeout: 2_000 } }), { faults: [{ path: '/tokens/generate', fault: { silent: true } }] });

			expect(result.status).toBe('success');
			expect(fake.requests.map((request) => [request.path, request.status])).toEqual([
				['/tokens/generate', 0],
				['/tokens/generate', 200],
				[SEARCH_PATH, 200],
			]);
			record({ fault: 'Silent token endpoint', scenario: 'once, Timeout 2 s', requests: 3, requestBound: 3, ms, msBound: 2_000 + 1_000 + 1_500, outcome: 'recovered' });
		}, 20_000);

		it('a silent token endpoint on every attempt: five attempts, each ended at the Timeout, then a clear error', async () => {
			const silent: FaultRule = { path: '/tokens/generate', times: Infinity, fault: { silent: true } };

			const { result, ms } = await run(search({ requestOptions: { timeout: 1_000 } }), { faults: [silent] });

			expect(result.error?.message).toBe('Flare did not answer within the Timeout (1000 ms) after 5 attempts');
			expect(fake.requests.map((request) => request.path)).toEqual(Array(5).fill('/tokens/generate'));
			record({ fault: 'Silent token endpoint', scenario: 'every attempt, Timeout 1 s', requests: 5, requestBound: 5, ms, msBound: 5 * 2_000 + 7_500, outcome: 'failed as decided', error: result.error?.message });
		}, 30_000);
	});

	describe('walks that would never end are stopped', () => {
		it.each([
			// Search's Return All starts with a page of 100; a cursor after it starts the walk of large pages.
			['search, Return All', search({ returnAll: true }), SEARCH_PATH, 'search leaked credentials', [null, null, 'A', 'B']],
			['ASTP URLs, Return All', undefined, URLS_PATH, 'get the URLs of a credential', [null, 'A', 'B']],
		])('a cursor cycle A → B → A (%s)', async (scenario, parameters, path, action, cursors) => {
			const cycle: FaultRule = { path, times: Infinity, fault: { cursorCycle: ['A', 'B'] } };

			const { result, ms } = await run(parameters ?? urlsOf(49), { warm: true, faults: [cycle] });

			expect(result.error?.message).toBe(`Flare returned the same page cursor twice while trying to ${action}`);
			expect(result.output).toEqual([]);
			expect(fake.requests.map((request) => (request.body as IDataObject | undefined)?.from ?? null)).toEqual(cursors);
			record({ fault: 'Cursor cycles', scenario, requests: cursors.length, requestBound: cursors.length, ms, msBound: cursors.length * 1_010 + 1_000, outcome: 'failed as decided', error: result.error?.message });
		}, 20_000);

		it.each([
			['fresh cursors, empty pages', { freshEmptyPages: true } as const, MAX_PAGES_WITHOUT_NEW_RECORDS],
			['fresh cursors, the first page again and again', { freshDuplicatePages: true } as const, MAX_PAGES_WITHOUT_NEW_RECORDS + 1],
		])('endless pages without a new record: %s (ASTP URLs, Return All)', async (scenario, fault, pages) => {
			// A thousand pages test where the walk ends, not the pace (pacing.test.ts): a fake of its own,
			// whose rate gates are made unpaced, so that the scenario takes seconds, not four minutes.
			const restore = await withoutRatePacing();
			const unpaced = await FakeFlare.start({ credentials: 100, ...CANARY_OPTIONS });
			try {
				harness.addFlareCredential({ apiKey: CANARY_API_KEY, baseUrl: unpaced.url });
				expect((await harness.runNode({ parameters: { resource: 'source', operation: 'get', sourceId: 'collection-1' } })).status).toBe('success');
				restore();
				unpaced.clearLog();
				unpaced.faults.add({ path: URLS_PATH, times: Infinity, fault });
				const parameters = { resource: 'astpUrl', operation: 'getAll', credentialHash: unpaced.dataset.credentialHash(49), returnAll: true };

				const { result, ms } = await measured(async () => await harness.runNode({ parameters }));

				const message = `Flare returned ${MAX_PAGES_WITHOUT_NEW_RECORDS.toLocaleString('en-US')} pages in a row without a new result while trying to get the URLs of a credential`;
				expect([result.error?.message, result.error?.description]).toEqual([
					message,
					`The walk was stopped after ${MAX_PAGES_WITHOUT_NEW_RECORDS.toLocaleString('en-US')} pages that were empty or held only results already returned, and nothing was returned for this item. Run the workflow again later; if it persists, report it to Flare.`,
				]);
				expect(result.output).toEqual([]);
				expect(unpaced.requests).toHaveLength(pages);
				// Unpaced: each page a loopback round trip through n8n's engine (at most 50 ms on a loaded machine).
				record({ fault: 'Endless pages without a new record (empty, or repeated)', scenario: `${scenario}, unpaced`, requests: pages, requestBound: MAX_PAGES_WITHOUT_NEW_RECORDS + 1, ms, msBound: (MAX_PAGES_WITHOUT_NEW_RECORDS + 1) * 50 + 2_000, outcome: 'failed as decided', error: result.error?.message });
			} finally {
				restore();
				await unpaced.stop();
			}
		}, 120_000);
	});

	describe('a credential edited while it holds a token: the token is sent only with the settings it was issued for', () => {
		const createReport = { resource: 'threatReport', operation: 'createRequest', reportTitle: 'Tenant check' };

		it('Tenant ID edited: a write acts on the new tenant', async () => {
			harness.addFlareCredential({ apiKey: CANARY_API_KEY, baseUrl: fake.url, tenantId: 101 });
			expect((await harness.runNode({ parameters: createReport })).status).toBe('success');
			const firstRequestId = fake.state.reportRequests[0].request_id;
			harness.editFlareCredential({ tenantId: 202 });
			fake.clearLog();

			const { result, ms } = await measured(async () => await harness.runNode({ parameters: createReport }));

			expect(result.status).toBe('success');
			expect(fake.state.reportRequests.map((request) => request.tenant_id)).toEqual([101, 202]);
			expect(fake.requests.map((request) => [request.path, request.auth, request.status])).toEqual([
				[REPORT_PATH, 'none', 401],
				['/tokens/generate', 'apiKey', 200],
				[REPORT_PATH, 'bearer', 200],
			]);
			expect(fake.requests[1].body).toEqual({ tenant_id: 202 });
			record({ fault: 'Credential edited (Tenant ID, Base URL, API key) while holding a token', scenario: 'Tenant ID 101 → 202, then a write', requests: 3, requestBound: 3, ms, msBound: 2_000, outcome: 'recovered' });
			// The request of tenant 101 is not visible from tenant 202.
			const read = await harness.runNode({ parameters: { resource: 'threatReport', operation: 'getRequestStatus', requestId: firstRequestId } });
			expect(read.error?.message).toBe(`Threat report request ${firstRequestId} was not found in Flare`);
		});

		it('Base URL edited: the old token never reaches the new host', async () => {
			const other = await FakeFlare.start({ credentials: 500, ...CANARY_OPTIONS });
			try {
				expect((await harness.runNode({ parameters: search() })).status).toBe('success');
				harness.editFlareCredential({ baseUrl: other.url });

				const { result, ms } = await measured(async () => await harness.runNode({ parameters: search() }));

				expect(result.status).toBe('success');
				expect(other.requests.map((request) => [request.path, request.auth, request.tokenValid, request.status])).toEqual([
					[SEARCH_PATH, 'none', undefined, 401],
					['/tokens/generate', 'apiKey', undefined, 200],
					[SEARCH_PATH, 'bearer', true, 200],
				]);
				const staleTokens = other.requests.filter((request) => request.auth === 'bearer' && !request.tokenValid).length;
				record({ fault: 'Credential edited (Tenant ID, Base URL, API key) while holding a token', scenario: 'Base URL to another host', otherOrigin: staleTokens, requests: other.requests.length, requestBound: 3, ms, msBound: 2_000, outcome: 'recovered' });
			} finally {
				await other.stop();
			}
		});

		it('API key edited: the next request uses a token of the new key', async () => {
			const source = { resource: 'source', operation: 'get', sourceId: 'collection-1' };
			expect((await harness.runNode({ parameters: source })).status).toBe('success');
			harness.editFlareCredential({ apiKey: fake.apiKeys.noAstp });
			fake.clearLog();

			const { result, ms } = await measured(async () => await harness.runNode({ parameters: source }));

			// The new key's user has no ASTP: Flare refuses, which shows that the new key was used.
			expect(result.error?.message).toBe('Your Flare account has no access to the ASTP feature, needed to get a source');
			expect(fake.requests.map((request) => [request.path, request.auth, request.key, request.status])).toEqual([
				['/astp/sources/collection-1', 'none', undefined, 401],
				['/tokens/generate', 'apiKey', 'noAstp', 200],
				['/astp/sources/collection-1', 'bearer', 'noAstp', 403],
			]);
			record({ fault: 'Credential edited (Tenant ID, Base URL, API key) while holding a token', scenario: 'API key replaced', requests: 3, requestBound: 3, ms, msBound: 2_000, outcome: 'recovered' });
		});
	});

	describe('bad credential settings fail every item before anything is sent, naming the field', () => {
		it.each([
			['Base URL on plain http', { baseUrl: 'http://flare.example' }, `The Flare API credential's 'Base URL' must start with https://, not "http://" [item 0]`],
			['Base URL with a user and password', { baseUrl: 'https://user:secret@flare.example' }, `The Flare API credential's 'Base URL' must not contain a user name, a password, a query (?) or a fragment (#) [item 0]`],
			[
				'Base URL on a host that is not Flare',
				{ baseUrl: 'https://api.flare.io.example.net' },
				`The Flare API credential's 'Base URL' points to api.flare.io.example.net, which is not Flare's API (api.flare.io or api.eu.flare.io), so the API key was not sent. To send it to api.flare.io.example.net on purpose, turn on 'Allow Another Host' in the credential [item 0]`,
			],
			['Product Segment with a path', { productSegment: '../tokens' }, `The Flare API credential's 'Product Segment' may contain only letters, digits, - and _, not "../tokens" [item 0]`],
			['Tenant ID not a number', { tenantId: 'abc' }, `The Flare API credential's 'Tenant ID' must be empty or a positive whole number, not "abc" [item 0]`],
		])('%s', async (scenario, setting, message) => {
			harness.addFlareCredential({ apiKey: CANARY_API_KEY, baseUrl: fake.url, ...setting });

			const { result, ms } = await measured(async () => await harness.runNode({ parameters: search(), onError: 'continueErrorOutput' }, { items: [{}, {}] }));

			expect(result.errorOutput.map((item) => [item.json.error, item.pairedItem])).toEqual([
				[message, { item: 0 }],
				[message.replace('[item 0]', '[item 1]'), { item: 1 }],
			]);
			expect(result.errorOutput[0].error?.name).toBe('NodeOperationError');
			expect(fake.requests).toEqual([]);
			record({ fault: 'Bad credential settings', scenario, requests: 0, requestBound: 0, ms, msBound: 1_000, outcome: 'failed as decided', error: message });
		});

		it('the credential test fails the same way, before any request', async () => {
			harness.addFlareCredential({ apiKey: CANARY_API_KEY, baseUrl: 'http://flare.example' });

			const result = await harness.testCredential();

			expect(result).toEqual({ status: 'Error', message: `The Flare API credential's 'Base URL' must start with https://, not "http://"` });
			expect(fake.requests).toEqual([]);
		});
	});
});
