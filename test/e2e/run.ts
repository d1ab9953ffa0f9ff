/**
 * The end-to-end suite (`npm run test:e2e`): every workflow in workflows/ runs in a real n8n, with this
 * package installed from its packed tarball, against the fake Flare API, on each n8n line.
 *
 *   FLARE_E2E_LINES=2|1|2,1|all   n8n lines to run (default: 2,1), side by side, each with its own
 *                                 fakes and stand-ins (the first prints as it goes, the others after it)
 *   FLARE_E2E_ONE_LINE_AT_A_TIME=1  the lines one after the other
 *   FLARE_E2E_ONLY=<text>[,<text>…] only the workflows whose file contains one of the texts
 *   FLARE_E2E_SKIP_BUILD=1        pack the current dist/ without building first
 *   FLARE_E2E_TARBALL=<file>      install this packed package (neither build nor pack)
 *   FLARE_E2E_CACHE=<folder>      where n8n is installed (default: ~/.cache/n8n-nodes-flareio)
 */
import type { INodeType } from 'n8n-workflow';

import { FakeFlare } from '../fake-flare';
import { fs, path, processRef } from '../support/node';
import { type ActiveWorkflow, ALERT_CASES, type AlertCase, runAlertCases } from './alerts';
import { ACTING_ALERT_CASES } from './alerts-acting';
import { CASES, type E2eCase, FAKE_MODEL_SCRIPT, SUITE_DATASET } from './cases';
import { ACTING_CASES } from './cases-acting';
import { IDENTITY_CASES, IDENTITY_DRY_RUNS, watchOwnDomains } from './identity-acting';
import { FakeModel } from './fake-model';
import { ensureN8n, type InstalledN8n, LINES, type LineKey, parseLines } from './install';
import { EditorSession } from './manual';
import type { Execution, N8nInstance } from './n8n';
import { E2eSecretScan } from './secrets';
import { type N8nServer, NEW_CONNECTION, startServer } from './server';
import { ToolStandIns } from './stand-ins';
import {
	againIfWatchdogFired,
	allWorkflowFiles,
	buildAndPack,
	type CaseContext,
	heldOutput,
	prepareInstance,
	readWorkflow,
	repositoryRoot,
	runCase,
	say,
	seconds,
	startingTrigger,
	type WorkflowFile,
	workFolder,
	workflowsWithoutTest,
} from './suite';

interface Failure {
	line: string;
	/** The workflow, or undefined when the n8n instance could not be prepared. */
	workflow?: WorkflowFile;
	step: number;
	message: string;
	/** What failed when it is not a workflow (default: the n8n instance's set-up). */
	subject?: string;
}

/** A workflow file as n8n saved it: what a manual run sends (manual.ts) and starts from. */
interface SavedWorkflow {
	id: string;
	nodes: Array<{ name: string; type: string }>;
	[key: string]: unknown;
}

/** What the cases of one line use: its fakes and stand-ins, and the secret scan and failures all share. */
interface Suite extends CaseContext {
	root: string;
	cases: E2eCase[];
	/** Cases on an active workflow: alerts pushed to it (alerts.ts), or its trigger polled (polled.ts). */
	alertCases: Array<AlertCase<ActiveWorkflow>>;
	failures: Failure[];
}

async function runLine(
	suite: Suite,
	line: LineKey,
	install: Promise<InstalledN8n>,
	tarball: string,
): Promise<void> {
	const { root, cases, fake, model, tools, secrets, failures } = suite;
	const started = Date.now();
	say('');
	say(`== ${LINES[line].label}`);
	const workflows = new Map(
		[...cases, ...suite.alertCases].map((testCase) => [
			testCase.file,
			readWorkflow(root, testCase.file, tools),
		]),
	);
	let n8n: N8nInstance;
	try {
		n8n = await prepareInstance({
			root,
			line,
			install,
			tarball,
			fake,
			model,
			tools,
			workflows: [...workflows.values()],
			folderName: `e2e-n8n-${line}`,
		});
	} catch (error) {
		const message = `could not prepare n8n: ${(error as Error).message}`;
		say(`  ✗ ${message}`);
		failures.push({ line: LINES[line].label, step: 0, message });
		return;
	}
	let executions = 0;
	const runCases = async (
		selected: E2eCase[],
		execute: (workflow: WorkflowFile, testCase: E2eCase) => Promise<Execution>,
	) => {
		for (const testCase of selected) {
			const workflow = workflows.get(testCase.file)!;
			// An execution n8n would not start or end is that case's failure; the next case still runs.
			const result = await runCase(
				suite,
				testCase,
				workflow,
				async (file) => await execute(file, testCase),
			).catch((error: Error) => {
				const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
				say(`  ✗ ${workflow.file}  ${error.message}${cause}`);
				return { step: 1, executions: 0, message: `${error.message}${cause}` };
			});
			executions += result.executions;
			if (result.message) {
				failures.push({
					line: LINES[line].label,
					workflow,
					step: result.step,
					message: result.message,
				});
			}
		}
	};
	// The cases about what crosses processes, each execution a new `n8n execute`.
	await runCases(
		cases.filter((testCase) => testCase.byCommand),
		async (workflow) => await againIfWatchdogFired(async () => await n8n.execute(workflow.id)),
	);
	// Every other case in one started n8n, as the editor's "Execute workflow" runs it (manual.ts):
	// a new process for each execution would cost about 5 s of CPU each.
	const inServer = cases.filter((testCase) => !testCase.byCommand);
	if (inServer.length > 0) {
		let server: N8nServer | undefined;
		try {
			server = await startServer(n8n, { env: { EXECUTIONS_DATA_SAVE_MANUAL_EXECUTIONS: 'true' } });
			const session = await EditorSession.signIn(server, n8n.userFolder);
			// Once n8n no longer answers, the cases left fail at once, naming its output.
			let gone: string | undefined;
			const answers = async (url: string) =>
				await fetch(`${url}/healthz`, {
					headers: NEW_CONNECTION,
					signal: AbortSignal.timeout(10_000),
				}).then(
					(response) => response.ok,
					() => false,
				);
			await runCases(inServer, async (workflow, testCase) => {
				if (gone) throw new Error(gone);
				const json = JSON.parse(fs.readFileSync(workflow.absolute, 'utf8')) as SavedWorkflow;
				const trigger = startingTrigger(testCase, json);
				if (!trigger) throw new Error(`${workflow.file} has no Manual Trigger to run it from`);
				const ran = await againIfWatchdogFired(
					async () => await session.runFromTrigger(json, trigger),
				).then(
					(execution) => ({ execution }),
					(error: unknown) => ({ error }),
				);
				if ('execution' in ran) return ran.execution;
				if (!(await answers(server!.url))) {
					gone = `n8n no longer answers; what it printed: ${server!.logFile}`;
				} else {
					// An execution the failed request left running must not reach into the next case.
					await session.settled().then(undefined, (error: Error) => {
						gone = `after a failed case, n8n's executions could not be waited for or stopped: ${error.message}`;
					});
				}
				throw ran.error;
			});
		} catch (error) {
			const message = `the cases in a started n8n could not run: ${(error as Error).message}`;
			say(`  ✗ ${message}`);
			failures.push({ line: LINES[line].label, step: 0, subject: 'n8n server', message });
		} finally {
			await server?.stop();
		}
	}
	// Alerts pushed to the active workflows of the Flare Alert Trigger, through a started n8n.
	if (suite.alertCases.length > 0) {
		const alertWorkflows = new Map(
			suite.alertCases.map((testCase) => [testCase.file, readWorkflow(root, testCase.file, tools)]),
		);
		const alertFailures = await runAlertCases({
			n8n,
			fake,
			secrets,
			cases: suite.alertCases,
			workflows: alertWorkflows,
			line,
			tools,
		}).catch((error: Error) => [
			{
				workflow: undefined,
				message: `alert cases could not run: ${error.stack ?? error.message}`,
			},
		]);
		for (const failure of alertFailures) {
			failures.push({
				line: LINES[line].label,
				workflow: failure.workflow,
				step: 1,
				message: failure.message,
			});
		}
	}
	await secrets.addInstanceFiles(n8n.userFolder);
	say(
		`${LINES[line].label}: ${cases.length + suite.alertCases.length} workflows, ${executions} executions (and those of the pushed alerts) in ${seconds(started)}; the tools' stand-ins received ${tools?.log.entries.length ?? 0} requests and e-mails${tools?.log.refusedHosts.length ? `, and refused ${tools.log.refusedHosts.join(', ')}` : ''}.`,
	);
}

/**
 * resource/operation pairs of the built Flare node (its description in dist/) that no workflow under
 * workflows/operations/ uses.
 */
async function operationsWithoutWorkflow(root: string, files: string[]): Promise<string[]> {
	const used = new Set<string>();
	for (const file of files.filter((name) => name.startsWith('operations/'))) {
		const { nodes } = JSON.parse(fs.readFileSync(path.join(root, 'workflows', file), 'utf8')) as {
			nodes: Array<{ type: string; parameters: { resource?: string; operation?: string } }>;
		};
		for (const node of nodes.filter((candidate) => candidate.type === 'n8n-nodes-flareio.flare')) {
			used.add(`${node.parameters.resource}/${node.parameters.operation}`);
		}
	}
	const built = path.join(root, 'dist', 'nodes', 'Flare', 'Flare.node.js');
	const { Flare } = (await import(built)) as { Flare: new () => INodeType };
	const pairs = new Flare().description.properties
		.filter((property) => property.name === 'operation')
		.flatMap((property) =>
			(property.displayOptions?.show?.resource ?? []).flatMap((resource) =>
				(property.options ?? []).map(
					(option) => `${String(resource)}/${String((option as { value: unknown }).value)}`,
				),
			),
		);
	return pairs.filter((pair) => !used.has(pair));
}

async function main(): Promise<void> {
	const started = Date.now();
	const root = repositoryRoot();
	const lines = parseLines(processRef.env.FLARE_E2E_LINES, ['2', '1']);
	const only = processRef.env.FLARE_E2E_ONLY;
	// The playbooks that act come last: their tools' stand-ins are part of this run only.
	const everyCase = [...CASES, ...ACTING_CASES, ...IDENTITY_DRY_RUNS];
	const everyAlertCase: Array<AlertCase<ActiveWorkflow>> = [
		...ALERT_CASES,
		...ACTING_ALERT_CASES,
		...IDENTITY_CASES,
	];
	const chosen = (testCase: { file: string }) =>
		!only || only.split(',').some((text) => testCase.file.includes(text.trim()));
	const cases = everyCase.filter(chosen);
	const alertCases = everyAlertCase.filter(chosen);

	// Every workflow kept in the repository is exercised, and every operation has its workflow.
	const files = allWorkflowFiles(root);
	const untested = workflowsWithoutTest(files, [...everyCase, ...everyAlertCase]);
	if (untested.length)
		throw new Error(`Workflows without an end-to-end case: ${untested.join(', ')}`);

	const tarball = await buildAndPack(root);
	say(`Packed ${tarball}`);
	const missing = await operationsWithoutWorkflow(root, files);
	if (missing.length) {
		throw new Error(
			`Operations without a workflow in workflows/operations/: ${missing.join(', ')}`,
		);
	}
	// Each line has its own fake Flare API, chat model of the AI Agent workflow (behind an OpenAI
	// credential) and stand-ins of the tools the playbooks act on (Jira, Slack, Entra ID, Okta, e-mail,
	// a chat model), so that the lines run side by side: each mostly waits on its n8n.
	const parts = await Promise.all(
		lines.map(async (line) => {
			const fake = await FakeFlare.start(SUITE_DATASET);
			const model = await FakeModel.start(FAKE_MODEL_SCRIPT);
			const tools = await ToolStandIns.start(path.join(workFolder(root), `stand-ins-${line}`));
			watchOwnDomains(tools);
			say(
				`${LINES[line].label}: fake Flare API on ${fake.url} (${fake.options.credentials} credentials), stand-ins of the playbooks' tools on ${tools.pageUrl} (the HTTPS proxy and its test CA for the n8n under test only).`,
			);
			return { fake, model, tools };
		}),
	);
	const failures: Failure[] = [];
	// One scan for every line: the API keys and the tools' secrets are the same in each.
	const secrets = new E2eSecretScan(parts[0].fake.apiKeys.full, 'e2e', parts[0].tools.secrets());
	try {
		// Missing n8n installs all start now, side by side.
		const installs = new Map(lines.map((line) => [line, ensureN8n(line, say)]));
		for (const install of installs.values()) install.catch(() => undefined); // awaited below
		// A line that stops on an exception (a case's `before`, say) is that line's failure; the other
		// line goes on, and the fakes stay up until both are over.
		const runOn = async (line: LineKey, index: number) => {
			try {
				await runLine(
					{ root, cases, alertCases, secrets, failures, ...parts[index] },
					line,
					installs.get(line)!,
					tarball,
				);
			} catch (error) {
				const message = `the line stopped: ${(error as Error).stack ?? String(error)}`;
				say(`  ✗ ${message}`);
				failures.push({ line: LINES[line].label, step: 0, subject: 'its cases', message });
			}
		};
		if (processRef.env.FLARE_E2E_ONE_LINE_AT_A_TIME === '1') {
			for (const [index, line] of lines.entries()) await runOn(line, index);
		} else {
			const runs = lines.map(async (line, index) =>
				index === 0
					? await runOn(line, index).then(() => ({ print: () => undefined }))
					: await heldOutput(async () => await runOn(line, index)),
			);
			for (const run of runs) (await run).print();
		}
	} finally {
		for (const { fake, model, tools } of parts) {
			await fake.stop();
			await model.stop();
			await tools.stop();
		}
	}
	say('');
	say(await secrets.write(root));
	if (secrets.leaks || secrets.leakedValueProblems.length) {
		failures.push({
			line: 'all lines',
			step: 0,
			subject: 'secret and leaked-value scan',
			message: secrets.describe(),
		});
	}

	say('');
	if (failures.length) {
		say(`End-to-end: ${failures.length} failure(s) in ${seconds(started)}:`);
		for (const failure of failures) {
			say(
				failure.workflow
					? `  ✗ [${failure.line}] ${failure.workflow.file} — workflow "${failure.workflow.name}"`
					: `  ✗ [${failure.line}] ${failure.subject ?? 'set-up'}`,
			);
			say(`      ${failure.message.split('\n').join('\n      ')}`);
		}
		processRef.exitCode = 1;
	} else {
		say(
			`End-to-end: all ${cases.length + alertCases.length} workflows passed on ${lines.map((line) => LINES[line].label).join(' and ')} in ${seconds(started)}.`,
		);
	}
}

main().catch((error: Error) => {
	processRef.stderr.write(`End-to-end suite could not run: ${error.stack ?? error.message}\n`);
	processRef.exitCode = 1;
});
