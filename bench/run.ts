/**
 * The performance benchmark (issue #13): `npm run bench` (alias of `tsx bench/run.ts`).
 *
 *   tsx bench/run.ts [--quick] [--only=throughput,limits,quota,trigger,tokens,push,alerts,masking] [--runs=N] [--sizes=N,..] [--no-n8n]
 *
 * --quick      a smoke run: small sizes, one run each, fewer trigger cases (a few minutes)
 * --only=...   the sections to run (default: all)
 * --runs=N     runs per figure (default: 3, and 5 for Return All of up to 100,000; 1 with --quick)
 * --sizes=N,.. credentials for Return All in sections 1 and 4 (default: 100000,1000000; 20000 with
 *              --quick); --sizes=100000 leaves out the 1,000,000 rows, the longest
 * --no-n8n     leave out the real n8n (the HTTP Request comparisons, our node in n8n, and sections 5
 *              and 6, alerts pushed to a running n8n)
 *
 * Prints a markdown report and writes it with every sample to bench/results/latest.json (and .md).
 * The real n8n (2.41.1 on Node.js 24) is installed on first use by the end-to-end suite's installer,
 * in ~/.cache/n8n-nodes-flareio (FLARE_E2E_CACHE), which takes a few minutes once.
 */
import { fs, os, path, processRef } from '../test/support/node';
import { BenchN8n } from './lib/n8n';
import { BENCH_DIR } from './lib/proc';
import { goals, type Machine, markdown, type Results } from './lib/report';
import { type LimitsCase, prepareLimits, runLimits } from './sections/limits';
import { prepareQuota, runQuota } from './sections/quota';
import { prepareThroughput, runThroughput } from './sections/throughput';
import { runTokens } from './sections/tokens';
import { runAlertLoad } from './sections/alerts';
import { runPush } from './sections/push';
import { runTrigger, triggerCases } from './sections/trigger';
import { runMasking } from './sections/masking';

type Section = 'throughput' | 'limits' | 'quota' | 'trigger' | 'tokens' | 'push' | 'alerts' | 'masking';
const SECTIONS: Section[] = [
	'masking',
	'limits',
	'quota',
	'trigger',
	'throughput',
	'tokens',
	'push',
	'alerts',
];

interface Options {
	quick: boolean;
	sections: Section[];
	runs?: number;
	sizes?: number[];
	n8n: boolean;
}

function parseOptions(argv: string[]): Options {
	const options: Options = { quick: false, sections: SECTIONS, n8n: true };
	for (const argument of argv) {
		const [flag, value] = argument.split('=');
		if (flag === '--quick') options.quick = true;
		else if (flag === '--no-n8n') options.n8n = false;
		else if (flag === '--runs' && Number.isInteger(Number(value)) && Number(value) > 0)
			options.runs = Number(value);
		else if (flag === '--sizes' && value) options.sizes = value.split(',').map(Number);
		else if (flag === '--only' && value) {
			const wanted = value.split(',') as Section[];
			for (const section of wanted) {
				if (!SECTIONS.includes(section))
					throw new Error(`Unknown section "${section}" (${SECTIONS.join(', ')})`);
			}
			options.sections = SECTIONS.filter((section) => wanted.includes(section));
		} else throw new Error(`Unknown option ${argument}; see the top of bench/run.ts`);
	}
	return options;
}

/** Section 1: Return All at each size (a run of 1,000,000 takes about 100 s per variant), and Basic. */
function limitsCases(sizes: number[], quick: boolean, runs?: number): LimitsCase[] {
	return [
		...sizes.map((size) => ({
			kind: 'returnAll' as const,
			size,
			runs: runs ?? (quick || size > 100_000 ? 1 : 3),
		})),
		{ kind: 'basic' as const, runs: runs ?? (quick ? 1 : 3) },
	];
}

function machine(n8n?: string): Machine {
	const cpus = os.cpus();
	return {
		cpu: cpus[0]?.model.trim() ?? 'unknown CPU',
		cores: cpus.length,
		memoryGiB: Math.round(os.totalmem() / 2 ** 30),
		os: `${os.type()} ${os.release()}`,
		node: processRef.version,
		n8n,
		loadAverage: os.loadavg(),
		date: new Date().toISOString(),
	};
}

const log = (text: string) => processRef.stderr.write(`${text}\n`);

async function main(): Promise<void> {
	const options = parseOptions(processRef.argv.slice(2));
	const started = Date.now();
	const runs = options.runs ?? (options.quick ? 1 : 3);
	const wants = (section: Section) => options.sections.includes(section);
	const results: Results = {
		command:
			`npm run bench --${processRef.argv.slice(2).length ? ` ${processRef.argv.slice(2).join(' ')}` : ''}`.replace(
				/ --$/,
				'',
			),
		mode: options.quick ? 'quick' : 'full',
		machine: machine(),
		errors: [],
	};

	const sizes = options.sizes ?? (options.quick ? [20_000] : [100_000, 1_000_000]);
	const limits = wants('limits')
		? await prepareLimits(limitsCases(sizes, options.quick, options.runs))
		: undefined;
	const quota = wants('quota')
		? await prepareQuota(
				options.quick ? 12_000 : 30_000,
				options.quick ? [3, 10_000] : [3, 10, 100, 1_000, 10_000, 25_000],
			)
		: undefined;
	const throughput = wants('throughput') ? await prepareThroughput(sizes) : undefined;

	let n8n: BenchN8n | undefined;
	const needsN8n = options.n8n && (throughput || quota || limits);
	try {
		if (needsN8n) {
			log('Preparing the real n8n (build, pack, install the package, import, publish)...');
			n8n = await BenchN8n.prepare(log);
			results.machine.n8n = n8n.label;
			const prepared = [limits, quota, throughput];
			const workflows = prepared.flatMap((section) => section?.workflows ?? []);
			await n8n.importCredentials(prepared.flatMap((section) => section?.credentials ?? []));
			await n8n.importWorkflows(workflows);
			// Sub-workflows are the ones the parents call.
			await n8n.publish(
				workflows.filter((workflow) => workflow.id.endsWith('Sub')).map((workflow) => workflow.id),
			);
		}

		const section = async (name: Section, body: () => Promise<void>) => {
			log(`\n${name}...`);
			try {
				await body();
			} catch (error) {
				results.errors.push({ section: name, message: (error as Error).message });
				log(`${name} failed: ${(error as Error).stack ?? String(error)}`);
			}
		};
		if (wants('masking')) {
			await section('masking', async () => {
				results.masking = await runMasking({ runs: options.quick ? 3 : 7, log });
			});
		}
		if (limits) {
			await section('limits', async () => {
				results.limits = await runLimits(limits.setups, { n8n, log });
			});
		}
		if (quota) {
			await section('quota', async () => {
				results.quota = await runQuota(quota.setup, { n8n, log });
			});
		}
		if (wants('trigger')) {
			await section('trigger', async () => {
				results.trigger = await runTrigger(triggerCases(options.quick), { log });
			});
		}
		if (throughput) {
			await section('throughput', async () => {
				// Small sizes are cheap: more runs steady their median on a busy machine.
				const perSize = (size: number) =>
					options.runs ?? (options.quick ? 1 : size <= 100_000 ? 5 : 3);
				results.throughput = await runThroughput(throughput.setups, { runs: perSize, n8n, log });
			});
		}
		if (wants('tokens')) {
			await section('tokens', async () => {
				results.tokens = await runTokens(options.quick ? [200] : [200, 500], {
					executions: options.quick ? 30 : 100,
					pauseMs: 20,
					runs,
					log,
				});
			});
		}
		if (wants('push') && options.n8n) {
			await section('push', async () => {
				results.push = await runPush({
					alerts: options.quick ? 20 : 100,
					pollEvents: options.quick ? 20 : 100,
					pollMinutes: options.quick ? 2 : 5,
					log,
				});
			});
		}
		if (wants('alerts') && options.n8n) {
			await section('alerts', async () => {
				results.alerts = await runAlertLoad({
					burst: options.quick ? 50 : 200,
					forged: options.quick ? 1_000 : 10_000,
					floodSeconds: options.quick ? 10 : 60,
					genuineEverySeconds: options.quick ? 2 : 3,
					log,
				});
			});
		}
	} finally {
		for (const setup of [...(throughput?.setups ?? []), ...(limits?.setups ?? [])])
			await setup.fake.stop();
		for (const reading of quota?.setup.readings ?? []) await reading.fake.stop();
	}

	results.durationSeconds = (Date.now() - started) / 1000;
	results.machine.loadAverageEnd = os.loadavg();
	results.goals = goals(results);
	const report = markdown(results);
	const folder = path.join(BENCH_DIR, 'results');
	fs.mkdirSync(folder, { recursive: true });
	fs.writeFileSync(path.join(folder, 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);
	fs.writeFileSync(path.join(folder, 'latest.md'), `${report}\n`);
	processRef.stdout.write(`\n${report}\n`);
	log(`Wrote ${path.join(folder, 'latest.json')} and latest.md.`);
	if (results.errors.length) processRef.exitCode = 1;
}

main().catch((error: Error) => {
	processRef.stderr.write(`${error.stack ?? error.message}\n`);
	processRef.exitCode = 1;
});
