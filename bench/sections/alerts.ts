/**
 * Section 6. The Flare Alert Trigger under load, in a real n8n 2.41.1 (`n8n start`, SQLite, regular
 * mode, n8n's defaults) with two published workflows, the trigger (Request Signature) → No Operation
 * and, for reference, n8n's own Webhook node (Header Auth) → No Operation:
 * - bursts: many different signed alerts POSTed at once, then the same alerts again at once (Flare
 *   retrying each, signed anew), then as many to n8n's Webhook node; last, after a restart of n8n with
 *   its in-process expression engine, the first burst again;
 * - floods: forged requests (signed with another secret; unsigned; a wrong header for the Webhook
 *   node) at a steady rate for a minute, while genuine alerts are sent every few seconds.
 * A genuine request without a 2xx answer is sent again, as Flare retries. Each phase records what n8n
 * answered (status and message), how long the answers took, which executions carried the genuine
 * alerts (each should run once), the resident memory of n8n's main process (before, peak, after) and
 * what n8n printed meanwhile (lines, bytes, the trigger's lines of refusals).
 */
import { sleep } from 'n8n-workflow';

import {
	type FakeFlare,
	FakeFlare as Fake,
	type FlareAlert,
	pushAlert,
	type PushOptions,
	signatureHeader,
} from '../../test/fake-flare';
import { ensureN8n, run } from '../../test/e2e/install';
import { EditorSession } from '../../test/e2e/manual';
import { N8nInstance } from '../../test/e2e/n8n';
import { type N8nServer, startServer } from '../../test/e2e/server';
import { ALERT_SECRET, alertCredential, buildAndPack } from '../../test/e2e/suite';
import { fs, path } from '../../test/support/node';
import { WORK_DIR } from '../lib/n8n';
import { REPO_ROOT, statusKb } from '../lib/proc';
import { round } from '../lib/stats';
import { percentile, startMs, uidsOf } from './push';

export interface AlertLoadRow {
	phase: string;
	/** Whether the phase is n8n's own Webhook node's, for reference (no goal applies to it). */
	reference: boolean;
	/** Requests sent in the phase, and how many of them were genuine signed alerts. */
	requests: number;
	genuine: number;
	/** From the first POST to the last answer, ms. */
	spanMs: number;
	/** Answers by status and message ("failed": no answer within 30 s, or the connection failed). */
	answers: Record<string, number>;
	/** Time to n8n's answer, ms, every request of the phase. */
	answerP50: number;
	answerP95: number;
	answerMax: number;
	/** Executions started in the phase, and whether each genuine alert ran exactly once in all. */
	executions: number;
	eachOnce: boolean;
	/** Genuine alerts that never ran, and those that ran more than once. */
	never: number;
	twice: number;
	/** Genuine requests sent again because the one before got no 2xx (as Flare retries). */
	retries: number;
	/** From the POST of a genuine alert to the start of its execution, ms (p95). */
	startP95?: number;
	/** Resident memory of n8n's main process, MiB: before the phase, its peak during it, after it. */
	rssBeforeMiB: number;
	rssPeakMiB: number;
	rssAfterMiB: number;
	/** What n8n printed during the phase. */
	logLines: number;
	logBytes: number;
	/** Of those, the Flare Alert Trigger's lines of refusals. */
	refusalLines: number;
}

const WORKFLOW = 'benchAlertLoad';
const WEBHOOK = '5d7e2c10-4b8a-5e3f-a1c9-bench0000006';
const TRIGGER = 'Flare alert';
const FORGED_SECRET = 'whsec_forged_by_a_stranger';
/** Requests in flight at most during the flood: beyond, the sender waits (the rate drops). */
const MAX_IN_FLIGHT = 256;
/** How long to wait for an execution that should not come. */
const QUIET_MS = 5_000;
/**
 * A genuine alert without a 2xx answer is sent again, signed anew, after 5 s, then twice as long each
 * time, {@link ATTEMPTS} times in all (about 5 minutes): a sender that retries, as Flare does (its
 * schedule is not documented).
 */
const FIRST_RETRY_MS = 5_000;
const ATTEMPTS = 7;

/** n8n's own Webhook node with Header Auth, for reference: it reads a credential per request too. */
const REFERENCE_WORKFLOW = 'benchWebhookHeaderAuth';
const REFERENCE_PATH = 'bench-flood';
const REFERENCE_NODE = 'Webhook';
const HEADER = { name: 'X-Bench-Token', value: 'bench-header-token-4f1c9a' };

function referenceWorkflow() {
	return {
		id: REFERENCE_WORKFLOW,
		name: "Bench: n8n's Webhook node, Header Auth",
		nodes: [
			{
				id: 'webhook-header-auth-bench',
				name: REFERENCE_NODE,
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: '8c2f4e61-1d3b-5a7c-9e08-bench0000007',
				parameters: {
					httpMethod: 'POST',
					path: REFERENCE_PATH,
					authentication: 'headerAuth',
					responseMode: 'onReceived',
					options: {},
				},
				credentials: { httpHeaderAuth: { id: 'benchHeaderAuth1', name: 'Bench header' } },
			},
			{
				id: 'done-header-bench',
				name: 'Done',
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [220, 0],
				parameters: {},
			},
		],
		connections: { [REFERENCE_NODE]: { main: [[{ node: 'Done', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

function workflow() {
	return {
		id: WORKFLOW,
		name: 'Bench: alerts under load',
		nodes: [
			{
				id: 'flare-alert-load-bench',
				name: TRIGGER,
				type: 'n8n-nodes-flareio.flareAlertTrigger',
				typeVersion: 1,
				position: [0, 0],
				webhookId: WEBHOOK,
				parameters: { authentication: 'requestSignature', options: {} },
				credentials: {
					flareAlertWebhookApi: {
						id: 'flareAlertWebhookExample1',
						name: 'Flare Alert Webhook API',
					},
				},
			},
			{
				id: 'done-load-bench',
				name: 'Done',
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [220, 0],
				parameters: {},
			},
		],
		connections: { [TRIGGER]: { main: [[{ node: 'Done', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

/** The pid of `n8n start` in the server's process group (its guard is the group's leader). */
function n8nPid(server: N8nServer, n8nMain: string): number {
	for (const entry of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
			// pid (comm) state ppid pgrp …: the fields after the command's closing parenthesis.
			const pgrp = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
			if (pgrp !== server.processGroup) continue;
			const command = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
			// `<node> <n8n's main> start`: n8n itself (its guard runs `<node> guard.mjs <node> <main> start`).
			if (command[1] === n8nMain && command[2] === 'start') return Number(entry);
		} catch {
			// gone meanwhile
		}
	}
	throw new Error('n8n start was not found in its process group');
}

/** Samples n8n's resident memory every 200 ms until stopped; gives the peak, MiB. */
function sampleMemory(pid: number): { stop(): Promise<number> } {
	let running = true;
	let peakKb = statusKb(pid, 'VmRSS') ?? 0;
	const loop = (async () => {
		while (running) {
			peakKb = Math.max(peakKb, statusKb(pid, 'VmRSS') ?? 0);
			await sleep(200);
		}
	})();
	return {
		async stop() {
			running = false;
			await loop;
			return round(peakKb / 1024);
		},
	};
}

const rssMiB = (pid: number) => round((statusKb(pid, 'VmRSS') ?? 0) / 1024);

interface Answer {
	key: string;
	ms: number;
}

/** POSTs and records the answer as "<status> <message>" (or "failed"), and its time. */
async function send(
	url: string,
	alert: FlareAlert | FlareAlert[],
	options: object,
): Promise<Answer> {
	const started = Date.now();
	try {
		const result = await pushAlert(url, alert, options);
		// The status and the message's first clause (the rest names the request: its t, its size).
		const message = (result.body as { message?: string } | null)?.message?.split(':')[0];
		return { key: `${result.status}${message ? ` ${message}` : ''}`, ms: Date.now() - started };
	} catch {
		return { key: 'failed', ms: Date.now() - started };
	}
}

/** Sends a genuine alert until it gets a 2xx ({@link ATTEMPTS} at most); every answer, in order. */
async function sendUntilAccepted(
	url: string,
	alert: FlareAlert,
	options: PushOptions,
): Promise<Answer[]> {
	const answers: Answer[] = [];
	for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
		const answer = await send(url, alert, options);
		answers.push(answer);
		if (answer.key.startsWith('2')) break;
		if (attempt < ATTEMPTS) await sleep(FIRST_RETRY_MS * 2 ** (attempt - 1));
	}
	return answers;
}

/** The executions of a workflow as n8n stored them, with their status (n8n's own sqlite3, read-only). */
async function executionsOf(
	n8n: N8nInstance,
	workflowId: string,
): Promise<Array<{ id: string; startedAt: string; status: string }>> {
	const script = [
		"const sqlite3 = require('sqlite3');",
		'const db = new sqlite3.Database(process.argv[1], sqlite3.OPEN_READONLY);',
		"db.all('select id, startedAt, status from execution_entity where workflowId = ? order by id', [process.argv[2]], (error, rows) => {",
		'  if (error) { console.error(error.message); process.exitCode = 1; } else process.stdout.write(JSON.stringify(rows));',
		'  db.close();',
		'});',
	].join('\n');
	const { stdout } = await run(
		n8n.install.nodeBin,
		['-e', script, path.join(n8n.userFolder, '.n8n', 'database.sqlite'), workflowId],
		{ cwd: path.join(n8n.install.dir, 'node_modules', 'n8n') },
	);
	return (
		JSON.parse(stdout || '[]') as Array<{ id: number; startedAt: string; status: string }>
	).map((row) => ({ ...row, id: String(row.id) }));
}

/** Statuses of an execution that has ended: its data is all stored. */
const ENDED = new Set(['success', 'error', 'crashed', 'canceled']);

/** The executions of the workflow seen so far, with the uids each carried and its start. */
type Carried = Map<string, { uids: string[]; startedMs: number }>;

/**
 * Waits until the executions carry every uid of `uids` (or `timeoutSeconds` passed), then a quiet
 * moment for any second execution; gives how many executions started since `known` (whatever they
 * carry), how many times each uid ran in all, and when each first started.
 */
async function carriedBy(
	context: { n8n: N8nInstance; session: EditorSession; carried: Carried },
	target: { workflow: string; trigger: string },
	uids: Set<string>,
	known: Set<string>,
	timeoutSeconds: number,
): Promise<{ executions: number; runs: Map<string, number>; startOf: Map<string, number> }> {
	const { n8n, session, carried } = context;
	const read = async () => {
		for (const execution of await executionsOf(n8n, target.workflow)) {
			if (carried.has(execution.id) || !execution.startedAt || !ENDED.has(execution.status))
				continue;
			carried.set(execution.id, {
				uids: await uidsOf(session, execution.id, target.trigger),
				startedMs: startMs(execution.startedAt),
			});
		}
		const runs = new Map<string, number>();
		const startOf = new Map<string, number>();
		let executions = 0;
		for (const [id, { uids: held, startedMs }] of carried) {
			if (!known.has(id)) executions++;
			const ours = held.filter((uid) => uids.has(uid));
			for (const uid of ours) {
				runs.set(uid, (runs.get(uid) ?? 0) + 1);
				startOf.set(uid, Math.min(startedMs, startOf.get(uid) ?? startedMs));
			}
		}
		return { executions, runs, startOf };
	};
	const deadline = Date.now() + timeoutSeconds * 1000;
	while ((await read()).runs.size < uids.size && Date.now() < deadline) await sleep(1_000);
	await sleep(QUIET_MS);
	return await read();
}

/** What n8n printed so far: its size in bytes, its lines, its lines of refusals. */
function logFigures(file: string): { bytes: number; lines: number; refusals: number } {
	const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
	return {
		bytes: Buffer.byteLength(text),
		lines: text.split('\n').length - 1,
		refusals: text.split('Flare Alert Trigger refused a request').length - 1,
	};
}

/** Where a phase sends: the workflow, its trigger's name, its URL. */
interface Target {
	workflow: string;
	trigger: string;
	url: string;
}

export async function runAlertLoad(options: {
	burst: number;
	forged: number;
	floodSeconds: number;
	genuineEverySeconds: number;
	log: (text: string) => void;
}): Promise<AlertLoadRow[]> {
	const { log } = options;
	const fake: FakeFlare = await Fake.start({ credentials: 1_000 });
	let server: N8nServer | undefined;
	try {
		const install = await ensureN8n('2', log);
		const tarball = await buildAndPack(REPO_ROOT, path.join(WORK_DIR, 'alerts-pack'));
		const n8n = N8nInstance.create(install, path.join(WORK_DIR, 'alerts-n8n'));
		await n8n.installPackage(tarball);
		await n8n.importCredentials([
			alertCredential(),
			{ id: 'benchHeaderAuth1', name: 'Bench header', type: 'httpHeaderAuth', data: HEADER },
		]);
		const files = [workflow(), referenceWorkflow()].map((json) => {
			const file = path.join(WORK_DIR, `alerts-${json.id}.json`);
			fs.writeFileSync(file, JSON.stringify(json));
			return file;
		});
		await n8n.importWorkflows(files);
		/** Starts n8n (on the same database), signs in, waits until it serves both workflows. */
		const boot = async (env: Record<string, string>) => {
			server = await startServer(n8n, { env });
			await EditorSession.ensureOwner(server);
			const session = await EditorSession.logIn(server, n8n.userFolder);
			const ours: Target = {
				workflow: WORKFLOW,
				trigger: TRIGGER,
				url: `${server.url}/webhook/${WEBHOOK}/flare-alert`,
			};
			const reference: Target = {
				workflow: REFERENCE_WORKFLOW,
				trigger: REFERENCE_NODE,
				url: `${server.url}/webhook/${REFERENCE_PATH}`,
			};
			for (const target of [ours, reference]) {
				await session.activate(target.workflow);
				for (
					let waited = 0;
					(await send(target.url, {}, { rawBody: '{}' })).key.startsWith('404');
					waited++
				) {
					if (waited > 240) throw new Error(`n8n did not serve ${target.url}`);
					await sleep(250);
				}
			}
			const pid = n8nPid(server, install.n8nMain);
			log(`  ${install.label} started (pid ${pid})${JSON.stringify(env)}, the workflows published`);
			return { session, ours, reference, pid, logFile: server.logFile };
		};
		let live = await boot({});
		const { ours, reference } = live;
		const context = { n8n, session: live.session, carried: new Map() as Carried };
		const signed = { secrets: [ALERT_SECRET] };

		/** Runs a phase: sends, then waits for the executions of its genuine alerts. */
		const phase = async (
			name: string,
			target: Target,
			genuine: FlareAlert[],
			body: () => Promise<{ answers: Answer[]; sentAt: Map<string, number>; retries?: number }>,
		): Promise<AlertLoadRow> => {
			await sleep(5_000);
			const { pid, logFile } = live;
			const logBefore = logFigures(logFile);
			const rssBefore = rssMiB(pid);
			const known = new Set(context.carried.keys());
			const memory = sampleMemory(pid);
			const started = Date.now();
			const { answers, sentAt, retries = 0 } = await body();
			const spanMs = Date.now() - started;
			const uids = new Set(genuine.map((alert) => String(alert.uid)));
			const { executions, runs, startOf } = await carriedBy(context, target, uids, known, 300);
			const rssPeak = await memory.stop();
			const logAfter = logFigures(logFile);
			const counted: Record<string, number> = {};
			for (const { key } of answers) counted[key] = (counted[key] ?? 0) + 1;
			const times = answers.map(({ ms }) => ms);
			const starts = [...sentAt]
				.filter(([uid]) => startOf.has(uid))
				.map(([uid, at]) => startOf.get(uid)! - at);
			const row: AlertLoadRow = {
				phase: name,
				reference: target.workflow === REFERENCE_WORKFLOW,
				requests: answers.length,
				genuine: sentAt.size,
				spanMs,
				answers: counted,
				answerP50: round(percentile(times, 50)),
				answerP95: round(percentile(times, 95)),
				answerMax: round(Math.max(...times)),
				executions,
				eachOnce: [...uids].every((uid) => runs.get(uid) === 1),
				never: [...uids].filter((uid) => !runs.has(uid)).length,
				twice: [...uids].filter((uid) => (runs.get(uid) ?? 0) > 1).length,
				retries,
				...(starts.length ? { startP95: round(percentile(starts, 95)) } : {}),
				rssBeforeMiB: rssBefore,
				rssPeakMiB: rssPeak,
				rssAfterMiB: rssMiB(pid),
				logLines: logAfter.lines - logBefore.lines,
				logBytes: logAfter.bytes - logBefore.bytes,
				refusalLines: logAfter.refusals - logBefore.refusals,
			};
			log(
				`  ${name}: ${JSON.stringify(row.answers)} in ${round(spanMs / 1000, 1)} s; ${executions} execution(s), each once: ${row.eachOnce} (never ${row.never}, twice ${row.twice}, ${retries} retries); RSS ${rssBefore} → ${rssPeak} (peak) → ${row.rssAfterMiB} MiB; ${row.logLines} log line(s), ${row.refusalLines} of refusals`,
			);
			return row;
		};

		/**
		 * `forged` requests at a steady rate over the flood's time (at most {@link MAX_IN_FLIGHT} in
		 * flight), and the genuine alerts evenly meanwhile.
		 */
		const flood = async (
			target: Target,
			genuine: FlareAlert[],
			genuineOptions: PushOptions,
			forgedOptions: (rawBody: string) => PushOptions,
		) => {
			const [template] = fake.newAlerts(1);
			const answers: Answer[] = [];
			const sentAt = new Map<string, number>();
			const intervalMs = (options.floodSeconds * 1000) / options.forged;
			const start = Date.now();
			const inFlight = new Set<Promise<void>>();
			const track = (work: Promise<Answer>) => {
				const tracked: Promise<void> = work
					.then((answer) => {
						answers.push(answer);
					})
					.finally(() => inFlight.delete(tracked));
				inFlight.add(tracked);
			};
			const genuineSends: Array<Promise<Answer[]>> = [];
			const genuineLoop = (async () => {
				for (const [k, alert] of genuine.entries()) {
					const due = start + (k + 0.5) * options.genuineEverySeconds * 1000;
					await sleep(Math.max(0, due - Date.now()));
					sentAt.set(String(alert.uid), Date.now());
					genuineSends.push(sendUntilAccepted(target.url, alert, genuineOptions));
				}
			})();
			for (let k = 0; k < options.forged; k++) {
				const due = start + k * intervalMs;
				if (due > Date.now()) await sleep(Math.max(1, due - Date.now()));
				while (inFlight.size >= MAX_IN_FLIGHT) await Promise.race(inFlight);
				const forgedAlert = { ...template, uid: `forged/flood/${k}` };
				const rawBody = JSON.stringify(forgedAlert);
				track(send(target.url, forgedAlert, { rawBody, ...forgedOptions(rawBody) }));
			}
			await genuineLoop;
			while (inFlight.size) await Promise.all([...inFlight]);
			const genuineAnswers = await Promise.all(genuineSends);
			answers.push(...genuineAnswers.flat());
			const retries = genuineAnswers.reduce((sum, tries) => sum + tries.length - 1, 0);
			return { answers, sentAt, retries };
		};

		const rows: AlertLoadRow[] = [];
		/** Every alert at once, each sent again until answered 2xx (as Flare retries). */
		const atOnce = async (target: Target, alerts: FlareAlert[], sendOptions: PushOptions) => {
			const sentAt = new Map<string, number>();
			const tries = await Promise.all(
				alerts.map(async (alert) => {
					sentAt.set(String(alert.uid), Date.now());
					return await sendUntilAccepted(target.url, alert, sendOptions);
				}),
			);
			const retries = tries.reduce((sum, answers) => sum + answers.length - 1, 0);
			return { answers: tries.flat(), sentAt, retries };
		};
		// A burst of different signed alerts at once.
		const burst = fake.newAlerts(options.burst);
		rows.push(
			await phase(
				`${options.burst} different signed alerts at once`,
				ours,
				burst,
				async () => await atOnce(ours, burst, signed),
			),
		);
		// Flare retrying each of them, signed anew, at once: nothing more starts.
		rows.push(
			await phase(
				`the same ${options.burst} again at once (retries, signed anew)`,
				ours,
				burst,
				async () => ({
					answers: await Promise.all(
						burst.map(async (alert) => await send(ours.url, alert, signed)),
					),
					sentAt: new Map(),
				}),
			),
		);

		// The same burst against n8n's own Webhook node, for reference.
		const referenceBurst = fake.newAlerts(options.burst);
		rows.push(
			await phase(
				`n8n's Webhook node, Header Auth: ${options.burst} different requests at once`,
				reference,
				referenceBurst,
				async () =>
					await atOnce(reference, referenceBurst, { headers: { [HEADER.name]: HEADER.value } }),
			),
		);

		// Floods, genuine alerts meanwhile: signed with another secret, unsigned, and the same forged
		// Header Auth against n8n's Webhook node.
		const genuineCount = Math.floor(options.floodSeconds / options.genuineEverySeconds);
		const forged = options.forged.toLocaleString('en-US');
		const floods: Array<{
			name: string;
			target: Target;
			genuineOptions: PushOptions;
			forgedOptions: (rawBody: string) => PushOptions;
		}> = [
			{
				name: `${forged} signed with another secret in ${options.floodSeconds} s, ${genuineCount} genuine meanwhile`,
				target: ours,
				genuineOptions: signed,
				forgedOptions: (rawBody) => ({
					header: signatureHeader([FORGED_SECRET], Math.floor(Date.now() / 1000), rawBody),
				}),
			},
			{
				name: `${forged} unsigned in ${options.floodSeconds} s, ${genuineCount} genuine meanwhile`,
				target: ours,
				genuineOptions: signed,
				forgedOptions: () => ({}),
			},
			{
				name: `n8n's Webhook node, Header Auth: ${forged} with a wrong header in ${options.floodSeconds} s, ${genuineCount} genuine meanwhile`,
				target: reference,
				genuineOptions: { headers: { [HEADER.name]: HEADER.value } },
				forgedOptions: () => ({ headers: { [HEADER.name]: 'guessed' } }),
			},
		];
		for (const { name, target, genuineOptions, forgedOptions } of floods) {
			const genuine = fake.newAlerts(genuineCount);
			rows.push(
				await phase(
					name,
					target,
					genuine,
					async () => await flood(target, genuine, genuineOptions, forgedOptions),
				),
			);
		}
		// The burst again with n8n's in-process expression engine: n8n 2.41 holds an expression
		// isolate through each request of a webhook trigger other than its own Webhook node, and
		// starts a new one when its pool (one by default) is in use.
		await server?.stop();
		live = await boot({ N8N_EXPRESSION_ENGINE: 'legacy' });
		context.session = live.session;
		const legacy = fake.newAlerts(options.burst);
		rows.push(
			await phase(
				`${options.burst} different signed alerts at once, N8N_EXPRESSION_ENGINE=legacy`,
				live.ours,
				legacy,
				async () => await atOnce(live.ours, legacy, signed),
			),
		);
		return rows;
	} finally {
		await server?.stop();
		await fake.stop();
	}
}
