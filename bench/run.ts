/**
 * The performance benchmark (issue #7): `npm run bench` (alias of `tsx bench/run.ts`).
 *
 *   tsx bench/run.ts [--quick] [--only=throughput,calls,pacing,tokens] [--runs=N] [--no-n8n]
 *
 * --quick      a smoke run: small sizes, one run each (a couple of minutes)
 * --only=...   the sections to run (default: all)
 * --runs=N     runs per figure (default: 3, and 5 for Return All of up to 100,000; 1 with --quick)
 * --sizes=N,.. credentials for Return All (default: 100000,1000000; 20000 with --quick)
 * --no-n8n     leave out the real n8n (the HTTP Request comparisons and our node in n8n)
 *
 * Prints a markdown report and writes it with every sample to bench/results/latest.json (and .md).
 * The real n8n (2.41.1 on Node.js 24) is installed on first use by the end-to-end suite's installer,
 * in ~/.cache/n8n-nodes-flareio (FLARE_E2E_CACHE), which takes a few minutes once.
 */
import { fs, os, path, processRef } from '../test/support/node';
import { BenchN8n } from './lib/n8n';
import { BENCH_DIR } from './lib/proc';
import { goals, type Machine, markdown, type Results } from './lib/report';
import { prepareCalls, runCalls } from './sections/calls';
import { type PacingCase, runPacing } from './sections/pacing';
import { prepareThroughput, runThroughput } from './sections/throughput';
import { runTokens } from './sections/tokens';

type Section = 'throughput' | 'calls' | 'pacing' | 'tokens';
const SECTIONS: Section[] = ['throughput', 'calls', 'pacing', 'tokens'];

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
		else if (flag === '--runs' && Number.isInteger(Number(value)) && Number(value) > 0) options.runs = Number(value);
		else if (flag === '--sizes' && value) options.sizes = value.split(',').map(Number);
		else if (flag === '--only' && value) {
			const wanted = value.split(',') as Section[];
			for (const section of wanted) {
				if (!SECTIONS.includes(section)) throw new Error(`Unknown section "${section}" (${SECTIONS.join(', ')})`);
			}
			options.sections = wanted;
		} else throw new Error(`Unknown option ${argument}; see the top of bench/run.ts`);
	}
	return options;
}

function pacingCases(quick: boolean, runs: number): PacingCase[] {
	// Search scaled five times faster than its documented 1 request/s, so a run takes seconds, not a
	// minute; Basic at its documented 4 requests/s. Retry-After with a fraction of a second.
	const measured: PacingCase[] = [
		{ tier: 'search', rate: 5, documented: 1, retryAfter: 'precise', runs },
		{ tier: 'basic', rate: 4, documented: 4, retryAfter: 'precise', runs },
	];
	if (quick) return measured;
	return [
		...measured,
		// The documented rates with a Retry-After in whole seconds (the fake's default): what n8n sees
		// if Flare sends one. One run of the Search tier (a minute each).
		{ tier: 'search', rate: 1, documented: 1, retryAfter: 'integer', runs: 1 },
		{ tier: 'basic', rate: 4, documented: 4, retryAfter: 'integer', runs },
		// No Retry-After (Flare documents none): the first 429 waits the vendor's 10 s.
		{ tier: 'search', rate: 1, documented: 1, retryAfter: 'none', runs: 1 },
		{ tier: 'basic', rate: 4, documented: 4, retryAfter: 'none', runs: 1 },
		// Whole seconds at a scaled rate: a 200 ms spacing cannot be told in whole seconds, so the node
		// paces at the documented 1 s, five times slower than this fake allows.
		{ tier: 'search', rate: 5, documented: 1, retryAfter: 'integer', runs: 1 },
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
		command: `npm run bench --${processRef.argv.slice(2).length ? ` ${processRef.argv.slice(2).join(' ')}` : ''}`.replace(
			/ --$/,
			'',
		),
		mode: options.quick ? 'quick' : 'full',
		machine: machine(),
		errors: [],
	};

	const sizes = options.sizes ?? (options.quick ? [20_000] : [100_000, 1_000_000]);
	const throughput = wants('throughput') ? await prepareThroughput(sizes) : undefined;
	const calls = wants('calls')
		? await prepareCalls(options.quick ? 12_000 : 30_000, options.quick ? [10, 10_000] : [10, 100, 1_000, 10_000, 25_000])
		: undefined;

	let n8n: BenchN8n | undefined;
	const needsN8n = options.n8n && (throughput || calls);
	try {
		if (needsN8n) {
			log('Preparing the real n8n (build, pack, install the package, import, publish)...');
			n8n = await BenchN8n.prepare(log);
			results.machine.n8n = n8n.label;
			const workflows = [...(throughput?.workflows ?? []), ...(calls?.workflows ?? [])];
			await n8n.importCredentials([...(throughput?.credentials ?? []), ...(calls ? [calls.credential] : [])]);
			await n8n.importWorkflows(workflows);
			// Sub-workflows are the ones the parents call.
			await n8n.publish(workflows.filter((workflow) => workflow.id.endsWith('Sub')).map((workflow) => workflow.id));
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
		if (throughput) {
			await section('throughput', async () => {
				// Small sizes are cheap: more runs steady their median on a busy machine.
				const perSize = (size: number) => options.runs ?? (options.quick ? 1 : size <= 100_000 ? 5 : 3);
				results.throughput = await runThroughput(throughput.setups, { runs: perSize, n8n, log });
			});
		}
		if (calls) {
			await section('calls', async () => {
				results.calls = await runCalls(calls.setup, { n8n, log });
			});
		}
		if (wants('pacing')) {
			await section('pacing', async () => {
				results.pacing = await runPacing(pacingCases(options.quick, runs), { log });
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
	} finally {
		for (const setup of throughput?.setups ?? []) await setup.fake.stop();
		await calls?.setup.fake.stop();
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
