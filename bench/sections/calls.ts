/**
 * Goal 2. Global search calls spent to deliver N results, counted in the fake's request log:
 *   - ours, for Limit = N and for Return All (in the engine: the count does not depend on the host);
 *   - the minimum, ceil(N / 10,000);
 *   - n8n's HTTP Request node in the real n8n, the two ways users set it up: `size` 100 with "Limit
 *     Pages Fetched" at ceil(N / 100) (a careful user), and without `size` (Flare's default page of
 *     10) paging until `next` is empty, then a Limit node (the quickest set-up; its count does not
 *     depend on N).
 */
import { FakeFlare } from '../../test/fake-flare';
import { harnessFor, runFlareNode } from '../lib/engine';
import type { BenchN8n } from '../lib/n8n';
import {
	httpSearch,
	keepFirst,
	MEASURED_NODE,
	measuredPair,
	SEARCH_PATH,
	splitItems,
	type Workflow,
} from '../lib/workflows';

const MAX_PAGE = 10_000;
const USER_PAGE = 100;

export interface CallsRow {
	/** Results wanted: the Limit, or the total for Return All. */
	wanted: number;
	returnAll: boolean;
	delivered: number;
	minimum: number;
	ours: number;
	httpCareful?: number;
	httpDefault?: number;
}

export interface CallsSetup {
	fake: FakeFlare;
	total: number;
	limits: number[];
	credentialId: string;
	careful: Map<number, string>;
	default: string;
}

export async function prepareCalls(total: number, limits: number[]): Promise<{
	setup: CallsSetup;
	workflows: Workflow[];
	credential: { id: string; name: string; type: string; data: Record<string, unknown> };
}> {
	const fake = await FakeFlare.start({
		credentials: total,
		domains: ['example.com'],
		quirks: { emptyPageEvery: 0, shortPageEvery: 0 },
	});
	const credentialId = 'benchCalls';
	const workflows: Workflow[] = [];
	const careful = new Map<number, string>();
	for (const wanted of [...limits, total]) {
		const pair = measuredPair(`benchCallsCareful${wanted}`, `Bench: HTTP Request, size 100, ${wanted} results`, [
			httpSearch(credentialId, fake.url, USER_PAGE, Math.ceil(wanted / USER_PAGE)),
		]);
		workflows.push(pair.child, pair.parent);
		careful.set(wanted, pair.parent.id);
	}
	const naive = measuredPair('benchCallsDefault', 'Bench: HTTP Request, default size, to the end', [
		httpSearch(credentialId, fake.url, undefined),
		splitItems(),
		keepFirst(limits[0] ?? 10),
	]);
	workflows.push(naive.child, naive.parent);
	return {
		setup: { fake, total, limits, credentialId, careful, default: naive.parent.id },
		workflows,
		credential: {
			id: credentialId,
			name: `Flare ${credentialId}`,
			type: 'flareApi',
			data: { apiKey: fake.apiKeys.full, baseUrl: fake.url, productSegment: 'firework', accessToken: '' },
		},
	};
}

const searchCalls = (fake: FakeFlare, from: number) =>
	fake.requests.slice(from).filter((request) => request.path === SEARCH_PATH).length;

async function httpCalls(n8n: BenchN8n, fake: FakeFlare, workflowId: string): Promise<number> {
	const mark = fake.requests.length;
	const execution = await n8n.execute(workflowId);
	const task = execution.run?.data.resultData.runData[MEASURED_NODE]?.[0];
	if (execution.run?.status !== 'success' || !task) {
		throw new Error(`${workflowId} failed (exit ${execution.exitCode}); see ${execution.outputFile}`);
	}
	return searchCalls(fake, mark);
}

export async function runCalls(
	setup: CallsSetup,
	options: { n8n?: BenchN8n; log: (text: string) => void },
): Promise<CallsRow[]> {
	const { fake, total } = setup;
	const harness = await harnessFor(fake.url, fake.apiKeys.full);
	const rows: CallsRow[] = [];
	const httpDefault = options.n8n ? await httpCalls(options.n8n, fake, setup.default) : undefined;
	for (const wanted of [...setup.limits, total]) {
		const returnAll = wanted === total;
		const mark = fake.requests.length;
		const result = await runFlareNode(harness, {
			resource: 'leakedCredential',
			operation: 'search',
			queryType: 'domain',
			fqdn: 'example.com',
			...(returnAll ? { returnAll: true } : { limit: wanted }),
		});
		if (result.error) throw new Error(`calls, N=${wanted}: ${result.error}`);
		const ours = searchCalls(fake, mark);
		const row: CallsRow = {
			wanted,
			returnAll,
			delivered: result.items,
			minimum: Math.ceil(wanted / MAX_PAGE),
			ours,
			httpDefault,
		};
		if (options.n8n) row.httpCareful = await httpCalls(options.n8n, fake, setup.careful.get(wanted)!);
		options.log(
			`  N=${wanted}${returnAll ? ' (Return All)' : ''}: ours ${ours}, minimum ${row.minimum}` +
				(row.httpCareful === undefined ? '' : `, HTTP size 100 ${row.httpCareful}, HTTP default ${httpDefault}`),
		);
		rows.push(row);
	}
	return rows;
}
