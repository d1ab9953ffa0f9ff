/**
 * Flare's alerts pushed to a real n8n (`n8n start`): the workflows with the Flare Alert Trigger are
 * activated (published) as a user does, and the fake's alert channel POSTs signed alerts to their
 * production URL (test/fake-flare/push.ts). Each case checks what n8n answered, which executions
 * started (n8n's REST API) and what they hold, and what n8n logged of the refusals; n8n is restarted
 * once to show that a delivery seen before the restart still starts nothing after it.
 */
import { sleep } from 'n8n-workflow';

import {
	type FakeFlare,
	type FlareAlert,
	PLANTED_MARKER,
	pushAlert,
	type PushOptions,
	type PushResult,
	signature,
	testAlert,
} from '../fake-flare';
import { maskedView } from '../integration/support';
import { fs } from '../support/node';
import type { LineKey } from './install';
import { EditorSession } from './manual';
import type { N8nInstance } from './n8n';
import { check, checkEqual, E2eFailure, RunView } from './report';
import type { RunJson } from './report';
import type { E2eSecretScan } from './secrets';
import { type N8nServer, startServer } from './server';
import type { ToolStandIns } from './stand-ins';
import { ALERT_SECRET, say, seconds, type WorkflowFile, workflowNodes } from './suite';

export const STARTED = 'Workflow was started';
export const DUPLICATE = 'Alert already received: no execution started';
/** How long to wait for an execution that should not come. */
const QUIET_MS = 3_000;

interface ExecutionSummary {
	id: string;
	status: string;
	mode: string;
	startedAt?: string;
	stoppedAt?: string;
}

/** One workflow active in a running n8n: its executions, read through n8n's REST API. */
export class ActiveWorkflow {
	/** Executions of the workflow seen so far (ids), oldest first. */
	private known = 0;

	constructor(
		protected readonly server: AlertServer,
		readonly workflow: WorkflowFile,
		readonly trigger: string,
	) {}

	/** Activates (publishes) the workflow, as a user does. */
	async activate(): Promise<void> {
		await this.server.session.activate(this.workflow.id);
	}

	/** Leaves the executions so far out of `next` (e.g. those of earlier cases). */
	async skipPast(): Promise<void> {
		this.known = (await this.executions()).length;
	}

	/** Every execution of the workflow, oldest first. */
	async executions(): Promise<ExecutionSummary[]> {
		const filter = encodeURIComponent(JSON.stringify({ workflowId: this.workflow.id }));
		const { results } = await this.server.session.request<{ results: ExecutionSummary[] }>(
			'GET',
			`/executions?filter=${filter}&limit=100`,
		);
		return [...results].sort((a, b) => Number(a.id) - Number(b.id));
	}

	/** The next `count` executions (since the last call), once ended, with their runs. */
	async next(
		count: number,
		timeoutSeconds = 90,
	): Promise<Array<ExecutionSummary & { run: RunJson }>> {
		const started = Date.now();
		for (;;) {
			const all = await this.executions();
			if (all.length >= this.known + count) {
				const fresh = all.slice(this.known, this.known + count);
				this.known += count;
				const runs = [];
				for (const execution of fresh) {
					const run = await this.server.session.finishedExecution(execution.id);
					this.server.secrets.addRun(
						run,
						`execution ${execution.id} of ${this.workflow.file}`,
						workflowNodes(this.workflow),
					);
					const [summary] = (await this.executions()).filter(
						(candidate) => candidate.id === execution.id,
					);
					runs.push({ ...summary, run });
				}
				return runs;
			}
			if (Date.now() - started > timeoutSeconds * 1000) {
				throw new E2eFailure(
					this.trigger,
					`${all.length - this.known} new execution(s) after ${timeoutSeconds} s, expected ${count}`,
				);
			}
			await sleep(250);
		}
	}

	/** No execution started since the last call, after a quiet moment. */
	async nothingStarted(what: string): Promise<void> {
		await sleep(QUIET_MS);
		const all = await this.executions();
		check(
			all.length === this.known,
			this.trigger,
			`${what} started no execution (${all.length - this.known} started)`,
		);
	}
}

/** One workflow with the Flare Alert Trigger, active in a running n8n. */
export class ActiveAlertWorkflow extends ActiveWorkflow {
	constructor(
		server: AlertServer,
		workflow: WorkflowFile,
		trigger: string,
		private readonly webhookId: string,
	) {
		super(server, workflow, trigger);
	}

	get url(): string {
		return `${this.server.url}/webhook/${this.webhookId}/flare-alert`;
	}

	/** Activates the workflow and waits until n8n serves its webhook (a request is no longer a 404). */
	override async activate(): Promise<void> {
		await super.activate();
		await this.served();
	}

	/** Waits until n8n serves the webhook, e.g. after a restart. */
	async served(timeoutSeconds = 60): Promise<void> {
		const started = Date.now();
		for (;;) {
			const probe = await pushAlert(this.url, {}, { contentType: 'text/plain', rawBody: 'probe' });
			if (probe.status !== 404) return;
			if (Date.now() - started > timeoutSeconds * 1000) {
				throw new E2eFailure(
					this.trigger,
					`n8n did not serve ${this.url} within ${timeoutSeconds} s`,
				);
			}
			await sleep(250);
		}
	}

	async push(
		alert: FlareAlert | FlareAlert[],
		options: PushOptions = { secrets: [ALERT_SECRET] },
	): Promise<PushResult> {
		return await pushAlert(this.url, alert, options);
	}
}

/** A running n8n with its signed-in owner, restartable. */
export class AlertServer {
	private current?: N8nServer;
	private signedIn?: EditorSession;

	constructor(
		readonly n8n: N8nInstance,
		readonly secrets: E2eSecretScan,
	) {}

	async start(): Promise<void> {
		this.current = await startServer(this.n8n);
		await EditorSession.ensureOwner(this.current);
		this.signedIn = await EditorSession.logIn(this.current, this.n8n.userFolder);
	}

	get url(): string {
		return this.current!.url;
	}

	/** What the running n8n printed so far (its log). */
	log(): string {
		return this.current ? fs.readFileSync(this.current.logFile, 'utf8') : '';
	}

	get session(): EditorSession {
		if (!this.signedIn) throw new Error('n8n is not running');
		return this.signedIn;
	}

	/** Stops n8n (SIGTERM) and starts it again on the same database; its active workflows come back. */
	async restart(): Promise<void> {
		await this.stop();
		await this.start();
	}

	async stop(): Promise<void> {
		// What it printed is scanned with the instance's files (each start keeps the one before's).
		await this.current?.stop();
		this.current = undefined;
		this.signedIn = undefined;
	}
}

export interface AlertCaseContext<Active extends ActiveWorkflow = ActiveAlertWorkflow> {
	fake: FakeFlare;
	server: AlertServer;
	/** The workflow of the case, activated. */
	active: Active;
	/** Prints one line of the case. */
	note: (line: string) => void;
	/** The n8n line the case runs on. */
	line: LineKey;
	/** The stand-ins of the tools the playbooks act on, when the run has them (stand-ins/). */
	tools?: ToolStandIns;
}

/**
 * A case run on a workflow active in a started n8n: by default one with the Flare Alert Trigger,
 * whose alerts the case pushes; `start` activates another kind (polled.ts: the Flare Trigger).
 */
export interface AlertCase<Active extends ActiveWorkflow = ActiveAlertWorkflow> {
	/** Workflow file, relative to workflows/. */
	file: string;
	about: string;
	/** The name of the trigger node. */
	trigger: string;
	/** What the case shows, printed with it (default: pushed alerts). */
	name?: string;
	/** Activates the workflow (default: the Flare Alert Trigger's, once n8n serves its webhook). */
	start?(server: AlertServer, workflow: WorkflowFile): Promise<Active>;
	run(context: AlertCaseContext<Active>): Promise<void>;
}

/** What the trigger outputs for an alert of the fake's channel, its leaked values masked. */
function expectedItem(alert: FlareAlert, fake: FakeFlare): Record<string, unknown> {
	const severities = ['info', 'low', 'medium', 'high', 'critical'];
	const score = (alert.user_risk_score as number | null) ?? (alert.risk as { score: number }).score;
	return {
		uid: alert.uid,
		event_type: alert.event_type,
		severity: severities[score - 1],
		risk_score: score,
		flare_url: alert.url,
		occurred_at: alert.timestamp,
		alert: maskedView(alert, fake.events.plantedValues()),
	};
}

const withoutReceivedAt = (json: Record<string, unknown>) => {
	const copy = { ...json };
	delete copy.received_at;
	return copy;
};

/** A status and message, as a line shows them. */
export const answerOf = (result: PushResult) =>
	`${result.status} ${JSON.stringify((result.body as { message?: string }).message ?? result.body)}`;

export const ALERT_CASES: AlertCase[] = [
	{
		file: 'behaviours/alert-trigger-signed.json',
		about:
			'signed alerts start one execution each; forged, stale, replayed, oversized and non-JSON ones none',
		trigger: 'Flare alert',
		async run({ fake, server, active, note }) {
			const node = 'Flare alert';
			// Signed alerts, one at a time: one execution each, answered before the workflow ends.
			const alerts = fake.newAlerts(5, { type: 'leaked_credential' });
			const answers: PushResult[] = [];
			for (const alert of alerts) answers.push(await active.push(alert));
			checkEqual(
				answers.map(answerOf),
				alerts.map(() => `200 "${STARTED}"`),
				node,
				'answers to 5 signed alerts',
			);
			const runs = await active.next(alerts.length);
			checkEqual(
				runs.map((execution) => new RunView(execution.run).json(node).map(withoutReceivedAt)),
				alerts.map((alert) => [expectedItem(alert, fake)]),
				node,
				'one execution per alert, its item the normalised fields and the alert, the leaked password masked',
			);
			check(
				alerts.every((alert) => JSON.stringify(alert).includes(PLANTED_MARKER)) &&
					runs.every((execution) => !JSON.stringify(execution.run).includes(PLANTED_MARKER)),
				node,
				'each alert carried a planted leaked value; no execution holds one in clear',
			);
			checkEqual(
				runs.map((execution) => execution.mode),
				alerts.map(() => 'webhook'),
				node,
				'execution modes',
			);
			checkEqual(
				runs.map((execution) => new RunView(execution.run).json('Handle the alert').length),
				alerts.map(() => 1),
				'Handle the alert',
				'each item reaches the next node',
			);
			for (const [k, execution] of runs.entries()) {
				const answeredBeforeEnd = Date.parse(execution.stoppedAt!) - answers[k].answeredAt;
				check(
					answeredBeforeEnd > 1_000,
					node,
					`Flare got its answer before the workflow ended (execution ${execution.id} ended ${answeredBeforeEnd} ms after the answer; the workflow takes 2 s)`,
				);
			}
			note(
				`5 signed alerts → 200, 5 executions (answered ${Math.max(...answers.map((a) => a.answeredAt - a.sentAt))} ms at most after sending)`,
			);

			// Several alerts in one body: one execution, one item each.
			const batch = fake.newAlerts(3);
			checkEqual(
				answerOf(await active.push(batch)),
				`200 "${STARTED}"`,
				node,
				'answer to a body of 3 alerts',
			);
			const [batchRun] = await active.next(1);
			checkEqual(
				new RunView(batchRun.run).json(node).map((item) => item.uid),
				batch.map((alert) => alert.uid),
				node,
				'items of the batch',
			);

			// The channel's Test alert, signed: a captured request replayed starts nothing more.
			const sample = testAlert(Date.now());
			const sampleBody = JSON.stringify(sample);
			const sampleHeader = `t=${Math.floor(Date.now() / 1000)},v1=${signature(ALERT_SECRET, Math.floor(Date.now() / 1000), sampleBody)}`;
			const replayed = { rawBody: sampleBody, header: sampleHeader };
			checkEqual(
				[
					answerOf(await active.push(sample, replayed)),
					answerOf(await active.push(sample, replayed)),
				],
				[`200 "${STARTED}"`, `200 "${DUPLICATE}"`],
				node,
				'a signed Test alert, then the same request again (a replay)',
			);
			await active.next(1);
			note(`a signed Test alert → 200 "${STARTED}"; the same request again → 200 "${DUPLICATE}"`);

			// What is refused, and what n8n answers.
			const [fresh] = fake.newAlerts(1);
			const body = JSON.stringify(fresh);
			const now = Math.floor(Date.now() / 1000);
			const refusals: Array<[string, () => Promise<PushResult>, number, string]> = [
				[
					'no signature',
					() => active.push(fresh, {}),
					401,
					'The request has no X-Flare-Signature header',
				],
				[
					'another secret',
					() => active.push(fresh, { secrets: ['whsec_forged_by_someone'] }),
					401,
					'No v1 signature of the X-Flare-Signature header matches',
				],
				[
					'a body changed after signing',
					() =>
						active.push(fresh, {
							rawBody: body.replace('"uid"', '"uid_"'),
							header: `t=${now},v1=${signature(ALERT_SECRET, now, body)}`,
						}),
					401,
					'No v1 signature',
				],
				[
					'a signature 10 minutes old',
					() => active.push(fresh, { secrets: [ALERT_SECRET], t: now - 600 }),
					401,
					'outside the tolerance of 300 s',
				],
				[
					'the same alert again (a retry)',
					() => active.push(alerts[0], { secrets: [ALERT_SECRET], t: now + 1 }),
					200,
					DUPLICATE,
				],
				[
					'a body of 5 MiB',
					() => active.push({ ...fresh, content: 'x'.repeat(5 * 1024 * 1024) }),
					413,
					'more than the 4194304 an alert may have',
				],
				[
					'text/plain',
					() => active.push(fresh, { secrets: [ALERT_SECRET], contentType: 'text/plain' }),
					415,
					'Flare alerts are JSON',
				],
				['JSON that is not an alert', () => active.push([1, 2] as never), 400, 'not an alert'],
				[
					'a body nested 20,000 levels deep',
					() =>
						active.push(fresh, {
							secrets: [ALERT_SECRET],
							rawBody: `{"uid":"deep","data":${'['.repeat(20_000)}${']'.repeat(20_000)}}`,
						}),
					400,
					'more than 64 levels deep',
				],
			];
			const logBefore = server.log().length;
			for (const [what, answer, status, message] of refusals) {
				const result = await answer();
				check(
					result.status === status &&
						String((result.body as { message?: string }).message).includes(message),
					node,
					`${what}: expected ${status} "${message}…", n8n answered ${answerOf(result)}`,
				);
				note(`${what} → ${answerOf(result)}`);
				check(
					!JSON.stringify(result.body).includes(ALERT_SECRET),
					node,
					`${what}: the answer does not hold the secret`,
				);
			}
			// n8n's own answers, before the trigger runs.
			const malformed = await active.push(fresh, { secrets: [ALERT_SECRET], rawBody: '{"uid": ' });
			check(
				malformed.status === 422,
				node,
				`malformed JSON: n8n answers 422, answered ${answerOf(malformed)}`,
			);
			note(`malformed JSON (application/json) → ${answerOf(malformed)} (n8n's own parser)`);
			const huge = await active.push(fresh, {
				secrets: [ALERT_SECRET],
				rawBody: `{"content":"${'x'.repeat(17 * 1024 * 1024)}"}`,
			});
			check(
				huge.status >= 400,
				node,
				`a body of 17 MiB (over n8n's N8N_PAYLOAD_SIZE_MAX): refused, answered ${answerOf(huge)}`,
			);
			note(`a body of 17 MiB → ${huge.status} (n8n's own bound, N8N_PAYLOAD_SIZE_MAX 16 MiB)`);
			await active.nothingStarted('the refused and repeated deliveries');
			// n8n's log: a line per status refused (a minute apart at most once), in the trigger's words.
			const refusalLines = server
				.log()
				.slice(logBefore)
				.split('\n')
				.filter((text) => text.includes('Flare Alert Trigger refused a request'));
			// (A 415 may have been logged less than a minute before, for the probes that wait for n8n
			// to serve the webhook: then it is counted in the next line, not written again.)
			const statuses = refusalLines.map((text) => /refused a request with (\d+)/.exec(text)?.[1]);
			check(
				new Set(statuses).size === statuses.length &&
					['400', '401', '413'].every((status) => statuses.includes(status)) &&
					statuses.every((status) => ['400', '401', '413', '415'].includes(String(status))),
				node,
				`n8n's log: one line per status refused, at most (${statuses.join(', ')})`,
			);
			check(
				!refusalLines.some((text) => text.includes('text/plain') || text.includes(`t=${now}`)),
				node,
				"n8n's log lines hold nothing of the requests (their Content-Type, their signature's time)",
			);
			note(
				`n8n's log: ${refusalLines.length} lines for ${refusals.filter(([, , status]) => status !== 200).length} refused requests (${statuses.join(', ')})`,
			);

			// A restart: what the trigger remembers is in the static data n8n saved after each request
			// (docs/alerts.md, "What n8n saves, and when").
			const restartedAt = Date.now();
			await server.restart();
			await active.served();
			const again = await active.push(alerts[1], { secrets: [ALERT_SECRET] });
			checkEqual(
				answerOf(again),
				`200 "${DUPLICATE}"`,
				node,
				'a delivery seen before the restart, after it',
			);
			checkEqual(
				answerOf(await active.push(sample, replayed)),
				`200 "${DUPLICATE}"`,
				node,
				'the signed Test request replayed after the restart',
			);
			const accepted = await active.push(fresh);
			checkEqual(answerOf(accepted), `200 "${STARTED}"`, node, 'a new alert after the restart');
			const afterRestart = await active.next(1);
			checkEqual(
				afterRestart.map((execution) =>
					new RunView(execution.run).json(node).map((item) => item.uid),
				),
				[[fresh.uid]],
				node,
				'the executions after the restart',
			);
			await active.nothingStarted('the deliveries after the restart');
			note(
				`n8n restarted in ${seconds(restartedAt)}: a delivery seen before → ${answerOf(again)}, the Test request replayed → 200 "${DUPLICATE}" (the saved static data); a new one → 1 execution`,
			);
		},
	},
	{
		file: 'behaviours/alert-trigger-own-channel.json',
		about:
			'publishing creates a Webhook channel in Flare for the Production URL; alerts signed with its secret start the workflow, unsigned ones get 401',
		trigger: 'Flare alert',
		async run({ fake, active, note }) {
			const node = 'Flare alert';
			// n8n serves the webhook before it has run the node's create(): wait for Flare's answer. Only
			// the channels that send to this workflow's URL (Alert Channel → Create runs in another case).
			const toThisWorkflow = (body: unknown) => {
				const url = (body as { params?: { webhook_url?: unknown } } | undefined)?.params?.webhook_url;
				return typeof url === 'string' && URL.canParse(url) && new URL(url).pathname === new URL(active.url).pathname;
			};
			const channelRequests = () =>
				fake.requests.filter(
					(request) =>
						request.method === 'POST' &&
						request.path === '/firework/v4/alerts/channels' &&
						request.status !== 0 &&
						toThisWorkflow(request.body),
				);
			for (let wait = 0; wait < 300 && channelRequests().length === 0; wait++) await sleep(100);
			const created = channelRequests();
			checkEqual(created.length, 1, node, 'one channel created on activation');
			const body = created[0].body as { name: string; params: { type: string; webhook_url: string; secret: string } };
			checkEqual(
				[body.name, body.params.type, new URL(body.params.webhook_url).pathname, /^[0-9a-f]{64}$/.test(body.params.secret)],
				['n8n: own channel example', 'webhook', new URL(active.url).pathname, true],
				node,
				'the channel: named as set, sending to the Production URL, with its secret',
			);
			const [alert] = fake.newAlerts(1, { type: 'leaked_credential' });
			// The secret is derived from the API key, so no saved static data is needed to check it; a
			// 500 (n8n still setting the workflow up) starts nothing and Flare sends again, as here.
			let signed = await pushAlert(active.url, alert, { secrets: [body.params.secret] });
			for (let retry = 0; retry < 50 && signed.status === 500; retry++) {
				await sleep(200);
				signed = await pushAlert(active.url, alert, { secrets: [body.params.secret] });
			}
			checkEqual(answerOf(signed), `200 "${STARTED}"`, node, "answer to an alert signed with the channel's secret");
			const [run] = await active.next(1);
			checkEqual(new RunView(run.run).json(node).map(withoutReceivedAt), [expectedItem(alert, fake)], node, 'its execution');
			const unsigned = await pushAlert(active.url, alert);
			checkEqual(unsigned.status, 401, node, 'an unsigned alert is refused');
			note(`channel created for ${new URL(body.params.webhook_url).pathname}; signed → 200, 1 execution; unsigned → 401`);
		},
	},
];

/**
 * Runs the alert cases on a started n8n: each workflow activated, its case run; returns the failures.
 * `say` prints each case's lines.
 */
export async function runAlertCases(options: {
	n8n: N8nInstance;
	fake: FakeFlare;
	secrets: E2eSecretScan;
	cases: Array<AlertCase<ActiveWorkflow>>;
	workflows: Map<string, WorkflowFile>;
	line: LineKey;
	tools?: ToolStandIns;
}): Promise<Array<{ workflow: WorkflowFile; message: string }>> {
	const { n8n, fake, secrets, cases, workflows, line, tools } = options;
	const failures: Array<{ workflow: WorkflowFile; message: string }> = [];
	const server = new AlertServer(n8n, secrets);
	try {
		await server.start();
		for (const testCase of cases) {
			const workflow = workflows.get(testCase.file)!;
			const json = JSON.parse(fs.readFileSync(workflow.absolute, 'utf8')) as {
				nodes: Array<{ name: string; webhookId?: string }>;
			};
			const webhookId = json.nodes.find((node) => node.name === testCase.trigger)?.webhookId;
			const started = Date.now();
			const lines: string[] = [];
			try {
				let active: ActiveWorkflow;
				if (testCase.start) active = await testCase.start(server, workflow);
				else {
					if (!webhookId) throw new E2eFailure(testCase.trigger, 'the trigger has no webhookId');
					active = new ActiveAlertWorkflow(server, workflow, testCase.trigger, webhookId);
					await active.activate();
				}
				await testCase.run({ fake, server, active, line, tools, note: (text) => lines.push(text) });
				say(`  ✓ ${workflow.file}  ${seconds(started)}  (${testCase.name ?? 'pushed alerts'})`);
				for (const line of lines) say(`      ${line}`);
			} catch (error) {
				const message =
					error instanceof E2eFailure ? error.message : ((error as Error).stack ?? String(error));
				say(`  ✗ ${workflow.file}  ${seconds(started)}${testCase.name ? `  (${testCase.name})` : ''}`);
				for (const line of lines) say(`      ${line}`);
				say(`      workflow "${workflow.name}": ${message.split('\n').join('\n      ')}`);
				failures.push({ workflow, message });
			}
		}
	} finally {
		await server.stop();
	}
	return failures;
}
