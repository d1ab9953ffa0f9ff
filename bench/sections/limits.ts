/**
 * Section 1. Against Flare's documented limits: the fake enforces Search 1 request/s and Basic 4/s per
 * organization, and answers 429 without Retry-After (Flare documents none; its advice is to wait 10 s).
 *   - Return All of N credentials (a global search, Search tier);
 *   - 20 input items × 3 pages of a Basic read (URLs of a credential, 10 each: the fake answers a
 *     short, an empty and a short page, quirks the real API has).
 * Each figure is a ratio to the floor measured in the same round: a bare undici client that sends the
 * same requests and paces them perfectly at the documented rate from its first request
 * (bench/child/floor.ts with `intervalMs`). Ours is the node in the engine with its pacing as shipped
 * (bench/child/pacing.ts); the HTTP Request node (real n8n) is paced by its own option "Interval
 * Between Requests" at the documented interval, as a user following Flare's docs sets it. Every
 * variant exchanges its token before the clock starts; a pause of one interval and a bit between
 * variants lets the fake's window empty. 429s are counted in the fake's log.
 */
import { sleep } from 'n8n-workflow';

import { FakeFlare } from '../../test/fake-flare';
import { os } from '../../test/support/node';
import type { FloorConfig } from '../child/floor';
import type { PacingChildConfig } from '../child/pacing';
import type { BenchN8n } from '../lib/n8n';
import { type ChildResult, runChild } from '../lib/proc';
import { ratio, type Stat, stat } from '../lib/stats';
import {
	httpSearch,
	MEASURED_NODE,
	measuredPair,
	SEARCH_PATH,
	splitItems,
	type Workflow,
} from '../lib/workflows';

const URLS_PATH = '/astp/urls/by_credential_hash';
const SEARCH_INTERVAL_MS = 1000;
const BASIC_INTERVAL_MS = 250;
const PAGE = 10_000;
const FIRST_PAGE = 100;
export const BASIC_ITEMS = 20;
const BASIC_WANTED = 10;

export interface LimitsCase {
	kind: 'returnAll' | 'basic';
	/** Credentials found (Return All). */
	size?: number;
	runs: number;
}

interface LimitsSetup extends LimitsCase {
	fake: FakeFlare;
	credentialId: string;
	httpWorkflow?: string;
}

export interface LimitsRow extends LimitsCase {
	label: string;
	requests: number;
	floor: Stat;
	ours: Stat;
	http?: Stat;
	/** Our wall over the floor's, median of the rounds' ratios (goal ≤ 1.05). */
	oursOverFloor: number;
	httpOverFloor?: number;
	ours429: number;
	http429?: number;
	floor429: number;
	oursFailed: number;
}

const label = (testCase: LimitsCase) =>
	testCase.kind === 'returnAll'
		? `Return All of ${testCase.size!.toLocaleString('en-US')} (Search 1/s)`
		: `${BASIC_ITEMS} items × 3 pages, URLs of a credential (Basic 4/s)`;

export async function prepareLimits(cases: LimitsCase[]): Promise<{
	setups: LimitsSetup[];
	workflows: Workflow[];
	credentials: Array<{ id: string; name: string; type: string; data: Record<string, unknown> }>;
}> {
	const setups: LimitsSetup[] = [];
	const workflows: Workflow[] = [];
	const credentials = [];
	for (const testCase of cases) {
		const fake = await FakeFlare.start({
			credentials: testCase.kind === 'returnAll' ? testCase.size : 500,
			domains: ['example.com'],
			quirks:
				testCase.kind === 'returnAll'
					? { emptyPageEvery: 0, shortPageEvery: 0 }
					: { shortPageEvery: 1, emptyPageEvery: 2 },
			rateLimits: { search: 1, basic: 4 },
			retryAfter: 'none',
		});
		const credentialId = `benchLimits${testCase.kind}${testCase.size ?? ''}`;
		const setup: LimitsSetup = { ...testCase, fake, credentialId };
		if (testCase.kind === 'returnAll') {
			credentials.push({
				id: credentialId,
				name: `Flare ${credentialId}`,
				type: 'flareApi',
				data: {
					apiKey: fake.apiKeys.full,
					baseUrl: fake.url,
					productSegment: 'firework',
					accessToken: '',
				},
			});
			const pair = measuredPair(
				`benchLimitsHttp${testCase.size}`,
				`Bench: HTTP Request paced 1/s + Split Out, all of ${testCase.size}`,
				[
					httpSearch(credentialId, fake.url, PAGE, undefined, {
						requestIntervalMs: SEARCH_INTERVAL_MS,
					}),
					splitItems(),
				],
			);
			workflows.push(pair.child, pair.parent);
			setup.httpWorkflow = pair.parent.id;
		}
		setups.push(setup);
	}
	return { setups, workflows, credentials };
}

const tierPath = (setup: LimitsSetup) => (setup.kind === 'returnAll' ? SEARCH_PATH : URLS_PATH);

function counted(setup: LimitsSetup, mark: number): { accepted: number; rateLimited: number } {
	const requests = setup.fake.requests
		.slice(mark)
		.filter((request) => request.path === tierPath(setup));
	return {
		accepted: requests.filter((request) => request.status === 200).length,
		rateLimited: requests.filter((request) => request.status === 429).length,
	};
}

function floorConfig(setup: LimitsSetup): FloorConfig {
	const common = {
		baseUrl: setup.fake.url,
		apiKey: setup.fake.apiKeys.full,
		clockAfterToken: true,
	};
	if (setup.kind === 'returnAll') {
		return {
			...common,
			path: SEARCH_PATH,
			body: { query: { type: 'domain', fqdn: 'example.com' }, order: 'desc' },
			pageSize: PAGE,
			firstPageSize: FIRST_PAGE,
			intervalMs: SEARCH_INTERVAL_MS,
		};
	}
	return {
		...common,
		path: URLS_PATH,
		// Every 50th credential has 237 URLs.
		body: { credential_hash: setup.fake.dataset.credential(49).credential_hash },
		pageSize: BASIC_WANTED,
		walks: BASIC_ITEMS,
		wanted: BASIC_WANTED,
		intervalMs: BASIC_INTERVAL_MS,
	};
}

function oursConfig(setup: LimitsSetup): PacingChildConfig {
	const common = { baseUrl: setup.fake.url, apiKey: setup.fake.apiKeys.full };
	if (setup.kind === 'returnAll') {
		return {
			...common,
			items: 1,
			parameters: {
				resource: 'leakedCredential',
				operation: 'search',
				queryType: 'domain',
				fqdn: 'example.com',
				returnAll: true,
			},
		};
	}
	return {
		...common,
		items: BASIC_ITEMS,
		parameters: {
			resource: 'astpUrl',
			operation: 'getAll',
			credentialHash: setup.fake.dataset.credential(49).credential_hash,
			limit: BASIC_WANTED,
		},
	};
}

/** Lets the fake's rate window empty before the next variant. */
const settle = async () => await sleep(SEARCH_INTERVAL_MS + 200);

export async function runLimits(
	setups: LimitsSetup[],
	options: { n8n?: BenchN8n; log: (text: string) => void },
): Promise<LimitsRow[]> {
	const rows: LimitsRow[] = [];
	for (const setup of setups) {
		const expected = setup.kind === 'returnAll' ? setup.size! : BASIC_ITEMS * BASIC_WANTED;
		const floors: number[] = [];
		const ours: number[] = [];
		const https: number[] = [];
		const ourRatios: number[] = [];
		const httpRatios: number[] = [];
		let requests = 0;
		let ours429 = 0;
		let http429 = 0;
		let floor429 = 0;
		let oursFailed = 0;
		for (let round = 1; round <= setup.runs; round++) {
			await settle();
			let mark = setup.fake.requests.length;
			const floor = await runChild<ChildResult & { requests: number }>('floor', floorConfig(setup));
			if (floor.items !== expected) throw new Error(`limits floor: ${floor.items} of ${expected}`);
			floor429 = Math.max(floor429, counted(setup, mark).rateLimited);
			requests = floor.requests;
			floors.push(floor.wallMs);

			await settle();
			mark = setup.fake.requests.length;
			const our = await runChild<ChildResult & { errorItems: number }>('pacing', oursConfig(setup));
			const ourCount = counted(setup, mark);
			if (our.errorItems === 0 && (our.items !== expected || ourCount.accepted !== requests)) {
				throw new Error(
					`limits ours: ${our.items} of ${expected} in ${ourCount.accepted} requests (floor ${requests})`,
				);
			}
			ours429 = Math.max(ours429, ourCount.rateLimited);
			oursFailed = Math.max(oursFailed, our.errorItems);
			ours.push(our.wallMs);
			ourRatios.push(our.wallMs / floor.wallMs);
			let line = `  ${label(setup)} · round ${round}/${setup.runs}: floor ${Math.round(floor.wallMs)} ms, ours ${Math.round(our.wallMs)} ms (${ourCount.rateLimited} × 429)`;

			if (options.n8n && setup.httpWorkflow) {
				await settle();
				mark = setup.fake.requests.length;
				const execution = await options.n8n.execute(setup.httpWorkflow);
				const task = execution.run?.data.resultData.runData[MEASURED_NODE]?.[0] as
					| { executionTime?: number }
					| undefined;
				const httpCount = counted(setup, mark);
				if (execution.run?.status !== 'success' || task?.executionTime === undefined) {
					throw new Error(
						`${setup.httpWorkflow} failed (exit ${execution.exitCode}); see ${execution.outputFile}`,
					);
				}
				http429 = Math.max(http429, httpCount.rateLimited);
				https.push(task.executionTime);
				httpRatios.push(task.executionTime / floor.wallMs);
				line += `, HTTP Request ${task.executionTime} ms (${httpCount.rateLimited} × 429)`;
			}
			options.log(`${line} (load ${os.loadavg()[0].toFixed(1)})`);
		}
		const row: LimitsRow = {
			kind: setup.kind,
			size: setup.size,
			runs: setup.runs,
			label: label(setup),
			requests,
			floor: stat(floors),
			ours: stat(ours),
			oursOverFloor: ratio(stat(ourRatios).median, 1),
			ours429,
			floor429,
			oursFailed,
		};
		if (https.length) {
			row.http = stat(https);
			row.httpOverFloor = ratio(stat(httpRatios).median, 1);
			row.http429 = http429;
		}
		rows.push(row);
	}
	return rows;
}
