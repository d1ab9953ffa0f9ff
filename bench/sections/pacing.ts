/**
 * Goal 3. Under a tier's rate limit: 20 input items, each a walk of 3 pages, through our node in the
 * engine, in a process of its own (bench/child/pacing.ts), against a fresh fake per run (a new
 * address and a new process: the node's per-process rate gate starts knowing nothing, as in a fresh
 * n8n). Wall time against the theoretical minimum, 429s provoked (the fake's log), failed items.
 *
 * Each item asks for 10 results and the fake answers a short page (5), an empty page and a short page
 * (5): the mid-walk quirks the real API has, which keep pages small so that the time measured is the
 * rate limit's, not JSON's. The theoretical minimum of R requests at spacing I is (R - 1) x I plus one
 * request's own time (measured on the same workload without a limit).
 */
import type { IDataObject } from 'n8n-workflow';

import { FakeFlare } from '../../test/fake-flare';
import { type ChildResult, median, runChild } from '../lib/proc';
import { ratio, round, type Stat, stat } from '../lib/stats';

export const ITEMS = 20;
export const PAGES_PER_ITEM = 3;
const QUIRKS = { shortPageEvery: 1, emptyPageEvery: 2 };

export interface PacingCase {
	tier: 'search' | 'basic';
	/** Requests per second the fake allows. */
	rate: number;
	/** The documented rate it stands for (Search 1, Basic 4). */
	documented: number;
	retryAfter: 'precise' | 'integer' | 'none';
	runs: number;
}

export interface PacingRow extends PacingCase {
	intervalMs: number;
	requests: number;
	minimumMs: number;
	wall: Stat;
	overMinimum: number;
	rateLimited: Stat;
	failedItems: number;
}

function parametersFor(tier: PacingCase['tier'], fake: FakeFlare): IDataObject {
	return tier === 'search'
		? { resource: 'leakedCredential', operation: 'search', queryType: 'domain', fqdn: 'example.com', limit: 10 }
		: {
				resource: 'astpUrl',
				operation: 'getAll',
				// Every 50th credential has 237 URLs.
				credentialHash: fake.dataset.credential(49).credential_hash,
				limit: 10,
			};
}

const tierPath = (tier: PacingCase['tier']) =>
	tier === 'search' ? '/firework/v4/credentials/global/_search' : '/astp/urls/by_credential_hash';

async function once(
	testCase: Pick<PacingCase, 'tier' | 'rate' | 'retryAfter'>,
): Promise<{ wallMs: number; requests: number; rateLimited: number; failedItems: number }> {
	const fake = await FakeFlare.start({
		credentials: 500,
		domains: ['example.com'],
		quirks: QUIRKS,
		rateLimits: { [testCase.tier]: testCase.rate },
		retryAfter: testCase.retryAfter,
	});
	try {
		const result = await runChild<ChildResult & { errorItems: number }>('pacing', {
			baseUrl: fake.url,
			apiKey: fake.apiKeys.full,
			parameters: parametersFor(testCase.tier, fake),
			items: ITEMS,
		});
		const requests = fake.requests.filter((request) => request.path === tierPath(testCase.tier));
		const accepted = requests.filter((request) => request.status === 200).length;
		if (result.errorItems === 0 && result.items !== ITEMS * 10) {
			throw new Error(`pacing: ${result.items} results, expected ${ITEMS * 10}`);
		}
		if (result.errorItems === 0 && accepted !== ITEMS * PAGES_PER_ITEM) {
			throw new Error(`pacing: ${accepted} pages, expected ${ITEMS * PAGES_PER_ITEM}`);
		}
		return {
			wallMs: result.wallMs,
			requests: accepted,
			rateLimited: requests.filter((request) => request.status === 429).length,
			failedItems: result.errorItems,
		};
	} finally {
		await fake.stop();
	}
}

/** One request's own time on this workload, without a limit (median of `runs`). */
async function requestTime(tier: PacingCase['tier'], runs: number): Promise<number> {
	const samples: number[] = [];
	for (let run = 0; run < runs; run++) {
		const { wallMs, requests } = await once({ tier, rate: 0, retryAfter: 'precise' });
		samples.push(wallMs / requests);
	}
	return median(samples);
}

export async function runPacing(
	cases: PacingCase[],
	options: { log: (text: string) => void },
): Promise<PacingRow[]> {
	const perRequest = new Map<string, number>();
	const rows: PacingRow[] = [];
	for (const testCase of cases) {
		if (!perRequest.has(testCase.tier)) perRequest.set(testCase.tier, await requestTime(testCase.tier, 3));
		const intervalMs = 1000 / testCase.rate;
		const requests = ITEMS * PAGES_PER_ITEM;
		const minimumMs = (requests - 1) * intervalMs + perRequest.get(testCase.tier)!;
		const samples = [];
		for (let run = 0; run < testCase.runs; run++) {
			const sample = await once(testCase);
			samples.push(sample);
			options.log(
				`  ${testCase.tier} ${testCase.rate}/s, Retry-After ${testCase.retryAfter}: ${Math.round(sample.wallMs)} ms ` +
					`(minimum ${Math.round(minimumMs)} ms), ${sample.rateLimited} × 429, ${sample.failedItems} failed item(s)`,
			);
		}
		const wall = stat(samples.map((sample) => sample.wallMs));
		rows.push({
			...testCase,
			intervalMs: round(intervalMs, 1),
			requests,
			minimumMs: round(minimumMs),
			wall,
			overMinimum: ratio(wall.median, minimumMs),
			rateLimited: stat(samples.map((sample) => sample.rateLimited)),
			failedItems: Math.max(...samples.map((sample) => sample.failedItems)),
		});
	}
	return rows;
}
