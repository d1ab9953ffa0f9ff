import type { IDataObject } from 'n8n-workflow';

import { CredentialRecord, GlobalSearchBody } from '../contract';
import { FakeFlare, type FakeFlareOptions, QUOTA_SESSION_MS } from '../fake-flare';
import { Harness } from '../harness/engine';
import { apiRequests, jsonOf, masked, sha256, simplifiedCredential } from './support';

const SEARCH_PATH = '/firework/v4/credentials/global/_search';
const search = (parameters: IDataObject) => ({
	parameters: { resource: 'leakedCredential', operation: 'search', ...parameters },
});

describe('Leaked Credential → Search', () => {
	let fake: FakeFlare;
	let harness: Harness;

	const start = (options: FakeFlareOptions = {}) => {
		fake.reset(options);
		harness.addFlareCredential({ apiKey: fake.apiKeys.full, baseUrl: fake.url });
	};

	beforeAll(async () => {
		fake = await FakeFlare.start();
		harness = await Harness.create();
	});
	afterAll(async () => await fake.stop());

	it('sends one request for a Limit and emits simplified, masked credentials paired to the input', async () => {
		start();
		const result = await harness.runNode(search({ queryType: 'domain', fqdn: 'Acme.com', limit: 5 }));

		expect(result.status).toBe('success');
		const requests = apiRequests(fake);
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'POST', path: SEARCH_PATH, status: 200 });
		expect(requests[0].body).toEqual({ query: { type: 'domain', fqdn: 'acme.com' }, order: 'desc', size: 5 });
		expect(() => GlobalSearchBody.parse(requests[0].body)).not.toThrow();

		const expected = fake.dataset.searchAll({ query: { type: 'domain', fqdn: 'acme.com' } }).slice(0, 5);
		expect(jsonOf(result.output)).toEqual(expected.map((record) => simplifiedCredential(record, masked(record.hash), 999_999)));
		expect(result.output.every((item) => JSON.stringify(item.pairedItem) === '{"item":0}')).toBe(true);
	});

	it.each(['auth_domain', 'email', 'keyword', 'secret'])('really filters by %s, with Return All', async (queryType) => {
		start({ credentials: 600 });
		const index = [...Array(600).keys()].find((i) => fake.dataset.authHosts(i).length > 0)!;
		const sample = fake.dataset.credential(index);
		const field = { auth_domain: 'fqdn', email: 'email', keyword: 'keyword', secret: 'secret' }[queryType]!;
		const value = {
			auth_domain: fake.dataset.authHosts(index)[0],
			email: sample.identity_name.toUpperCase(),
			keyword: sample.identity_name.split('@')[0],
			secret: sample.hash,
		}[queryType]!;

		const result = await harness.runNode(
			search({ queryType, [field]: value, returnAll: true, simplify: false, options: { leakedValueOutput: 'full' } }),
		);

		expect(result.status).toBe('success');
		const query = { type: queryType, [field]: value };
		// Return All starts with a page of 100, the whole result when it fits (the quota counts results).
		expect(apiRequests(fake).map((request) => request.body)).toEqual([{ query, order: 'desc', size: 100 }]);
		const expected = fake.dataset.searchAll({ query: query as never });
		expect(expected.length).toBeLessThan(100);
		expect(expected.map((record) => record.id)).toContain(sample.id);
		expect(jsonOf(result.output)).toEqual(expected.map((record) => ({ ...record, globalSearchesRemaining: 999_999 })));
		for (const item of result.output) CredentialRecord.parse(item.json);
	});

	it('sends import bounds, include and order, and returns the raw records', async () => {
		start({ credentials: 900 });
		const options = {
			importedFrom: '2024-01-01T01:00:00Z',
			importedTo: '2024-01-01T03:00:00Z',
			include: ['auth_domains', 'known_password_id'],
			order: 'asc',
			leakedValueOutput: 'full',
		};

		const result = await harness.runNode(search({ queryType: 'domain', fqdn: 'example.com', returnAll: true, simplify: false, options }));

		const body = {
			query: { type: 'domain', fqdn: 'example.com' },
			filters: { imported_at: { gte: '2024-01-01T01:00:00.000Z', lte: '2024-01-01T03:00:00.000Z' } },
			include: ['auth_domains', 'known_password_id'],
			order: 'asc',
			size: 100,
		};
		expect(apiRequests(fake).map((request) => request.body)).toEqual([body]);
		const expected = fake.dataset.searchAll(body as never);
		expect(expected.length).toBeGreaterThan(3);
		expect(expected.length).toBeLessThan(100);
		expect(expected.every((record) => record.auth_domains && record.known_password_id !== undefined)).toBe(true);
		expect(jsonOf(result.output)).toEqual(expected.map((record) => ({ ...record, globalSearchesRemaining: 999_999 })));
	});

	it('Return All: a first page of 100, then a new walk of pages of 10,000 through empty and short pages, the same size each time', async () => {
		start({ credentials: 50_000, domains: ['example.com', 'acme.com'], quirks: { emptyPageEvery: 2, shortPageEvery: 3 } });

		const result = await harness.runNode(search({ queryType: 'domain', fqdn: 'acme.com', returnAll: true }));

		expect(result.status).toBe('success');
		const expected = fake.dataset.searchAll({ query: { type: 'domain', fqdn: 'acme.com' } });
		expect(expected).toHaveLength(25_000);
		const ids = result.output.map((item) => item.json.id);
		expect(ids).toEqual(expected.map((record) => record.id));
		expect(new Set(ids).size).toBe(25_000);

		const requests = apiRequests(fake);
		const bodies = requests.map((request) => request.body as IDataObject);
		expect(bodies[0]).toEqual({ query: { type: 'domain', fqdn: 'acme.com' }, order: 'desc', size: 100 });
		const walk = bodies.slice(1);
		expect(walk.every((body) => body.size === 10_000)).toBe(true);
		expect(walk[0].from).toBeUndefined();
		// Pages: 10,000, empty, 5,000 (short), 10,000 (the last).
		expect(walk).toHaveLength(4);
		expect(requests.every((request) => request.status === 200)).toBe(true);
		// Each cursor sent is the `next` of the answer before; a page came back empty and one short.
		expect(new Set(walk.slice(1).map((body) => body.from)).size).toBe(walk.length - 1);
	});

	it('fetches no page beyond the Limit, even when pages come back short', async () => {
		start({ credentials: 2_000, quirks: { emptyPageEvery: 0, shortPageEvery: 1 } });

		const result = await harness.runNode(search({ queryType: 'domain', fqdn: 'globex.io', limit: 30 }));

		const expected = fake.dataset.searchAll({ query: { type: 'domain', fqdn: 'globex.io' } }).slice(0, 30);
		expect(result.output.map((item) => item.json.id)).toEqual(expected.map((record) => record.id));
		const bodies = apiRequests(fake).map((request) => request.body as IDataObject);
		expect(bodies).toHaveLength(2);
		expect(bodies.map((body) => body.size)).toEqual([30, 30]);
		expect(bodies[1].from).toEqual(expect.any(String));
	});

	it('stops with an error when Flare repeats a cursor, instead of looping', async () => {
		start({ credentials: 50_000, domains: ['acme.com'], quirks: { emptyPageEvery: 0, shortPageEvery: 0 } });
		// The first page of 100, the first page of 10,000, then the second answers its own cursor.
		fake.faults.add({ path: SEARCH_PATH, skip: 2, fault: { repeatCursor: true } });

		const result = await harness.runNode(search({ queryType: 'domain', fqdn: 'acme.com', returnAll: true }));

		expect(result.status).toBe('error');
		expect(result.error?.message).toBe('Flare returned the same page cursor twice while trying to search leaked credentials');
		expect(apiRequests(fake)).toHaveLength(3);
	});

	it.each([
		['full', (hash: string) => hash],
		['masked', masked],
		['sha256', sha256],
		['omit', () => undefined],
	] as const)('applies Leaked Value Output "%s" to simplified and raw results', async (mode, transform) => {
		start({ credentials: 300 });
		const expected = fake.dataset.searchAll({ query: { type: 'domain', fqdn: 'example.com' } }).slice(0, 4);

		const simple = await harness.runNode(search({ queryType: 'domain', fqdn: 'example.com', limit: 4, options: { leakedValueOutput: mode } }));
		const raw = await harness.runNode(
			search({ queryType: 'domain', fqdn: 'example.com', limit: 4, simplify: false, options: { leakedValueOutput: mode } }),
		);

		expect(jsonOf(simple.output)).toEqual(expected.map((record) => simplifiedCredential(record, transform(record.hash), expect.any(Number) as never)));
		const rawExpected = expected.map((record) => {
			const copy: IDataObject = { ...record, globalSearchesRemaining: expect.any(Number) };
			if (mode === 'omit') delete copy.hash;
			else copy.hash = transform(record.hash);
			return copy;
		});
		expect(jsonOf(raw.output)).toEqual(rawExpected);
	});

	it('surfaces the remaining global searches on every item', async () => {
		start({ credentials: 300, quota: 42 });

		const first = await harness.runNode(search({ queryType: 'domain', fqdn: 'example.com', limit: 2 }));
		// Past Flare's 10-minute window, the same search costs a unit again.
		fake.advanceClock(QUOTA_SESSION_MS);
		const second = await harness.runNode(search({ queryType: 'domain', fqdn: 'example.com', limit: 2 }));

		expect(first.output.map((item) => item.json.globalSearchesRemaining)).toEqual([41, 41]);
		expect(second.output.map((item) => item.json.globalSearchesRemaining)).toEqual([40, 40]);
	});
});
