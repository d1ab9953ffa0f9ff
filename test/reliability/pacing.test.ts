import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { FakeFlare } from '../fake-flare';
import { Harness } from '../harness/engine';
import { apiRequests } from '../integration/support';
import { CANARY_API_KEY } from './secret-scan';
import { CANARY_OPTIONS } from './support';

/**
 * Found by the fault matrix, in the per-process rate gate (shared/rateGate.ts):
 * - it took the idle time before a lone 429 for the tier's spacing, and from then on paced every
 *   request of the tier that far apart (a 429 twenty seconds after the last request: one request
 *   every 30 s, for the life of the process);
 * - it learned again from every 429 of a burst, each time from a gap that its own waits had grown:
 *   ten 429s with "Retry-After: 1" took 164 s instead of 10 s and left a spacing of 49 s.
 */
describe('Rate gate after 429s', () => {
	let fake: FakeFlare;
	let harness: Harness;

	beforeAll(async () => {
		fake = await FakeFlare.start({ credentials: 3_000, quirks: { shortPageEvery: 1, emptyPageEvery: 2 }, ...CANARY_OPTIONS });
		harness = await Harness.create();
		harness.addFlareCredential({ apiKey: CANARY_API_KEY, baseUrl: fake.url });
	});
	afterAll(async () => await fake.stop());

	it('paces the rest of the walk at the documented spacing, not at the idle time before the 429', async () => {
		const parameters: IDataObject = { resource: 'astpUrl', operation: 'getAll', credentialHash: fake.dataset.credentialHash(49), limit: 100 };
		const before = await harness.runNode({ parameters });
		expect(before.status).toBe('success');
		await sleep(2_500); // quiet: nothing sent for a while
		fake.clearLog();
		fake.faults.add({
			path: '/astp/urls/by_credential_hash',
			fault: { status: 429, body: { error: { code: 'RATELIMIT_REACHED', message: 'ratelimit reached' } }, headers: { 'Retry-After': '0' } },
		});

		const result = await harness.runNode({ parameters });

		expect(result.status).toBe('success');
		const requests = apiRequests(fake);
		expect(requests.map((request) => request.status)).toEqual([429, 200, 200, 200]);
		// Basic tier: 4 requests/s documented, so about 250 ms apart; never the 2.5 s of idle time.
		const gaps = requests.slice(1).map((request, index) => request.at - requests[index].at);
		expect(Math.max(...gaps.slice(1))).toBeLessThan(1_000);
	});

	it('waits out a burst of 429s as told, without inflating the spacing', async () => {
		const parameters: IDataObject = { resource: 'astpUrl', operation: 'getAll', credentialHash: fake.dataset.credentialHash(99), limit: 100 };
		fake.faults.add({
			path: '/astp/urls/by_credential_hash',
			skip: 1,
			times: 10,
			fault: { status: 429, body: { error: { code: 'RATELIMIT_REACHED', message: 'ratelimit reached' } }, headers: { 'Retry-After': '0' } },
		});
		fake.clearLog();

		const result = await harness.runNode({ parameters });

		expect(result.status).toBe('success');
		const requests = apiRequests(fake);
		expect(requests.map((request) => request.status)).toEqual([200, ...Array(10).fill(429), 200, 200]);
		// Before the fix: about 48 s, each 429 teaching a longer spacing than the one before.
		expect(requests[requests.length - 1].at - requests[0].at).toBeLessThan(6_000);
	});
});
