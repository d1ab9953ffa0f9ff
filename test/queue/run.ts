/**
 * The queue-mode test (`npm run test:queue`): n8n 2.41.1 as teams run it when one process is not
 * enough — a main and two workers, PostgreSQL 17 and Redis, all started here on 127.0.0.1 and stopped
 * here by process id — with the packed package installed in each process's user folder, against the
 * fake Flare API. It proves that:
 * - every example workflow runs on the workers (the editor's run API, manual executions offloaded) and
 *   gives what the e2e suite expects, several at a time, and both workers run some;
 * - the token stored in the credential is shared: exchanges are counted for 20 executions at once,
 *   with the token empty and after it expired;
 * - 20 executions of a two-page search against Flare's documented rate limits all succeed, on two
 *   workers and on one (429s and wall time are measured);
 * - the Flare Trigger polls on the main and each new credential starts exactly one execution, run by
 *   a worker;
 * - Flare's alerts pushed to the Flare Alert Trigger are received by the main, each starts exactly one
 *   execution on a worker, and retried or forged deliveries start none;
 * - a worker killed while Flare applies a write leaves a visible failed execution and no second write.
 * The figures are printed as a table and written to test-results/queue.json; the table of executions
 * replaces the one in docs/queue-mode.md.
 *
 *   FLARE_QUEUE_PARALLEL=<n>     example workflows run at a time (default 8)
 *   FLARE_QUEUE_CONCURRENCY=<n>  each worker's --concurrency (default 10, n8n's default)
 *   FLARE_E2E_SKIP_BUILD=1       pack the current dist/ without building first
 *   FLARE_E2E_CACHE=<folder>     where n8n and PostgreSQL are installed (default: ~/.cache/n8n-nodes-flareio)
 */
import { FakeFlare, type FakeFlareOptions } from '../fake-flare';
import { ALERT_CASES } from '../e2e/alerts';
import { ACTING_ALERT_CASES } from '../e2e/alerts-acting';
import { CASES, FAKE_MODEL_SCRIPT, SUITE_DATASET } from '../e2e/cases';
import { ACTING_CASES } from '../e2e/cases-acting';
import { IDENTITY_CASES, IDENTITY_DRY_RUNS } from '../e2e/identity-acting';
import { FAKE_MODEL_API_KEY, FakeModel } from '../e2e/fake-model';
import { ensureN8n, LINES } from '../e2e/install';
import { E2eSecretScan } from '../e2e/secrets';
import {
	ALERT_SECRET,
	alertCredential,
	allWorkflowFiles,
	buildAndPack,
	flareCredential,
	OPENAI_CREDENTIAL_NAME,
	readWorkflow,
	repositoryRoot,
	say,
	seconds,
	workFolder,
	workflowsWithoutTest,
} from '../e2e/suite';
import { fs, path, processRef } from '../support/node';
import { createCredential, createWorkflow, LOCK, QueueCluster } from './cluster';
import {
	machine,
	N8N_TOKEN_PERSISTENCE,
	type QueueFigures,
	render,
	writeDocs,
	writeFigures,
} from './figures';
import {
	burst,
	type Context,
	type ExampleCase,
	exampleWorkflows,
	pushedAlerts,
	trigger,
	workerDeath,
} from './scenarios';
import {
	Database,
	ensurePostgres,
	ensureRedis,
	type Postgres,
	type Service,
	startPostgres,
	startRedis,
} from './services';
import {
	type CredentialReference,
	triggerWorkflow,
	webhookWorkflow,
	withCredentials,
	type WorkflowJson,
} from './workflows';

const WORKERS = 2;
/** Executions started at once in the token and rate-limit scenarios. */
const BURST = 20;
const DOMAIN = 'acme.com';
const TRIGGER_NODE = 'New leaked credential for acme.com';
const TRIGGER_WORKFLOW = 'Queue mode: Flare Trigger every minute';

/** A small dataset for the scenarios (the examples keep the e2e suite's). */
const SCENARIO_DATASET: FakeFlareOptions = { ...SUITE_DATASET, credentials: 10_000 };
/**
 * Flare's documented limits (1 global search and 4 other requests per second), and search pages cut
 * short while more results remain: a search with Limit 2 takes two pages.
 */
const RATE_LIMITED: FakeFlareOptions = {
	...SCENARIO_DATASET,
	rateLimits: { search: 1, basic: 4 },
	quirks: { emptyPageEvery: 0, shortPageEvery: 1 },
};

/** The parameters of the Flare node of an example workflow. */
function flareParameters(root: string, file: string): Record<string, unknown> {
	const workflow = JSON.parse(
		fs.readFileSync(path.join(root, 'workflows', file), 'utf8'),
	) as WorkflowJson;
	const node = workflow.nodes.find((candidate) => candidate.type === 'n8n-nodes-flareio.flare');
	if (!node) throw new Error(`${file} has no Flare node`);
	return node.parameters;
}

/** One fake Flare API behind one credential, and a workflow using that credential. */
interface Scenario {
	fake: FakeFlare;
	workflow: WorkflowJson;
	webhookPath: string;
}

async function main(): Promise<void> {
	const started = Date.now();
	const root = repositoryRoot();
	const folder = path.join(workFolder(root), 'queue');
	const parallel = Number(processRef.env.FLARE_QUEUE_PARALLEL ?? 8);
	const concurrency = Number(processRef.env.FLARE_QUEUE_CONCURRENCY ?? 10);
	fs.rmSync(folder, { recursive: true, force: true });
	fs.mkdirSync(folder, { recursive: true });

	const files = allWorkflowFiles(root);
	// The playbooks that act need the e2e suite's stand-ins of their tools: they run there, not here.
	const untested = workflowsWithoutTest(files, [
		...CASES,
		...ALERT_CASES,
		...ACTING_CASES,
		...ACTING_ALERT_CASES,
		...IDENTITY_CASES,
		...IDENTITY_DRY_RUNS,
	]);
	if (untested.length) throw new Error(`Workflows without an e2e case: ${untested.join(', ')}`);

	// Whatever is missing installs while the package builds.
	const install = ensureN8n('2', say);
	const postgresBinaries = ensurePostgres(say);
	const redisBinary = ensureRedis(say);
	for (const pending of [install, postgresBinaries, redisBinary]) pending.catch(() => undefined);
	const tarball = await buildAndPack(root, path.join(folder, 'pack'));

	const failures: string[] = [];
	const stops: Array<() => Promise<void>> = [];
	const stopAll = async () => {
		for (const stop of stops.reverse()) await stop().catch(() => undefined);
		stops.length = 0;
	};
	let redis: Service | undefined;
	let postgres: Postgres | undefined;
	let database: Database | undefined;
	let cluster: QueueCluster | undefined;
	const figures: QueueFigures = {
		generatedAt: '',
		machine: machine(),
		versions: { n8n: LINES['2'].label, postgres: '', redis: '' },
		workers: WORKERS,
		concurrency,
		lock: LOCK,
		setupSeconds: 0,
		totalSeconds: 0,
		batches: [],
		tokens: { exchangesAfterExpiry: 0, goal: WORKERS, n8nAllows: N8N_TOKEN_PERSISTENCE },
		failures,
	};
	const secrets = new E2eSecretScan(SUITE_DATASET.apiKeys!.full!, 'queue');
	try {
		[redis, postgres] = await Promise.all([
			redisBinary.then(async (binary) => await startRedis(binary, path.join(folder, 'redis'))),
			postgresBinaries.then(async (binaries) => await startPostgres(binaries)),
		]);
		stops.push(
			async () => await redis?.stop(),
			async () => await postgres?.stop(),
		);
		figures.versions.redis = redis.label;
		figures.versions.postgres = postgres.label;
		say(`${postgres.label} on port ${postgres.port}, ${redis.label} on port ${redis.port}.`);

		const n8n = await install;
		let step = Date.now();
		cluster = await QueueCluster.prepare({
			install: n8n,
			tarball,
			folder,
			redis,
			postgres,
			workers: WORKERS,
			concurrency,
		});
		stops.push(async () => await cluster?.stop());
		say(
			`The package installed in the user folders of the main and the workers in ${seconds(step)}.`,
		);
		step = Date.now();
		await cluster.start();
		say(`Main and workers started in ${seconds(step)}.`);
		database = await Database.connect(n8n.dir, postgres);
		const context: Context = {
			cluster,
			session: cluster.session!,
			db: database,
			url: cluster.server!.url,
		};

		// Every example workflow with its own fake behind its own credential, created as a user would.
		step = Date.now();
		const model = await FakeModel.start(FAKE_MODEL_SCRIPT);
		stops.push(async () => await model.stop());
		const openAi = await createCredential(context.session, {
			name: OPENAI_CREDENTIAL_NAME,
			type: 'openAiApi',
			data: { apiKey: FAKE_MODEL_API_KEY, url: model.url },
		});
		const created = { credentials: 1, workflows: 0 };
		const startFake = async (options: FakeFlareOptions) => {
			const fake = await FakeFlare.start(options);
			stops.push(async () => await fake.stop());
			return fake;
		};
		// One after the other: ninety requests at once to a main on a busy machine failed to connect
		// ("fetch failed", a CI run at a load average of 5.5).
		const examples: ExampleCase[] = [];
		for (const testCase of CASES) {
			const fake = await startFake(SUITE_DATASET);
			const workflow = readWorkflow(root, testCase.file);
			const flareApi = await createCredential(
				context.session,
				flareCredential(fake, '', `Flare API (${testCase.file})`),
			);
			const json = withCredentials(workflow.absolute, { flareApi, openAiApi: openAi });
			await createWorkflow(context.session, json);
			created.credentials++;
			created.workflows++;
			examples.push({ testCase, workflow, json, fake });
		}

		// The scenarios' production workflows, each with its fake and credential.
		const scenario = async (
			id: string,
			name: string,
			options: FakeFlareOptions,
			build: (credential: CredentialReference) => WorkflowJson,
		): Promise<Scenario> => {
			const fake = await startFake(options);
			const credential = await createCredential(
				context.session,
				flareCredential(fake, '', `Flare API (${name})`),
			);
			const workflow = build(credential);
			await createWorkflow(context.session, workflow);
			created.credentials++;
			created.workflows++;
			return { fake, workflow, webhookPath: `flare-queue-${id.toLowerCase()}` };
		};
		const search = (limit: number) => ({
			name: 'Search leaked credentials',
			parameters: {
				...flareParameters(root, 'operations/leaked-credential-search.json'),
				fqdn: DOMAIN,
				limit,
			},
		});
		const webhookScenario = async (
			id: string,
			name: string,
			options: FakeFlareOptions,
			flare: { name: string; parameters: Record<string, unknown> },
		) =>
			await scenario(id, name, options, (credential) =>
				webhookWorkflow({
					id: `queue${id}`,
					name: `Queue mode: ${name}`,
					path: `flare-queue-${id.toLowerCase()}`,
					credential,
					flare,
				}),
			);
		const tokens = await webhookScenario('Tokens', 'token exchanges', SCENARIO_DATASET, search(5));
		const ratesTwo = await webhookScenario(
			'RatesTwo',
			'rate limits, two workers',
			RATE_LIMITED,
			search(2),
		);
		const ratesOne = await webhookScenario(
			'RatesOne',
			'rate limits, one worker',
			RATE_LIMITED,
			search(2),
		);
		const write = await webhookScenario('Write', 'a write when a worker dies', SCENARIO_DATASET, {
			name: 'Request a threat report',
			parameters: flareParameters(root, 'operations/threat-report-create-request.json'),
		});
		const poller = await scenario(
			'Trigger',
			'Flare Trigger',
			{ ...SCENARIO_DATASET, credentials: 1_000 },
			(credential) =>
				triggerWorkflow({
					id: 'queueTrigger',
					name: TRIGGER_WORKFLOW,
					node: TRIGGER_NODE,
					domain: DOMAIN,
					credential,
				}),
		);
		// The Flare Alert Trigger's workflow, with its signing secret's credential.
		const alertFake = await startFake(SCENARIO_DATASET);
		const alertWorkflowFile = readWorkflow(root, 'behaviours/alert-trigger-signed.json');
		const alertSecret = await createCredential(
			context.session,
			alertCredential('', 'Flare alerts'),
		);
		const alertWorkflow = withCredentials(alertWorkflowFile.absolute, {
			flareAlertWebhookApi: alertSecret,
		});
		await createWorkflow(context.session, alertWorkflow);
		created.credentials++;
		created.workflows++;
		say(
			`${created.credentials} credentials and ${created.workflows} workflows created through the REST API in ${seconds(step)}.`,
		);
		for (const { workflow } of [tokens, ratesTwo, ratesOne, write]) {
			await context.session.activate(workflow.id);
		}
		figures.setupSeconds = Math.round((Date.now() - started) / 1000);
		say(
			`n8n ${n8n.version}: main on ${context.url} and ${WORKERS} workers (concurrency ${concurrency}) in queue mode, ready after ${seconds(started)}.`,
		);

		// The trigger polls every minute on the main while the other scenarios run.
		say('');
		say(`== Flare Trigger active on the main, polling every minute (runs alongside)`);
		const triggerRun = trigger(context, {
			fake: poller.fake,
			workflowId: poller.workflow.id,
			workflowName: TRIGGER_WORKFLOW,
			node: TRIGGER_NODE,
			domain: DOMAIN,
			rounds: 2,
		});
		triggerRun.catch(() => undefined); // awaited below

		const record = (outcome: { figures: QueueFigures['batches'][number]; failures: string[] }) => {
			figures.batches.push(outcome.figures);
			failures.push(...outcome.failures);
			const batch = outcome.figures;
			say(
				`  ${batch.executions} executions (${Object.entries(batch.perWorker)
					.map(([name, count]) => `${name}: ${count}`)
					.join(
						', ',
					)}), ${batch.failed} failed, ${batch.rateLimited} 429s, ${batch.tokenExchanges} token exchanges, ${batch.wallSeconds} s`,
			);
			return outcome.figures;
		};
		const bothWorkers = (batch: QueueFigures['batches'][number]) => {
			const idle = Object.entries(batch.perWorker).filter(([, count]) => count === 0);
			if (idle.length)
				failures.push(`${batch.scenario}: ${idle.map(([name]) => name).join(', ')} ran nothing`);
		};

		say('');
		say(`== Every example workflow on the workers, ${parallel} at a time`);
		bothWorkers(record(await exampleWorkflows(context, examples, { model, secrets, parallel })));

		const expectedIds = (fake: FakeFlare, limit: number) =>
			fake.dataset
				.searchAll({ query: { type: 'domain', fqdn: DOMAIN } })
				.slice(0, limit)
				.map((credential) => credential.id);
		say('');
		say(`== Flare alerts: ${BURST} signed alerts pushed to the main, each retried, one forged`);
		const alertTrigger = alertWorkflow.nodes.find(
			(node) => node.type === 'n8n-nodes-flareio.flareAlertTrigger',
		)!;
		bothWorkers(
			record(
				await pushedAlerts(context, {
					fake: alertFake,
					workflowId: alertWorkflow.id,
					url: `${context.url}/webhook/${alertTrigger.webhookId}/flare-alert`,
					node: alertTrigger.name,
					secret: ALERT_SECRET,
					count: BURST,
				}),
			),
		);

		say('');
		say(`== Tokens: ${BURST} executions at once through a webhook`);
		const burstOf = async (scenarioName: string, target: Scenario, limit: number) =>
			record(
				await burst(context, {
					scenario: scenarioName,
					fake: target.fake,
					workflowId: target.workflow.id,
					webhookPath: target.webhookPath,
					count: BURST,
					expected: expectedIds(target.fake, limit),
				}),
			);
		bothWorkers(await burstOf(`${BURST} searches at once, token empty`, tokens, 5));
		tokens.fake.expireAllTokens();
		const expired = await burstOf(`${BURST} searches at once, token expired`, tokens, 5);
		bothWorkers(expired);
		figures.tokens.exchangesAfterExpiry = expired.tokenExchanges;

		say('');
		say(
			`== Rate limits: ${BURST} two-page searches at once, Flare's limits (search 1/s, basic 4/s)`,
		);
		bothWorkers(await burstOf(`${BURST} two-page searches at Flare's limits`, ratesTwo, 2));

		say('');
		say(
			'== A worker killed while Flare applies a write; meanwhile, rate limits on the one worker left',
		);
		const death = await workerDeath(
			context,
			{ fake: write.fake, workflowId: write.workflow.id, webhookPath: write.webhookPath },
			async () => {
				await burstOf(`${BURST} two-page searches at Flare's limits, one worker`, ratesOne, 2);
			},
		);
		figures.workerDeath = death.figures;
		failures.push(...death.failures);
		say(
			`  execution ${death.figures.executionId}: "${death.figures.status}" ${death.figures.secondsToStatus} s after the kill (${death.figures.message}); not run again: ${death.figures.startedBy.length === 1 ? 'yes' : 'no'}; the write sent ${death.figures.writeRequests}×, applied ${death.figures.writesApplied}×`,
		);

		const triggered = await triggerRun;
		figures.trigger = triggered.figures;
		failures.push(...triggered.failures);
		say('');
		say(
			`== Flare Trigger: ${triggered.figures.executions} executions for ${triggered.figures.added} new credentials (${triggered.figures.itemsPerExecution.join(', ')} items), on ${Object.entries(
				triggered.figures.perWorker,
			)
				.map(([name, count]) => `${name}: ${count}`)
				.join(', ')}`,
		);

		failures.push(...(await triggered.finalCheck()));
		// Every execution n8n recorded was started by exactly one worker, none on the main.
		const startedBy = cluster.startedBy();
		const all = await database.query<{ id: string; workflowId: string }>(
			'select id::text as id, "workflowId" from execution_entity e order by e.id',
		);
		const unclear = all.filter((execution) => startedBy.get(execution.id)?.length !== 1);
		for (const execution of unclear) {
			const workers = startedBy.get(execution.id) ?? [];
			failures.push(
				`execution ${execution.id} (workflow ${execution.workflowId}) was started by ${workers.length ? workers.join(' and ') : 'no worker'}`,
			);
		}
		say('');
		say(
			`n8n recorded ${all.length} executions; started by exactly one worker: ${all.length - unclear.length}.`,
		);
	} catch (error) {
		failures.push(`the queue test could not run: ${(error as Error).stack ?? String(error)}`);
	} finally {
		await cluster?.stop();
		if (database) {
			const dump = path.join(folder, 'database.txt');
			await database.dump(dump).catch(() => undefined);
			await database.close().catch(() => undefined);
			await secrets.addDatabaseFiles([dump]);
		}
		await stopAll();
	}
	for (const instance of cluster ? [cluster.main, ...cluster.workers.map(({ n8n }) => n8n)] : []) {
		await secrets.addInstanceFiles(instance.userFolder);
	}
	for (const worker of cluster?.workers ?? []) {
		if (worker.process) await secrets.addLogFiles([worker.process.logFile]);
	}
	say('');
	say(await secrets.write(root));
	if (secrets.leaks) failures.push(`secret scan: ${secrets.describe()}`);

	figures.generatedAt = new Date().toISOString();
	figures.totalSeconds = Math.round((Date.now() - started) / 1000);
	figures.machine = machine();
	say('');
	say(render(figures));
	say(
		`(${path.relative(root, writeFigures(root, figures))}, ${path.relative(root, writeDocs(root, figures))})`,
	);
	say('');
	if (failures.length) {
		say(`Queue mode: ${failures.length} failure(s) in ${seconds(started)}:`);
		for (const failure of failures) say(`  ✗ ${failure.split('\n').join('\n    ')}`);
		processRef.exitCode = 1;
	} else {
		say(`Queue mode: every check passed in ${seconds(started)}.`);
	}
}

main().catch((error: Error) => {
	processRef.stderr.write(`Queue-mode test could not run: ${error.stack ?? error.message}\n`);
	processRef.exitCode = 1;
});
