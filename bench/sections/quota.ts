/**
 * Section 2. Global-search quota units spent to deliver N results, under both readings of Flare's
 * rule (units count the results requested, `size`, or those returned: the fake's `quotaReading`), as
 * the fake counts them (test/fake-flare/README.md, "Global-search quota"):
 *   - ours, in the engine: Limit = N, and Return All of 3 and of 30,000 results;
 *   - the minimum, ceil(N / 100) (one unit per 100 results, at least one);
 *   - n8n's HTTP Request node in the real n8n, as users set it up: `size` 100 with "Limit Pages
 *     Fetched" at ceil(N / 100), or the largest page (`size` 10,000) with ceil(N / 10,000) pages; for
 *     Return All, to the end.
 * Each measurement is a search session of its own: the fake's clock moves 10 minutes on before it.
 */
import { FakeFlare, QUOTA_SESSION_MS, RESULTS_PER_UNIT } from '../../test/fake-flare';
import { harnessFor, runFlareNode } from '../lib/engine';
import type { BenchN8n } from '../lib/n8n';
import { httpSearch, plainWorkflow, type Workflow } from '../lib/workflows';

type Reading = 'returned' | 'requested';
export const READINGS: Reading[] = ['returned', 'requested'];
const FEW_DOMAIN = 'few.example';
const FEW = 3;
const YEAR_MS = 365 * 24 * 3600_000;

interface Measure {
	/** Results wanted: the Limit, or what Return All finds. */
	wanted: number;
	returnAll: boolean;
	fqdn: string;
}

export interface QuotaRow extends Measure {
	reading: Reading;
	delivered: number;
	minimum: number;
	ours: number;
	ourRequests: number;
	httpSmall?: number;
	httpSmallRequests?: number;
	httpLargest?: number;
	httpLargestRequests?: number;
}

interface ReadingSetup {
	reading: Reading;
	fake: FakeFlare;
	/** Workflow ids by measure: HTTP Request with size 100, and with size 10,000. */
	workflows: Map<string, { small: string; largest: string }>;
}

export interface QuotaSetup {
	measures: Measure[];
	readings: ReadingSetup[];
}

const keyOf = (measure: Measure) => `${measure.returnAll ? 'all' : 'limit'}${measure.wanted}`;

export async function prepareQuota(
	total: number,
	limits: number[],
): Promise<{
	setup: QuotaSetup;
	workflows: Workflow[];
	credentials: Array<{ id: string; name: string; type: string; data: Record<string, unknown> }>;
}> {
	const measures: Measure[] = [
		...limits.map((wanted) => ({ wanted, returnAll: false, fqdn: 'example.com' })),
		{ wanted: FEW, returnAll: true, fqdn: FEW_DOMAIN },
		{ wanted: total, returnAll: true, fqdn: 'example.com' },
	];
	const workflows: Workflow[] = [];
	const credentials = [];
	const readings: ReadingSetup[] = [];
	for (const reading of READINGS) {
		const fake = await FakeFlare.start({
			credentials: total,
			domains: ['example.com'],
			quirks: { emptyPageEvery: 0, shortPageEvery: 0 },
			quotaReading: reading,
			// The clock moves 10 minutes per measurement: tokens outlive the run.
			tokenLifetimeMs: YEAR_MS,
		});
		fake.addCredentials(FEW, undefined, { domain: FEW_DOMAIN });
		const credentialId = `benchQuota${reading}`;
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
		const ids = new Map<string, { small: string; largest: string }>();
		for (const measure of measures) {
			const pages = (size: number) =>
				measure.returnAll ? undefined : Math.ceil(measure.wanted / size);
			const small = plainWorkflow(
				`benchQuota${reading}Small${keyOf(measure)}`,
				`Bench: HTTP Request, size 100, ${keyOf(measure)} (${reading})`,
				[httpSearch(credentialId, fake.url, 100, pages(100), { fqdn: measure.fqdn })],
			);
			const largest = plainWorkflow(
				`benchQuota${reading}Largest${keyOf(measure)}`,
				`Bench: HTTP Request, size 10,000, ${keyOf(measure)} (${reading})`,
				[httpSearch(credentialId, fake.url, 10_000, pages(10_000), { fqdn: measure.fqdn })],
			);
			workflows.push(small, largest);
			ids.set(keyOf(measure), { small: small.id, largest: largest.id });
		}
		readings.push({ reading, fake, workflows: ids });
	}
	return { setup: { measures, readings }, workflows, credentials };
}

/** Units and search requests since `mark`, in a session of their own. */
const tally = (fake: FakeFlare, mark: number) => {
	const searches = fake.globalSearches(mark);
	return { units: searches.quotaCharged, requests: searches.requests };
};

async function httpUnits(
	n8n: BenchN8n,
	fake: FakeFlare,
	workflowId: string,
): Promise<{ units: number; requests: number }> {
	fake.advanceClock(QUOTA_SESSION_MS);
	const mark = fake.requests.length;
	const execution = await n8n.execute(workflowId);
	if (execution.run?.status !== 'success') {
		throw new Error(
			`${workflowId} failed (exit ${execution.exitCode}); see ${execution.outputFile}`,
		);
	}
	return tally(fake, mark);
}

export async function runQuota(
	setup: QuotaSetup,
	options: { n8n?: BenchN8n; log: (text: string) => void },
): Promise<QuotaRow[]> {
	const rows: QuotaRow[] = [];
	for (const { reading, fake, workflows } of setup.readings) {
		const harness = await harnessFor(fake.url, fake.apiKeys.full);
		for (const measure of setup.measures) {
			fake.advanceClock(QUOTA_SESSION_MS);
			const mark = fake.requests.length;
			const result = await runFlareNode(harness, {
				resource: 'leakedCredential',
				operation: 'search',
				queryType: 'domain',
				fqdn: measure.fqdn,
				...(measure.returnAll ? { returnAll: true } : { limit: measure.wanted }),
			});
			if (result.error) throw new Error(`quota, ${keyOf(measure)}: ${result.error}`);
			if (result.items !== measure.wanted) {
				throw new Error(`quota, ${keyOf(measure)}: ${result.items} results delivered`);
			}
			const ours = tally(fake, mark);
			const row: QuotaRow = {
				...measure,
				reading,
				delivered: result.items,
				minimum: Math.max(1, Math.ceil(measure.wanted / RESULTS_PER_UNIT)),
				ours: ours.units,
				ourRequests: ours.requests,
			};
			if (options.n8n) {
				const ids = workflows.get(keyOf(measure))!;
				const small = await httpUnits(options.n8n, fake, ids.small);
				const largest = await httpUnits(options.n8n, fake, ids.largest);
				row.httpSmall = small.units;
				row.httpSmallRequests = small.requests;
				row.httpLargest = largest.units;
				row.httpLargestRequests = largest.requests;
			}
			options.log(
				`  ${reading}, ${measure.returnAll ? 'Return All of ' : 'N = '}${measure.wanted}: ours ${row.ours} unit(s) in ${row.ourRequests} request(s), minimum ${row.minimum}` +
					(row.httpSmall === undefined
						? ''
						: `, HTTP size 100 ${row.httpSmall}, HTTP size 10,000 ${row.httpLargest}`),
			);
			rows.push(row);
		}
	}
	return rows;
}
