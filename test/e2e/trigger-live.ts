/**
 * The Flare Trigger activated in a real n8n 2.41.1 (`n8n start`, SQLite, regular mode), polling every
 * minute, with n8n restarted between polls: `workflows/behaviours/trigger-active.json` (the trigger on
 * acme.com → a NoOp) with the packed package installed as a community package, against the fake Flare
 * API. One new acme.com credential is added at a time, before each of these:
 *
 *   1. a poll;
 *   2. n8n stopped (SIGTERM), the credential added while it is down, n8n started again: the workflow's
 *      activation poll at start-up;
 *   3. the next poll;
 *   4. n8n killed (SIGKILL) once it has stored what it emitted, the credential added while it is down,
 *      n8n started again: the activation poll;
 *   5. the next poll.
 *
 * Beside it, in the same n8n, the New Event trigger (`workflows/behaviours/trigger-active-events.json`,
 * the tenant's feed, severity high or more → a NoOp) gets one new event in each round: in round 3
 * Flare also refuses every cursor it handed out (both triggers start their search again), and in round 5
 * the event comes after 1,000 ignored low events (pages Flare leaves empty: more than one poll reads).
 * Each event starts exactly one execution with exactly one item. What the tenant does to an event
 * (docs/trigger.md, "What the tenant does to an event"): a critical event remediated right after the
 * activation, before any poll read it, is emitted once, by the first sweep (10 minutes on); a medium
 * event that round 1's poll read is raised to critical after it, and never emitted, though that sweep
 * reads it again.
 *
 * And beside them, two New Event triggers of two tenants with one credential
 * (`workflows/behaviours/trigger-active-tenants.json`, tenants 202 and 303): each round, one new event
 * in each of those tenants' feeds; each trigger emits its own tenant's, once, naming that tenant, and
 * every feed request carries a token of its trigger's tenant.
 *
 * Each credential waits for its own poll, so each poll finds exactly one. It proves that activation
 * emits nothing (credentials imported before it, within the trigger's look-back, are noted, not
 * emitted) and that each new credential starts exactly one execution with exactly one item, which
 * reaches the next node; nothing is emitted twice, across either restart, nor by a last poll that
 * finds nothing new. Executions are read back through n8n's REST API, the workflow's static data from
 * n8n's database. A kill comes once n8n has stored the static data of its last emit: n8n saves it as
 * it starts the execution, and a crash in between would emit that credential again at the next start.
 *
 *   npm run test:trigger-live   (11 to 13 minutes: n8n polls once a minute at most, and New Event's
 *                                 first sweep comes 10 minutes after its activation)
 *   FLARE_E2E_SKIP_BUILD=1 npm run test:trigger-live    (pack the current dist/)
 */
import { sleep } from 'n8n-workflow';

import { writeBlock } from '../docs/blocks';
import { FakeFlare, type FakeFlareOptions } from '../fake-flare';
import { createHash, fs, path, processRef } from '../support/node';
import { SUITE_DATASET } from './cases';
import { ensureN8n, type InstalledN8n, LINES } from './install';
import { EditorSession } from './manual';
import { N8nInstance } from './n8n';
import { checkEqual, describeError, E2eFailure, RunView } from './report';
import { E2eSecretScan } from './secrets';
import { keepServerOutput, type N8nServer, startServer } from './server';
import {
	buildAndPack,
	flareCredential,
	readWorkflow,
	repositoryRoot,
	say,
	seconds,
	TRIGGER_LIVE_EVENTS_WORKFLOW,
	TRIGGER_LIVE_TENANTS_WORKFLOW,
	TRIGGER_LIVE_WORKFLOW,
	workflowNodes,
	workFolder,
} from './suite';

const TRIGGER = 'New leaked credential for acme.com';
const NEXT_NODE = 'Handle the new credential';
const EVENT_TRIGGER = 'New event in the tenant feed';
const EVENT_NEXT_NODE = 'Handle the new event';
/** The two tenants of the tenants workflow, and their triggers and next nodes. */
const TENANT_TRIGGERS = [202, 303].map((tenant) => ({
	tenant,
	trigger: `New event of tenant ${tenant}`,
	next: `Handle tenant ${tenant}'s event`,
}));
/**
 * Ignored events before the event of round 5: Flare selects them and leaves them out of its pages. 100
 * pages, and as many empty ones on the way (the suite's dataset has Flare's paging quirks): more than
 * one poll reads in its 45 seconds at Flare's Basic pace, so the event comes a poll later.
 */
const FILTERED_RUN = 1_000;
const DOMAIN = 'acme.com';
const SEARCH_PATH = '/firework/v4/credentials/global/_search';
const FEED_PATH = '/firework/v4/events/tenant/_search';
/** A poll comes within a minute of the last; on a loaded machine n8n may be slow to run it. */
const EXECUTION_DEADLINE_SECONDS = 150;
/** How long n8n may take to add the trigger of a published workflow and run its activation poll. */
const ACTIVATION_DEADLINE_SECONDS = 60;
/** How long n8n may take to store the static data of an emit it made. */
const SAVE_DEADLINE_SECONDS = 15;
/** Credentials imported this long before activation: inside the trigger's 15-minute look-back. */
const BEFORE_ACTIVATION_MS = 5 * 60_000;
/** How long a poll that finds nothing may take, once n8n has started it. */
const QUIET_POLL_SECONDS = 10;

const DATASET: FakeFlareOptions = { ...SUITE_DATASET, credentials: 1_000 };

type Restart = 'none' | 'stop' | 'kill';

/** Each round: how n8n goes on, and what else Flare does for the event (New Event). */
const ROUNDS: Array<{ restart: Restart; about: string; event?: 'refusedCursors' | 'filteredRun' }> = [
	{ restart: 'none', about: 'a poll' },
	{
		restart: 'stop',
		about: 'n8n stopped (SIGTERM), added while down, n8n started: the activation poll',
	},
	{ restart: 'none', about: 'the next poll; Flare refuses every cursor', event: 'refusedCursors' },
	{
		restart: 'kill',
		about: 'n8n killed (SIGKILL), added while down, n8n started: the activation poll',
	},
	{
		restart: 'none',
		about: `the next poll; the event after ${FILTERED_RUN} ignored ones`,
		event: 'filteredRun',
	},
];

export interface TriggerLiveFigures {
	n8n: string;
	/** Seconds from `n8n start` to ready, for each start. */
	starts: number[];
	/**
	 * Each restart: how n8n ended (exit code or signal), seconds from the signal to its exit, and to
	 * its trigger activated again by the next start (n8n down, plus its start-up and activation poll).
	 */
	restarts: Array<{ restart: Restart; exit: string; exitSeconds: number; gapSeconds: number }>;
	/** Seconds from asking for the activation to the trigger activated (its first poll over). */
	activationSeconds: number;
	/**
	 * New Event: seconds from asking for the activation to n8n's database holding what the activation
	 * noted (read every 100 ms): n8n stopped before then starts the trigger anew (docs/trigger.md).
	 */
	activationStoredSeconds: number;
	/** Seconds from a kill's emit (its execution ended) to the emitted key found in the database. */
	savedBeforeKillSeconds?: number;
	rounds: Array<{
		about: string;
		credential: string;
		executionId: string;
		/** Seconds from adding the credential to the end of the execution it started. */
		seconds: number;
	}>;
	/** Credentials of acme.com imported before activation (noted, never emitted). */
	beforeActivation: number;
	/** Credentials added after activation, and the ids every execution emitted, in order. */
	added: number[];
	emitted: number[];
	/** Executions of the workflow in all, and the items each emitted. */
	executions: number;
	itemsPerExecution: number[];
	/** Polls n8n ran (its log; each start's activation poll included) and the searches Flare received. */
	polls: number;
	searches: number;
	/** The workflow's static data as stored in n8n's database at the end, and the keys it holds. */
	staticDataBytes: number;
	keysKept: number;
	/** The New Event trigger beside it: each round's event and its execution. */
	events: {
		rounds: Array<{ about: string; event: string; executionId: string; seconds: number }>;
		beforeActivation: number;
		added: string[];
		emitted: string[];
		executions: number;
		itemsPerExecution: number[];
		polls: number;
		feedPages: number;
		staticDataBytes: number;
		/** The event remediated before any poll read it: its execution, and seconds from its arrival. */
		remediated?: { event: string; executionId: string; seconds: number };
		/** The event raised to critical after round 1's poll read it as medium: never emitted. */
		raised?: string;
	};
	/** The two triggers of two tenants: each round's event of each tenant and its execution. */
	tenants: {
		rounds: Array<{ about: string; tenant: number; event: string; executionId: string; seconds: number }>;
		added: Record<number, string[]>;
		emitted: Record<number, string[]>;
		executions: number;
		/** Feed requests of those tenants, and those whose token was of another tenant (none). */
		feedRequests: number;
		otherTenant: number;
	};
	totalSeconds: number;
}

/** When each event added entered the feed (its `matched_at`), by uid. */
const enteredAt = new Map<string, string>();

/**
 * The key the New Event trigger keeps for an event: a digest of its uid and of when it entered the
 * feed (nodes/FlareTrigger/newEvent.ts `eventKey`).
 */
const eventKey = (uid: string) =>
	`e:${createHash('sha256').update(`${uid}\n${Date.parse(enteredAt.get(uid) ?? '')}`).digest('hex').slice(0, 16)}`;

/**
 * The key of a trigger with a Tenant: a digest of the tenant and the event's key
 * (nodes/FlareTrigger/poll.ts `tenantRecordKey`).
 */
const tenantEventKey = (tenant: number, uid: string) =>
	`t:${createHash('sha256').update(`${tenant}:${eventKey(uid)}`).digest('hex').slice(0, 16)}`;

/** The uids of events added to the fake, noting when each entered the feed. */
const uidsAdded = (items: Array<{ metadata: { uid: string; matched_at: string | null } }>) =>
	items.map((item) => {
		enteredAt.set(item.metadata.uid, item.metadata.matched_at ?? '');
		return item.metadata.uid;
	});

interface ExecutionSummary {
	id: string;
	status: string;
	mode: string;
}

interface StoredState {
	bytes: number;
	seen: Record<string, number>;
	cursor?: string;
}

/** One n8n instance with the workflow, started, stopped, killed and started again. */
class LiveInstance {
	private server?: N8nServer;
	private session?: EditorSession;

	constructor(
		readonly n8n: N8nInstance,
		readonly workflow: { id: string; name: string },
		private readonly figures: TriggerLiveFigures,
		/** The New Event workflow beside it. */
		readonly events: { id: string; name: string },
	) {}

	/** `n8n start` (n8n's log at debug level: it logs each poll), then the owner signs in. */
	async start(): Promise<void> {
		this.server = await startServer(this.n8n, { env: { N8N_LOG_LEVEL: 'debug' } });
		this.figures.starts.push(round(this.server.startSeconds));
		this.session =
			this.figures.starts.length === 1
				? await EditorSession.signIn(this.server, this.n8n.userFolder)
				: await EditorSession.logIn(this.server, this.n8n.userFolder);
	}

	get rest(): EditorSession {
		if (!this.session) throw new Error('n8n is not running');
		return this.session;
	}

	/**
	 * Waits for the `count`th activation of the trigger in n8n's log (one per activation: the REST
	 * call's, then each start's), which n8n logs once the activation poll is over.
	 */
	async activated(count: number, workflow = this.workflow): Promise<void> {
		await waitFor(
			`activation ${count} of the trigger of "${workflow.name}" (its first poll over)`,
			async () => (this.n8n.triggerActivations(workflow.name).length >= count ? true : undefined),
			ACTIVATION_DEADLINE_SECONDS,
		);
	}

	/** Ends n8n gracefully (SIGTERM) or as in a crash (SIGKILL to its group); keeps what it printed. */
	async end(restart: Exclude<Restart, 'none'>): Promise<{ exit: string; exitSeconds: number }> {
		const server = this.server!;
		const signalled = Date.now();
		await (restart === 'kill' ? server.kill() : server.stop());
		const exit = await server.exited;
		this.server = undefined;
		this.session = undefined;
		keepServerOutput(this.n8n.userFolder);
		return { exit, exitSeconds: round((Date.now() - signalled) / 1000) };
	}

	async stop(): Promise<void> {
		await this.server?.stop();
		this.server = undefined;
		keepServerOutput(this.n8n.userFolder);
	}

	/** The workflow's executions, oldest first. */
	async executions(workflow = this.workflow): Promise<ExecutionSummary[]> {
		const filter = encodeURIComponent(JSON.stringify({ workflowId: workflow.id }));
		const { results } = await this.rest.request<{ results: ExecutionSummary[] }>(
			'GET',
			`/executions?filter=${filter}&limit=100`,
		);
		return [...results].sort((a, b) => Number(a.id) - Number(b.id));
	}

	/** When n8n polled the trigger, from its log. */
	polls(workflow = this.workflow): string[] {
		return this.n8n.polls(workflow.name);
	}

	/** The trigger's state in the workflow's static data, as n8n stored it in its SQLite database. */
	async storedState(
		workflow = this.workflow,
		trigger = TRIGGER,
	): Promise<StoredState | undefined> {
		const stored = await this.n8n.storedStaticData(workflow.id);
		if (!stored) return undefined;
		const state = stored[`node:${trigger}`] as StoredState | undefined;
		return state?.seen ? { ...state, bytes: new TextEncoder().encode(JSON.stringify(stored)).length } : undefined;
	}
}

/** Polls `find` every `everyMs` (a second) until it returns something, or fails after `timeoutSeconds`. */
async function waitFor<T>(
	what: string,
	find: () => Promise<T | undefined>,
	timeoutSeconds: number,
	everyMs = 1_000,
): Promise<T> {
	const deadline = Date.now() + timeoutSeconds * 1000;
	for (;;) {
		const found = await find();
		if (found !== undefined) return found;
		if (Date.now() > deadline) throw new Error(`no ${what} within ${timeoutSeconds} s`);
		await sleep(everyMs);
	}
}

const round = (value: number) => Number(value.toFixed(1));

/** Adds one acme.com credential, imported now or at `importedAt`; returns its id (as a list). */
function addOneAcmeCredential(fake: FakeFlare, importedAt?: string): number[] {
	const index = fake.addCredentials(1, importedAt, { domain: DOMAIN });
	return [fake.dataset.credential(index).id as number];
}

/**
 * Runs the whole test on a fresh n8n of the 2.41.1 line and returns its figures and failures (an empty
 * list when every check passed); `log` gets its progress.
 */
export async function triggerLive(options: {
	root: string;
	install: Promise<InstalledN8n>;
	tarball: string;
	secrets: E2eSecretScan;
	log: (line: string) => void;
}): Promise<{ figures: TriggerLiveFigures; failures: string[] }> {
	const { root, secrets, log } = options;
	const started = Date.now();
	const failures: string[] = [];
	const figures: TriggerLiveFigures = {
		n8n: LINES['2'].label,
		starts: [],
		restarts: [],
		activationSeconds: 0,
		activationStoredSeconds: 0,
		rounds: [],
		beforeActivation: 0,
		added: [],
		emitted: [],
		executions: 0,
		itemsPerExecution: [],
		polls: 0,
		searches: 0,
		staticDataBytes: 0,
		keysKept: 0,
		events: {
			rounds: [],
			beforeActivation: 0,
			added: [],
			emitted: [],
			executions: 0,
			itemsPerExecution: [],
			polls: 0,
			feedPages: 0,
			staticDataBytes: 0,
		},
		tenants: { rounds: [], added: { 202: [], 303: [] }, emitted: { 202: [], 303: [] }, executions: 0, feedRequests: 0, otherTenant: 0 },
		totalSeconds: 0,
	};
	const workflow = readWorkflow(root, TRIGGER_LIVE_WORKFLOW);
	const eventsWorkflow = readWorkflow(root, TRIGGER_LIVE_EVENTS_WORKFLOW);
	const tenantsWorkflow = readWorkflow(root, TRIGGER_LIVE_TENANTS_WORKFLOW);
	const fake = await FakeFlare.start(DATASET);
	let live: LiveInstance | undefined;
	const fail = (message: string) => {
		failures.push(message);
		log(`  ✗ ${message.split('\n').join('\n    ')}`);
	};
	try {
		const n8n = N8nInstance.create(
			await options.install,
			path.join(workFolder(root), 'trigger-live'),
		);
		await n8n.installPackage(options.tarball);
		await n8n.importCredentials([flareCredential(fake)]);
		await n8n.importWorkflows([workflow.absolute, eventsWorkflow.absolute, tenantsWorkflow.absolute]);
		live = new LiveInstance(n8n, workflow, figures, eventsWorkflow);
		await live.start();
		log(
			`Package installed, credential and workflow imported; n8n started in ${figures.starts[0]} s (${path.relative(root, n8n.userFolder)}).`,
		);

		// Before activation: acme.com credentials that the trigger's first search reads and must not emit.
		const earlier = new Date(fake.now() - BEFORE_ACTIVATION_MS).toISOString();
		const beforeActivation = [
			addOneAcmeCredential(fake, earlier),
			addOneAcmeCredential(fake, earlier),
		].flat();
		figures.beforeActivation = beforeActivation.length;
		// n8n 2.41 publishes the workflow, then adds its trigger: the activation poll runs after the
		// answer, and n8n stores the static data once it has run.
		const activatedAt = Date.now();
		await live.rest.activate(workflow.id);
		await live.activated(1);
		figures.activationSeconds = round((Date.now() - activatedAt) / 1000);
		const baseline = await waitFor(
			'static data stored after the activation poll',
			async () => await live!.storedState(),
			SAVE_DEADLINE_SECONDS,
		);
		const noted = beforeActivation.filter((id) => baseline.seen[String(id)] !== undefined);
		if (noted.length !== beforeActivation.length) {
			fail(
				`after activation n8n's database holds the keys ${JSON.stringify(Object.keys(baseline.seen))}, expected those of the credentials imported before it, ${JSON.stringify(beforeActivation)}`,
			);
		}
		const afterActivation = await live.executions();
		if (afterActivation.length > 0) {
			fail(`activation started ${afterActivation.length} execution(s), expected none`);
		}
		log(
			`Activated: no execution; ${beforeActivation.length} acme.com credentials imported 5 min before were noted (${baseline.bytes} bytes of static data stored ${figures.activationSeconds} s after the activation was asked).`,
		);

		// The New Event trigger: two events entered the feed 5 minutes before; noted, not emitted.
		const eventsBefore = uidsAdded(
			fake.addEvents(2, { materializedAt: new Date(fake.now() - BEFORE_ACTIVATION_MS).toISOString() }),
		);
		figures.events.beforeActivation = eventsBefore.length;
		const eventsActivatedAt = Date.now();
		await live.rest.activate(eventsWorkflow.id);
		const eventsBaseline = await waitFor(
			'static data of the New Event trigger stored after its activation poll',
			async () => await live!.storedState(eventsWorkflow, EVENT_TRIGGER),
			SAVE_DEADLINE_SECONDS,
			100,
		);
		figures.activationStoredSeconds = round((Date.now() - eventsActivatedAt) / 1000);
		await live.activated(1, eventsWorkflow);
		// A critical event that another workflow remediates at once, before any poll reads it: Flare's
		// feed leaves it out unless asked; the first sweep (10 minutes after the activation) asks.
		const [remediated] = fake.addEvents(1, { severity: 'critical' }).map((item) => item.metadata.uid);
		fake.events.act(fake.options.tenants[0], [remediated], 'remediate', Date.now());
		const remediatedAt = Date.now();
		const eventsNoted = eventsBefore.filter((uid) => eventsBaseline.seen[eventKey(uid)] !== undefined);
		if (eventsNoted.length !== eventsBefore.length) {
			fail(
				`after activation n8n's database holds the keys ${JSON.stringify(Object.keys(eventsBaseline.seen))} of the New Event trigger, expected those of the events that entered the feed before it, ${JSON.stringify(eventsBefore.map(eventKey))}`,
			);
		}
		if ((await live.executions(eventsWorkflow)).length > 0) {
			fail('the New Event trigger started executions at activation, expected none');
		}
		log(
			`New Event activated: no execution; ${eventsBefore.length} events of 5 min before were noted (stored ${figures.activationStoredSeconds} s after the activation was asked); event ${remediated} added and remediated at once.`,
		);

		// Two triggers of two tenants, one credential: activated (two activations logged), nothing emitted.
		await live.rest.activate(tenantsWorkflow.id);
		await live.activated(TENANT_TRIGGERS.length, tenantsWorkflow);
		if ((await live.executions(tenantsWorkflow)).length > 0) {
			fail('the triggers of two tenants started executions at activation, expected none');
		}
		log(`Two tenants' triggers activated (tenants ${TENANT_TRIGGERS.map(({ tenant }) => tenant).join(' and ')}): no execution.`);
		/** One new event in each of the two tenants' feeds. */
		const addTenantEvents = (): Record<number, string> =>
			Object.fromEntries(
				TENANT_TRIGGERS.map(({ tenant }) => {
					const [uid] = uidsAdded(fake.addEvents(1, { tenantId: tenant }));
					figures.tenants.added[tenant].push(uid);
					return [tenant, uid];
				}),
			);
		/** The two executions the round's events started: each trigger its tenant's event, once, named. */
		const checkTenants = async (label: string, about: string, events: Record<number, string>, seen: number, addedAt: number) => {
			try {
				const executions = await waitFor(
					`two executions of the tenants' triggers after their events were added`,
					async () => {
						const all = await live!.executions(tenantsWorkflow);
						return all.length >= seen + TENANT_TRIGGERS.length ? all.slice(seen) : undefined;
					},
					EXECUTION_DEADLINE_SECONDS,
				);
				const found: Record<number, string> = {};
				for (const execution of executions) {
					const runJson = await live!.rest.finishedExecution(execution.id);
					secrets.addRun(runJson, `execution ${execution.id}`, workflowNodes(tenantsWorkflow));
					if (runJson.status !== 'success') throw new E2eFailure(undefined, `execution ${execution.id} ended "${runJson.status}"`);
					const view = new RunView(runJson);
					const ran = TENANT_TRIGGERS.filter(({ trigger }) => view.nodesRun().includes(trigger));
					checkEqual(ran.length, 1, undefined, `execution ${execution.id}: the triggers that started it`);
					const { tenant, trigger, next } = ran[0];
					const emitted = view.json(trigger).map((item) => [(item.metadata as { uid: string }).uid, item.tenantId]);
					checkEqual(emitted, [[events[tenant], tenant]], trigger, `execution ${execution.id}: the items emitted`);
					checkEqual(view.json(next).length, 1, next, `execution ${execution.id}: the items received`);
					found[tenant] = execution.id;
					figures.tenants.emitted[tenant].push(events[tenant]);
					const seconds = round((Date.now() - addedAt) / 1000);
					figures.tenants.rounds.push({ about, tenant, event: events[tenant], executionId: execution.id, seconds });
				}
				checkEqual(Object.keys(found).map(Number).sort(), TENANT_TRIGGERS.map(({ tenant }) => tenant), undefined, 'the tenants whose trigger started an execution');
				log(`  ✓ ${label}, two tenants: ${TENANT_TRIGGERS.map(({ tenant }) => `tenant ${tenant}'s event → execution ${found[tenant]}`).join(', ')}, 1 item each`);
			} catch (error) {
				fail(`${label}, two tenants: ${(error as Error).message}`);
			}
		};

		const emitted: number[] = [];
		const eventsEmitted: string[] = [];
		/** One new event as this round wants it (after refusing cursors, or after a filtered run). */
		let raised: string | undefined;
		const addEvent = (step: (typeof ROUNDS)[number], index: number): string => {
			if (step.event === 'refusedCursors') fake.expireCursors();
			if (step.event === 'filteredRun') fake.addEvents(FILTERED_RUN, { ignored: true, severity: 'low' });
			const [item] = fake.addEvents(1, { severity: 'high' });
			uidsAdded([item]);
			// Round 1: also a medium event, which its poll reads and leaves out; raised after it.
			if (index === 0) [raised] = fake.addEvents(1, { severity: 'medium' }).map((event) => event.metadata.uid);
			figures.events.added.push(item.metadata.uid);
			return item.metadata.uid;
		};
		/** The execution of the `seen`th new event, the remediated one's (a sweep's) skipped. */
		const eventExecution = async (seen: number): Promise<ExecutionSummary | undefined> => {
			const executions = await live!.executions(eventsWorkflow);
			const remediatedRun = figures.events.remediated?.executionId;
			return executions.filter((execution) => execution.id !== remediatedRun)[seen];
		};
		/** The execution the round's event started: exactly that event, reaching the next node. */
		const checkEvent = async (
			label: string,
			step: (typeof ROUNDS)[number],
			uid: string,
			seen: number,
			addedAt: number,
		) => {
			const about = step.about;
			try {
				const execution = await waitFor(
					`New Event execution after event ${uid} was added`,
					async () => await eventExecution(seen),
					// Past a run of empty pages, one poll more.
					EXECUTION_DEADLINE_SECONDS + (step.event === 'filteredRun' ? 60 : 0),
				);
				const runJson = await live!.rest.finishedExecution(execution.id);
				const uidsIn = (json: typeof runJson) => new RunView(json).json(EVENT_TRIGGER).map((item) => (item.metadata as { uid: string }).uid);
				if (uidsIn(runJson).join() === remediated) {
					// The first sweep came early: the remediated event's execution, checked at the end.
					figures.events.remediated = { event: remediated, executionId: execution.id, seconds: round((Date.now() - remediatedAt) / 1000) };
					await checkEvent(label, step, uid, seen, addedAt);
					return;
				}
				secrets.addRun(runJson, `execution ${execution.id}`);
				fs.writeFileSync(
					path.join(live!.n8n.userFolder, 'runs', `execution-${execution.id}.json`),
					JSON.stringify(runJson, null, 2),
				);
				const seconds = round((Date.now() - addedAt) / 1000);
				figures.events.rounds.push({ about, event: uid, executionId: execution.id, seconds });
				if (runJson.status !== 'success') {
					throw new E2eFailure(undefined, `execution ${execution.id} ended "${runJson.status}"`);
				}
				const view = new RunView(runJson);
				const uids = (node: string) => view.json(node).map((item) => (item.metadata as { uid: string }).uid);
				checkEqual(uids(EVENT_TRIGGER), [uid], EVENT_TRIGGER, `execution ${execution.id}: the items emitted`);
				checkEqual(uids(EVENT_NEXT_NODE), [uid], EVENT_NEXT_NODE, `execution ${execution.id}: the items received`);
				eventsEmitted.push(uid);
				log(`  ✓ ${label}, New Event: event ${uid} → execution ${execution.id}, 1 item, ${seconds} s after it was added`);
			} catch (error) {
				fail(`${label}, New Event: ${(error as Error).message}`);
			}
		};
		for (const [index, step] of ROUNDS.entries()) {
			const label = `round ${index + 1}/${ROUNDS.length} (${step.about})`;
			const seen = (await live.executions()).length;
			const eventsSeen = figures.events.added.length;
			const tenantsSeen = (await live.executions(tenantsWorkflow)).length;
			let event: string;
			let tenantEvents: Record<number, string>;
			await sleep(1_100); // a new import time, after the instant the last poll reached
			let added: number[];
			let addedAt: number;
			if (step.restart === 'none') {
				added = addOneAcmeCredential(fake);
				event = addEvent(step, index);
				tenantEvents = addTenantEvents();
				addedAt = Date.now();
				figures.added.push(...added);
			} else {
				if (step.restart === 'kill') {
					// Killed once n8n has stored its last emit (it saves the static data as it emits).
					const last = String(emitted[emitted.length - 1]);
					const from = Date.now();
					await waitFor(
						`static data holding credential ${last} in n8n's database`,
						async () => ((await live!.storedState())?.seen[last] !== undefined ? true : undefined),
						SAVE_DEADLINE_SECONDS,
					);
					const lastEvent = eventKey(eventsEmitted[eventsEmitted.length - 1]);
					await waitFor(
						`static data holding the last event in n8n's database`,
						async () =>
							(await live!.storedState(eventsWorkflow, EVENT_TRIGGER))?.seen[lastEvent] !== undefined
								? true
								: undefined,
						SAVE_DEADLINE_SECONDS,
					);
					for (const { tenant, trigger } of TENANT_TRIGGERS) {
						const lastOfTenant = tenantEventKey(tenant, figures.tenants.emitted[tenant][figures.tenants.emitted[tenant].length - 1]);
						await waitFor(
							`static data holding the last event of tenant ${tenant} in n8n's database`,
							async () =>
								(await live!.storedState(tenantsWorkflow, trigger))?.seen[lastOfTenant] !== undefined
									? true
									: undefined,
							SAVE_DEADLINE_SECONDS,
						);
					}
					figures.savedBeforeKillSeconds = round((Date.now() - from) / 1000);
				}
				const signalled = Date.now();
				const ended = await live.end(step.restart);
				added = addOneAcmeCredential(fake);
				event = addEvent(step, index);
				tenantEvents = addTenantEvents();
				addedAt = Date.now();
				figures.added.push(...added);
				await live.start();
				await live.activated(figures.starts.length);
				await live.activated(figures.starts.length, eventsWorkflow);
				await live.activated(figures.starts.length * TENANT_TRIGGERS.length, tenantsWorkflow);
				figures.restarts.push({
					restart: step.restart,
					...ended,
					gapSeconds: round((Date.now() - signalled) / 1000),
				});
			}
			const execution = await waitFor(
				`execution after credential ${added.join(', ')} was added`,
				async () => (await live!.executions())[seen],
				EXECUTION_DEADLINE_SECONDS,
			).catch((error: Error) => {
				const searches = fake.requests
					.filter((request) => request.path === SEARCH_PATH)
					.map((request) => `${new Date(request.at).toISOString()} ${request.status}`);
				throw new Error(
					`${label}: ${error.message} (n8n polled at ${live!.polls().join(', ') || 'no time'}; searches Flare answered: ${searches.join(', ') || 'none'})`,
				);
			});
			const runJson = await live.rest.finishedExecution(execution.id);
			secrets.addRun(runJson, `execution ${execution.id}`, workflowNodes(workflow));
			fs.writeFileSync(
				path.join(live.n8n.userFolder, 'runs', `execution-${execution.id}.json`),
				JSON.stringify(runJson, null, 2),
			);
			const elapsed = round((Date.now() - addedAt) / 1000);
			figures.rounds.push({
				about: step.about,
				credential: added.join(', '),
				executionId: execution.id,
				seconds: elapsed,
			});
			try {
				const view = new RunView(runJson);
				if (runJson.status !== 'success') {
					const error = runJson.data.resultData.error;
					throw new E2eFailure(
						undefined,
						`execution ${execution.id} ended "${runJson.status}"${error ? `: ${describeError(error)}` : ''}`,
					);
				}
				checkEqual(execution.mode, 'trigger', undefined, `execution ${execution.id}'s mode`);
				const ids = (node: string) => view.json(node).map((item) => item.id);
				checkEqual(ids(TRIGGER), added, TRIGGER, `execution ${execution.id}: the items emitted`);
				checkEqual(
					ids(NEXT_NODE),
					added,
					NEXT_NODE,
					`execution ${execution.id}: the items received`,
				);
				emitted.push(...added);
				log(
					`  ✓ ${label}: credential ${added.join(', ')} → execution ${execution.id}, ${ids(TRIGGER).length} item, ${elapsed} s after it was added`,
				);
			} catch (error) {
				fail(`${label}: ${(error as Error).message}`);
			}
			await checkEvent(label, step, event, eventsSeen, addedAt);
			await checkTenants(label, step.about, tenantEvents, tenantsSeen, addedAt);
			// After round 1's poll read it as medium, another workflow (or an analyst) raises it.
			if (index === 0 && raised) {
				fake.events.setMetadata(fake.options.tenants[0], raised, { severity: 'critical' });
				figures.events.raised = raised;
				log(`  · event ${raised}, read as medium by that poll, raised to critical: never to be emitted`);
			}
		}

		// The remediated event comes with the first sweep, 10 minutes after the activation, once.
		try {
			if (!figures.events.remediated) {
				// The sweep walks the feed four times (docs/trigger.md), through the 1,000 ignored events of
				// round 5 too, at Flare's pace shared with the other triggers of the key: a few polls more
				// (in a run measured at 158 s after it was due).
				const sweepDeadline = (eventsActivatedAt + 10 * 60_000 - Date.now()) / 1000 + EXECUTION_DEADLINE_SECONDS + 180;
				const execution = await waitFor(
					`New Event execution of event ${remediated}, remediated before any poll read it`,
					async () => (await live!.executions(eventsWorkflow))[ROUNDS.length],
					Math.max(sweepDeadline, EXECUTION_DEADLINE_SECONDS),
				);
				figures.events.remediated = { event: remediated, executionId: execution.id, seconds: round((Date.now() - remediatedAt) / 1000) };
			}
			const runJson = await live.rest.finishedExecution(figures.events.remediated.executionId);
			secrets.addRun(runJson, `execution ${figures.events.remediated.executionId}`);
			const uids = (node: string) => new RunView(runJson).json(node).map((item) => (item.metadata as { uid: string }).uid);
			checkEqual(uids(EVENT_TRIGGER), [remediated], EVENT_TRIGGER, `execution ${figures.events.remediated.executionId}: the items emitted`);
			checkEqual(uids(EVENT_NEXT_NODE), [remediated], EVENT_NEXT_NODE, `execution ${figures.events.remediated.executionId}: the items received`);
			log(`  ✓ New Event: event ${remediated}, remediated before any poll read it → execution ${figures.events.remediated.executionId} (the first sweep), 1 item, ${figures.events.remediated.seconds} s after it was added`);
		} catch (error) {
			fail(`New Event, the event remediated before any poll read it: ${(error as Error).message}`);
		}

		// One more poll, which finds nothing new: then across the whole run, one execution per added
		// credential, one item each, nothing else.
		const pollsBefore = live.polls().length;
		await waitFor(
			'a poll after the last execution',
			async () => (live!.polls().length > pollsBefore ? true : undefined),
			EXECUTION_DEADLINE_SECONDS,
		);
		await sleep(QUIET_POLL_SECONDS * 1000);
		const executions = await live.executions();
		for (const execution of executions) {
			const ids = new RunView(await live.rest.finishedExecution(execution.id))
				.json(TRIGGER)
				.map((item) => item.id as number);
			figures.itemsPerExecution.push(ids.length);
			figures.emitted.push(...ids);
		}
		figures.executions = executions.length;
		try {
			checkEqual(figures.emitted, figures.added, TRIGGER, 'the credentials emitted, in all');
		} catch (error) {
			fail((error as Error).message);
		}
		if (executions.length !== ROUNDS.length) {
			fail(
				`the trigger started ${executions.length} executions in all (${executions.map((execution) => execution.id).join(', ')}), expected ${ROUNDS.length}: one per new credential`,
			);
		}
		const eventExecutions = await live.executions(eventsWorkflow);
		for (const execution of eventExecutions) {
			const uids = new RunView(await live.rest.finishedExecution(execution.id))
				.json(EVENT_TRIGGER)
				.map((item) => (item.metadata as { uid: string }).uid);
			figures.events.itemsPerExecution.push(uids.length);
			figures.events.emitted.push(...uids);
		}
		figures.events.executions = eventExecutions.length;
		try {
			// Each event once, the remediated one included; the raised one never.
			const expected = [...figures.events.added, remediated].sort();
			checkEqual([...figures.events.emitted].sort(), expected, EVENT_TRIGGER, 'the events emitted, in all');
		} catch (error) {
			fail((error as Error).message);
		}
		if (eventExecutions.length !== ROUNDS.length + 1) {
			fail(
				`the New Event trigger started ${eventExecutions.length} executions in all, expected ${ROUNDS.length + 1}: one per new event`,
			);
		}
		// The two tenants: in all, each trigger emitted each of its tenant's new events once, and every
		// feed request carried a token of one of those tenants (the New Event trigger above has the
		// credential's, 101).
		const tenantExecutions = await live.executions(tenantsWorkflow);
		figures.tenants.executions = tenantExecutions.length;
		try {
			checkEqual(figures.tenants.emitted, figures.tenants.added, undefined, "the two tenants' events emitted, in all");
			checkEqual(tenantExecutions.length, ROUNDS.length * TENANT_TRIGGERS.length, undefined, "executions of the two tenants' triggers");
		} catch (error) {
			fail((error as Error).message);
		}
		const tenantFeeds = fake.requests.filter((request) => request.path === FEED_PATH && request.tenant !== 101);
		figures.tenants.feedRequests = tenantFeeds.length;
		figures.tenants.otherTenant = tenantFeeds.filter((request) => !TENANT_TRIGGERS.some(({ tenant }) => tenant === request.tenant)).length;
		if (figures.tenants.otherTenant > 0 || tenantFeeds.length === 0) {
			fail(`${figures.tenants.otherTenant} of ${tenantFeeds.length} feed requests of the two tenants' triggers carried a token of another tenant`);
		}
		figures.events.staticDataBytes = (await live.storedState(eventsWorkflow, EVENT_TRIGGER))?.bytes ?? 0;
		figures.events.polls = live.polls(eventsWorkflow).length;
		figures.events.feedPages = fake.requests.filter((request) => request.path === FEED_PATH).length;
		const stored = await live.storedState();
		figures.staticDataBytes = stored?.bytes ?? 0;
		figures.keysKept = Object.keys(stored?.seen ?? {}).length;
		figures.polls = live.polls().length;
		figures.searches = fake.requests.filter((request) => request.path === SEARCH_PATH).length;
		log(
			`${figures.polls} polls (${figures.starts.length} at start-up), ${figures.searches} searches; ${executions.length} executions; static data in n8n's database: ${figures.staticDataBytes} bytes, ${figures.keysKept} keys kept.`,
		);
		log(
			`New Event: ${figures.events.polls} polls, ${figures.events.feedPages} feed pages; ${figures.events.executions} executions of ${figures.events.itemsPerExecution.join(', ')} item(s); static data: ${figures.events.staticDataBytes} bytes.`,
		);
		log(
			`Two tenants: ${figures.tenants.executions} executions, ${figures.tenants.feedRequests} feed requests, each with a token of its trigger's tenant.`,
		);
	} catch (error) {
		fail(`the activated trigger could not be tested: ${(error as Error).message}`);
	} finally {
		await live?.stop();
		await fake.stop();
	}
	if (live) await secrets.addInstanceFiles(live.n8n.userFolder);
	figures.totalSeconds = Math.round((Date.now() - started) / 1000);
	const file = path.join(root, 'test-results', 'trigger-live.json');
	fs.mkdirSync(path.dirname(file), { recursive: true });
	fs.writeFileSync(file, `${JSON.stringify({ figures, failures }, null, '\t')}\n`);
	log(
		`Flare Trigger activated: ${failures.length ? `${failures.length} failure(s)` : 'every check passed'} in ${seconds(started)} (${path.relative(root, file)}).`,
	);
	return { figures, failures };
}

/** The figures as tables: each round, and each restart. */
export function render(figures: TriggerLiveFigures): string {
	const table = (header: string[], rows: unknown[][]) =>
		[header, header.map(() => '---'), ...rows]
			.map((cells) => `| ${cells.map(String).join(' | ')} |`)
			.join('\n');
	return [
		table(
			['Round', 'Credential', 'Execution', 'Items', 'Seconds from import to the execution ended'],
			figures.rounds.map((row, index) => [
				`${index + 1}: ${row.about}`,
				row.credential,
				row.executionId,
				figures.itemsPerExecution[index] ?? '?',
				row.seconds,
			]),
		),
		'',
		table(
			['Round', 'Event (New Event)', 'Execution', 'Items', 'Seconds from its arrival to the execution ended'],
			[
				...figures.events.rounds.map((row, index) => [
					`${index + 1}: ${row.about}`,
					row.event,
					row.executionId,
					1,
					row.seconds,
				]),
				...(figures.events.remediated
					? [[
							'after activation: remediated before any poll read it, emitted by the first sweep',
							figures.events.remediated.event,
							figures.events.remediated.executionId,
							1,
							figures.events.remediated.seconds,
						]]
					: []),
				...(figures.events.raised
					? [['round 1: read as medium, raised to critical after that poll', figures.events.raised, 'none', 0, '–']]
					: []),
			],
		),
		'',
		table(
			['Round', 'Tenant', 'Event (New Event, Tenant set)', 'Execution', 'Seconds from its arrival to the execution ended'],
			figures.tenants.rounds.map((row) => [row.about, row.tenant, row.event, row.executionId, row.seconds]),
		),
		'',
		table(
			[
				'Restart',
				'n8n ended',
				'Seconds to exit',
				'Seconds from the signal to the trigger active again',
			],
			figures.restarts.map((row) => [
				row.restart === 'kill' ? 'SIGKILL to its process group' : 'SIGTERM (graceful)',
				row.exit,
				row.exitSeconds,
				row.gapSeconds,
			]),
		),
	].join('\n');
}

async function main(): Promise<void> {
	const root = repositoryRoot();
	const install = ensureN8n('2', say);
	install.catch(() => undefined); // awaited in triggerLive
	// A pack folder of its own: CI runs this beside the end-to-end suite, which empties .n8n-e2e/pack.
	const tarball = await buildAndPack(root, path.join(workFolder(root), 'trigger-live-pack'));
	const secrets = new E2eSecretScan(DATASET.apiKeys!.full!, 'trigger-live');
	say(`== Flare Trigger activated, ${LINES['2'].label}, polling every minute`);
	const { figures, failures } = await triggerLive({ root, install, tarball, secrets, log: say });
	say('');
	say(render(figures));
	say('');
	say(await secrets.write(root));
	const leakedValues = secrets.leakedValueProblems.length > 0;
	if (secrets.leaks || leakedValues) say(secrets.describe());
	if (failures.length || secrets.leaks || leakedValues) {
		processRef.exitCode = 1;
		return;
	}
	writeBlock(
		path.join(root, 'docs', 'trigger.md'),
		'trigger-live',
		[
			`${figures.n8n}, both kinds side by side: every check passed in ${figures.totalSeconds} s; ` +
				`${figures.polls} polls of New Leaked Credential, ${figures.events.polls} of New Event ` +
				`(${figures.events.feedPages} feed pages); static data ${figures.staticDataBytes} and ` +
				`${figures.events.staticDataBytes} bytes; two New Event triggers of tenants 202 and 303 with one ` +
				`credential: ${figures.tenants.executions} executions, each tenant's events once, ` +
				`${figures.tenants.feedRequests} feed requests each with its tenant's token. New Event's ` +
				`activation: what it noted was in n8n's database ${figures.activationStoredSeconds} s after ` +
				`the activation was asked (n8n stopped before then starts the trigger anew).`,
			'',
			render(figures),
		].join('\n'),
	);
	say('Wrote these figures into docs/trigger.md.');
}

main().catch((error: Error) => {
	processRef.stderr.write(
		`The activated trigger could not be tested: ${error.stack ?? error.message}\n`,
	);
	processRef.exitCode = 1;
});
