/**
 * Section 5. How soon a Flare alert starts a workflow: pushed to the Flare Alert Trigger, or found by
 * the Flare Trigger's New Event poll. A real n8n 2.41.1 (`n8n start`, SQLite, regular mode) with both
 * workflows published, on loopback:
 * - push, one at a time: each signed alert POSTed to the production URL once the one before was
 *   answered;
 * - push, a burst: all of them POSTed at once;
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
	mode: 'push, one at a time' | 'push, burst' | 'poll, New Event every minute';
	samples: number;
	/** Delays in ms: percentiles, and every sample. */
	p50: number;
	p95: number;
	max: number;
	delaysMs: number[];
	/** Executions that carried them. */
	executions: number;
}

const ALERT_WORKFLOW = 'benchAlertPush';
const POLL_WORKFLOW = 'benchEventPoll';
const ALERT_WEBHOOK = '0b3e5d61-8c2a-5f4e-9d17-bench0000001';
const TRIGGER = 'Flare alert';
const POLLER = 'New event';

/** Nearest-rank percentile. */
export function percentile(values: number[], p: number): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

function row(mode: PushRow['mode'], delaysMs: number[], executions: number): PushRow {
	return {
		mode,
		samples: delaysMs.length,
		p50: round(percentile(delaysMs, 50)),
		p95: round(percentile(delaysMs, 95)),
		max: round(Math.max(...delaysMs)),
		delaysMs: delaysMs.map((delay) => round(delay)),
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

/** Flare Alert Trigger (signed) → No Operation; New Event every minute → No Operation. */
function workflows() {
	const done = node('Done', 'n8n-nodes-base.noOp', {});
	const connect = (from: string) => ({
		[from]: { main: [[{ node: 'Done', type: 'main', index: 0 }]] },
	});
	return [
		{
			id: ALERT_WORKFLOW,
			name: 'Bench: alerts pushed',
			nodes: [
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
				done,
			],
			connections: connect(TRIGGER),
			settings: { executionOrder: 'v1' },
		},
		{
			id: POLL_WORKFLOW,
			name: 'Bench: events polled',
			nodes: [
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
				done,
			],
			connections: connect(POLLER),
			settings: { executionOrder: 'v1' },
		},
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
const startMs = (startedAt: string) => Date.parse(`${startedAt.replace(' ', 'T')}Z`);

/** The uids each execution's trigger output carries (the alert's, or the feed item's). */
async function uidsOf(session: EditorSession, id: string, trigger: string): Promise<string[]> {
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
	return items.map((item) =>
		String(item.json.uid ?? (item.json.metadata as { uid?: string } | undefined)?.uid),
	);
}

/** Waits until the workflow has `count` executions carrying `uids`, then maps each uid to its start. */
async function starts(
	n8n: N8nInstance,
	session: EditorSession,
	workflowId: string,
	trigger: string,
	uids: Set<string>,
	timeoutSeconds: number,
	seen: Set<string>,
): Promise<{ startOf: Map<string, number>; executions: number }> {
	const startOf = new Map<string, number>();
	let executions = 0;
	const deadline = Date.now() + timeoutSeconds * 1000;
	while (startOf.size < uids.size) {
		for (const execution of await executionRows(n8n, workflowId)) {
			if (seen.has(execution.id) || !execution.startedAt) continue;
			const carried = await uidsOf(session, execution.id, trigger);
			seen.add(execution.id);
			executions++;
			for (const uid of carried) if (uids.has(uid)) startOf.set(uid, startMs(execution.startedAt));
		}
		if (startOf.size < uids.size) {
			if (Date.now() > deadline) {
				throw new Error(
					`${workflowId}: ${startOf.size} of ${uids.size} alerts started an execution within ${timeoutSeconds} s`,
				);
			}
			await sleep(1_000);
		}
	}
	return { startOf, executions };
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
		server = await startServer(n8n);
		await EditorSession.ensureOwner(server);
		const session = await EditorSession.logIn(server, n8n.userFolder);
		await session.activate(ALERT_WORKFLOW);
		await session.activate(POLL_WORKFLOW);
		const url = `${server.url}/webhook/${ALERT_WEBHOOK}/flare-alert`;
		for (
			let waited = 0;
			(await pushAlert(url, {}, { contentType: 'text/plain', rawBody: 'probe' })).status === 404;
			waited++
		) {
			if (waited > 240) throw new Error(`n8n did not serve ${url}`);
			await sleep(250);
		}
		log(`  ${install.label} started, both workflows published`);
		const seen = new Set<string>();
		const rows: PushRow[] = [];

		// Push, one at a time.
		const single = fake.newAlerts(options.alerts);
		const sentAt = new Map<string, number>();
		for (const alert of single) {
			const sent = Date.now();
			const answer = await pushAlert(url, alert, { secrets: [ALERT_SECRET] });
			if (answer.status !== 200)
				throw new Error(
					`alert ${String(alert.uid)}: ${answer.status} ${JSON.stringify(answer.body)}`,
				);
			sentAt.set(String(alert.uid), sent);
		}
		const one = await starts(
			n8n,
			session,
			ALERT_WORKFLOW,
			TRIGGER,
			new Set(sentAt.keys()),
			300,
			seen,
		);
		rows.push(
			row(
				'push, one at a time',
				[...sentAt].map(([uid, sent]) => one.startOf.get(uid)! - sent),
				one.executions,
			),
		);
		log(`  ${rows.at(-1)!.mode}: p50 ${rows.at(-1)!.p50} ms, p95 ${rows.at(-1)!.p95} ms`);

		// Push, a burst.
		const burst = fake.newAlerts(options.alerts);
		const burstSent = new Map<string, number>();
		const answers = await Promise.all(
			burst.map(async (alert) => {
				burstSent.set(String(alert.uid), Date.now());
				return await pushAlert(url, alert, { secrets: [ALERT_SECRET] });
			}),
		);
		const refused = answers.filter((answer) => answer.status !== 200);
		if (refused.length)
			throw new Error(`burst: ${refused.length} alerts answered ${refused[0].status}`);
		const many = await starts(
			n8n,
			session,
			ALERT_WORKFLOW,
			TRIGGER,
			new Set(burstSent.keys()),
			300,
			seen,
		);
		rows.push(
			row(
				'push, burst',
				[...burstSent].map(([uid, sent]) => many.startOf.get(uid)! - sent),
				many.executions,
			),
		);
		log(`  ${rows.at(-1)!.mode}: p50 ${rows.at(-1)!.p50} ms, p95 ${rows.at(-1)!.p95} ms`);

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
			new Set(),
		);
		rows.push(
			row(
				'poll, New Event every minute',
				[...arrivedAt].map(([uid, arrived]) => polled.startOf.get(uid)! - arrived),
				polled.executions,
			),
		);
		log(`  ${rows.at(-1)!.mode}: p50 ${rows.at(-1)!.p50} ms, p95 ${rows.at(-1)!.p95} ms`);
		return rows;
	} finally {
		await server?.stop();
		await fake.stop();
	}
}
