import type { IDataObject } from 'n8n-workflow';

import { FakeFlare, type FakeFlareOptions, type QuotaReading } from '../fake-flare';
import { Harness } from '../harness/engine';
import { apiRequests } from './support';

/**
 * Flare counts the global-search quota in results: a unit covers up to 100, more count again, and the
 * same search within 10 minutes shares its units (docs/api-contract.md, "Global-search quota"). The
 * fake models it under both readings (results asked for, or returned); the node must spend within one
 * unit of the minimum under either, with at most one request more than the fewest possible.
 */
describe('Global-search quota: spent as Flare counts it', () => {
	let fake: FakeFlare;
	let harness: Harness;

	beforeAll(async () => {
		fake = await FakeFlare.start();
		harness = await Harness.create();
	});
	afterAll(async () => await fake.stop());

	const DATASET: FakeFlareOptions = { credentials: 150_000, quirks: { emptyPageEvery: 0, shortPageEvery: 0 } };
	const searchAcme = (extra: IDataObject) => ({ resource: 'leakedCredential', operation: 'search', queryType: 'domain', fqdn: 'acme.com', ...extra });

	function reset(options: FakeFlareOptions): void {
		fake.reset({ ...DATASET, ...options });
		harness.addFlareCredential({ apiKey: fake.apiKeys.full, baseUrl: fake.url });
	}

	const minimumUnits = (results: number) => Math.max(1, Math.ceil(results / 100));
	const minimumRequests = (results: number) => Math.max(1, Math.ceil(results / 10_000));

	describe.each(['requested', 'returned'] as QuotaReading[])('counting results %s', (quotaReading) => {
		it.each([3, 10, 100, 1_000, 10_000, 25_000])('Limit %i: within one unit and one request of the minimum', async (limit) => {
			reset({ quotaReading });

			const result = await harness.runNode({ parameters: searchAcme({ limit }) });

			expect(result.output).toHaveLength(limit);
			expect(fake.quotaUsed()).toBeLessThanOrEqual(minimumUnits(limit) + 1);
			expect(apiRequests(fake).length).toBeLessThanOrEqual(minimumRequests(limit) + 1);
		}, 30_000);

		it.each([
			['3 results', { credentials: 15 }, 3],
			['30,000 results', {}, 30_000],
		])('Return All of %s: within one unit and one request of the minimum', async (_name, dataset, results) => {
			reset({ quotaReading, ...dataset });

			const result = await harness.runNode({ parameters: searchAcme({ returnAll: true }) });

			expect(result.output).toHaveLength(results);
			expect(fake.quotaUsed()).toBeLessThanOrEqual(minimumUnits(results) + 1);
			expect(apiRequests(fake).length).toBeLessThanOrEqual(minimumRequests(results) + 1);
		}, 30_000);
	});

	it('fills the pages of a large Limit evenly, so that little beyond the Limit is asked for', async () => {
		reset({});

		await harness.runNode({ parameters: searchAcme({ limit: 25_000 }) });
		await harness.runNode({ parameters: searchAcme({ limit: 10_001 }) });

		expect(apiRequests(fake).map((request) => (request.body as IDataObject).size)).toEqual([8_334, 8_334, 8_334, 5_001, 5_001]);
	}, 30_000);

	it.each([
		['429 QUOTA_EXCEEDED', 'envelope'],
		['Remaining 0, then 403', 'remainingThen403'],
	] as const)('exhaustion (%s): after an answer that says 0 remain, no further search is sent; the error names the quota', async (_name, quotaExhaustion) => {
		// One unit: the first page of 100 takes it, and its answer says 0 remain.
		reset({ quota: 1, quotaExhaustion });

		const result = await harness.runNode({ parameters: searchAcme({ returnAll: true }) });

		expect(result.error?.message).toBe('The global search quota of your Flare organization is used up');
		expect(result.error?.description).toMatch(/^Global searches \(of leaked credentials and of all of Flare's events\) count toward a monthly quota, which resets each month; waiting does not help/);
		expect(apiRequests(fake).map((request) => [(request.body as IDataObject).size, request.status])).toEqual([[100, 200]]);
	});

	it('a 403 that names the quota fails at once, never retried', async () => {
		reset({ quota: 0, quotaExhaustion: 'remainingThen403' });
		fake.faults.add({ path: '/firework/v4/credentials/global/_search', fault: { status: 403, body: { error: { code: 'FORBIDDEN', message: 'global search quota exceeded' } } } });

		const result = await harness.runNode({ parameters: searchAcme({ limit: 5 }) });

		expect(result.error?.message).toBe('The global search quota of your Flare organization is used up');
		expect(apiRequests(fake)).toHaveLength(1);
	});

	it('says on each item when the search has returned all its unit covers (Batch-Reached)', async () => {
		reset({ quotaReading: 'returned' });

		const reached = await harness.runNode({ parameters: searchAcme({ limit: 100 }) });
		fake.reset({ ...DATASET, quotaReading: 'returned' });
		const notReached = await harness.runNode({ parameters: searchAcme({ limit: 40 }) });

		expect(reached.output.every((item) => item.json.globalSearchBatchReached === true)).toBe(true);
		expect(notReached.output.some((item) => 'globalSearchBatchReached' in item.json)).toBe(false);
	}, 30_000);
});
