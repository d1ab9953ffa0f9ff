import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { FakeFlare, type FakeFlareOptions } from '../fake-flare';
import { Harness } from '../harness/engine';
import { apiRequests } from '../integration/support';
import { CANARY_API_KEY } from './secret-scan';
import { CANARY_OPTIONS } from './support';

const RATE_LIMITED = { status: 429, body: { error: { code: 'RATELIMIT_REACHED', message: 'ratelimit reached' } } };
const gaps = (times: number[]) => times.slice(1).map((time, index) => time - times[index]);

/**
 * The node paces at Flare's documented rates from the first request (Search 1 per second, Basic 4
 * per second, per organization), so that a fake enforcing exactly those rates, without Retry-After,
 * never has to refuse it; and after 429s the documented pace comes back.
 */
describe('Pacing at Flare’s documented rates', () => {
	let harness: Harness;
	beforeAll(async () => {
		harness = await Harness.create();
	});

	/** A fake of its own (a new address: a new organization to the node, with fresh gates). */
	async function fakeWith(options: FakeFlareOptions): Promise<FakeFlare> {
		const fake = await FakeFlare.start({ ...CANARY_OPTIONS, ...options });
		harness.addFlareCredential({ apiKey: CANARY_API_KEY, baseUrl: fake.url });
		return fake;
	}

	it('a Return All of several pages against Search at 1 per second, no Retry-After: zero 429s, every record once', async () => {
		const fake = await fakeWith({ credentials: 150_000, rateLimits: { search: 1 }, retryAfter: 'none', quirks: { shortPageEvery: 1, emptyPageEvery: 2 } });
		try {
			const parameters: IDataObject = { resource: 'leakedCredential', operation: 'search', queryType: 'domain', fqdn: 'acme.com', returnAll: true };

			const result = await harness.runNode({ parameters });

			expect(result.status).toBe('success');
			const searches = apiRequests(fake);
			expect(searches.length).toBeGreaterThanOrEqual(4);
			expect(searches.map((request) => request.status)).toEqual(searches.map(() => 200));
			const ids = result.output.map((item) => item.json.id);
			expect(new Set(ids).size).toBe(ids.length);
			expect(ids).toEqual(fake.dataset.searchAll({ query: { type: 'domain', fqdn: 'acme.com' } }).map((record) => record.id));
			// One a second from the first, each arrival at most the 50 ms of jitter the fake's limiter allows
			// early (the fake stamps an arrival when its handler runs, in this process, after any event-loop
			// delay: a late stamp shortens the next gap, not the pace).
			const arrivals = searches.map((request) => request.at);
			arrivals.forEach((at, index) => expect(at - arrivals[0]).toBeGreaterThanOrEqual(index * 1000 - 50));
			for (const gap of gaps(arrivals)) expect(gap).toBeGreaterThanOrEqual(950);
		} finally {
			await fake.stop();
		}
	}, 60_000);

	it('twenty items of a Basic read against 4 per second, no Retry-After: zero 429s, each paired', async () => {
		const fake = await fakeWith({ rateLimits: { basic: 4 }, retryAfter: 'none' });
		try {
			const sources = fake.dataset.sources().slice(0, 20).map((source) => source.id);

			const result = await harness.runNode(
				{ parameters: { resource: 'source', operation: 'get', sourceId: '={{ $json.id }}' } },
				{ items: sources.map((id) => ({ id })) },
			);

			expect(result.status).toBe('success');
			expect(result.output.map((item) => [item.json.id, item.pairedItem])).toEqual(sources.map((id, index) => [id, { item: index }]));
			expect(apiRequests(fake).map((request) => request.status)).toEqual(Array(20).fill(200));
		} finally {
			await fake.stop();
		}
	}, 60_000);

	it('the tenants of one organization share its pace (Flare counts them together): three tenants, Basic 4 per second, no Retry-After, zero 429s', async () => {
		const fake = await fakeWith({ rateLimits: { basic: 4 }, retryAfter: 'none', tenants: [101, 202, 303] });
		try {
			const tenants = [101, 202, 303, 101, 202, 303];

			const result = await harness.runNode(
				{ parameters: { resource: 'tenant', operation: 'getAll', tenant: { __rl: true, mode: 'id', value: '={{ $json.tenant }}' } } },
				{ items: tenants.map((tenant) => ({ tenant })) },
			);

			expect(result.status).toBe('success');
			const sent = apiRequests(fake);
			expect(sent.map((request) => [request.tenant, request.status])).toEqual(tenants.map((tenant) => [tenant, 200]));
			for (const gap of gaps(sent.map((request) => request.at))) expect(gap).toBeGreaterThanOrEqual(200);
		} finally {
			await fake.stop();
		}
	}, 60_000);

	it('requests that n8n hands to its HTTP client late do not bring the next one closer: Basic 4 per second, zero 429s', async () => {
		// Retry-After of 1 s: were a request refused, the run would show it and go on.
		const fake = await fakeWith({ rateLimits: { basic: 4 }, retryAfter: 'integer' });
		// Every other request leaves 150 ms after the gate let it go (credentials read slowly, as on a
		// loaded machine); counted from the gate, the next would arrive 110 ms after it, and be refused.
		let requests = 0;
		harness.delayHandOver(() => (requests++ % 2 === 0 ? 150 : 0));
		try {
			const sources = fake.dataset.sources().slice(0, 8).map((source) => source.id);

			const result = await harness.runNode(
				{ parameters: { resource: 'source', operation: 'get', sourceId: '={{ $json.id }}' } },
				{ items: sources.map((id) => ({ id })) },
			);

			expect(result.status).toBe('success');
			const sent = apiRequests(fake);
			expect(sent.map((request) => request.status)).toEqual(Array(8).fill(200));
			for (const gap of gaps(sent.map((request) => request.at))) expect(gap).toBeGreaterThanOrEqual(240);
		} finally {
			harness.delayHandOver();
			await fake.stop();
		}
	}, 60_000);

	it('the event feed in the Basic tier (docs/api-contract.md, "Rate limits"): a Return All against Basic at 4 per second, no Retry-After, zero 429s', async () => {
		const fake = await fakeWith({ rateLimits: { basic: 4 }, retryAfter: 'none', eventsPerTenant: 60 });
		try {
			const result = await harness.runNode({ parameters: { resource: 'event', operation: 'searchTenantFeed', returnAll: true } });

			expect(result.status).toBe('success');
			const pages = apiRequests(fake);
			expect(pages.length).toBeGreaterThanOrEqual(5);
			expect(pages.map((request) => [request.path, request.tier, request.status])).toEqual(pages.map(() => ['/firework/v4/events/tenant/_search', 'basic', 200]));
			expect(result.output.map((item) => (item.json.metadata as IDataObject).uid)).toEqual(fake.feed.feedAll(101, {}).map((item) => item.metadata.uid));
			for (const gap of gaps(pages.map((request) => request.at))) expect(gap).toBeGreaterThanOrEqual(240);
		} finally {
			await fake.stop();
		}
	}, 60_000);

	it('a 429 on a feed page holds the whole Basic tier of the organization, then the documented pace returns', async () => {
		const fake = await fakeWith({ eventsPerTenant: 60 });
		try {
			const FEED = '/firework/v4/events/tenant/_search';
			fake.faults.add({ path: FEED, skip: 1, fault: { ...RATE_LIMITED, headers: { 'Retry-After': '2' } } });

			const search = harness.runNode({ parameters: { resource: 'event', operation: 'searchTenantFeed', returnAll: true } });
			// Another execution of the same organization asks for a source while the tier is held.
			while (!fake.requests.some((request) => request.status === 429)) await sleep(20);
			const source = await harness.runNode({ parameters: { resource: 'source', operation: 'get', sourceId: fake.dataset.sources()[0].id } });
			const feed = await search;

			expect([feed.status, source.status]).toEqual(['success', 'success']);
			expect(feed.output.map((item) => (item.json.metadata as IDataObject).uid)).toEqual(fake.feed.feedAll(101, {}).map((item) => item.metadata.uid));
			const requests = apiRequests(fake);
			const refused = requests.find((request) => request.status === 429)!;
			const sourceRequest = requests.find((request) => request.path.startsWith('/astp/sources/'))!;
			// The other request of the tier waited out the 2 s (give or take the jitter of arrival times).
			expect(sourceRequest.at - refused.at).toBeGreaterThanOrEqual(1_990);
			const pages = requests.filter((request) => request.path === FEED);
			expect(pages.map((request) => request.status)).toEqual([200, 429, ...pages.slice(2).map(() => 200)]);
			expect(pages[2].at - refused.at).toBeGreaterThanOrEqual(1_990);
			// Then the documented pace, 4 per second, not slower.
			for (const gap of gaps(pages.slice(3).map((request) => request.at))) {
				expect(gap).toBeGreaterThanOrEqual(240);
				expect(gap).toBeLessThan(600);
			}
		} finally {
			await fake.stop();
		}
	}, 60_000);

	it('after a burst of 429s, waits as told and then returns to the documented pace', async () => {
		const fake = await fakeWith({});
		try {
			fake.faults.add({ path: /^\/astp\/sources\//, times: 3, fault: { ...RATE_LIMITED, headers: { 'Retry-After': '1' } } });
			const sources = fake.dataset.sources().slice(0, 8).map((source) => source.id);

			const result = await harness.runNode(
				{ parameters: { resource: 'source', operation: 'get', sourceId: '={{ $json.id }}' } },
				{ items: sources.map((id) => ({ id })) },
			);

			expect(result.status).toBe('success');
			const requests = apiRequests(fake);
			expect(requests.map((request) => request.status)).toEqual([429, 429, 429, ...Array(8).fill(200)]);
			const times = requests.map((request) => request.at);
			// Each 429 held the tier for its Retry-After (1 s), give or take the jitter of arrival times.
			for (const gap of gaps(times.slice(0, 4))) expect(gap).toBeGreaterThanOrEqual(990);
			// Then the documented pace, 4 per second, not slower (arrival times on loopback jitter by a few ms).
			for (const gap of gaps(times.slice(3))) {
				expect(gap).toBeGreaterThanOrEqual(240);
				expect(gap).toBeLessThan(600);
			}
		} finally {
			await fake.stop();
		}
	}, 60_000);
});
