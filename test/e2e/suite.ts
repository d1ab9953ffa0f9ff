/**
 * Shared steps of the end-to-end suite, the queue-mode test and the demo: find the repository, build and
 * pack the package, read the workflow files, prepare an n8n instance with the package and a credential
 * for the fake, run a case and check it.
 */
import type { FakeFlare } from '../fake-flare';
import { CANARY_SIGNING_SECRET } from '../reliability/secret-scan';
import { AsyncLocalStorage, fs, path, processRef } from '../support/node';
import type { E2eCase } from './cases';
import { FAKE_MODEL_API_KEY, type FakeModel } from './fake-model';
import { ensureN8n, type InstalledN8n, type LineKey, run } from './install';
import { type CredentialToImport, type Execution, N8nInstance } from './n8n';
import { describeError, E2eFailure, failedNode, RunView } from './report';
import type { ScannedNode } from '../reliability/secret-scan';
import type { E2eSecretScan } from './secrets';
import type { ToolStandIns } from './stand-ins';

export const CREDENTIAL_ID = 'flareApiExample1';
/** The Flare Alert Webhook API credential of the alert workflows, and its signing secret. */
export const ALERT_CREDENTIAL_ID = 'flareAlertWebhookExample1';
export const ALERT_CREDENTIAL_NAME = 'Flare Alert Webhook API';
export const ALERT_SECRET = CANARY_SIGNING_SECRET;
export const CREDENTIAL_NAME = 'Flare API';
/** The OpenAI credential of the AI Agent workflow, pointed at the fake chat model (fake-model.ts). */
export const OPENAI_CREDENTIAL_ID = 'openAiApiExample1';
export const OPENAI_CREDENTIAL_NAME = 'OpenAI account';

/** Output held back while an n8n line runs beside another (`heldOutput`), else undefined. */
const heldText = new AsyncLocalStorage<string[]>();

export const write = (text: string) => {
	const held = heldText.getStore();
	if (held) held.push(text);
	else processRef.stdout.write(text);
};
export const say = (text = '') => write(`${text}\n`);

/**
 * Runs `work` with what it says held back, to be printed whole by `print` (at once if `work` fails):
 * n8n lines that run side by side (run.ts) each print their cases together, as one line alone would.
 */
export async function heldOutput(work: () => Promise<void>): Promise<{ print(): void }> {
	const held: string[] = [];
	const print = () => processRef.stdout.write(held.splice(0).join(''));
	let finished = false;
	try {
		await heldText.run(held, work);
		finished = true;
	} finally {
		if (!finished) print();
	}
	return { print };
}

/** The repository root: the nearest folder up from the working directory with our package.json. */
export function repositoryRoot(): string {
	let folder = processRef.cwd();
	for (;;) {
		const candidate = path.join(folder, 'package.json');
		if (fs.existsSync(candidate)) {
			const { name } = JSON.parse(fs.readFileSync(candidate, 'utf8')) as { name?: string };
			if (name === 'n8n-nodes-flareio') return folder;
		}
		const parent = path.dirname(folder);
		if (parent === folder) throw new Error('Run this from the n8n-nodes-flareio repository');
		folder = parent;
	}
}

/** Working folder of the runs, ignored by git. */
export const workFolder = (root: string) => path.join(root, '.n8n-e2e');

export const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

/**
 * `npm run build` (unless FLARE_E2E_SKIP_BUILD=1), then `npm pack` into `destination` (emptied
 * first); returns the tarball. With FLARE_E2E_TARBALL, a tarball packed already (CI packs its build
 * once, so that `npm test` may rebuild dist/ while the suites run) is copied there instead.
 */
export async function buildAndPack(
	root: string,
	destination = path.join(workFolder(root), 'pack'),
): Promise<string> {
	const packed = processRef.env.FLARE_E2E_TARBALL;
	if (packed) {
		fs.rmSync(destination, { recursive: true, force: true });
		fs.mkdirSync(destination, { recursive: true });
		const tarball = path.join(destination, path.basename(packed));
		fs.copyFileSync(path.resolve(root, packed), tarball);
		return tarball;
	}
	if (processRef.env.FLARE_E2E_SKIP_BUILD !== '1') {
		const started = Date.now();
		await run('npm', ['run', 'build', '--silent'], { cwd: root });
		say(`Built the package (npm run build) in ${seconds(started)}.`);
	}
	fs.rmSync(destination, { recursive: true, force: true });
	fs.mkdirSync(destination, { recursive: true });
	await run('npm', ['pack', '--pack-destination', destination, '--loglevel=error'], { cwd: root });
	const [tarball] = fs.readdirSync(destination).filter((file) => file.endsWith('.tgz'));
	if (!tarball) throw new Error(`npm pack wrote no tarball into ${destination}`);
	return path.join(destination, tarball);
}

export interface WorkflowFile {
	/** Path relative to workflows/. */
	file: string;
	absolute: string;
	id: string;
	name: string;
}

/** The nodes of a workflow file: what the leaked-value scan reads (names, types, parameters). */
export function workflowNodes(workflow: WorkflowFile): ScannedNode[] {
	return (JSON.parse(fs.readFileSync(workflow.absolute, 'utf8')) as { nodes: ScannedNode[] }).nodes;
}

/**
 * A workflow file; with the tools' stand-ins, as they need it (ToolStandIns.prepare, e.g. the Okta
 * playbook naming the stand-in's Okta domain), written to the stand-ins' folder (prepared/) when it
 * differs.
 */
export function readWorkflow(root: string, file: string, tools?: ToolStandIns): WorkflowFile {
	let absolute = path.join(root, 'workflows', file);
	const text = fs.readFileSync(absolute, 'utf8');
	const prepared = tools?.prepare(file, text) ?? text;
	if (prepared !== text) {
		absolute = path.join(tools?.folder ?? workFolder(root), 'prepared', file);
		fs.mkdirSync(path.dirname(absolute), { recursive: true });
		fs.writeFileSync(absolute, prepared);
	}
	const { id, name } = JSON.parse(prepared) as { id: string; name: string };
	return { file, absolute, id, name };
}

/**
 * The trigger a case runs from in a started n8n: its `manualFrom`, else the workflow's Manual Trigger
 * (as `n8n execute` starts from it: n8n's `findCliWorkflowStart`, docs: n8n-facts §5.3).
 */
export function startingTrigger(
	testCase: Pick<E2eCase, 'manualFrom'>,
	workflow: { nodes: Array<{ name: string; type: string }> },
): string | undefined {
	return (
		testCase.manualFrom ??
		workflow.nodes.find((node) => node.type === 'n8n-nodes-base.manualTrigger')?.name
	);
}

/** Every workflow file under workflows/, relative paths, sorted. */
export function allWorkflowFiles(root: string): string[] {
	const base = path.join(root, 'workflows');
	const found: string[] = [];
	const walk = (folder: string) => {
		for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
			const full = path.join(folder, entry.name);
			if (entry.isDirectory()) walk(full);
			else if (entry.name.endsWith('.json')) found.push(path.relative(base, full));
		}
	};
	walk(base);
	return found.sort();
}

/** The workflow of the activated-trigger test (trigger-live.ts); no end-to-end case runs it. */
export const TRIGGER_LIVE_WORKFLOW = 'behaviours/trigger-active.json';
/** The same test's New Event workflow. */
export const TRIGGER_LIVE_EVENTS_WORKFLOW = 'behaviours/trigger-active-events.json';
/** The same test's two New Event triggers of two tenants, with one credential. */
export const TRIGGER_LIVE_TENANTS_WORKFLOW = 'behaviours/trigger-active-tenants.json';

/** Workflow files that neither an end-to-end case (of either kind) nor the activated-trigger test runs. */
export function workflowsWithoutTest(files: string[], cases: Array<{ file: string }>): string[] {
	return files.filter(
		(file) =>
			file !== TRIGGER_LIVE_WORKFLOW &&
			file !== TRIGGER_LIVE_EVENTS_WORKFLOW &&
			file !== TRIGGER_LIVE_TENANTS_WORKFLOW &&
			!cases.some((testCase) => testCase.file === file),
	);
}

/** The Flare API credential for the fake, token empty: the first request exchanges the key. */
export function flareCredential(
	fake: FakeFlare,
	id = CREDENTIAL_ID,
	name = CREDENTIAL_NAME,
): CredentialToImport {
	return {
		id,
		name,
		type: 'flareApi',
		data: {
			apiKey: fake.apiKeys.full,
			baseUrl: fake.url,
			productSegment: 'firework',
			accessToken: '',
		},
	};
}

/** The signing secret of the Flare alert channel, for the Flare Alert Trigger (alerts.ts). */
export function alertCredential(
	id = ALERT_CREDENTIAL_ID,
	name = ALERT_CREDENTIAL_NAME,
): CredentialToImport {
	return { id, name, type: 'flareAlertWebhookApi', data: { signingSecret: ALERT_SECRET } };
}

/**
 * The credentials an instance needs: Flare for the fake, the alert channel's signing secret, OpenAI
 * for the fake chat model if given, and those of the playbooks' tools for their stand-ins if given.
 */
export function credentialsFor(
	fake: FakeFlare,
	model?: FakeModel,
	tools?: ToolStandIns,
): CredentialToImport[] {
	return [
		flareCredential(fake),
		alertCredential(),
		...(tools?.credentials() ?? []),
		...(model
			? [
					{
						id: OPENAI_CREDENTIAL_ID,
						name: OPENAI_CREDENTIAL_NAME,
						type: 'openAiApi',
						data: { apiKey: FAKE_MODEL_API_KEY, url: model.url },
					},
				]
			: []),
	];
}

/**
 * A fresh n8n of the given line with the package installed, the credential for the fake imported
 * (empty token: the first request exchanges the key) and the workflows imported.
 */
export async function prepareInstance(options: {
	root: string;
	line: LineKey;
	/** The install of the line, when the caller started it already. */
	install?: Promise<InstalledN8n>;
	tarball: string;
	fake: FakeFlare;
	/** The fake chat model: when given, an OpenAI credential pointing at it is imported too. */
	model?: FakeModel;
	/**
	 * The stand-ins of the playbooks' tools: when given, their credentials are imported and every
	 * command of the instance gets their proxy and CA (stand-ins/index.ts).
	 */
	tools?: ToolStandIns;
	workflows: WorkflowFile[];
	folderName: string;
}): Promise<N8nInstance> {
	const { root, line, tarball, fake, model, tools, workflows, folderName } = options;
	const install = await (options.install ?? ensureN8n(line, (message) => say(message)));
	const n8n = N8nInstance.create(install, path.join(workFolder(root), folderName), tools?.n8nEnv());
	const packageSeconds = await n8n.installPackage(tarball);
	const credentialSeconds = await n8n.importCredentials(credentialsFor(fake, model, tools));
	const workflowSeconds = await n8n.importWorkflows(workflows.map((workflow) => workflow.absolute));
	say(
		`${install.label}: package installed (${packageSeconds.toFixed(1)} s), credential imported (${credentialSeconds.toFixed(1)} s), ${workflows.length} workflow(s) imported (${workflowSeconds.toFixed(1)} s).`,
	);
	return n8n;
}

const tokenExchanges = (fake: FakeFlare, from: number) =>
	fake.requests
		.slice(from)
		.filter((request) => request.method === 'POST' && request.path === '/tokens/generate').length;

/** What the cases of a run share: the fakes, the tools' stand-ins (when the run has them) and the secret scan. */
export interface CaseContext {
	fake: FakeFlare;
	model: FakeModel;
	tools?: ToolStandIns;
	secrets: E2eSecretScan;
}

/**
 * Runs every step of one case and checks it; returns the failure, if any. `note` adds to the line
 * printed for each execution (e.g. which worker ran it).
 */
export async function runCase(
	{ fake, model, tools, secrets }: CaseContext,
	testCase: E2eCase,
	workflow: WorkflowFile,
	execute: (workflow: WorkflowFile) => Promise<Execution>,
	note: (execution: Execution) => string = () => '',
): Promise<{ message?: string; step: number; executions: number }> {
	for (let index = 0; index < testCase.steps.length; index++) {
		const step = testCase.steps[index];
		const label =
			testCase.steps.length > 1 ? ` (execution ${index + 1}/${testCase.steps.length})` : '';
		step.before?.(fake);
		const mark = fake.requests.length;
		const modelMark = model.requests.length;
		const toolMark = tools?.log.entries.length ?? 0;
		const execution = await execute(workflow);
		const requests = fake.requests.slice(mark);
		if (execution.run) secrets.addRun(execution.run, execution.outputFile, workflowNodes(workflow));
		const fail = (problem: string) => {
			const message = `${problem}\n(n8n's full output: ${execution.outputFile})`;
			say(`  ✗ ${workflow.file}${label}  ${execution.seconds.toFixed(1)} s${note(execution)}`);
			say(`      workflow "${workflow.name}": ${message.split('\n').join('\n      ')}`);
			return { message, step: index + 1, executions: index + 1 };
		};
		if (!execution.run) {
			return fail(
				`n8n printed no run (exit code ${execution.exitCode}); its output ends with:\n${execution.output.trim().split('\n').slice(-15).join('\n')}`,
			);
		}
		const run = new RunView(execution.run);
		const expected = step.status ?? 'success';
		const failed = failedNode(execution.run);
		if (expected === 'success' && (failed || run.status !== 'success')) {
			return fail(
				failed
					? `node "${failed.node}" failed: ${failed.message}`
					: `the run ended with status "${run.status}"`,
			);
		}
		if (run.status !== expected) {
			return fail(`the run ended with status "${run.status}", expected "${expected}"`);
		}
		try {
			// What the tools received first: a leaked value or a request their API would refuse says more
			// than the field it shows up in.
			if (tools) checkWhatToolsReceived(tools, toolMark);
			step.check(run, {
				fake,
				requests,
				api: requests.filter((request) => !request.path.startsWith('/tokens/')),
				exitCode: execution.exitCode,
				model: model.requests.slice(modelMark),
				tools,
				received: tools?.log.entries.slice(toolMark) ?? [],
			});
			if (!testCase.managesTokens) {
				// Only the first token request of a fresh credential is expected.
				const allowed = tokenExchanges(fake, 0) === tokenExchanges(fake, mark) ? 1 : 0;
				const exchanges = tokenExchanges(fake, mark);
				if (exchanges > allowed) {
					throw new E2eFailure(
						undefined,
						`${exchanges} token exchange(s): the token stored by an earlier execution was not reused`,
					);
				}
			}
		} catch (error) {
			const problem =
				error instanceof E2eFailure ? error.message : ((error as Error).stack ?? String(error));
			const runError = execution.run.data.resultData.error;
			return fail(runError ? `${problem}\n(n8n: ${describeError(runError)})` : problem);
		}
		const shown =
			step.status === 'error' && failed
				? `  → stopped at node "${failed.node}": ${failed.message}`
				: '';
		say(
			`  ✓ ${workflow.file}${label}  ${execution.seconds.toFixed(1)} s${note(execution)}  [${run.itemCounts()}]${shown}`,
		);
	}
	return { step: testCase.steps.length, executions: testCase.steps.length };
}

/**
 * What every case checks of the tools' stand-ins since `mark`: no request they found otherwise than
 * their public API documents it, and no planted leaked value (test/fake-flare/planted.ts) in anything
 * they received, in clear or encoded: a ticket, message or e-mail carries leaked values masked.
 */
export function checkWhatToolsReceived(tools: ToolStandIns, mark: number, node?: string): void {
	const problems = tools.problemsSince(mark);
	if (problems.length) {
		throw new E2eFailure(node, `requests the tools' APIs would refuse:\n${problems.join('\n')}`);
	}
	const planted = tools.plantedSince(mark);
	if (planted.length) {
		throw new E2eFailure(
			node,
			`leaked values or Flare's secrets in clear in what the tools received:\n${planted.map((hit) => `${hit.source}: …${hit.context}…`).join('\n')}`,
		);
	}
}

/** n8n-workflow's message when its regular-expression watchdog fires (safe-regex.ts). */
const REGEX_WATCHDOG = 'Regular expression execution timed out';

/**
 * n8n (2.41.1 and 1.123.81) checks a workflow's resource locators before any node runs, each regex
 * under a 250 ms wall-clock watchdog (n8n-workflow's safe-regex.ts, REGEX_TIMEOUT_MS): an n8n starved
 * of CPU can trip it on the simplest one (a fresh-clone CI beside other loads, 2026-12-08: the Source ID's
 * check of a short ID, microseconds at rest). Such a run, which reached no node, is started again
 * once, and said; a second one fails the case. A check that is slow for its value fails both runs:
 * our own regexes are linear (test/unit/locator-regex-time.test.ts).
 */
export async function againIfWatchdogFired(execute: () => Promise<Execution>): Promise<Execution> {
	const first = await execute();
	const reachedNoNode = Object.keys(first.run?.data.resultData.runData ?? {}).length === 0;
	if (first.exitCode === 0 || !reachedNoNode || !first.output.includes(REGEX_WATCHDOG)) return first;
	say(`    n8n's regular-expression watchdog fired before any node ran (${first.outputFile}): run again`);
	return await execute();
}
