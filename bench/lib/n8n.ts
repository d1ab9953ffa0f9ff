/**
 * The real n8n of the benchmark: n8n 2.41.1 on Node.js 24, installed by the end-to-end suite's
 * installer (test/e2e/install.ts, in its cache folder), our package packed and installed the way
 * users install a community package, the credentials and workflows imported, each workflow run with
 * `n8n execute --id`, one process per run.
 *
 * Measured per run: the execution time n8n itself records for the node that runs the measured
 * sub-workflow, and the peak resident memory of the n8n process (VmHWM, read by a preloaded probe
 * when the process exits, polled from outside as a fallback).
 */
import { ensureN8n, run } from '../../test/e2e/install';
import { type CredentialToImport, freePort, N8nInstance, parseRun } from '../../test/e2e/n8n';
import type { RunJson } from '../../test/e2e/report';
import { buildAndPack } from '../../test/e2e/suite';
import { childProcess, fs, path } from '../../test/support/node';
import { BENCH_DIR, HEAP_FLAGS, REPO_ROOT, statusKb } from './proc';
import { PACKAGE } from './workflows';
import { sleep } from 'n8n-workflow';

export const WORK_DIR = path.join(BENCH_DIR, '.work');

export interface N8nRun {
	workflowId: string;
	run?: RunJson;
	exitCode: number;
	/** Peak resident memory of the n8n process, MiB. */
	peakMiB: number;
	/** The whole `n8n execute` command, start-up included, ms. */
	processMs: number;
	outputFile: string;
}

export class BenchN8n {
	private runs = 0;

	private constructor(
		readonly instance: N8nInstance,
		readonly label: string,
	) {}

	/** A fresh n8n user folder with this repository's package (built, packed) installed. */
	static async prepare(log: (text: string) => void): Promise<BenchN8n> {
		const install = await ensureN8n('2', log);
		const tarball = await buildAndPack(REPO_ROOT, path.join(WORK_DIR, 'pack'));
		const instance = N8nInstance.create(install, path.join(WORK_DIR, 'n8n'));
		await instance.installPackage(tarball);
		return new BenchN8n(instance, install.label);
	}

	async importCredentials(credentials: CredentialToImport[]): Promise<void> {
		await this.instance.importCredentials(credentials);
	}

	async importWorkflows(workflows: object[]): Promise<void> {
		const folder = path.join(WORK_DIR, 'workflows');
		fs.rmSync(folder, { recursive: true, force: true });
		fs.mkdirSync(folder, { recursive: true });
		const files = workflows.map((workflow, index) => {
			const file = path.join(folder, `${String(index).padStart(3, '0')}.json`);
			fs.writeFileSync(file, JSON.stringify(workflow, null, 2));
			return file;
		});
		await this.instance.importWorkflows(files);
	}

	/** Publishes workflows (n8n 2.x runs a sub-workflow only once it is published). */
	async publish(workflowIds: string[]): Promise<void> {
		const { install } = this.instance;
		for (const id of workflowIds) {
			await run(install.nodeBin, [install.n8nMain, 'publish:workflow', `--id=${id}`], {
				cwd: this.instance.userFolder,
				env: { ...this.environment(), N8N_RUNNERS_BROKER_PORT: String(await freePort()) },
			});
		}
	}

	/**
	 * `n8n execute --id <id> --rawOutput` in a fresh process, with its peak memory; `unpaced` lifts
	 * Flare's documented pace from our node in that process (bench/probe.cjs).
	 */
	async execute(workflowId: string, { unpaced = false } = {}): Promise<N8nRun> {
		const folder = path.join(WORK_DIR, 'runs');
		fs.mkdirSync(folder, { recursive: true });
		this.runs++;
		const stem = path.join(folder, `${String(this.runs).padStart(3, '0')}-${workflowId}`);
		const outputFile = `${stem}.log`;
		const probeFile = `${stem}.status`;
		fs.rmSync(probeFile, { force: true });
		const { install } = this.instance;
		// n8n 2.x always starts its task broker: a free port of its own avoids clashing with another n8n.
		const brokerPort = await freePort();
		const fd = fs.openSync(outputFile, 'w');
		const started = Date.now();
		let polledKb = 0;
		let exitCode: number;
		try {
			exitCode = await new Promise<number>((resolve, reject) => {
				const child = childProcess.spawn(
					install.nodeBin,
					[
						...HEAP_FLAGS,
						'--require',
						path.join(BENCH_DIR, 'probe.cjs'),
						install.n8nMain,
						'execute',
						`--id=${workflowId}`,
						'--rawOutput',
					],
					{
						cwd: this.instance.userFolder,
						env: {
							...this.environment(),
							N8N_RUNNERS_BROKER_PORT: String(brokerPort),
							FLARE_BENCH_PROBE_OUT: probeFile,
							...(unpaced ? { FLARE_BENCH_UNPACED_GATE: this.installedRateGate() } : {}),
						},
						stdio: ['ignore', fd, fd],
					},
				);
				let running = true;
				const poll = async () => {
					while (running && child.pid) {
						polledKb = Math.max(polledKb, statusKb(child.pid, 'VmHWM') ?? 0);
						await sleep(50);
					}
				};
				void poll();
				child.on('error', reject);
				child.on('close', (code) => {
					running = false;
					resolve(code ?? 1);
				});
			});
		} finally {
			fs.closeSync(fd);
		}
		const processMs = Date.now() - started;
		let probedKb = 0;
		try {
			probedKb = Number(/^VmHWM:\s+(\d+) kB/m.exec(fs.readFileSync(probeFile, 'utf8'))?.[1] ?? 0);
		} catch {
			// the probe did not run: keep the polled figure
		}
		return {
			workflowId,
			run: parseRun(fs.readFileSync(outputFile, 'utf8')),
			exitCode,
			peakMiB: Math.max(probedKb, polledKb) / 1024,
			processMs,
			outputFile,
		};
	}

	/** Our package's rate gate, as installed in this n8n (test/e2e/n8n.ts `installPackage`). */
	private installedRateGate(): string {
		return path.join(
			this.instance.userFolder,
			'.n8n/nodes/node_modules',
			PACKAGE,
			'dist/nodes/Flare/shared/rateGate.js',
		);
	}

	private environment(): Record<string, string | undefined> {
		return {
			...this.instance.env(),
			// Sub-workflow runs of a million items are not written to the database.
			EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'none',
			EXECUTIONS_DATA_SAVE_ON_PROGRESS: 'false',
			// publish:workflow sets the active version; the publication service would wait for a
			// running server to process its outbox, which `n8n execute` never does.
			N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'false',
		};
	}
}
