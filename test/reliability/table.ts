/**
 * Prints the tables of docs/reliability.md from the figures of the last jest run
 * (test-results/reliability.json, written by the jest global teardown) and from the secret scans of
 * other suites (test-results/secret-scan-<suite>.json, e.g. the e2e suite's).
 *
 *   npx tsx test/reliability/table.ts [--write] [test-results/reliability.json]
 *
 * With --write, also replaces the tables between the `reliability` markers of docs/reliability.md
 * (CI does, after every suite has run). Exits with 1 when the figures are missing or show a lost or
 * duplicated record, a write applied twice, a changed path, a secret leak or a planted leaked value in
 * output that is not Full (or a Full output that gave none back).
 */
import type { TriggerLiveFigures } from '../e2e/trigger-live';
import { writeBlock } from '../docs/blocks';
import { fs, path, processRef } from '../support/node';
import { exposedOperations, leakedValueProblems, type LeakedValueScan, type ScanSummary } from './secret-scan';
import type {
	AnswerRow,
	BadInputRow,
	BatchRow,
	FaultRow,
	FilteredWalkRow,
	HostileRow,
	MaskingRow,
	ReliabilityRow,
	WriteRow,
} from './support';

/**
 * Where the harness saw what masking was given (test/harness/exposure.ts): the operations and pickers
 * whose masking was given a planted value, which the scan would find with masking switched off.
 */
function exposureOf(scan: LeakedValueScan): string {
	const { exposed, never } = exposedOperations(scan);
	if (exposed.length + never.length === 0) return '';
	return `; masking was given a planted value in ${exposed.length} of ${exposed.length + never.length} operations and pickers (not in: ${never.join(', ') || 'none'})`;
}

interface Figures {
	generatedAt: string;
	/** When the long-proof run (npm run test:long) wrote the figures it contributed, if it did. */
	longGeneratedAt?: string;
	rows: Array<ReliabilityRow & { recorder?: string }>;
	secretScan: ScanSummary[];
	/** The Flare Trigger activated in a real n8n (test-results/trigger-live.json), when it ran. */
	triggerLive?: { figures: TriggerLiveFigures; failures: string[] };
}

const number = (value: number) => value.toLocaleString('en-US');
const sum = <T>(rows: T[], pick: (row: T) => number) => rows.reduce((total, row) => total + pick(row), 0);
const unique = <T>(values: T[]) => [...new Set(values)];
const when = (iso: string) => iso.replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
const plural = (count: number, word: string) => `${number(count)} ${word}${count === 1 ? '' : 's'}`;

/**
 * The figures of `file` (npm test's), and of the long-proof run beside it (reliability-long.json):
 * a test file that ran in both counts with its long run's rows, which cover its whole volume.
 */
function load(file: string): Figures {
	const figures = JSON.parse(fs.readFileSync(file, 'utf8')) as Figures;
	const dir = path.dirname(file);
	for (const scan of figures.secretScan) scan.source = `${file} (npm test)`;
	const longFile = path.join(dir, 'reliability-long.json');
	if (fs.existsSync(longFile)) {
		const long = JSON.parse(fs.readFileSync(longFile, 'utf8')) as Figures;
		const recorders = new Set(long.rows.map((row) => row.recorder));
		figures.rows = [...figures.rows.filter((row) => !recorders.has(row.recorder)), ...long.rows];
		figures.longGeneratedAt = long.generatedAt;
		// Its scan, written with its rows: a later long run of files that record no rows rewrites
		// secret-scan-harness-long.json alone.
		const longScans = (long.secretScan ?? []).filter((scan) => !figures.secretScan.some((own) => own.suite === scan.suite));
		figures.secretScan.push(...longScans.map((scan) => ({ ...scan, source: `${longFile} (npm run test:long)` })));
	}
	for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
		const match = /^secret-scan-(.+)\.json$/.exec(name);
		if (!match || figures.secretScan.some((scan) => scan.suite === match[1])) continue;
		const summary = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as ScanSummary;
		figures.secretScan.push({ ...summary, source: path.join(dir, name) });
	}
	const triggerLive = path.join(dir, 'trigger-live.json');
	if (fs.existsSync(triggerLive)) figures.triggerLive = JSON.parse(fs.readFileSync(triggerLive, 'utf8')) as Figures['triggerLive'];
	return figures;
}

/**
 * The suites whose secret scan reads only the files n8n wrote, not runs of this package's nodes: the
 * differential check (it compares the trigger's items itself) and the editor test. They have no
 * leaked-value row; any other suite's scan that saw no output is a problem (hostile review 49).
 */
const FILES_ONLY = ['differential', 'editor'];

function table(header: string[], rows: string[][], align: Array<'l' | 'r'>): string {
	const rule = align.map((side) => (side === 'r' ? '---:' : '---'));
	return [header, rule, ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

function outcomes(rows: FaultRow[]): string {
	const recovered = rows.filter((row) => row.outcome === 'recovered').length;
	const failed = rows.length - recovered;
	return [recovered ? `${number(recovered)} recovered` : '', failed ? `${number(failed)} failed with the decided error` : '']
		.filter(Boolean)
		.join(', ');
}

/**
 * The Flare Trigger activated in a real n8n, restarted between polls: one row of the summary, both
 * kinds (New Event since the run gained it).
 */
function triggerLiveRow(live: TriggerLiveFigures): string[] {
	const events = live.events ?? { added: [], emitted: [], executions: 0, itemsPerExecution: [], polls: 0 };
	const added = [...live.added.map(String), ...events.added];
	const emittedAll = [...live.emitted.map(String), ...events.emitted];
	const emitted = unique(emittedAll);
	const lost = added.filter((key) => !emitted.includes(key)).length;
	const restarts = live.restarts.map((row) => (row.restart === 'kill' ? 'SIGKILL' : 'SIGTERM')).join(', ');
	const withEvents = events.added.length > 0;
	return [
		`Flare Trigger activated in a real ${live.n8n.split(' on ')[0]}, polling every minute, one new credential${withEvents ? ' and one new event' : ''} per poll, n8n restarted between polls (${restarts})${withEvents ? ', refused cursors, 1,000 ignored events before one' : ''}`,
		plural(live.polls + events.polls, 'poll'),
		number(added.length),
		number(lost),
		number(emittedAll.length - emitted.length),
		`${plural(live.executions, 'execution')} of ${live.itemsPerExecution.join(', ')} items for ${plural(live.added.length, 'new credential')}${withEvents ? `, ${plural(events.executions, 'execution')} of ${events.itemsPerExecution.join(', ')} items for ${plural(events.added.length, 'new event')}` : ''}; none at activation`,
	];
}

function render(figures: Figures): { markdown: string; problems: string[] } {
	const faults = figures.rows.filter((row): row is FaultRow => row.kind === 'fault');
	const writes = figures.rows.filter((row): row is WriteRow => row.kind === 'write');
	const inputs = figures.rows.filter((row): row is BadInputRow => row.kind === 'badInput');
	const masking = figures.rows.filter((row): row is MaskingRow => row.kind === 'masking');
	const hostile = figures.rows.filter((row): row is HostileRow => row.kind === 'hostile');
	const walks = figures.rows.filter((row): row is FilteredWalkRow => row.kind === 'filteredWalk');
	const batches = figures.rows.filter((row): row is BatchRow => row.kind === 'batch');
	const answers = figures.rows.filter((row): row is AnswerRow => row.kind === 'answer');
	const problems: string[] = [];

	const lost = sum(faults, (row) => row.lost) + sum(walks, (row) => row.lost);
	const duplicated = sum(faults, (row) => row.duplicated) + sum(walks, (row) => row.duplicated);
	const outOfOrder = batches.filter((row) => !row.inOrder).length;
	if (outOfOrder) problems.push(`${outOfOrder} batched writes out of input order`);
	const untold = sum(batches, (row) => row.failed - row.toldApplied);
	if (untold) problems.push(`${untold} failed batch items not told whether Flare applied them`);
	const overBound = faults.filter((row) => row.requests > row.bound).length;
	// A write may be sent again only after a 429 (Flare did not process it).
	const twice = sum(writes, (row) => row.duplicated) + writes.filter((row) => !row.fault.startsWith('429') && row.requests > 1).length;
	const leaks = sum(figures.secretScan, (scan) => scan.leaks);
	const leakedValueScans = figures.secretScan.filter((scan) => scan.leakedValues && !FILES_ONLY.includes(scan.suite));
	for (const scan of leakedValueScans) {
		for (const problem of leakedValueProblems(scan.leakedValues!)) problems.push(`${scan.suite}: ${problem}`);
		if (scan.leakedValues!.outputs === 0) problems.push(`${scan.suite}: no output of this package's nodes was scanned for leaked values (${scan.source}: run it again)`);
	}
	if (lost) problems.push(`${lost} records lost`);
	if (duplicated) problems.push(`${duplicated} records duplicated`);
	if (overBound) problems.push(`${overBound} scenarios over the retry bound`);
	if (twice) problems.push(`${twice} writes sent or applied twice`);
	if (leaks) problems.push(`${leaks} secret leaks`);
	const hostileProblems = hostile.filter(
		(row) =>
			row.otherOrigin > 0 ||
			row.leaks > 0 ||
			row.lost > 0 ||
			row.duplicated > 0 ||
			row.requests > row.requestBound ||
			row.ms > row.msBound ||
			(row.memoryBoundMiB !== undefined && (row.memoryMiB ?? 0) > row.memoryBoundMiB),
	);
	if (hostileProblems.length) problems.push(`${hostileProblems.length} hostile scenarios over a bound`);
	const live = figures.triggerLive;
	if (live?.failures.length) problems.push(`the activated trigger: ${live.failures.length} failures`);

	const faultKinds = unique(faults.map((row) => row.fault));
	// n8n's Retry On Fail on every write operation (writes.test.ts) is not a fault of Flare's.
	const retried = writes.filter((row) => row.fault.startsWith("n8n's Retry On Fail"));
	const writeKinds = unique(writes.filter((row) => !retried.includes(row)).map((row) => row.fault));
	const retriedWrites = retried.length
		? `; n8n's Retry On Fail (3 tries) on ${plural(unique(retried.map((row) => row.operation)).length, 'write operation')}, thrown and with continue on fail`
		: '';
	const operations = unique(inputs.map((row) => row.operation));
	const runs = sum(figures.secretScan, (scan) => scan.runs);

	const summary = table(
		['What was tried', 'Scenarios or inputs', 'Records checked', 'Lost', 'Duplicated', 'Result'],
		[
			[
				`${plural(faultKinds.length, 'fault')} on paging reads (search, ASTP URLs, both identity lookups) and the trigger, at the first, a middle or the last page`,
				number(faults.length),
				number(sum(faults, (row) => row.checked)),
				number(lost),
				number(duplicated),
				`${outcomes(faults)}; requests within the retry bound in ${number(faults.length - overBound)} of ${number(faults.length)}`,
			],
			[
				`${plural(writeKinds.length, 'fault')} on writes (assign, create report request, delete; the playbooks' and MSSP writes sampled), before and after Flare processed them${retriedWrites}`,
				number(writes.length),
				'—',
				'—',
				number(twice),
				`${number(writes.filter((row) => row.outcome === 'succeeded once').length)} succeeded once, ${number(writes.filter((row) => row.outcome !== 'succeeded once').length)} failed without resending; writes applied twice: ${number(twice)}`,
			],
			[
				`Post-filtered event feeds: runs of up to ${number(Math.max(0, ...walks.map((row) => row.longestEmptyRun)))} empty pages before, between and after the matches (severity, ignored events, tags), and runs past the walk's bound (node and trigger)`,
				number(walks.length),
				number(sum(walks, (row) => row.expected)),
				number(sum(walks, (row) => row.lost)),
				number(sum(walks, (row) => row.duplicated)),
				[
					['delivered all', 'delivered every match once'],
					['failed as decided', 'failed with the decided error, naming the feed\'s own fields'],
					['stopped at the bound, went on next poll', 'stopped at the bound and went on at the next poll, every match once'],
				]
					.map(([outcome, words]) => [walks.filter((row) => row.outcome === outcome).length, words] as const)
					.filter(([count]) => count > 0)
					.map(([count, words]) => `${number(count)} ${words}`)
					.join('; '),
			],
			[
				'Batched writes (both Take Action operations): input order across action changes, repeated targets, a failure in the second of three requests (HTTP 404, 422, 502; with and without Continue On Fail)',
				number(batches.length),
				number(sum(batches, (row) => row.items)),
				'—',
				'—',
				`${number(sum(batches, (row) => row.requests))} requests, ${number(batches.filter((row) => row.inOrder).length)} of ${number(batches.length)} scenarios applied in input order; ${number(sum(batches, (row) => row.paired))} output and error items, each paired with its own input; ${number(sum(batches, (row) => row.toldApplied))} of ${number(sum(batches, (row) => row.failed))} errors say whether Flare applied the item, and those that stop the node which items it applied before`,
			],
			[
				`Unexpected answer shapes on ${plural(answers.length, 'operation')} (every operation of the node): null, numbers, texts, lists of odd entries, objects without what is read, and the real answer with every value of another JSON type`,
				`${number(sum(answers, (row) => row.shapes))} runs`,
				'—',
				'—',
				'—',
				`${number(sum(answers, (row) => row.worked))} worked (each item an object, paired); ${number(sum(answers, (row) => row.failed))} failed with the node's error saying what came; none with a JavaScript error`,
			],
			[
				`Bad inputs on ${plural(inputs.length, 'parameter')} of ${plural(operations.length - (operations.includes('Flare Trigger') ? 1 : 0), 'operation')} and the trigger (random and unicode strings, huge values, wrong types from expressions, empty values, path tricks)`,
				number(sum(inputs, (row) => row.runs)),
				'—',
				'—',
				'—',
				`${number(sum(inputs, (row) => row.rejected))} rejected before any request, naming the parameter; ${number(sum(inputs, (row) => row.worked))} worked; ${number(sum(inputs, (row) => row.notFound))} well-formed lookups of unknown IDs (404); path parameters checked in ${number(sum(inputs, (row) => row.pathsChecked))} requests, none changed the path`,
			],
			[
				`Secret scan with a recognisable API key and tokens: every output item, error message and description, and every line n8n printed or logged (${figures.secretScan.map((scan) => scan.suite).join(', ')}; in the real n8n also its database)`,
				`${number(runs)} runs`,
				number(sum(figures.secretScan, (scan) => scan.items)),
				'—',
				'—',
				`**${number(leaks)} secret leaks** in ${number(sum(figures.secretScan, (scan) => scan.errors))} errors and ${number(sum(figures.secretScan, (scan) => scan.logLines))} printed or logged lines`,
			],
			...(live ? [triggerLiveRow(live.figures)] : []),
			...leakedValueScans.map(({ suite, leakedValues: scan }) => [
				`Leaked values planted by the fake (passwords, hashes, session cookies, source-code and monitored secrets, credential lines) in every output and error of this package's nodes run with Leaked Value Output other than Full (${suite})`,
				`${number(scan!.outputs)} outputs`,
				number(scan!.items),
				'—',
				'—',
				`**${number(scan!.found)} planted values found**; with Full, ${plural(scan!.fullOutputs, 'output')} gave back ${number(scan!.fullFound)}${exposureOf(scan!)}`,
			]),
			[
				'Leaked values in default output (search, identity lookups, trigger; simplified and raw)',
				`${plural(masking.length, 'output')}`,
				number(sum(masking, (row) => row.items)),
				'—',
				'—',
				`${number(sum(masking, (row) => row.values))} leaked values, all masked`,
			],
		],
		['l', 'r', 'r', 'r', 'r', 'l'],
	);

	const perFault = table(
		['Fault', 'Operations', 'Positions', 'Scenarios', 'Records checked', 'Lost', 'Duplicated', 'Requests / bound (max)', 'Outcome'],
		faultKinds.map((fault) => {
			const rows = faults.filter((row) => row.fault === fault);
			const worst = rows.reduce((max, row) => (row.requests / row.bound > max.requests / max.bound ? row : max));
			return [
				fault,
				number(unique(rows.map((row) => row.operation)).length),
				['first', 'middle', 'last'].filter((position) => rows.some((row) => row.position === position)).join(', '),
				number(rows.length),
				number(sum(rows, (row) => row.checked)),
				number(sum(rows, (row) => row.lost)),
				number(sum(rows, (row) => row.duplicated)),
				`${worst.requests} / ${worst.bound}`,
				outcomes(rows),
			];
		}),
		['l', 'r', 'l', 'r', 'r', 'r', 'r', 'r', 'l'],
	);

	const worstOf = (rows: HostileRow[], ratio: (row: HostileRow) => number) =>
		rows.reduce((max, row) => (ratio(row) > ratio(max) ? row : max));
	const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
	const perHostile = table(
		['Hostile answer or setting', 'Scenarios', 'To another origin', 'Secrets leaked', 'Lost', 'Duplicated', 'Requests / bound (max)', 'Time / bound (max)', 'Memory / bound', 'Outcome'],
		unique(hostile.map((row) => row.fault)).map((fault) => {
			const rows = hostile.filter((row) => row.fault === fault);
			const requests = worstOf(rows, (row) => row.requests / row.requestBound);
			const time = worstOf(rows, (row) => row.ms / row.msBound);
			const measured = rows.filter((row) => row.memoryBoundMiB !== undefined);
			const memory = measured.length ? worstOf(measured, (row) => (row.memoryMiB ?? 0) / row.memoryBoundMiB!) : undefined;
			const recovered = rows.filter((row) => row.outcome === 'recovered').length;
			return [
				fault,
				number(rows.length),
				number(sum(rows, (row) => row.otherOrigin)),
				number(sum(rows, (row) => row.leaks)),
				number(sum(rows, (row) => row.lost)),
				number(sum(rows, (row) => row.duplicated)),
				`${requests.requests} / ${requests.requestBound}`,
				`${seconds(time.ms)} / ${seconds(time.msBound)}`,
				memory ? `${Math.round(memory.memoryMiB ?? 0)} / ${memory.memoryBoundMiB} MiB` : '—',
				[recovered ? `${recovered} recovered` : '', rows.length - recovered ? `${rows.length - recovered} failed with the decided error` : '']
					.filter(Boolean)
					.join(', '),
			];
		}),
		['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'l'],
	);

	const markdown = [
		`Figures of the test run of ${when(figures.generatedAt)}${figures.longGeneratedAt ? ` and of the long-proof run of ${when(figures.longGeneratedAt)}` : ''}, printed by \`npx tsx test/reliability/table.ts\`.`,
		'',
		summary,
		'',
		'Faults on paging reads and the trigger, by fault:',
		'',
		perFault,
		'',
		'Hostile answers and settings (redirects, waits, bodies and walks that would not end, credential edits), by class:',
		'',
		perHostile,
	].join('\n');
	return { markdown, problems };
}

/** Every kind of row a whole jest run records. */
const RECORDED_KINDS: Array<ReliabilityRow['kind']> = ['fault', 'write', 'badInput', 'masking', 'hostile'];

/** The page that shows the tables (run from the repository's root, as the figures' default). */
const DOCS = path.resolve('docs', 'reliability.md');

function main(): void {
	const args = processRef.argv.slice(2);
	const write = args.includes('--write');
	const file = args.find((arg) => arg !== '--write') ?? path.resolve('test-results', 'reliability.json');
	if (!fs.existsSync(file)) {
		processRef.stderr.write(`No figures at ${file}: run the tests first (npm test).\n`);
		processRef.exitCode = 1;
		return;
	}
	const figures = load(file);
	const { markdown, problems } = render(figures);
	processRef.stdout.write(`${markdown}\n`);
	// A run of some suites only would replace the published tables with a part of them.
	const missing = RECORDED_KINDS.filter((kind) => !figures.rows.some((row) => row.kind === kind));
	if (write && missing.length > 0) {
		processRef.stderr.write(
			`Not written to ${path.relative(processRef.cwd(), DOCS)}: the figures have no ${missing.join(', ')} rows; run the whole suite (npm test) first.\n`,
		);
		processRef.exitCode = 1;
	} else if (write) {
		writeBlock(DOCS, 'reliability', markdown);
		processRef.stdout.write(`(written to ${path.relative(processRef.cwd(), DOCS)})\n`);
	}
	if (problems.length > 0) {
		processRef.stderr.write(`The figures show problems: ${problems.join(', ')}\n`);
		processRef.exitCode = 1;
	}
}

main();
