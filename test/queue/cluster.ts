/**
 * n8n in queue mode, as teams run it when they outgrow one process: a main (`n8n start`: editor, REST
 * API, webhooks, and the pollers, as the leader) and workers (`n8n worker`) that run the executions,
 * sharing PostgreSQL (workflows, credentials, executions) and Redis (Bull's queue). Every process has
 * its own user folder with the packed package installed there the way a user installs it, its own
 * task-broker port and the same encryption key. Everything started here is stopped by process id.
 */
import { randomBytes } from 'crypto';

import type { InstalledN8n } from '../e2e/install';
import { EditorSession } from '../e2e/manual';
import { type CredentialToImport, freePort, N8nInstance } from '../e2e/n8n';
import {
	type BackgroundProcess,
	type N8nServer,
	printed,
	startProcess,
	startServer,
	waitUntilReady,
} from '../e2e/server';
import { fs, path } from '../support/node';
import type { Postgres, Service } from './services';
import type { CredentialReference, WorkflowJson } from './workflows';

/** Bull's lock on a running job, and how often workers look for jobs whose lock has expired. */
export const LOCK = { durationMs: 15_000, renewMs: 5_000, stalledCheckMs: 5_000 };
/** n8n's defaults for the same. */
export const DEFAULT_LOCK = { durationMs: 60_000, renewMs: 10_000, stalledCheckMs: 30_000 };

/** What a worker printed when it took an execution from the queue. */
const STARTED = /Worker started execution (\d+) \(job (\d+)\)/g;

export interface Worker {
	name: string;
	n8n: N8nInstance;
	concurrency: number;
	process?: BackgroundProcess;
}

export class QueueCluster {
	server?: N8nServer;
	session?: EditorSession;

	private constructor(
		readonly main: N8nInstance,
		readonly workers: Worker[],
	) {}

	/**
	 * User folders for the main and the workers, the package installed in each, all pointed at the
	 * same database and Redis.
	 */
	static async prepare(options: {
		install: InstalledN8n;
		tarball: string;
		folder: string;
		redis: Service;
		postgres: Postgres;
		workers: number;
		concurrency: number;
	}): Promise<QueueCluster> {
		const { install, folder, redis, postgres } = options;
		const settings: Record<string, string> = {
			EXECUTIONS_MODE: 'queue',
			QUEUE_BULL_REDIS_HOST: '127.0.0.1',
			QUEUE_BULL_REDIS_PORT: String(redis.port),
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(postgres.port),
			DB_POSTGRESDB_USER: postgres.user,
			DB_POSTGRESDB_DATABASE: postgres.database,
			N8N_ENCRYPTION_KEY: randomBytes(24).toString('hex'),
			// Manual executions (the editor's "Execute workflow") run on the workers too.
			OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
			EXECUTIONS_DATA_SAVE_MANUAL_EXECUTIONS: 'true',
			// A dead worker's job is noticed after seconds rather than n8n's 60 + 30 s (DEFAULT_LOCK).
			QUEUE_WORKER_LOCK_DURATION: String(LOCK.durationMs),
			QUEUE_WORKER_LOCK_RENEW_TIME: String(LOCK.renewMs),
			QUEUE_WORKER_STALLED_INTERVAL: String(LOCK.stalledCheckMs),
		};
		const main = N8nInstance.create(install, path.join(folder, 'main'), settings);
		const workers = Array.from({ length: options.workers }, (_, index) => ({
			name: `worker-${index + 1}`,
			n8n: N8nInstance.create(install, path.join(folder, `worker-${index + 1}`), settings),
			concurrency: options.concurrency,
		}));
		await Promise.all(
			[main, ...workers.map((worker) => worker.n8n)].map(async (instance) => {
				await instance.installPackage(options.tarball);
			}),
		);
		return new QueueCluster(main, workers);
	}

	/** The main and every worker; resolves once all are ready and the owner is signed in. */
	async start(): Promise<void> {
		// At debug level the main logs each poll of a trigger ("Poll trigger initiated").
		const main = startServer(this.main, { env: { N8N_LOG_LEVEL: 'debug' } });
		main.catch(() => undefined); // awaited below
		await Promise.all(this.workers.map(async (worker) => await this.startWorker(worker)));
		this.server = await main;
		this.session = await EditorSession.signIn(this.server, this.main.userFolder);
	}

	private async startWorker(worker: Worker): Promise<void> {
		const { install, userFolder } = worker.n8n;
		worker.process = startProcess(
			install.nodeBin,
			[install.n8nMain, 'worker', `--concurrency=${worker.concurrency}`],
			{
				cwd: userFolder,
				env: { ...worker.n8n.env(), N8N_RUNNERS_BROKER_PORT: String(await freePort()) },
				logFile: path.join(userFolder, 'worker.log'),
			},
		);
		await waitUntilReady(
			worker.process,
			`n8n worker (${worker.name})`,
			printed(worker.process, 'n8n worker is now ready'),
			180,
		);
	}

	/** When the main polled the workflow's triggers, from its log. */
	polls(workflowName: string): string[] {
		return this.main.polls(workflowName);
	}

	/** Whether the main has activated the workflow's trigger: its first poll is over. */
	triggerActivated(workflowName: string): boolean {
		return this.main.triggerActivations(workflowName).length > 0;
	}

	/** Workers still running. */
	live(): Worker[] {
		return this.workers.filter((worker) => worker.process?.running());
	}

	/** Which worker(s) started each execution, by execution id, from what each worker printed. */
	startedBy(): Map<string, string[]> {
		const byExecution = new Map<string, string[]>();
		for (const worker of this.workers) {
			if (!worker.process) continue;
			const printedText = fs.readFileSync(worker.process.logFile, 'utf8');
			for (const [, executionId] of printedText.matchAll(STARTED)) {
				byExecution.set(executionId, [...(byExecution.get(executionId) ?? []), worker.name]);
			}
		}
		return byExecution;
	}

	/** Workers first (they finish what they run, within a grace period), then the main. */
	async stop(): Promise<void> {
		await Promise.all(this.workers.map(async (worker) => await worker.process?.stop()));
		await this.server?.stop();
	}
}

/** Creates a credential as the editor does (the owner's); returns how workflows refer to it. */
export async function createCredential(
	session: EditorSession,
	credential: Omit<CredentialToImport, 'id'>,
): Promise<CredentialReference> {
	const { name, type, data } = credential;
	const { id } = await session.request<{ id: string }>('POST', '/credentials', {
		name,
		type,
		data,
	});
	return { id, name };
}

/** Creates a workflow as the editor's import does, keeping its id. */
export async function createWorkflow(
	session: EditorSession,
	workflow: WorkflowJson,
): Promise<void> {
	const { id, name, nodes, connections, settings } = workflow;
	await session.request('POST', '/workflows', { id, name, nodes, connections, settings });
}
