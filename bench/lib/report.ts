/** The benchmark's markdown report and its goal checks. */
import type { LimitsRow } from '../sections/limits';
import type { AlertLoadRow } from '../sections/alerts';
import type { MaskingRow } from '../sections/masking';
import type { PushRow } from '../sections/push';
import type { QuotaRow } from '../sections/quota';
import type { ThroughputRow } from '../sections/throughput';
import type { TokensRow } from '../sections/tokens';
import type { TriggerRow } from '../sections/trigger';
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
	limits?: LimitsRow[];
	quota?: QuotaRow[];
	trigger?: TriggerRow[];
	throughput?: ThroughputRow[];
	tokens?: TokensRow[];
	push?: PushRow[];
	alerts?: AlertLoadRow[];
	masking?: MaskingRow[];
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

/** b/a goal: 1.3, and 1.15 for 1,000,000 (issue #13). */
const bOverAGoal = (size: number) => (size >= 1_000_000 ? 1.15 : 1.3);

export function goals(results: Results): Goal[] {
	const list: Goal[] = [];
	for (const row of results.limits ?? []) {
		list.push({
			goal: `1. ${row.label}: wall, our node / perfectly paced floor; 429s`,
			target: '≤ 1.05, no 429',
			measured: `${row.oursOverFloor.toFixed(2)}, ${row.ours429} × 429${row.oursFailed ? `, ${row.oursFailed} failed item(s)` : ''}`,
			met: row.oursOverFloor <= 1.05 && row.ours429 === 0 && row.oursFailed === 0,
		});
	}
	if (results.quota?.length) {
		const over = results.quota.filter((row) => row.ours > row.minimum + 1);
		list.push({
			goal: '2. Quota units for N results, both readings',
			target: '≤ minimum + 1',
			measured: over.length
				? over
						.map((row) => `${row.reading} N=${count(row.wanted)}: ${row.ours} vs ${row.minimum}`)
						.join('; ')
				: `within for all ${results.quota.length} rows (worst: minimum + ${Math.max(...results.quota.map((row) => row.ours - row.minimum))})`,
			met: over.length === 0,
		});
	}
	if (results.trigger?.length) {
		const over = results.trigger.filter((row) => row.monthUnits > row.monthMinimum);
		list.push({
			goal: '3. Trigger: units a month',
			target: "the minimum of Flare's rule",
			measured: over.length
				? over
						.map(
							(row) =>
								`${row.reading}, ${row.intervalMinutes} min, ${row.perDay}/day: ${count(row.monthUnits)} vs ${count(row.monthMinimum)}`,
						)
						.join('; ')
				: `the minimum in all ${results.trigger.length} cases`,
			met: over.length === 0,
		});
	}
	for (const row of results.throughput ?? []) {
		list.push({
			goal: `4. Return All ${count(row.size)}: wall, our node (engine) / floor`,
			target: `≤ ${bOverAGoal(row.size)}`,
			measured: `${row.bOverA.toFixed(2)} (CPU ${row.bOverACpu.toFixed(2)})`,
			met: row.bOverA <= bOverAGoal(row.size),
		});
		if (row.bOverC) {
			list.push({
				goal: `4. Return All ${count(row.size)}: our node / HTTP Request + Split Out (real n8n), wall`,
				target: '≤ 1.0',
				measured: row.bOverC.wall.toFixed(2),
				met: row.bOverC.wall <= 1.0,
			});
			list.push({
				goal: `4. Return All ${count(row.size)}: our node / HTTP Request + Split Out (real n8n), peak memory`,
				target: '≤ 1.0',
				measured: row.bOverC.peak.toFixed(2),
				met: row.bOverC.peak <= 1.0,
			});
		}
	}
	for (const row of results.tokens ?? []) {
		list.push({
			goal: `4. Token lifetime ${row.lifetimeMs} ms: exchanges and refused requests per lifetime (worst run)`,
			target: '≤ 1 and ≤ 1',
			measured: `${row.exchangesPerLifetime.toFixed(2)} and ${row.rejectedPerLifetime.toFixed(2)}`,
			met:
				row.exchangesPerLifetime <= 1 && row.rejectedPerLifetime <= 1 && row.failedExecutions === 0,
		});
	}
	for (const row of results.alerts ?? []) {
		if (row.reference || (!row.genuine && !row.phase.includes('again'))) continue;
		list.push({
			goal: `6. ${row.phase}: each genuine alert starts exactly one execution`,
			target: 'each once',
			measured: row.eachOnce
				? `each once (${count(row.executions)} execution(s) in the phase)`
				: `${row.never} never, ${row.twice} twice`,
			met: row.eachOnce,
		});
	}
	for (const row of results.push ?? []) {
		if (!row.push) continue;
		list.push({
			goal: `5. ${row.path}: from the POST to the execution's start, p95`,
			target: '≤ 1 s',
			measured: seconds(row.p95),
			met: row.p95 <= 1000,
		});
	}
	if (results.masking?.length) {
		const [events, credentials, , ...shapes] = results.masking;
		for (const row of [events, credentials]) {
			list.push({
				goal: `8. Masking ${row.label}: CPU time / floor (JSON.stringify and one reading)`,
				target: '≤ 10',
				measured: `${row.relative?.toFixed(2)} (${row.mibPerSecond} MiB/s; floor ${row.floorMibPerSecond} MiB/s)`,
				met: (row.relative ?? Infinity) <= 10,
			});
		}
		const worst = shapes.reduce((a, b) => ((b.relative ?? 0) > (a.relative ?? 0) ? b : a));
		list.push({
			goal: '8. Masking the worst adversarial shape: CPU time a byte / ordinary text',
			target: '≤ 3',
			measured: `${worst.relative?.toFixed(2)} (${worst.label}, ${worst.mibPerSecond} MiB/s)`,
			met: (worst.relative ?? Infinity) <= 3,
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
			(machine.loadAverageEnd
				? `, at end ${machine.loadAverageEnd.map((value) => value.toFixed(2)).join(' / ')}`
				: '') +
			`; ${machine.date}.`,
		'',
		`Command: \`${results.command}\`. Each figure is the median of the runs shown.` +
			(results.durationSeconds
				? ` The benchmark took ${Math.round(results.durationSeconds)} s.`
				: ''),
		'',
	);

	if (results.limits?.length) {
		out.push(
			"### 1. Under Flare's documented limits (Search 1/s, Basic 4/s, 429 without Retry-After)",
			'',
			'| Read | Requests | Runs | Floor (perfect pacer) | Our node | Ours / floor | Our 429s | HTTP Request, paced by its interval | HTTP / floor | HTTP 429s |',
			'|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
		);
		for (const row of results.limits) {
			out.push(
				`| ${row.label} | ${row.requests} | ${row.runs} | ${seconds(row.floor.median)} | ${seconds(row.ours.median)} | ${row.oursOverFloor.toFixed(2)} | ${row.ours429} | ${row.http ? seconds(row.http.median) : '–'} | ${row.httpOverFloor?.toFixed(2) ?? '–'} | ${row.http429 ?? '–'} |`,
			);
		}
		out.push(
			'',
			"Wall time from the first request to the last item, the token exchanged before; ratios are the median of each round's ratio (the variants run in turn in each round). The floor sends the same requests as our node, each exactly one interval after the one before (or when the answer before is read, if later). The HTTP Request node (real n8n, Interval Between Requests 1,000 ms, then Split Out) is timed by n8n, its token exchange included.",
			'',
		);
	}

	if (results.quota?.length) {
		out.push(
			'### 2. Global-search quota units to deliver N results',
			'',
			'| Reading | N | Minimum ceil(N / 100) | Our node (requests) | HTTP Request, size 100 + Max Pages (requests) | HTTP Request, size 10,000 + Max Pages (requests) |',
			'|---|---:|---:|---:|---:|---:|',
		);
		for (const row of results.quota) {
			const http = (units?: number, requests?: number) =>
				units === undefined ? '–' : `${count(units)} (${requests})`;
			out.push(
				`| ${row.reading} | ${row.returnAll ? `Return All of ${count(row.wanted)}` : count(row.wanted)} | ${count(row.minimum)} | ${count(row.ours)} (${row.ourRequests}) | ${http(row.httpSmall, row.httpSmallRequests)} | ${http(row.httpLargest, row.httpLargestRequests)} |`,
			);
		}
		out.push(
			'',
			'Units as the fake counts them (test/fake-flare/README.md, "Global-search quota"): per 10-minute session of one query, one unit per 100 results requested (`size`) or returned, at least one. Each measurement is a session of its own. Return All rows of the HTTP Request node page to the end.',
			'',
		);
	}

	if (results.trigger?.length) {
		out.push(
			'### 3. Flare Trigger: global-search units a month',
			'',
			'| Reading | Poll interval | New credentials a day | Simulated | Polls | Searches | Results | Units | Units a month | Minimum a month |',
			'|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
		);
		for (const row of results.trigger) {
			out.push(
				`| ${row.reading} | ${row.intervalMinutes} min | ${count(row.perDay)} | ${row.hours} h | ${count(row.polls)} | ${count(row.requests)} | ${count(row.results)} | ${count(row.units)} | ${count(row.monthUnits)} | ${count(row.monthMinimum)} |`,
			);
		}
		out.push(
			'',
			"One simulated day per row (12 hours at 1-minute polls), scaled to 30 days: the real trigger (n8n-core's PollContext) against the fake with its quota, the process's clock (the node's and the fake's) moved one interval before each poll, new credentials added at import times spread evenly over the day. The activation's search is left out. Minimum: one unit per 10-minute session that holds a poll (Flare: a search repeated or adjusted within 10 minutes is the same search), plus one per 100 new results in a session. A poll whose first search arrives a few milliseconds earlier after its session's start than the one 10 minutes before joins that session, so a run can cost a little less than that count.",
			'',
		);
	}

	if (results.throughput?.length) {
		out.push(
			'### 4a. Return All, largest page (10,000), no rate limit: wall time · peak memory',
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
			'Both (a) and (b) send the same requests: a first page of 100, then pages of 10,000 from the start. Wall time: (a) and (b, engine) from the first request (token exchange included) to the last item, in a process of their own; in the real n8n, the execution time n8n records for the sub-workflow that runs the measured nodes. CPU: user + system time of the process over the same span. Peak memory: the peak resident set (VmHWM) of the whole process, n8n included (about 0.4–0.5 GiB before any item). Neither node paces here: the pace of our node is lifted in the real n8n too (bench/probe.cjs), as in the engine, since the HTTP Request node does not pace.',
			'',
		);
	}

	if (results.tokens?.length) {
		out.push(
			'### 4b. Token exchanges over repeated executions',
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

	if (results.push?.length) {
		out.push(
			'### 5. From a Flare alert to the execution: push and poll',
			'',
			'| Path | Alerts | Executions | To the execution: p50 | p95 | Max | To the answer: p50 | p95 |',
			'|---|---:|---:|---:|---:|---:|---:|---:|',
		);
		const answered = (ms?: number) => (ms === undefined ? '–' : seconds(ms));
		for (const row of results.push) {
			out.push(
				`| ${row.path} | ${row.samples} | ${row.executions} | ${seconds(row.p50)} | ${seconds(row.p95)} | ${seconds(row.max)} | ${answered(row.answeredP50)} | ${answered(row.answeredP95)} |`,
			);
		}
		out.push(
			'',
			"A real n8n (`n8n start`, SQLite, regular mode, n8n's default settings) with the workflows published. Push: alerts POSTed by the fake's alert channel to the Flare Alert Trigger's production URL (signed), then the same to n8n's own Webhook node (Respond Immediately) for reference, one at a time (each once the one before was answered), then all at once; the rows marked `N8N_EXPRESSION_ENGINE=legacy` again after a restart of n8n with its in-process expression engine: n8n 2.x's default engine holds an expression isolate (a pool of one, `N8N_EXPRESSION_ENGINE_POOL_SIZE`) through each request of a webhook trigger other than its own Webhook node, so requests at once wait for each other. Poll: new events entering the fake's tenant feed evenly over a few minutes while the Flare Trigger (New Event) polls every minute, n8n's shortest interval. To the execution: from the POST, or the event's arrival in the feed, to the start of the execution that carries it, as n8n records it (`startedAt`); to the answer: from the POST to n8n's answer. Percentiles by nearest rank.",
			'',
		);
	}

	if (results.alerts?.length) {
		out.push(
			'### 6. The Flare Alert Trigger under load',
			'',
			"| Phase | Requests | n8n's answers | Span | Answer p50 | p95 | Max | Executions | Each genuine alert once | POST to execution, p95 | n8n's memory: before → peak → after | n8n's log: lines (refusals) · bytes |",
			'|---|---:|---|---:|---:|---:|---:|---:|---|---:|---:|---:|',
		);
		for (const row of results.alerts) {
			const answers = Object.entries(row.answers)
				.sort((a, b) => b[1] - a[1])
				.map(([answer, times]) => `${count(times)} × ${answer}`)
				.join('; ');
			out.push(
				`| ${row.phase} | ${count(row.requests)} | ${answers} | ${seconds(row.spanMs)} | ${seconds(row.answerP50)} | ${seconds(row.answerP95)} | ${seconds(row.answerMax)} | ${count(row.executions)} | ${row.genuine || row.phase.includes('again') ? `${yes(row.eachOnce)}${row.eachOnce ? '' : `: ${row.never} never, ${row.twice} twice`}${row.retries ? ` (${count(row.retries)} sent again)` : ''}` : '–'} | ${row.startP95 === undefined ? '–' : seconds(row.startP95)} | ${mib(row.rssBeforeMiB)} → ${mib(row.rssPeakMiB)} → ${mib(row.rssAfterMiB)} | ${count(row.logLines)} (${count(row.refusalLines)}) · ${count(row.logBytes)} B |`,
			);
		}
		out.push(
			'',
			"A real n8n (`n8n start`, SQLite, regular mode, n8n's default settings) with two published workflows, the Flare Alert Trigger (Request Signature) → No Operation and n8n's own Webhook node (Header Auth) → No Operation. The burst: different signed alerts POSTed at once by the fake's alert channel (each sent again until answered 2xx, as below), then the same alerts again at once, each signed anew as Flare signs a retry, and the same burst to n8n's own Webhook node with Header Auth, for reference. The floods: requests signed with another secret, then without a signature, each a different body, sent at a steady rate (at most 256 in flight: beyond, the sender waits), while genuine signed alerts are sent at a steady pace, each sent again after an answer other than 2xx (signed anew, 5 s later, then twice as long each time, 7 attempts in all), as Flare retries; then the same against n8n's own Webhook node with Header Auth (a wrong header value; genuine requests with the right one), for reference; last, the burst again after a restart of n8n with its in-process expression engine (`N8N_EXPRESSION_ENGINE=legacy`): n8n 2.41 holds an expression isolate through each request of a webhook trigger other than its own Webhook node and starts a new one when its pool (one by default) is in use. Answers: status and message as n8n gave them; failed: no answer within 30 s. Executions: those that started during the phase, whatever they carried; each genuine alert once: it is in exactly one execution in all. Memory: the resident set (VmRSS) of n8n's main process, sampled every 200 ms, 5 s before the phase and once its executions were counted. Log: what n8n printed during the phase (console, info level), and of that the trigger's lines of refusals.",
			'',
		);
	}

	if (results.masking?.length) {
		out.push(
			'### 8. Masking',
			'',
			'| What is masked | MiB | CPU (median) | MiB/s | Relative |',
			'|---|---:|---:|---:|---:|',
		);
		results.masking.forEach((row, index) => {
			const relative = index < 2 ? `${row.relative?.toFixed(2)} × floor (${row.floorMibPerSecond} MiB/s)` : `${row.relative?.toFixed(2)} × ordinary a byte`;
			out.push(`| ${row.label} | ${row.mib} | ${row.cpuMs} ms | ${row.mibPerSecond} | ${relative} |`);
		});
		out.push(
			'',
			"CPU time of masking (the package as n8n loads it, `dist/`), the median of the runs, each on a fresh copy. Records: the fake's full events of one tenant and a page of credentials, with `protectLeakedValues` (Masked); the floor, measured in the same run on the same records: `JSON.stringify` and one reading of each character. Texts: 1 MiB each with `maskFreeText`; the adversarial shapes are test/support/adversarial.ts's, whose time the time property checks for linearity (test/unit/masking-time.test.ts).",
			'',
		);
	}

	if (results.goals?.length) {
		out.push('### Goals', '', '| Goal | Target | Measured | Met |', '|---|---|---|---|');
		for (const goal of results.goals)
			out.push(`| ${goal.goal} | ${goal.target} | ${goal.measured} | ${yes(goal.met)} |`);
		out.push('');
	}
	for (const error of results.errors) out.push(`**${error.section} failed:** ${error.message}`, '');
	return out.join('\n');
}
