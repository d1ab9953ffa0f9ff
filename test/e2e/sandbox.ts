/**
 * `npm run sandbox`: the package in n8n's real editor, without a Flare account.
 *
 * Builds and packs the package, starts the fake Flare API with demo data (SANDBOX_DATA below) and the
 * fake chat model of the AI Agent example, and a real n8n 2.41.1 (`n8n start`) on 127.0.0.1 with the
 * package installed as a community package, a "Flare API" credential pointing at the fake, a "Flare
 * Alert Webhook API" credential with the fake alert channel's signing secret, every workflow of
 * workflows/ and an owner account. The tools the playbooks act on are local stand-ins (stand-ins/:
 * Jira, Slack, Entra ID, Okta, a mail server, an OpenAI-compatible model), with credentials pointing
 * at them and their HTTPS proxy and CA given to this n8n alone; what they receive is printed, listed
 * in stand-ins.log and shown on their page. Activates the "Flare alert to ticket" and AI triage
 * playbooks: a key press pushes a signed alert to their Flare Alert Triggers. Prints the editor's
 * URL and the login, and runs until Ctrl-C, then stops n8n, the fakes and the stand-ins. n8n runs
 * under guard.mjs: it never outlives this process.
 *
 * The n8n user folder (.n8n-e2e/sandbox/, git-ignored) is kept: the next start reuses its database
 * (your workflows and executions stay), its ports when free, and reinstalls only the package. The
 * workflows of workflows/ are imported again when they changed, the credentials when a fake's URL did.
 *
 *   npm run sandbox                 start, reusing the last run's n8n data
 *   npm run sandbox -- --fresh      start over from an empty n8n
 *   FLARE_E2E_SKIP_BUILD=1          pack the existing dist/ without building first
 */
import { createHash } from 'crypto';

import { type FakeFlareOptions, FakeFlare, pushAlert, testAlert } from '../fake-flare';
import { fs, path, processRef } from '../support/node';
import { FAKE_MODEL_SCRIPT, SUITE_DATASET } from './cases';
import { FakeModel } from './fake-model';
import { ensureN8n } from './install';
import { EditorSession, OWNER } from './manual';
import { freePort, N8nInstance } from './n8n';
import { type N8nServer, NEW_CONNECTION, startServer } from './server';
import { type StandInPorts, ToolStandIns } from './stand-ins';
import { describeReceived } from './stand-ins/page';
import {
	ALERT_SECRET,
	allWorkflowFiles,
	buildAndPack,
	CREDENTIAL_NAME,
	credentialsFor,
	readWorkflow,
	repositoryRoot,
	say,
	seconds,
	type WorkflowFile,
	workFolder,
} from './suite';

/**
 * The sandbox's demo data, in one place: the fake's options, then what is added to its dataset at
 * each start. New demo data (such as events) goes here.
 */
export const SANDBOX_DATA = {
	/** The dataset the example workflows are written for (seed 1): 22,000 credentials per domain. */
	fake: { credentials: SUITE_DATASET.credentials } satisfies FakeFlareOptions,
	/** Leaked credentials imported during the last day, for the daily leak watch: one every 20 min. */
	recentLeaks: { count: 72, everyMinutes: 20 },
};

/** Adds the recent leaks, imported from 23 h 50 min ago until 10 min ago, over every domain. */
function addRecentLeaks(fake: FakeFlare, now = Date.now()): void {
	const { count, everyMinutes } = SANDBOX_DATA.recentLeaks;
	for (let k = count - 1; k >= 0; k--) {
		const at = now - (k + 0.5) * everyMinutes * 60_000;
		fake.addCredentials(1, new Date(Math.floor(at / 1000) * 1000).toISOString());
	}
}

export interface Sandbox {
	/** The editor's URL. */
	url: string;
	n8n: N8nInstance;
	server: N8nServer;
	fake: FakeFlare;
	model: FakeModel;
	/** The stand-ins of the tools the playbooks act on, and the file that lists what they received. */
	tools: ToolStandIns;
	toolsLog: string;
	workflows: WorkflowFile[];
	/** Whether the n8n data of an earlier run was reused. */
	reused: boolean;
	/** Seconds from the call to a ready editor with its owner account. */
	seconds: number;
	stop(): Promise<void>;
}

/** What the next start needs to know about this one; kept in the user folder. */
interface SandboxState {
	n8n: string;
	url: string;
	fakeUrl: string;
	modelUrl: string;
	/** The ports of the tools' stand-ins, in the credentials as last imported. */
	tools?: StandInPorts;
	/** Hash of the workflow files as last imported. */
	workflows: string;
}

const STATE_FILE = 'sandbox.json';

function readState(folder: string): SandboxState | undefined {
	try {
		return JSON.parse(fs.readFileSync(path.join(folder, STATE_FILE), 'utf8')) as SandboxState;
	} catch {
		return undefined;
	}
}

const portOf = (url: string | undefined) => (url ? Number(new URL(url).port) : 0);

async function answers(url: string): Promise<boolean> {
	try {
		const response = await fetch(`${url}/healthz`, {
			headers: NEW_CONNECTION,
			signal: AbortSignal.timeout(2_000),
		});
		return response.ok;
	} catch {
		return false;
	}
}

function hashOf(workflows: WorkflowFile[]): string {
	const hash = createHash('sha256');
	for (const workflow of workflows)
		hash.update(workflow.file).update(fs.readFileSync(workflow.absolute));
	return hash.digest('hex');
}

/**
 * Starts the sandbox in `.n8n-e2e/<folderName>` (default `sandbox`): reuses the n8n data an earlier
 * start left there unless `fresh`. Stops whatever it started when it fails.
 */
export async function startSandbox(
	options: { folderName?: string; fresh?: boolean; log?: (text: string) => void } = {},
): Promise<Sandbox> {
	const started = Date.now();
	const log = options.log ?? say;
	const folderName = options.folderName ?? 'sandbox';
	const root = repositoryRoot();
	const folder = path.join(workFolder(root), folderName);

	const last = readState(folder);
	if (last && (await answers(last.url))) {
		throw new Error(
			`A sandbox is already running on ${last.url} (from ${path.relative(root, folder)}): use it, or stop it with Ctrl-C first.`,
		);
	}
	const installing = ensureN8n('2', log);
	installing.catch(() => undefined); // awaited below
	let step = Date.now();
	const tarball = await buildAndPack(root, path.join(workFolder(root), `${folderName}-pack`));
	log(`Packed the package in ${seconds(step)}.`);
	const install = await installing;

	const previous = last?.n8n === install.version ? last : undefined;
	const reused = previous !== undefined && !options.fresh;

	const fake = await FakeFlare.start(SANDBOX_DATA.fake, await freePort(portOf(previous?.fakeUrl)));
	addRecentLeaks(fake);
	let model: FakeModel | undefined;
	let tools: ToolStandIns | undefined;
	let workflows: WorkflowFile[] = [];
	let server: N8nServer | undefined;
	let ready = false;
	const toolsLog = path.join(folder, 'stand-ins.log');
	try {
		model = await FakeModel.start(FAKE_MODEL_SCRIPT, await freePort(portOf(previous?.modelUrl)));
		// The playbooks' tools (Jira, Slack, Entra ID, Okta, e-mail, a chat model): local stand-ins, the
		// proxy and CA for n8n alone; what they receive is listed in stand-ins.log and on their page.
		tools = await ToolStandIns.start(path.join(workFolder(root), `${folderName}-stand-ins`), previous?.tools);
		const standIns = tools;
		workflows = allWorkflowFiles(root).map((file) => readWorkflow(root, file, standIns));
		const n8n = reused
			? N8nInstance.open(install, folder, tools.n8nEnv())
			: N8nInstance.create(install, folder, tools.n8nEnv());
		fs.writeFileSync(toolsLog, '');
		tools.log.listeners.push((entry) => fs.appendFileSync(toolsLog, `${describeReceived(entry)}\n`));
		step = Date.now();
		await n8n.installPackage(tarball);
		const done = [`package installed (${seconds(step)})`];
		const toolsMoved = JSON.stringify(previous?.tools) !== JSON.stringify(tools.ports);
		if (!reused || previous.fakeUrl !== fake.url || previous.modelUrl !== model.url || toolsMoved) {
			step = Date.now();
			await n8n.importCredentials(credentialsFor(fake, model, tools));
			done.push(`credentials imported (${seconds(step)})`);
		}
		const workflowsHash = hashOf(workflows);
		if (!reused || previous.workflows !== workflowsHash) {
			step = Date.now();
			await n8n.importWorkflows(workflows.map((workflow) => workflow.absolute));
			done.push(`${workflows.length} workflows imported (${seconds(step)})`);
		}
		log(
			`${install.label}, ${reused ? `n8n data kept from the last run in ${path.relative(root, folder)}` : `new n8n data in ${path.relative(root, folder)}`}: ${done.join(', ')}.`,
		);

		server = await startServer(n8n, { port: portOf(previous?.url) });
		await EditorSession.ensureOwner(server);
		log(`n8n started in ${server.startSeconds.toFixed(1)} s.`);
		const state: SandboxState = {
			n8n: install.version,
			url: server.url,
			fakeUrl: fake.url,
			modelUrl: model.url,
			tools: tools.ports,
			workflows: workflowsHash,
		};
		fs.writeFileSync(path.join(folder, STATE_FILE), `${JSON.stringify(state, null, 2)}\n`);
		ready = true;
		const running = { server, model, tools };
		return {
			url: server.url,
			n8n,
			server,
			fake,
			model,
			tools,
			toolsLog,
			workflows,
			reused,
			seconds: (Date.now() - started) / 1000,
			async stop() {
				await running.server.stop();
				await running.model.stop();
				await running.tools.stop();
				await fake.stop();
			},
		};
	} finally {
		if (!ready) {
			await server?.stop();
			await model?.stop();
			await tools?.stop();
			await fake.stop();
		}
	}
}

/**
 * Resolves on the first SIGINT, SIGTERM or SIGHUP. npm and tsx pass the terminal's Ctrl-C on as well,
 * so repeats within 2 s are the same one; a later one ends this process at once.
 */
function interrupted(): Promise<string> {
	return new Promise((resolve) => {
		let first = 0;
		const onSignal = (signal: string) => {
			if (first && Date.now() - first > 2_000) processRef.exit(130); // guard.mjs still stops n8n
			first ||= Date.now();
			resolve(signal);
		};
		for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) processRef.on(signal, onSignal);
	});
}

function printWelcome(sandbox: Sandbox): void {
	const root = repositoryRoot();
	const { fake } = sandbox;
	const keys = fake.apiKeys;
	const daily = sandbox.workflows.find(
		(workflow) => workflow.file === 'playbooks/daily-leak-watch.json',
	);
	const lines = [
		'',
		`Ready in ${sandbox.seconds.toFixed(1)} s. Open the editor and log in (a local test account):`,
		'',
		`  Editor       ${sandbox.url}`,
		`  Log in       ${OWNER.email} / ${OWNER.password}`,
		'',
		`  Fake Flare   ${fake.url}: ${fake.dataset.size.toLocaleString('en-US')} leaked credentials over ${fake.dataset.domains().join(', ')},`,
		`               ${SANDBOX_DATA.recentLeaks.count} of them imported in the last 24 hours`,
		`  Credential   "${CREDENTIAL_NAME}", pointing at the fake, with its demo key ${keys.full}`,
		`               (other demo keys: ${keys.noAstp} without ASTP, ${keys.noThreatIntel} without threat intelligence)`,
		`  Workflows    ${sandbox.workflows.length} from workflows/${daily ? `; start with "${daily.name}" → Execute workflow` : ''}`,
		`  Tools        the playbooks' Jira, Slack, Entra ID, Okta, mail server and OpenAI-compatible model are local`,
		`               stand-ins, their credentials pointing at them: what each received is on ${sandbox.tools.pageUrl}`,
		`               and in ${path.relative(root, sandbox.toolsLog)} (and below, as it comes)`,
		'',
		`n8n's output: ${path.relative(root, sandbox.server.logFile)}. Everything listens on 127.0.0.1 only.`,
		'Press Ctrl-C to stop. `npm run sandbox -- --fresh` starts over from an empty n8n.',
	];
	say(lines.join('\n'));
}

/**
 * The playbooks whose Flare Alert Trigger the sandbox activates: a high or critical alert becomes a
 * Jira issue (the first), and the AI Agent triages every alert (the second). Each alert goes to both.
 */
const ALERT_PLAYBOOKS = ['playbooks/alert-to-ticket.json', 'playbooks/alert-triage-ai-agent.json'];

/**
 * Activates the alert playbooks and returns what a key press sends to them: a signed alert of a new
 * event of the fake (random severity, or critical), or the fake's Test alert to the first's Test URL.
 */
async function alertChannel(sandbox: Sandbox) {
	const session = await EditorSession.logIn(sandbox.server, sandbox.n8n.userFolder);
	const channels = await Promise.all(
		ALERT_PLAYBOOKS.map(async (file) => {
			const workflow = sandbox.workflows.find((candidate) => candidate.file === file)!;
			const { nodes } = JSON.parse(fs.readFileSync(workflow.absolute, 'utf8')) as {
				nodes: Array<{ type: string; webhookId?: string }>;
			};
			const webhookId = nodes.find(
				(node) => node.type === 'n8n-nodes-flareio.flareAlertTrigger',
			)!.webhookId!;
			await session.activate(workflow.id).catch(() => undefined); // already active from the last run
			return {
				workflow,
				productionUrl: `${sandbox.url}/webhook/${webhookId}/flare-alert`,
				testUrl: `${sandbox.url}/webhook-test/${webhookId}/flare-alert`,
			};
		}),
	);
	const send = async (key: string) => {
		const test = key === 't';
		const [alert] = test
			? [testAlert(Date.now())]
			: sandbox.fake.newAlerts(1, key === 'c' ? { severity: 'critical' } : {});
		for (const channel of test ? channels.slice(0, 1) : channels) {
			const result = await pushAlert(test ? channel.testUrl : channel.productionUrl, alert, {
				secrets: [ALERT_SECRET],
			});
			say(
				`  ${test ? 'Test alert' : `Alert ${String(alert.uid)} (risk ${(alert.risk as { score: number }).score})`} → "${channel.workflow.name}": ${result.status} ${JSON.stringify(result.body)}`,
			);
		}
	};
	return { channels, send };
}

/** Resolves when Ctrl-C is typed; meanwhile each of `keys` typed runs `onKey` (a terminal only). */
function keyPresses(keys: string, onKey: (key: string) => Promise<void>): Promise<string> {
	const stdin = processRef.stdin;
	if (!stdin.isTTY) return new Promise(() => undefined);
	stdin.setRawMode(true);
	stdin.resume();
	stdin.setEncoding('utf8');
	return new Promise((resolve) => {
		stdin.on('data', (key: string) => {
			if (key === '\u0003') {
				stdin.setRawMode(false);
				stdin.pause();
				resolve('SIGINT');
			} else if (keys.includes(key)) {
				onKey(key).catch((error: Error) => say(`  The alert could not be sent: ${error.message}`));
			}
		});
	});
}

async function main(): Promise<void> {
	const fresh = processRef.argv.slice(2).includes('--fresh');
	say('Flare for n8n: sandbox');
	const sandbox = await startSandbox({ fresh });
	const stopping = interrupted();
	printWelcome(sandbox);
	const alerts = await alertChannel(sandbox);
	const [ticket, triage] = alerts.channels;
	say(
		[
			`  Flare alerts "${ticket.workflow.name}" and "${triage.workflow.name}" are active:`,
			`               their Flare Alert Triggers take signed alerts on ${ticket.productionUrl}`,
			`               and ${triage.productionUrl}`,
			'               Press a to push an alert of a new event to both, c a critical one (it becomes a Jira',
			'               issue; the AI Agent writes a triage note on it), t the Test alert to the first Test URL',
			'               (click "Listen for test event" on its trigger first).',
			`               From another terminal: npm run fake-flare -- --push ${ticket.productionUrl} --secret ${ALERT_SECRET}`,
			'',
		].join('\n'),
	);
	sandbox.tools.log.listeners.push((entry) => say(`  ${describeReceived(entry)}`));
	const reason = await Promise.race([
		stopping,
		keyPresses('act', alerts.send),
		sandbox.server.exited.then((code) => `n8n exited by itself (${code})`),
	]);
	const started = Date.now();
	say('');
	say(`${reason.startsWith('SIG') ? reason : reason + ':'} stopping n8n and the fakes...`);
	await sandbox.stop();
	say(`Stopped in ${seconds(started)}.`);
	if (!reason.startsWith('SIG')) processRef.exitCode = 1;
}

if (processRef.argv[1] && /sandbox\.ts$/.test(processRef.argv[1])) {
	main().catch((error: Error) => {
		processRef.stderr.write(`The sandbox could not start: ${error.message}\n`);
		processRef.exitCode = 1;
	});
}
