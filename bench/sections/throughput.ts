/**
 * Goal 1. Return All of N credentials at the largest page (10,000), no rate limit, against the fake
 * on loopback: wall time and peak memory of
 *   (a) the floor: a bare undici loop (bench/child/floor.ts), in its own Node.js process;
 *   (b) our node, twice: in n8n-core's WorkflowExecute through the test harness, in its own process
 *       on the same Node.js as (a) (b/a compares these); and in the real n8n 2.41.1 (Node.js 24);
 *   (c) n8n's HTTP Request node with its pagination, in the same real n8n, followed by a Split Out on
 *       `items` so that it delivers one item per credential as our node does; and, for reference, the
 *       HTTP Request node alone (one item per page).
 * Every variant runs once per round, in turn, so that drift of the machine affects all alike.
 */
import { FakeFlare } from '../../test/fake-flare';
import { os } from '../../test/support/node';
import type { FloorConfig } from '../child/floor';
import type { BenchN8n } from '../lib/n8n';
import { type ChildResult, runChild } from '../lib/proc';
import { ratio, type Stat, stat } from '../lib/stats';
import {
	flareSearch,
	httpSearch,
	MEASURED_NODE,
	measuredPair,
	SEARCH_PATH,
	splitItems,
	type Workflow,
} from '../lib/workflows';

const PAGE = 10_000;
/** Return All's first page, as our node sends it (where the quota counts results). */
const FIRST_PAGE = 100;

export interface ThroughputRow {
	size: number;
	runs: number;
	pages: number;
	floor: Stat & { peakMiB: Stat; cpuMs: Stat };
	engine: Stat & { peakMiB: Stat; cpuMs: Stat };
	n8nOurs?: Stat & { peakMiB: Stat };
	n8nHttpSplit?: Stat & { peakMiB: Stat };
	n8nHttpPages?: Stat & { peakMiB: Stat };
	/** Wall of our node in the engine over the floor (goal ≤ 1.3). */
	bOverA: number;
	/** The same for CPU time: less sensitive to other load on the machine. */
	bOverACpu: number;
	/** Our node over the HTTP Request node with Split Out, both in the real n8n (goal ≤ 1.0). */
	bOverC?: { wall: number; peak: number };
	/** Our node over the HTTP Request node alone (pages as items). */
	bOverCPages?: { wall: number; peak: number };
}

interface Setup {
	size: number;
	fake: FakeFlare;
	credentialId: string;
	workflows: { ours: string; httpSplit: string; httpPages: string };
}

/** Starts a fake per size and returns the workflows the real n8n must know. */
export async function prepareThroughput(sizes: number[]): Promise<{
	setups: Setup[];
	workflows: Workflow[];
	credentials: Array<{ id: string; name: string; type: string; data: Record<string, unknown> }>;
}> {
	const setups: Setup[] = [];
	const workflows: Workflow[] = [];
	const credentials = [];
	for (const size of sizes) {
		const fake = await FakeFlare.start({
			credentials: size,
			domains: ['example.com'],
			quirks: { emptyPageEvery: 0, shortPageEvery: 0 },
		});
		const credentialId = `benchThroughput${size}`;
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
		const ours = measuredPair(`benchOurs${size}`, `Bench: Flare node, Return All of ${size}`, [
			flareSearch(credentialId, 'all'),
		]);
		const httpSplit = measuredPair(
			`benchHttpSplit${size}`,
			`Bench: HTTP Request + Split Out, all of ${size}`,
			[httpSearch(credentialId, fake.url, PAGE), splitItems()],
		);
		const httpPages = measuredPair(`benchHttpPages${size}`, `Bench: HTTP Request, all of ${size}`, [
			httpSearch(credentialId, fake.url, PAGE),
		]);
		workflows.push(
			ours.child,
			ours.parent,
			httpSplit.child,
			httpSplit.parent,
			httpPages.child,
			httpPages.parent,
		);
		setups.push({
			size,
			fake,
			credentialId,
			workflows: {
				ours: ours.parent.id,
				httpSplit: httpSplit.parent.id,
				httpPages: httpPages.parent.id,
			},
		});
	}
	return { setups, workflows, credentials };
}

const searches = (fake: FakeFlare, from: number) =>
	fake.requests
		.slice(from)
		.filter((request) => request.path === SEARCH_PATH && request.status === 200).length;

/** One run of a workflow in the real n8n: the measured node's time and the process's peak memory. */
async function n8nSample(
	n8n: BenchN8n,
	setup: Setup,
	workflowId: string,
	check: (last: Record<string, unknown>) => boolean,
	extraRequests = 0,
): Promise<{ wallMs: number; peakMiB: number }> {
	const mark = setup.fake.requests.length;
	// No rate limit here: our node's pace is lifted in n8n as in the engine child.
	const execution = await n8n.execute(workflowId, { unpaced: true });
	const task = execution.run?.data.resultData.runData[MEASURED_NODE]?.[0] as
		| { executionTime?: number; data?: { main?: Array<Array<{ json: Record<string, unknown> }>> } }
		| undefined;
	const last = task?.data?.main?.[0]?.[0]?.json;
	const pages = Math.ceil(setup.size / PAGE) + extraRequests;
	if (
		execution.run?.status !== 'success' ||
		task?.executionTime === undefined ||
		!last ||
		!check(last)
	) {
		throw new Error(
			`${workflowId} did not deliver the walk (status ${execution.run?.status}, exit ${execution.exitCode}); see ${execution.outputFile}`,
		);
	}
	if (searches(setup.fake, mark) !== pages) {
		throw new Error(
			`${workflowId}: ${searches(setup.fake, mark)} pages fetched, expected ${pages}`,
		);
	}
	return { wallMs: task.executionTime, peakMiB: execution.peakMiB };
}

function summary(samples: Array<{ wallMs: number; peakMiB: number }>): Stat & { peakMiB: Stat } {
	return {
		...stat(samples.map((sample) => sample.wallMs)),
		peakMiB: stat(samples.map((sample) => sample.peakMiB)),
	};
}

function childSummary(samples: ChildResult[]): Stat & { peakMiB: Stat; cpuMs: Stat } {
	return { ...summary(samples), cpuMs: stat(samples.map((sample) => sample.cpuMs ?? NaN)) };
}

export async function runThroughput(
	setups: Setup[],
	options: { runs: (size: number) => number; n8n?: BenchN8n; log: (text: string) => void },
): Promise<ThroughputRow[]> {
	const rows: ThroughputRow[] = [];
	for (const setup of setups) {
		const { size, fake } = setup;
		const runs = options.runs(size);
		const pages = Math.ceil(size / PAGE);
		const samples = {
			floor: [] as ChildResult[],
			engine: [] as ChildResult[],
			ours: [] as Array<{ wallMs: number; peakMiB: number }>,
			httpSplit: [] as Array<{ wallMs: number; peakMiB: number }>,
			httpPages: [] as Array<{ wallMs: number; peakMiB: number }>,
		};
		// The credential record the last id of a descending walk ends with.
		const lastId = fake.dataset.credential(0).id;
		for (let round = 1; round <= runs; round++) {
			const floor = await runChild('floor', {
				baseUrl: fake.url,
				apiKey: fake.apiKeys.full,
				path: SEARCH_PATH,
				body: { query: { type: 'domain', fqdn: 'example.com' }, order: 'desc' },
				pageSize: PAGE,
				firstPageSize: FIRST_PAGE,
			} satisfies FloorConfig);
			if (floor.items !== size) throw new Error(`floor delivered ${floor.items} of ${size}`);
			samples.floor.push(floor);
			const engine = await runChild('engine', {
				baseUrl: fake.url,
				apiKey: fake.apiKeys.full,
				parameters: {
					resource: 'leakedCredential',
					operation: 'search',
					queryType: 'domain',
					fqdn: 'example.com',
					returnAll: true,
				},
			});
			if (engine.items !== size) throw new Error(`engine delivered ${engine.items} of ${size}`);
			samples.engine.push(engine);
			let line = `  ${size.toLocaleString('en-US')} · round ${round}/${runs}: floor ${Math.round(floor.wallMs)} ms, engine ${Math.round(engine.wallMs)} ms`;
			if (options.n8n) {
				const ours = await n8nSample(
					options.n8n,
					setup,
					setup.workflows.ours,
					(last) => last.id === lastId,
					1,
				);
				const httpSplit = await n8nSample(
					options.n8n,
					setup,
					setup.workflows.httpSplit,
					(last) => last.id === lastId,
				);
				const httpPages = await n8nSample(
					options.n8n,
					setup,
					setup.workflows.httpPages,
					(last) => last.next === null && Array.isArray(last.items),
				);
				samples.ours.push(ours);
				samples.httpSplit.push(httpSplit);
				samples.httpPages.push(httpPages);
				line += `, n8n: ours ${Math.round(ours.wallMs)} ms, HTTP+Split ${Math.round(httpSplit.wallMs)} ms, HTTP ${Math.round(httpPages.wallMs)} ms`;
			}
			options.log(`${line} (load ${os.loadavg()[0].toFixed(1)})`);
		}
		const row: ThroughputRow = {
			size,
			runs,
			pages,
			floor: childSummary(samples.floor),
			engine: childSummary(samples.engine),
			bOverA: 0,
			bOverACpu: 0,
		};
		row.bOverA = ratio(row.engine.median, row.floor.median);
		row.bOverACpu = ratio(row.engine.cpuMs.median, row.floor.cpuMs.median);
		if (options.n8n) {
			row.n8nOurs = summary(samples.ours);
			row.n8nHttpSplit = summary(samples.httpSplit);
			row.n8nHttpPages = summary(samples.httpPages);
			row.bOverC = {
				wall: ratio(row.n8nOurs.median, row.n8nHttpSplit.median),
				peak: ratio(row.n8nOurs.peakMiB.median, row.n8nHttpSplit.peakMiB.median),
			};
			row.bOverCPages = {
				wall: ratio(row.n8nOurs.median, row.n8nHttpPages.median),
				peak: ratio(row.n8nOurs.peakMiB.median, row.n8nHttpPages.peakMiB.median),
			};
		}
		rows.push(row);
	}
	return rows;
}
