/**
 * How long `npm test` takes on this machine, measured, and written to CONTRIBUTING.md's block
 * `suite-times` (CONTRIBUTING.md, "Tests"):
 *
 *   npx tsx test/docs/suite-times.ts [--runs 3] [--busy 2] [--write]
 *
 * Runs `npm test` `--runs` times in a row, each to the end, while `--busy` other processes keep the
 * cores busy (a loop each, as a second job on the machine would), and prints min, median and max, and
 * whether every run passed. With `--write`, the block holds that line for each load measured (one line
 * per `--busy`, kept from earlier runs with another `--busy`), and the block `suite-map` the map of the
 * test folders: what each proves, and the time of its files in the last run at rest (jest's own figures).
 */
import { childProcess, fs, os, path, performance, processRef } from '../support/node';
import { writeBlock } from './blocks';

const argument = (name: string, fallback: number) => {
	const index = processRef.argv.indexOf(`--${name}`);
	return index === -1 ? fallback : Number(processRef.argv[index + 1]);
};
const runs = argument('runs', 3);
const busy = argument('busy', 0);
const root = path.resolve('.');
const figuresFile = path.join(root, 'test-results', 'suite-times.json');
const jestFile = path.join(root, 'test-results', 'suite-times-jest.json');

/** The test folders, and what each proves (CONTRIBUTING.md, "Tests"). */
const FOLDERS: Array<[folder: string, proves: string]> = [
	['test/unit', 'the parts alone: masking (its rule, every notation by generation, linear time), validation, errors, the trigger\'s state, descriptions, the example workflows'],
	['test/integration', 'every operation and both triggers in n8n-core against the fake API over HTTP: requests, items, errors, tenants, pickers, masking on every surface, each record once'],
	['test/reliability', 'the invariants on every operation: faults at every page, hostile servers, bad inputs, writes in order and never twice, the secret scan'],
	['test/fake-flare', "the fake API itself against Flare's documented shapes (test/contract), its planted values in every notation"],
	['test/model', "the Flare Trigger against its model (fast-check): random arrivals, faults, saves and restarts, on n8n 2.41's and 1.123's lifecycle"],
	['test/upgrade', "a trigger's state saved by an earlier version, read by this one"],
];

/** A process that keeps one core busy until killed. */
const busyLoop = () => childProcess.spawn(processRef.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });

function npmTest(): Promise<{ seconds: number; passed: boolean }> {
	return new Promise((resolve) => {
		const started = performance.now();
		const child = childProcess.spawn('npm', ['test', '--', '--json', `--outputFile=${jestFile}`], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
		child.on('exit', (code) => resolve({ seconds: (performance.now() - started) / 1000, passed: code === 0 }));
	});
}

async function main(): Promise<void> {
	const hogs = Array.from({ length: busy }, busyLoop);
	const results: Array<{ seconds: number; passed: boolean }> = [];
	try {
		for (let run = 0; run < runs; run++) {
			const result = await npmTest();
			results.push(result);
			processRef.stdout.write(`run ${run + 1}/${runs}: ${result.seconds.toFixed(0)} s, ${result.passed ? 'passed' : 'FAILED'}\n`);
		}
	} finally {
		for (const hog of hogs) hog.kill();
	}
	const seconds = results.map((result) => result.seconds).sort((a, b) => a - b);
	const time = (s: number) => `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
	const load = busy === 0 ? 'at rest' : `with ${busy} other processes keeping ${busy === 1 ? 'a core' : 'the cores'} busy (a \`for (;;) {}\` loop each)`;
	const passed = results.filter((result) => result.passed).length;
	const line =
		`- \`npm test\`, ${runs} runs in a row ${load}: min ${time(seconds[0])}, median ${time(seconds[Math.floor(seconds.length / 2)])}, ` +
		`max ${time(seconds[seconds.length - 1])}; ${passed} of ${runs} passed.`;
	processRef.stdout.write(`${line}\n`);
	if (!processRef.argv.includes('--write')) return;
	const figures = (fs.existsSync(figuresFile) ? JSON.parse(fs.readFileSync(figuresFile, 'utf8')) : {}) as Record<string, string>;
	figures[String(busy)] = line;
	fs.mkdirSync(path.dirname(figuresFile), { recursive: true });
	fs.writeFileSync(figuresFile, JSON.stringify(figures, null, 2));
	const cpus = os.cpus().length;
	writeBlock(
		path.join(root, 'CONTRIBUTING.md'),
		'suite-times',
		[
			`Measured by \`npx tsx test/docs/suite-times.ts\` on ${new Date().toISOString().slice(0, 10)}, ${cpus} CPUs, Node.js ${processRef.versions.node}:`,
			'',
			...Object.keys(figures).sort().map((key) => figures[key]),
		].join('\n'),
	);
	if (busy === 0) writeBlock(path.join(root, 'CONTRIBUTING.md'), 'suite-map', folderMap());
	processRef.exitCode = passed === runs ? 0 : 1;
}

/** The map of the test folders, with the time of their files in the last run (summed: jest runs two at once). */
function folderMap(): string {
	const report = JSON.parse(fs.readFileSync(jestFile, 'utf8')) as {
		testResults: Array<{ name: string; perfStats?: { start: number; end: number }; startTime?: number; endTime?: number }>;
	};
	const seconds = new Map<string, number>();
	for (const result of report.testResults) {
		const folder = path.relative(root, result.name).split(path.sep).slice(0, 2).join('/');
		const { start, end } = result.perfStats ?? { start: result.startTime ?? 0, end: result.endTime ?? 0 };
		seconds.set(folder, (seconds.get(folder) ?? 0) + (end - start) / 1000);
	}
	const time = (s: number) => (s >= 60 ? `${Math.floor(s / 60)} min ${Math.round(s % 60)} s` : `${Math.round(s)} s`);
	return [
		`Measured by \`npx tsx test/docs/suite-times.ts\` on ${new Date().toISOString().slice(0, 10)}, at rest (the time of each folder's files, summed: jest runs two at once):`,
		'',
		'| Folder | What it proves | Time in `npm test` |',
		'|---|---|---:|',
		...FOLDERS.map(([folder, proves]) => `| \`${folder}\` | ${proves} | ${time(seconds.get(folder) ?? 0)} |`),
		"| `test/e2e`, `test/queue` | a real n8n 2.41.1 and 1.123.81: every workflow, the playbooks against the tools' stand-ins, the editor, queue mode, the activated trigger, the differential check of the harness | in CI (below) |",
	].join('\n');
}

void main();
