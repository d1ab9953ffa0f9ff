/**
 * What the queue-mode test proves, one function per scenario. Each returns its measured figures and
 * the failures it found; a failure is a broken promise (a lost, duplicated or wrong result, an
 * execution not run by exactly one worker), never a slow figure.
 */
import { sleep } from 'n8n-workflow';

import { type FakeFlare, type LoggedRequest, pushAlert, type PushResult } from '../fake-flare';
import type { E2eCase } from '../e2e/cases';
import type { FakeModel } from '../e2e/fake-model';
import type { EditorSession } from '../e2e/manual';
import type { Execution } from '../e2e/n8n';
import { describeError, RunView } from '../e2e/report';
import type { E2eSecretScan } from '../e2e/secrets';
import { runCase, say, startingTrigger, type WorkflowFile } from '../e2e/suite';
import { LOCK, type QueueCluster } from './cluster';
import type { Database } from './services';
import type { WorkflowJson } from './workflows';

export const SEARCH_PATH = '/firework/v4/credentials/global/_search';
export const REPORT_REQUEST_PATH = '/firework/v4/threat_flow/reports/requests';

export interface Context {
	cluster: QueueCluster;
	session: EditorSession;
	db: Database;
	/** The main's base URL. */
	url: string;
}

/** The figures of one batch of executions. */
export interface BatchFigures {
	scenario: string;
	/** Workers running during the batch. */
	workers: number;
	executions: number;
	/** Executions each worker started. */
	perWorker: Record<string, number>;
	/** Executions that did not succeed, or whose result was wrong. */
	failed: number;
	/** Requests to Flare, token exchanges left out. */
	flareRequests: number;
	/** 429 answers among them. */
	rateLimited: number;
	tokenExchanges: number;
	/** From the first call to the last answer. */
	wallSeconds: number;
	/** Each execution from its start on a worker to its end, as n8n recorded it. */
	executionSeconds: { median: number; max: number };
}

export interface Outcome<T> {
	figures: T;
	failures: string[];
}

interface ExecutionRecord {
	id: string;
	status: string;
	mode: string;
	startedAt: Date | null;
	stoppedAt: Date | null;
}

/** n8n's records of the executions of a workflow with an id above `after`. */
export async function executionsOf(
	db: Database,
	workflowId: string,
	after = 0,
): Promise<ExecutionRecord[]> {
	return await db.query<ExecutionRecord>(
		'select id::text as id, status, mode, "startedAt", "stoppedAt" from execution_entity e where "workflowId" = $1 and e.id > $2 order by e.id',
		[workflowId, after],
	);
}

/** The id of the newest execution of any workflow (0 when there is none). */
export async function lastExecutionId(db: Database): Promise<number> {
	const [row] = await db.query<{ id: number | null }>('select max(id) as id from execution_entity');
	return Number(row?.id ?? 0);
}

const tokenExchanges = (requests: LoggedRequest[]) =>
	requests.filter((request) => request.method === 'POST' && request.path === '/tokens/generate')
		.length;

const median = (values: number[]) => {
	if (!values.length) return 0;
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const round = (value: number, digits = 1) => Number(value.toFixed(digits));

/** Executions each worker started; every execution must have been started by exactly one worker. */
function perWorker(
	cluster: QueueCluster,
	executionIds: string[],
	failures: string[],
): Record<string, number> {
	const startedBy = cluster.startedBy();
	const counts = Object.fromEntries(cluster.workers.map((worker) => [worker.name, 0]));
	for (const id of executionIds) {
		const workers = startedBy.get(id) ?? [];
		if (workers.length !== 1) {
			failures.push(
				`execution ${id} was started by ${workers.length ? workers.join(' and ') : 'no worker'}, expected exactly one worker`,
			);
		}
		for (const name of workers) counts[name]++;
	}
	return counts;
}

function durations(records: ExecutionRecord[]): BatchFigures['executionSeconds'] {
	const seconds = records
		.filter((record) => record.startedAt && record.stoppedAt)
		.map((record) => (record.stoppedAt!.getTime() - record.startedAt!.getTime()) / 1000);
	return { median: round(median(seconds), 2), max: round(Math.max(0, ...seconds), 2) };
}

/** Runs `work` on the items, `size` at a time. */
async function pool<T>(items: T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
	let next = 0;
	await Promise.all(
		Array.from({ length: Math.min(size, items.length) }, async () => {
			while (next < items.length) await work(items[next++]);
		}),
	);
}

async function waitFor<T>(
	what: string,
	probe: () => Promise<T | undefined> | T | undefined,
	timeoutSeconds: number,
): Promise<T> {
	const started = Date.now();
	for (;;) {
		const value = await probe();
		if (value !== undefined) return value;
		if (Date.now() - started > timeoutSeconds * 1000) {
			throw new Error(`${what}: nothing after ${timeoutSeconds} s`);
		}
		await sleep(250);
	}
}

export interface WebhookAnswer {
	status: number;
	body: unknown;
	seconds: number;
}

/** Calls a production webhook of the main, as an external system would. */
export async function callWebhook(
	context: Context,
	webhookPath: string,
	timeoutSeconds = 300,
): Promise<WebhookAnswer> {
	const started = Date.now();
	try {
		const response = await fetch(`${context.url}/webhook/${webhookPath}`, {
			method: 'POST',
			// A new connection for each call, as the harness's other requests to n8n (manual.ts).
			headers: { 'content-type': 'application/json', connection: 'close' },
			body: '{}',
			signal: AbortSignal.timeout(timeoutSeconds * 1000),
		});
		const text = await response.text();
		let body: unknown = text;
		try {
			body = JSON.parse(text) as unknown;
		} catch {
			// not JSON: kept as text
		}
		return { status: response.status, body, seconds: (Date.now() - started) / 1000 };
	} catch (error) {
		return { status: 0, body: (error as Error).message, seconds: (Date.now() - started) / 1000 };
	}
}

// ---- every example workflow, the e2e suite's checks ----

export interface ExampleCase {
	testCase: E2eCase;
	workflow: WorkflowFile;
	json: WorkflowJson;
	/** The case's own fake Flare API, behind its own credential. */
	fake: FakeFlare;
}

/**
 * Every example workflow, run as the editor runs it (`POST /rest/workflows/:id/run`, from its Manual
 * Trigger or, for the trigger's test event, from the Flare Trigger) with manual executions offloaded to
 * the workers, `parallel` cases at a time, checked as the e2e suite checks them.
 */
export async function exampleWorkflows(
	context: Context,
	cases: ExampleCase[],
	shared: { model: FakeModel; secrets: E2eSecretScan; parallel: number },
): Promise<Outcome<BatchFigures>> {
	const failures: string[] = [];
	const executionIds: string[] = [];
	const after = await lastExecutionId(context.db);
	const started = Date.now();
	const note = (execution: Execution) =>
		`  on ${
			context.cluster
				.startedBy()
				.get(execution.executionId ?? '')
				?.join(' and ') ?? 'no worker'
		}`;
	await pool(cases, shared.parallel, async ({ testCase, workflow, json, fake }) => {
		const trigger = startingTrigger(testCase, json);
		if (!trigger) {
			failures.push(`${workflow.file}: no Manual Trigger to run it from`);
			return;
		}
		const result = await runCase(
			{ fake, model: shared.model, secrets: shared.secrets },
			testCase,
			workflow,
			async () => {
				const execution = await context.session.runFromTrigger(json, trigger);
				if (execution.executionId) executionIds.push(execution.executionId);
				return execution;
			},
			note,
		);
		if (result.message) failures.push(`${workflow.file}: ${result.message}`);
	});
	const wallSeconds = (Date.now() - started) / 1000;
	const records = (
		await Promise.all(cases.map(async ({ json }) => await executionsOf(context.db, json.id, after)))
	).flat();
	const requests = cases.flatMap(({ fake }) => fake.requests);
	return {
		figures: {
			scenario: `Example workflows (${cases.length}), ${shared.parallel} at a time`,
			workers: context.cluster.live().length,
			executions: executionIds.length,
			perWorker: perWorker(context.cluster, executionIds, failures),
			failed: failures.length,
			flareRequests: requests.length - tokenExchanges(requests),
			rateLimited: requests.filter((request) => request.status === 429).length,
			tokenExchanges: tokenExchanges(requests),
			wallSeconds: round(wallSeconds),
			executionSeconds: durations(records),
		},
		failures,
	};
}

// ---- bursts of production executions through a webhook ----

/**
 * `count` webhook calls at once; each answer must hold the `expected` item ids. Returns the figures
 * of the batch from the fake's log and n8n's execution records.
 */
export async function burst(
	context: Context,
	options: {
		scenario: string;
		fake: FakeFlare;
		workflowId: string;
		webhookPath: string;
		count: number;
		expected: unknown[];
	},
): Promise<Outcome<BatchFigures>> {
	const { fake, count } = options;
	const failures: string[] = [];
	const after = await lastExecutionId(context.db);
	const mark = fake.requests.length;
	const workers = context.cluster.live().length;
	const started = Date.now();
	const answers = await Promise.all(
		Array.from({ length: count }, async () => await callWebhook(context, options.webhookPath)),
	);
	const wallSeconds = (Date.now() - started) / 1000;
	let failed = 0;
	answers.forEach((answer, index) => {
		const ids = Array.isArray(answer.body)
			? answer.body.map((item) => (item as { id?: unknown }).id)
			: undefined;
		if (answer.status !== 200) {
			failed++; // n8n's record of the execution says why (below)
		} else if (JSON.stringify(ids) !== JSON.stringify(options.expected)) {
			failed++;
			failures.push(
				`${options.scenario}, call ${index + 1}: item ids ${JSON.stringify(ids)}, expected ${JSON.stringify(options.expected)}`,
			);
		}
	});
	const records = await executionsOf(context.db, options.workflowId, after);
	if (records.length !== count) {
		failures.push(
			`${options.scenario}: n8n recorded ${records.length} executions for ${count} calls`,
		);
	}
	const unsuccessful = records.filter((record) => record.status !== 'success');
	for (const record of unsuccessful) {
		const { status, run } = await context.session.execution(record.id);
		const error = run?.data.resultData.error;
		failures.push(
			`${options.scenario}: execution ${record.id} ended "${status}": ${error ? describeError(error) : 'no error recorded'}`,
		);
	}
	const refused = answers.filter((answer) => answer.status !== 200);
	if (refused.length !== unsuccessful.length) {
		failures.push(
			`${options.scenario}: ${refused.length} calls were not answered 200 (${[...new Set(refused.map((answer) => `HTTP ${answer.status} ${JSON.stringify(answer.body).slice(0, 100)}`))].join('; ')}), for ${unsuccessful.length} unsuccessful executions`,
		);
	}
	const requests = fake.requests.slice(mark);
	return {
		figures: {
			scenario: options.scenario,
			workers,
			executions: records.length,
			perWorker: perWorker(
				context.cluster,
				records.map((record) => record.id),
				failures,
			),
			failed,
			flareRequests: requests.length - tokenExchanges(requests),
			rateLimited: requests.filter((request) => request.status === 429).length,
			tokenExchanges: tokenExchanges(requests),
			wallSeconds: round(wallSeconds),
			executionSeconds: durations(records),
		},
		failures,
	};
}

// ---- the Flare Trigger on the main, its executions on the workers ----

export interface TriggerFigures {
	/** When the main polled (from its log; the first at activation), and the searches Flare received. */
	polls: string[];
	searches: number;
	/** New credentials added between polls, one at a time. */
	added: number;
	/** Executions the trigger started, and the items each carried. */
	executions: number;
	itemsPerExecution: number[];
	perWorker: Record<string, number>;
	/** Seconds from adding a credential to the end of the execution it started. */
	delaySeconds: number[];
}

/**
 * Activates the trigger (its first poll, on the main, starts from now), then adds one new matching
 * credential at a time: each must start exactly one execution, on a worker, with that credential as
 * its one item. `finalCheck` runs at the end of the whole test: no further execution (nothing twice).
 */
export async function trigger(
	context: Context,
	options: {
		fake: FakeFlare;
		workflowId: string;
		workflowName: string;
		node: string;
		domain: string;
		rounds: number;
	},
): Promise<Outcome<TriggerFigures> & { finalCheck: () => Promise<string[]> }> {
	const { fake, workflowId, node, domain } = options;
	const failures: string[] = [];
	const searches = () => fake.requests.filter((request) => request.path === SEARCH_PATH).length;
	const polls = () => context.cluster.polls(options.workflowName);
	const matching = () =>
		new Set(fake.dataset.searchAll({ query: { type: 'domain', fqdn: domain } }).map((r) => r.id));
	const figures: TriggerFigures = {
		polls: [],
		searches: 0,
		added: 0,
		executions: 0,
		itemsPerExecution: [],
		perWorker: {},
		delaySeconds: [],
	};
	const executionIds: string[] = [];
	await context.session.activate(workflowId);
	try {
		await waitFor(
			'the activation of the trigger (its first poll)',
			() => context.cluster.triggerActivated(options.workflowName) || undefined,
			150,
		);
		for (let step = 1; step <= options.rounds; step++) {
			await sleep(1_100); // a new import time, after the instant the last poll reached
			const before = matching();
			fake.addCredentials(fake.dataset.domains().length); // one of each domain
			const added = [...matching()].filter((id) => !before.has(id));
			figures.added += added.length;
			const addedAt = Date.now();
			const seen = executionIds.length;
			const record = await waitFor(
				`an execution after credential ${added.join(', ')} was added`,
				async () => {
					const records = await executionsOf(context.db, workflowId);
					return records.length > seen ? records[seen] : undefined;
				},
				150,
			).catch((error: Error) => {
				const requests = fake.requests.map(
					(request) =>
						`${new Date(request.at).toISOString()} ${request.method} ${request.path} ${request.status}`,
				);
				throw new Error(
					`${error.message} (the main polled at ${polls().join(', ') || 'no time'}; Flare received: ${requests.join('; ') || 'nothing'})`,
				);
			});
			executionIds.push(record.id);
			const run = await context.session.finishedExecution(record.id);
			figures.delaySeconds.push(round((Date.now() - addedAt) / 1000));
			const view = new RunView(run);
			const ids = view.json(node).map((item) => item.id);
			figures.itemsPerExecution.push(ids.length);
			if (run.status !== 'success') {
				const error = run.data.resultData.error;
				failures.push(
					`trigger execution ${record.id}: ${run.status}${error ? `, ${describeError(error)}` : ''}`,
				);
			}
			if (JSON.stringify(ids) !== JSON.stringify(added)) {
				failures.push(
					`trigger execution ${record.id} (round ${step}): items ${JSON.stringify(ids)}, expected the new credential ${JSON.stringify(added)}`,
				);
			}
		}
	} catch (error) {
		failures.push(`trigger: ${(error as Error).message}`);
	}
	figures.executions = executionIds.length;
	figures.perWorker = perWorker(context.cluster, executionIds, failures);
	const finalCheck = async () => {
		const records = await executionsOf(context.db, workflowId);
		figures.polls = polls();
		figures.searches = searches();
		return records.length === executionIds.length
			? []
			: [
					`the trigger started ${records.length} executions in all, expected ${executionIds.length} (one per new credential, nothing twice)`,
				];
	};
	return { figures, failures, finalCheck };
}

// ---- a worker killed mid-execution ----

export interface WorkerDeathFigures {
	executionId: string;
	killedWorker: string;
	/** Seconds from the kill to n8n recording the execution as ended. */
	secondsToStatus: number;
	/** The status n8n recorded and the message the user sees on the execution. */
	status: string;
	message: string;
	/** Workers that started the execution: only the killed one means n8n did not retry it. */
	startedBy: string[];
	/** What the caller of the webhook got. */
	webhookAnswer: string;
	/** The write as Flare received and applied it. */
	writeRequests: number;
	writesApplied: number;
}

/**
 * A write (Threat Report → Create Request) whose answer the fake holds back: Flare has applied it, the
 * worker waits for the answer, and is killed by its process id. n8n must end the execution visibly
 * (not success, not left running) and nothing may send the write again. `meanwhile` runs once the
 * worker is dead, while n8n has not yet noticed (with one worker left).
 */
export async function workerDeath(
	context: Context,
	options: { fake: FakeFlare; workflowId: string; webhookPath: string },
	meanwhile: () => Promise<void> = async () => {},
): Promise<Outcome<WorkerDeathFigures>> {
	const { fake, workflowId } = options;
	const failures: string[] = [];
	const writeRequests = () =>
		fake.requests.filter(
			(request) => request.method === 'POST' && request.path === REPORT_REQUEST_PATH,
		).length;
	fake.faults.add({
		method: 'POST',
		path: REPORT_REQUEST_PATH,
		phase: 'after',
		fault: { delayMs: 60_000 },
	});
	const after = await lastExecutionId(context.db);
	const answer = callWebhook(context, options.webhookPath);
	await waitFor('the write at Flare', () => (fake.state.writes.length ? true : undefined), 120);
	const [record] = await executionsOf(context.db, workflowId, after);
	const [victim] = context.cluster.startedBy().get(record?.id ?? '') ?? [];
	const worker = context.cluster.workers.find((candidate) => candidate.name === victim);
	if (!record || !worker?.process) {
		throw new Error(
			`the write arrived, but no worker is known to run its execution (${record?.id})`,
		);
	}
	// Only this execution may die with the worker (the trigger's executions run alongside).
	await waitFor(
		'no other execution running',
		async () => {
			const [{ running }] = await context.db.query<{ running: number }>(
				"select count(*)::int as running from execution_entity where status in ('new', 'running') and id <> $1",
				[record.id],
			);
			return running === 0 ? true : undefined;
		},
		60,
	);
	worker.process.crash();
	const killedAt = Date.now();
	await worker.process.exited;
	say(
		`  killed ${worker.name} (process ${worker.process.pid}) while it waited for Flare's answer to the write of execution ${record.id}`,
	);
	const alongside = meanwhile();
	const ended = await waitFor(
		`n8n's record of execution ${record.id} after its worker died`,
		async () => {
			const [now] = await context.db.query<ExecutionRecord>(
				'select id::text as id, status from execution_entity where id = $1',
				[record.id],
			);
			return now && !['new', 'running'].includes(now.status) ? now : undefined;
		},
		LOCK.durationMs / 1000 + 120,
	);
	const secondsToStatus = (Date.now() - killedAt) / 1000;
	const answered = await answer;
	await alongside;
	// Longer than a stalled-job check: a retry would have been picked up by now.
	await sleep(LOCK.stalledCheckMs * 2);
	const saved = await context.session.execution(record.id);
	const error = saved.run?.data.resultData.error;
	const figures: WorkerDeathFigures = {
		executionId: record.id,
		killedWorker: worker.name,
		secondsToStatus: round(secondsToStatus),
		status: saved.status,
		message: error ? describeError(error) : '',
		startedBy: context.cluster.startedBy().get(record.id) ?? [],
		webhookAnswer: `HTTP ${answered.status} ${JSON.stringify(answered.body).slice(0, 200)}`,
		writeRequests: writeRequests(),
		writesApplied: fake.state.writes.length,
	};
	if (['success', 'new', 'running'].includes(ended.status)) {
		failures.push(`the killed execution ${record.id} ended "${ended.status}": its loss is silent`);
	}
	if (figures.writeRequests !== 1 || figures.writesApplied !== 1) {
		failures.push(
			`the write reached Flare ${figures.writeRequests} times and was applied ${figures.writesApplied} times, expected once`,
		);
	}
	return { figures, failures };
}

// ---- Flare's alerts pushed to the main, their executions on the workers ----

/**
 * The Flare Alert Trigger's workflow activated: `count` signed alerts pushed to the main's production
 * URL (half one at a time, half at once), then each pushed again (a retry, signed anew) and a forged
 * one. Each alert must start exactly one execution, run by one worker, with that alert as its one
 * item; the retries and the forgery none.
 */
export async function pushedAlerts(
	context: Context,
	options: {
		fake: FakeFlare;
		workflowId: string;
		url: string;
		node: string;
		secret: string;
		count: number;
	},
): Promise<Outcome<BatchFigures>> {
	const { fake, workflowId, url, node, secret, count } = options;
	const failures: string[] = [];
	await context.session.activate(workflowId);
	await waitFor(
		'the alert webhook served by the main',
		async () =>
			(await pushAlert(url, {}, { contentType: 'text/plain', rawBody: 'probe' })).status !== 404
				? true
				: undefined,
		60,
	);
	const after = await lastExecutionId(context.db);
	const workers = context.cluster.live().length;
	const alerts = fake.newAlerts(count);
	const half = Math.floor(count / 2);
	const started = Date.now();
	const answers: PushResult[] = [];
	for (const alert of alerts.slice(0, half))
		answers.push(await pushAlert(url, alert, { secrets: [secret] }));
	answers.push(
		...(await Promise.all(
			alerts.slice(half).map(async (alert) => await pushAlert(url, alert, { secrets: [secret] })),
		)),
	);
	const wallSeconds = (Date.now() - started) / 1000;
	const message = (answer: PushResult) =>
		`${answer.status} ${(answer.body as { message?: string }).message}`;
	const unexpected = answers.filter((answer) => message(answer) !== '200 Workflow was started');
	if (unexpected.length)
		failures.push(
			`alerts: ${unexpected.length} answered ${[...new Set(unexpected.map(message))].join('; ')}`,
		);
	const retries = await Promise.all(
		alerts.map(
			async (alert) =>
				await pushAlert(url, alert, { secrets: [secret], t: Math.floor(Date.now() / 1000) + 1 }),
		),
	);
	const retried = retries.filter(
		(answer) => message(answer) !== '200 Alert already received: no execution started',
	);
	if (retried.length)
		failures.push(
			`alerts retried: ${retried.length} answered ${[...new Set(retried.map(message))].join('; ')}`,
		);
	const forged = await pushAlert(url, alerts[0], { secrets: ['whsec_forged_by_someone'] });
	if (forged.status !== 401)
		failures.push(`a forged alert: answered ${message(forged)}, expected 401`);

	const records = await waitFor(
		`${count} executions of the alert workflow, ended`,
		async () => {
			const found = await executionsOf(context.db, workflowId, after);
			return found.length >= count && found.every((record) => record.stoppedAt) ? found : undefined;
		},
		180,
	).catch(async (error: Error) => {
		failures.push(`alerts: ${error.message}`);
		return await executionsOf(context.db, workflowId, after);
	});
	await sleep(3_000);
	const all = await executionsOf(context.db, workflowId, after);
	if (all.length !== count)
		failures.push(
			`alerts: ${all.length} executions for ${count} alerts (retries and a forgery refused)`,
		);
	const uids: unknown[] = [];
	let failed = 0;
	for (const record of all) {
		const { status, run } = await context.session.execution(record.id);
		const items = run ? new RunView(run).json(node) : [];
		uids.push(...items.map((item) => item.uid));
		if (status !== 'success' || items.length !== 1) {
			failed++;
			failures.push(`alert execution ${record.id}: "${status}" with ${items.length} item(s)`);
		}
	}
	const expected = alerts.map((alert) => alert.uid).sort();
	if (JSON.stringify([...uids].sort()) !== JSON.stringify(expected)) {
		failures.push(
			`alerts: the executions carried ${JSON.stringify(uids)}, expected each of ${JSON.stringify(expected)} once`,
		);
	}
	return {
		figures: {
			scenario: `Flare alerts pushed to the main: ${count} signed (${half} one at a time, ${count - half} at once), each retried, one forged`,
			workers,
			executions: all.length,
			perWorker: perWorker(
				context.cluster,
				all.map((record) => record.id),
				failures,
			),
			failed,
			flareRequests: 0,
			rateLimited: 0,
			tokenExchanges: 0,
			wallSeconds: round(wallSeconds),
			executionSeconds: durations(records),
		},
		failures,
	};
}
