/**
 * Section 5. How soon a Flare alert starts a workflow: pushed to the Flare Alert Trigger, or found by
 * the Flare Trigger's New Event poll. A real n8n 2.41.1 (`n8n start`, SQLite, regular mode, n8n's
 * defaults) with the workflows published, on loopback:
 * - push, one at a time: each signed alert POSTed to the production URL once the one before was
 *   answered;
 * - push, a burst: all of them POSTed at once;
 * - the same two with n8n's own Webhook node in place of the trigger, for reference;
 * - the four again with n8n's in-process expression engine (no expression isolate to wait for);
 * - poll: new events enter the fake's tenant feed one every few seconds while the trigger polls every
 *   minute (n8n's shortest interval).
 * Each delay is measured the same way: from the POST (or the event's arrival in the feed) to the start
 * of the execution that carries it, as n8n records it (`startedAt`, the same machine's clock).
 */
import { sleep } from 'n8n-workflow';

import { type FakeFlare, FakeFlare as Fake, pushAlert } from '../../test/fake-flare';
import { ensureN8n, run } from '../../test/e2e/install';
import { EditorSession, unflatten } from '../../test/e2e/manual';
import { N8nInstance } from '../../test/e2e/n8n';
import { type N8nServer, startServer } from '../../test/e2e/server';
import { ALERT_SECRET, alertCredential, buildAndPack, flareCredential } from '../../test/e2e/suite';
import { fs, path } from '../../test/support/node';
import { REPO_ROOT } from '../lib/proc';
import { round } from '../lib/stats';
import { WORK_DIR } from '../lib/n8n';

export interface PushRow {
	/** What received the alerts, and how they came. */
	path: string;
	/** Whether the row is the Flare Alert Trigger's (the goal applies to those). */
	push: boolean;
	samples: number;
	/** Delays in ms to the execution's start: percentiles, and every sample. */
	p50: number;
	p95: number;
	max: number;
	delaysMs: number[];
	/** Delays in ms to n8n's answer (pushed rows only). */
	answeredP50?: number;
	answeredP95?: number;
	/** Executions that carried them. */
	executions: number;
}

const ALERT_WORKFLOW = 'benchAlertPush';
const WEBHOOK_WORKFLOW = 'benchWebhookNode';
const POLL_WORKFLOW = 'benchEventPoll';
const ALERT_WEBHOOK = '0b3e5d61-8c2a-5f4e-9d17-bench0000001';
const WEBHOOK_PATH = 'bench-alerts';
const TRIGGER = 'Flare alert';
const WEBHOOK_NODE = 'Webhook';
const POLLER = 'New event';

/** Nearest-rank percentile. */
export function percentile(values: number[], p: number): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

function row(
	path: string,
	push: boolean,
	delaysMs: number[],
	executions: number,
	answeredMs?: number[],
): PushRow {
	return {
		path,
		push,
		samples: delaysMs.length,
		p50: round(percentile(delaysMs, 50)),
		p95: round(percentile(delaysMs, 95)),
		max: round(Math.max(...delaysMs)),
		delaysMs: delaysMs.map((delay) => round(delay)),
		...(answeredMs
			? {
					answeredP50: round(percentile(answeredMs, 50)),
					answeredP95: round(percentile(answeredMs, 95)),
				}
			: {}),
		executions,
	};
}

const node = (name: string, type: string, parameters: object, extra: object = {}) => ({
	id: `${name.replace(/\W/g, '-')}-bench`,
	name,
	type,
	typeVersion: 1,
	position: [0, 0],
	parameters,
	...extra,
});

/**
 * Flare Alert Trigger (signed) → No Operation; n8n's Webhook node (POST, Respond Immediately) → No
 * Operation, for reference; Flare Trigger, New Event every minute → No Operation.
 */
function workflows() {
	const done = node('Done', 'n8n-nodes-base.noOp', {});
	const workflow = (
		id: string,
		name: string,
		trigger: { name: string; [key: string]: unknown },
	) => ({
		id,
		name,
		nodes: [trigger, done],
		connections: { [trigger.name]: { main: [[{ node: 'Done', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	});
	return [
		workflow(
			ALERT_WORKFLOW,
			'Bench: alerts pushed',
			node(
				TRIGGER,
				'n8n-nodes-flareio.flareAlertTrigger',
				{ authentication: 'requestSignature', options: {} },
				{
					webhookId: ALERT_WEBHOOK,
					credentials: {
						flareAlertWebhookApi: {
							id: 'flareAlertWebhookExample1',
							name: 'Flare Alert Webhook API',
						},
					},
				},
			),
		),
		workflow(WEBHOOK_WORKFLOW, "Bench: n8n's Webhook node", {
			...node(WEBHOOK_NODE, 'n8n-nodes-base.webhook', {
				httpMethod: 'POST',
				path: WEBHOOK_PATH,
				responseMode: 'onReceived',
				options: {},
			}),
			typeVersion: 2,
			webhookId: '6a1f0c2e-7b3d-5e49-8c21-bench0000002',
		}),
		workflow(
			POLL_WORKFLOW,
			'Bench: events polled',
			node(
				POLLER,
				'n8n-nodes-flareio.flareTrigger',
				{
					pollTimes: { item: [{ mode: 'everyMinute' }] },
					event: 'newEvent',
					feed: 'tenant',
					severityFilter: 'any',
					filters: {},
					options: {},
				},
				{ credentials: { flareApi: { id: 'flareApiExample1', name: 'Flare API' } } },
			),
		),
	];
}

interface ExecutionRow {
	id: string;
	startedAt: string;
}

/** The executions of a workflow as n8n stored them, read with n8n's own sqlite3 module (read-only). */
async function executionRows(n8n: N8nInstance, workflowId: string): Promise<ExecutionRow[]> {
	const script = [
		"const sqlite3 = require('sqlite3');",
		'const db = new sqlite3.Database(process.argv[1], sqlite3.OPEN_READONLY);',
		"db.all('select id, startedAt from execution_entity where workflowId = ? order by id', [process.argv[2]], (error, rows) => {",
		'  if (error) { console.error(error.message); process.exitCode = 1; } else process.stdout.write(JSON.stringify(rows));',
		'  db.close();',
		'});',
	].join('\n');
	const { stdout } = await run(
		n8n.install.nodeBin,
		['-e', script, path.join(n8n.userFolder, '.n8n', 'database.sqlite'), workflowId],
		{ cwd: path.join(n8n.install.dir, 'node_modules', 'n8n') },
	);
	return (JSON.parse(stdout || '[]') as Array<{ id: number; startedAt: string }>).map((entry) => ({
		id: String(entry.id),
		startedAt: entry.startedAt,
	}));
}

/** SQLite keeps `2026-11-25 16:01:02.345` in UTC. */
export const startMs = (startedAt: string) => Date.parse(`${startedAt.replace(' ', 'T')}Z`);

/** The uids each execution's trigger output carries. */
export async function uidsOf(
	session: EditorSession,
	id: string,
	trigger: string,
): Promise<string[]> {
	const saved = await session.request<{ data: string }>('GET', `/executions/${id}`);
	const data = unflatten(saved.data) as {
		resultData: {
			runData: Record<
				string,
				Array<{ data?: { main?: Array<Array<{ json: Record<string, unknown> }>> } }>
			>;
		};
	};
	const items = data.resultData.runData[trigger]?.[0]?.data?.main?.[0] ?? [];
	// The alert trigger's item, a feed item, or n8n's Webhook node's (the alert as its body).
	return items.map((item) => {
		const json = item.json as {
			uid?: string;
			metadata?: { uid?: string };
			body?: { uid?: string };
		};
		return String(json.uid ?? json.metadata?.uid ?? json.body?.uid);
	});
}

/** What an execution carried: the uids of its trigger's items, and when it started (ms). */
type Carried = Map<string, { uids: string[]; startedMs: number }>;

/**
 * Waits until executions of the workflow carry every one of `uids`; maps each uid to the start of its
 * execution, and counts those executions. `carried` keeps what each execution held across calls.
 */
async function starts(
	n8n: N8nInstance,
	session: EditorSession,
	workflowId: string,
	trigger: string,
	uids: Set<string>,
	timeoutSeconds: number,
	carried: Carried,
): Promise<{ startOf: Map<string, number>; executions: number }> {
	const deadline = Date.now() + timeoutSeconds * 1000;
	for (;;) {
		for (const execution of await executionRows(n8n, workflowId)) {
			if (carried.has(execution.id) || !execution.startedAt) continue;
			carried.set(execution.id, {
				uids: await uidsOf(session, execution.id, trigger),
				startedMs: startMs(execution.startedAt),
			});
		}
		const startOf = new Map<string, number>();
		let executions = 0;
		for (const { uids: held, startedMs } of carried.values()) {
			const ours = held.filter((uid) => uids.has(uid));
			if (ours.length) executions++;
			for (const uid of ours) startOf.set(uid, startedMs);
		}
		if (startOf.size === uids.size) return { startOf, executions };
		if (Date.now() > deadline) {
			throw new Error(
				`${workflowId}: ${startOf.size} of ${uids.size} alerts started an execution within ${timeoutSeconds} s`,
			);
		}
		await sleep(1_000);
	}
}

/** n8n's settings the section runs under: its defaults, then without expression isolates. */
const CONFIGURATIONS: Array<{ label: string; env: Record<string, string> }> = [
	{ label: '', env: {} },
	// n8n 2.x holds one expression isolate (a pool of 1) through each request of a webhook trigger
	// other than its own Webhook node: with its former in-process engine, that wait goes.
	{ label: ', N8N_EXPRESSION_ENGINE=legacy', env: { N8N_EXPRESSION_ENGINE: 'legacy' } },
];

/** Pushes `count` alerts one at a time, then `count` at once, to a target; one row each. */
async function pushRows(
	context: { fake: FakeFlare; n8n: N8nInstance; session: EditorSession; carried: Carried },
	target: {
		name: string;
		push: boolean;
		url: string;
		workflow: string;
		trigger: string;
		secrets?: string[];
	},
	count: number,
): Promise<PushRow[]> {
	const { fake, n8n, session, carried } = context;
	const sent: Array<{ uid: string; sentAt: number; answeredAt: number }> = [];
	// One at a time: each once the one before was answered.
	for (const alert of fake.newAlerts(count)) {
		const answer = await pushAlert(target.url, alert, { secrets: target.secrets });
		if (answer.status !== 200) {
			throw new Error(`${target.name}: ${answer.status} ${JSON.stringify(answer.body)}`);
		}
		sent.push({ uid: String(alert.uid), sentAt: answer.sentAt, answeredAt: answer.answeredAt });
	}
	// All at once.
	const burst = await Promise.all(
		fake.newAlerts(count).map(async (alert) => {
			const answer = await pushAlert(target.url, alert, { secrets: target.secrets });
			if (answer.status !== 200) throw new Error(`${target.name}, at once: ${answer.status}`);
			return { uid: String(alert.uid), sentAt: answer.sentAt, answeredAt: answer.answeredAt };
		}),
	);
	const rows: PushRow[] = [];
	for (const [how, pushed] of [
		['one at a time', sent],
		[`${count} at once`, burst],
	] as const) {
		const uids = new Set(pushed.map(({ uid }) => uid));
		const { startOf, executions } = await starts(
			n8n,
			session,
			target.workflow,
			target.trigger,
			uids,
			300,
			carried,
		);
		rows.push(
			row(
				`${target.name}, ${how}`,
				target.push,
				pushed.map(({ uid, sentAt }) => startOf.get(uid)! - sentAt),
				executions,
				pushed.map(({ sentAt, answeredAt }) => answeredAt - sentAt),
			),
		);
	}
	return rows;
}

export async function runPush(options: {
	alerts: number;
	pollEvents: number;
	pollMinutes: number;
	log: (text: string) => void;
}): Promise<PushRow[]> {
	const { log } = options;
	const fake: FakeFlare = await Fake.start({ credentials: 1_000 });
	let server: N8nServer | undefined;
	try {
		const install = await ensureN8n('2', log);
		const tarball = await buildAndPack(REPO_ROOT, path.join(WORK_DIR, 'push-pack'));
		const n8n = N8nInstance.create(install, path.join(WORK_DIR, 'push-n8n'));
		await n8n.installPackage(tarball);
		await n8n.importCredentials([flareCredential(fake), alertCredential()]);
		const folder = path.join(WORK_DIR, 'push-workflows');
		fs.rmSync(folder, { recursive: true, force: true });
		fs.mkdirSync(folder, { recursive: true });
		const files = workflows().map((workflow) => {
			const file = path.join(folder, `${workflow.id}.json`);
			fs.writeFileSync(file, JSON.stringify(workflow));
			return file;
		});
		await n8n.importWorkflows(files);
		const rows: PushRow[] = [];
		const carried: Carried = new Map();
		for (const [index, configuration] of CONFIGURATIONS.entries()) {
			server = await startServer(n8n, { env: configuration.env });
			await EditorSession.ensureOwner(server);
			const session = await EditorSession.logIn(server, n8n.userFolder);
			if (index === 0) {
				for (const id of [ALERT_WORKFLOW, WEBHOOK_WORKFLOW, POLL_WORKFLOW])
					await session.activate(id);
			}
			const targets = [
				{
					name: `Flare Alert Trigger${configuration.label}`,
					push: index === 0,
					url: `${server.url}/webhook/${ALERT_WEBHOOK}/flare-alert`,
					workflow: ALERT_WORKFLOW,
					trigger: TRIGGER,
					secrets: [ALERT_SECRET],
				},
				{
					name: `n8n's Webhook node${configuration.label}`,
					push: false,
					url: `${server.url}/webhook/${WEBHOOK_PATH}`,
					workflow: WEBHOOK_WORKFLOW,
					trigger: WEBHOOK_NODE,
				},
			];
			for (const { url } of targets) {
				for (
					let waited = 0;
					(await pushAlert(url, [1] as never, { rawBody: 'probe' })).status === 404;
					waited++
				) {
					if (waited > 240) throw new Error(`n8n did not serve ${url}`);
					await sleep(250);
				}
			}
			log(`  ${install.label} started${configuration.label}, the workflows published`);
			for (const target of targets) {
				for (const measured of await pushRows(
					{ fake, n8n, session, carried },
					target,
					options.alerts,
				)) {
					rows.push(measured);
					log(
						`  ${measured.path}: p50 ${measured.p50} ms, p95 ${measured.p95} ms from the POST to the execution`,
					);
				}
			}
			if (index === 0 && options.pollEvents > 0) {
				// Poll: events arrive evenly over a few minutes.
				const arrivedAt = new Map<string, number>();
				const spacingMs = Math.round((options.pollMinutes * 60_000) / options.pollEvents);
				for (let k = 0; k < options.pollEvents; k++) {
					const [item] = fake.addEvents(1);
					arrivedAt.set(item.metadata.uid, Date.now());
					await sleep(spacingMs);
				}
				const polled = await starts(
					n8n,
					session,
					POLL_WORKFLOW,
					POLLER,
					new Set(arrivedAt.keys()),
					180,
					new Map(),
				);
				const measured = row(
					'Flare Trigger, New Event polled every minute',
					false,
					[...arrivedAt].map(([uid, arrived]) => polled.startOf.get(uid)! - arrived),
					polled.executions,
				);
				rows.push(measured);
				log(
					`  ${measured.path}: p50 ${measured.p50} ms, p95 ${measured.p95} ms from the event's arrival to the execution`,
				);
			}
			await server.stop();
			server = undefined;
		}
		return rows;
	} finally {
		await server?.stop();
		await fake.stop();
	}
}
