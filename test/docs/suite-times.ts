/**
 * How long `npm test` takes on this machine, measured, and written to CONTRIBUTING.md's block
 * `suite-times` (CONTRIBUTING.md, "Tests"):
 *
 *   npx tsx test/docs/suite-times.ts [--runs 3] [--busy 2] [--write]
 *
 * Runs `npm test` `--runs` times in a row, each to the end, while `--busy` other processes keep the
 * cores busy (a loop each, as a second job on the machine would), and prints min, median and max, and
 * whether every run passed. With `--write`, the block holds that line for each load measured (one line
 * per `--busy`, kept from earlier runs with another `--busy`).
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

/** A process that keeps one core busy until killed. */
const busyLoop = () => childProcess.spawn(processRef.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });

function npmTest(): Promise<{ seconds: number; passed: boolean }> {
	return new Promise((resolve) => {
		const started = performance.now();
		const child = childProcess.spawn('npm', ['test'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
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
	processRef.exitCode = passed === runs ? 0 : 1;
}

void main();
