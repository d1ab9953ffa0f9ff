/** The benchmark's markdown report and its goal checks. */
import type { CallsRow } from '../sections/calls';
import type { PacingRow } from '../sections/pacing';
import type { ThroughputRow } from '../sections/throughput';
import type { TokensRow } from '../sections/tokens';
import { count, mib, seconds } from './stats';

export interface Machine {
	cpu: string;
	cores: number;
	memoryGiB: number;
	os: string;
	node: string;
	n8n?: string;
	loadAverage: number[];
	/** Load average when the benchmark ended: other work on the machine makes figures noisy. */
	loadAverageEnd?: number[];
	date: string;
}

export interface Results {
	command: string;
	mode: 'quick' | 'full';
	machine: Machine;
	durationSeconds?: number;
	throughput?: ThroughputRow[];
	calls?: CallsRow[];
	pacing?: PacingRow[];
	tokens?: TokensRow[];
	goals?: Goal[];
	errors: Array<{ section: string; message: string }>;
}

export interface Goal {
	goal: string;
	target: string;
	measured: string;
	met: boolean;
}

const cell = (wallMs: number, peakMiB: number) => `${seconds(wallMs)} · ${mib(peakMiB)}`;
const yes = (met: boolean) => (met ? 'yes' : '**no**');

export function goals(results: Results): Goal[] {
	const list: Goal[] = [];
	for (const row of results.throughput ?? []) {
		list.push({
			goal: `Return All ${count(row.size)}: wall, our node (engine) / floor`,
			target: '≤ 1.3',
			measured: row.bOverA.toFixed(2),
			met: row.bOverA <= 1.3,
		});
		if (row.bOverC) {
			list.push({
				goal: `Return All ${count(row.size)}: our node / HTTP Request + Split Out (real n8n), wall`,
				target: '≤ 1.0',
				measured: row.bOverC.wall.toFixed(2),
				met: row.bOverC.wall <= 1.0,
			});
			list.push({
				goal: `Return All ${count(row.size)}: our node / HTTP Request + Split Out (real n8n), peak memory`,
				target: '≤ 1.0',
				measured: row.bOverC.peak.toFixed(2),
				met: row.bOverC.peak <= 1.0,
			});
		}
	}
	if (results.calls?.length) {
		const off = results.calls.filter((row) => row.ours !== row.minimum);
		list.push({
			goal: 'Global search calls for N results',
			target: '= ceil(N / 10,000)',
			measured: off.length
				? off.map((row) => `N=${count(row.wanted)}: ${row.ours} vs ${row.minimum}`).join('; ')
				: `minimum for all ${results.calls.length} N`,
			met: off.length === 0,
		});
	}
	for (const row of results.pacing ?? []) {
		list.push({
			goal: `Under limits (${row.tier} ${row.rate}/s, Retry-After ${row.retryAfter}): wall / minimum, failed items`,
			target: '≤ 1.15, none failed',
			measured: `${row.overMinimum.toFixed(2)}, ${row.failedItems} failed`,
			met: row.overMinimum <= 1.15 && row.failedItems === 0,
		});
	}
	for (const row of results.tokens ?? []) {
		list.push({
			goal: `Token lifetime ${row.lifetimeMs} ms: exchanges and refused requests per lifetime (worst run)`,
			target: '≤ 1 and ≤ 1',
			measured: `${row.exchangesPerLifetime.toFixed(2)} and ${row.rejectedPerLifetime.toFixed(2)}`,
			met: row.exchangesPerLifetime <= 1 && row.rejectedPerLifetime <= 1 && row.failedExecutions === 0,
		});
	}
	return list;
}

export function markdown(results: Results): string {
	const out: string[] = [];
	const { machine } = results;
	out.push(`## Benchmark (${results.mode})`, '');
	out.push(
		`Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB RAM, ${machine.os}; ` +
			`Node.js ${machine.node} (floor and engine)${machine.n8n ? `, ${machine.n8n}` : ''}; ` +
			`load average (1 / 5 / 15 min) at start ${machine.loadAverage.map((value) => value.toFixed(2)).join(' / ')}` +
			(machine.loadAverageEnd ? `, at end ${machine.loadAverageEnd.map((value) => value.toFixed(2)).join(' / ')}` : '') +
			`; ${machine.date}.`,
		'',
		`Command: \`${results.command}\`. Each figure is the median of the runs shown.` +
			(results.durationSeconds ? ` The benchmark took ${Math.round(results.durationSeconds)} s.` : ''),
		'',
	);

	if (results.throughput?.length) {
		out.push(
			'### 1. Return All, largest page (10,000), no rate limit: wall time · peak memory',
			'',
			'| Credentials | Runs | (a) undici floor | (b) our node, engine | b/a wall (CPU) | (b) our node, real n8n | (c) HTTP Request + Split Out, real n8n | b/c wall | b/c peak | HTTP Request alone (pages as items) |',
			'|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
		);
		for (const row of results.throughput) {
			const n8n = (stat?: { median: number; peakMiB: { median: number } }) =>
				stat ? cell(stat.median, stat.peakMiB.median) : '–';
			out.push(
				`| ${count(row.size)} | ${row.runs} | ${cell(row.floor.median, row.floor.peakMiB.median)} | ${cell(row.engine.median, row.engine.peakMiB.median)} | ${row.bOverA.toFixed(2)} (${row.bOverACpu.toFixed(2)}) | ${n8n(row.n8nOurs)} | ${n8n(row.n8nHttpSplit)} | ${row.bOverC?.wall.toFixed(2) ?? '–'} | ${row.bOverC?.peak.toFixed(2) ?? '–'} | ${n8n(row.n8nHttpPages)} |`,
			);
		}
		out.push(
			'',
			'Wall time: (a) and (b, engine) from the first request (token exchange included) to the last item, in a process of their own; in the real n8n, the execution time n8n records for the sub-workflow that runs the measured nodes. CPU: user + system time of the process over the same span. Peak memory: the peak resident set (VmHWM) of the whole process, n8n included (about 0.4–0.5 GiB before any item).',
			'',
		);
	}

	if (results.calls?.length) {
		out.push(
			'### 2. Global search calls to deliver N results',
			'',
			'| N wanted | Minimum ceil(N / 10,000) | Our node | HTTP Request, size 100 + Max Pages | HTTP Request, default size, to the end |',
			'|---:|---:|---:|---:|---:|',
		);
		for (const row of results.calls) {
			out.push(
				`| ${count(row.wanted)}${row.returnAll ? ' (Return All)' : ''} | ${row.minimum} | ${row.ours} | ${row.httpCareful ?? '–'} | ${row.httpDefault ?? '–'} |`,
			);
		}
		out.push('');
	}

	if (results.pacing?.length) {
		out.push(
			'### 3. Under tier rate limits: 20 items × 3 pages (60 requests)',
			'',
			'| Tier | Limit | Retry-After | Runs | Minimum | Wall | Wall / minimum | 429s | Failed items |',
			'|---|---:|---|---:|---:|---:|---:|---:|---:|',
		);
		for (const row of results.pacing) {
			const limit =
				row.rate === row.documented
					? `${row.rate}/s (real)`
					: `${row.rate}/s (${row.documented}/s × ${row.rate / row.documented})`;
			out.push(
				`| ${row.tier === 'search' ? 'Search' : 'Basic'} | ${limit} | ${row.retryAfter === 'none' ? 'none (waits 10 s)' : row.retryAfter} | ${row.runs} | ${seconds(row.minimumMs)} | ${seconds(row.wall.median)} | ${row.overMinimum.toFixed(2)} | ${row.rateLimited.median} | ${row.failedItems} |`,
			);
		}
		out.push('');
	}

	if (results.tokens?.length) {
		out.push(
			'### 4. Token exchanges over repeated executions',
			'',
			'| Token lifetime | Executions | Runs | Span | Lifetimes spanned | Exchanges | Refused (401) | Exchanges / lifetime | Refused / lifetime |',
			'|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
		);
		for (const row of results.tokens) {
			out.push(
				`| ${row.lifetimeMs} ms | ${row.executions} | ${row.runs} | ${seconds(row.spanMs.median)} | ${row.lifetimes.median} | ${row.exchanges.median} | ${row.rejected.median} | ${row.exchangesPerLifetime.toFixed(2)} | ${row.rejectedPerLifetime.toFixed(2)} |`,
			);
		}
		out.push('', 'Per lifetime: the worst run.', '');
	}

	if (results.goals?.length) {
		out.push('### Goals', '', '| Goal | Target | Measured | Met |', '|---|---|---|---|');
		for (const goal of results.goals) out.push(`| ${goal.goal} | ${goal.target} | ${goal.measured} | ${yes(goal.met)} |`);
		out.push('');
	}
	for (const error of results.errors) out.push(`**${error.section} failed:** ${error.message}`, '');
	return out.join('\n');
}
