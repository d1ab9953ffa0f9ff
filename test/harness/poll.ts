import type { IDataObject, INode, INodeExecutionData, IWorkflowExecuteAdditionalData } from 'n8n-workflow';
import { sleep, Workflow } from 'n8n-workflow';
import { ExecutionLifecycleHooks, PollContext } from 'n8n-core';

import { collectRun } from './collect';
import { observeExposures } from './exposure';
import { CREDENTIAL_TYPE, type Harness, PACKAGE_NAME } from './engine';
import { type N8nLine, plain, saveStaticData, StaticDataColumn } from './static-data';

/**
 * A workflow with the Flare Trigger, activated, polled, saved, restarted and deactivated as n8n does
 * it, line by line of n8n's source (test/harness/README.md cites every step): n8n 2.41.1 by default,
 * n8n 1.123.81 where the spec says so. The node runs in n8n-core's real PollContext, loaded from dist/.
 */

/** n8n's default poll time budget (PollContext's default `getPollBudgetMs`, n8n 2.41). */
export const DEFAULT_POLL_BUDGET_MS = 5 * 60_000;
/**
 * n8n 2.41's retries of a trigger activation that failed (`retryTriggerActivation`,
 * `TRIGGER_ACTIVATION_MAX_ATTEMPTS`), waiting `WORKFLOW_REACTIVATE_INITIAL_TIMEOUT` doubled each time.
 */
export const ACTIVATION_ATTEMPTS_2_41 = 5;
const REACTIVATE_INITIAL_MS = 1_000;
/** `WORKFLOW_REACTIVATE_MAX_TIMEOUT`: the longest wait between two tries (a day). */
const REACTIVATE_MAX_MS = 24 * 60 * 60_000;
/**
 * n8n 1.123 retries an activation at start-up that failed for ever (`addQueuedWorkflowActivation`:
 * 1 s, doubled each time up to a day). The harness stops after this many tries, over 7 days of
 * virtual time, so that a test whose Flare never recovers ends; a test that needs longer says so.
 */
export const INIT_ATTEMPTS_1_123 = 24;

export interface TriggerSpec {
	parameters: IDataObject;
	/** The poll node's type (full name); the Flare Trigger unless given (e.g. probe.ts's). */
	type?: string;
	/** The workflow's id; two TriggerWorkflows with one id are two activations of one workflow. */
	workflowId?: string;
	name?: string;
	credentialId?: string;
	/**
	 * What `getPollBudgetMs()` answers in active polls: n8n 2.41's default (5 minutes) unless given
	 * (its opt-in durable scheduler gives less). n8n 1.123's PollContext has no such method.
	 */
	budgetMs?: number;
	/** The n8n line reproduced: 2.41 (default) or 1.123. */
	n8n?: N8nLine;
	/** The workflow's static data in the database, when another harness workflow shares it. */
	database?: StaticDataColumn;
	/** Other triggers of the same workflow, activated over the same Workflow object as n8n does. */
	alongside?: AlongsideTrigger[];
	/** Published already in n8n's database (a workflow n8n starts with): `restart()` activates it. */
	published?: boolean;
}

/**
 * Another trigger in the workflow (a Flare Alert Trigger): n8n builds one Workflow for the
 * activation and registers the webhook triggers over it (`addWebhooks`, n8n 2.41
 * `registerWebhookTriggers`), then the pollers, which keep it from poll to poll.
 */
export interface AlongsideTrigger {
	/** The node as it is now (its id changes with a restart). */
	node(): INode;
	/** Its activation over the workflow n8n built (the webhook methods). */
	activate(workflow: Workflow): Promise<void>;
}

export interface PollResult {
	/** The items of the poll: emitted (active poll) or returned (manual); null when the poll returned null. */
	items: INodeExecutionData[] | null;
	/**
	 * The error of a failed poll: a tick's error n8n reports (`__emitError`, an error execution) while
	 * the workflow stays active; an activation's error fails the activation (see `active`).
	 */
	error?: Error & { description?: string | null };
	/** The workflow was saved, deactivated or n8n restarted while the poll ran: n8n dropped its result. */
	discarded?: true;
	/**
	 * A restart activated nothing: the workflow is not published, or (n8n 2.41) its trigger's last
	 * activation failed.
	 */
	notActivated?: true;
}

/** Workflows made so far: each gets an id of its own unless the spec gives one. */
let triggerWorkflows = 0;

/** How n8n activates: a user's publish, a save of an active workflow, or n8n's start. */
type ActivationMode = 'activate' | 'update' | 'init';

/**
 * What `computeTriggerDiff` compares of a trigger node (n8n 2.41 `workflows/publication/trigger-diff.js`,
 * `registrationProps`, with lodash's `isEqual`: deep, whatever the keys' order).
 */
const REGISTRATION_PROPS = ['name', 'type', 'typeVersion', 'webhookId', 'credentials', 'parameters'] as const;
const registrationOf = (node: INode): IDataObject =>
	plain(Object.fromEntries(REGISTRATION_PROPS.map((prop) => [prop, node[prop]])));
/** Whether n8n 2.41 keeps a trigger's registration through a publish: the node the same by `computeTriggerDiff`. */
export const sameRegistration = (before: INode, after: INode): boolean =>
	sameJson(registrationOf(before), registrationOf(after));

/** Deep equality of JSON values, whatever the order of their keys (as lodash's `isEqual` is for them). */
function sameJson(a: unknown, b: unknown): boolean {
	if (a === b) return true;
	if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
	if (Array.isArray(a) !== Array.isArray(b)) return false;
	const keys = Object.keys(a);
	return (
		keys.length === Object.keys(b).length &&
		keys.every((key) => Object.hasOwn(b, key) && sameJson((a as IDataObject)[key], (b as IDataObject)[key]))
	);
}

/**
 * One registration of the trigger (`ActiveWorkflowTriggers.activatePollTrigger`, n8n-core; n8n 1.123
 * `ActiveWorkflows.activatePolling`): the Workflow n8n built for the activation, and the ONE
 * PollContext (`getPollFunctions(...)`) every tick of this activation polls with, until n8n
 * deregisters it: the cron n8n registered.
 */
interface Registration {
	readonly workflow: Workflow;
	readonly node: INode;
	readonly context: PollContext;
	/** The n8n process it lives in: a restart ends it, and what it was doing is lost. */
	readonly process: number;
	/** Deregistered: n8n 2.41's `isCurrent()` answers false from then on. */
	removed: boolean;
}

/**
 * A workflow with the Flare Trigger (loaded from dist/ by the harness), polled the way n8n polls it:
 * - `activate()` publishes it: n8n builds a Workflow over the static data in its database, makes one
 *   PollContext for the node, runs the activation poll with it (its data is emitted; an error fails
 *   the activation, which n8n 2.41 tries 5 times), then saves the static data, emit or not.
 * - `poll()` is a tick of the cron n8n registered: the activation's PollContext again, over the same
 *   Workflow object, whose static data stays in memory from tick to tick and is saved when a poll
 *   emits. A failed tick is reported, not thrown; the workflow stays active.
 * - `poll('manual')` is the editor's "Fetch Test Event" (WorkflowExecute.executePollNode): a Workflow
 *   and a PollContext of its own in 'manual' mode; n8n never saves static data after it.
 * - `reactivate(parameters)` is a save of the active workflow (a publish in n8n 2.41): n8n 2.41
 *   registers the trigger again only when the node changed (`computeTriggerDiff`); n8n 1.123 always
 *   removes and adds the whole workflow again.
 * - `restart()` is a new n8n process: unsaved changes and the node's process memory are lost, a poll
 *   under way too; n8n activates the workflow again from its database at start-up, when it is
 *   published and (n8n 2.41) its last activation did not fail.
 * - `deactivate()` unpublishes it: the cron stops.
 * An activation under way when the workflow is saved or deactivated: n8n 2.41 runs the publications
 * of a workflow one after the other (`WorkflowPublicationLifecycleLock.runExclusive`), so the save or
 * deactivation waits for it; n8n 1.123 carries on with it (`ActiveWorkflowManager.add`): its cron is
 * registered and its static data saved, and that cron ticks until n8n restarts or a later save or
 * deactivation finds the workflow registered (`ActiveWorkflows.remove` removes all its crons).
 */
export class TriggerWorkflow {
	/** Answer of `getPollBudgetMs()` for the next active polls (n8n 2.41). */
	budgetMs: number;
	/** Whether the workflow is published (active in n8n's database): what a restart activates. */
	published = false;
	/**
	 * n8n 2.41: the trigger's last activation failed (its trigger status 'failed'): n8n's reconciler
	 * never activates it again (`findMissingActiveWorkflows` takes only 'activated' triggers), a
	 * restart included, until the user publishes it again.
	 */
	failed = false;

	readonly line: N8nLine;
	private readonly workflowId: string;
	private readonly name: string;
	private readonly database: StaticDataColumn;
	/**
	 * The crons n8n holds for the trigger, oldest first, each a registration: one, or on n8n 1.123
	 * also those of activations a save or deactivation could not stop (above). The last is the one a
	 * test reads (`state`).
	 */
	private crons: Registration[] = [];
	/** n8n 1.123: whether `ActiveWorkflows` has the workflow (a `remove` then stops its crons). */
	private registered = false;
	/** The n8n process: each restart is a new one. */
	private process = 0;
	/** Counted up by each deactivation, save and restart: an activation under way then is over (n8n 1.123: cancelled only between tries). */
	private generation = 0;
	/** n8n 2.41: the publication of this workflow under way (its lifecycle lock), in this process. */
	private publication?: Promise<unknown>;

	constructor(
		private readonly harness: Harness,
		private readonly spec: TriggerSpec,
	) {
		this.name = spec.name ?? 'Flare Trigger';
		this.workflowId = spec.workflowId ?? `trigger-${++triggerWorkflows}`;
		this.budgetMs = spec.budgetMs ?? DEFAULT_POLL_BUDGET_MS;
		this.database = spec.database ?? new StaticDataColumn();
		this.line = spec.n8n ?? '2.41';
		this.published = spec.published === true;
	}

	/** Whether n8n holds a cron for the trigger (false before activation, after a failed one, or deactivation). */
	get active(): boolean {
		return this.crons.length > 0;
	}

	private get registration(): Registration | undefined {
		return this.crons[this.crons.length - 1];
	}

	/** The static data as n8n last saved it to the database. */
	get saved(): IDataObject {
		return this.database.value ?? {};
	}

	set saved(data: IDataObject) {
		this.database.value = data;
	}

	/** The trigger node's static data as it is in memory now (a plain copy). */
	get state(): IDataObject {
		return plain(this.registration?.workflow.staticData[`node:${this.name}`]);
	}

	/** Whether the in-memory static data has changes that n8n has not saved yet. */
	get unsaved(): boolean {
		return this.registration?.workflow.staticData.__dataChanged === true;
	}

	/** The parameters of the node as the workflow holds them now. */
	get parameters(): IDataObject {
		return plain(this.spec.parameters);
	}

	/**
	 * The node as n8n stores it: its id stays through saves and changes with each n8n process, as the
	 * trigger shares what a process holds by workflow and node id (a new process knows nothing).
	 */
	private nodeNow(): INode {
		const type = this.spec.type ?? `${PACKAGE_NAME}.flareTrigger`;
		return {
			id: `flare-trigger-${this.process}`,
			name: this.name,
			type,
			typeVersion: 1,
			position: [0, 0],
			parameters: plain(this.spec.parameters),
			...(type.startsWith(`${PACKAGE_NAME}.`)
				? { credentials: { [CREDENTIAL_TYPE]: { id: this.spec.credentialId ?? 'cred-1', name: 'Flare' } } }
				: {}),
		} as INode;
	}

	/** A Workflow as n8n builds it for an activation: over the static data read from its database. */
	private workflowNow(node: INode): Workflow {
		return new Workflow({
			id: this.workflowId,
			name: 'Harness trigger',
			nodes: [node, ...(this.spec.alongside ?? []).map((other) => other.node())],
			connections: {},
			active: true,
			nodeTypes: this.harness.nodeTypes(),
			staticData: plain(this.saved),
			settings: { executionOrder: 'v1' },
		});
	}

	/**
	 * `WorkflowExecuteAdditionalData.getBase`, once per activation (n8n 2.41
	 * `WorkflowTriggerActivator.activateInternal`, n8n 1.123 `ActiveWorkflowManager.add`): the
	 * Variables are read then and frozen, so a change of one reaches a poll at the next activation.
	 */
	private additionalDataNow(node: INode): IWorkflowExecuteAdditionalData {
		const hooks = new ExecutionLifecycleHooks('trigger', 'harness-poll', {
			id: this.workflowId,
			name: 'Harness trigger',
			nodes: [node],
			connections: {},
			active: true,
			activeVersionId: null,
			isArchived: false,
			createdAt: new Date(),
			updatedAt: new Date(),
			settings: {},
		} as never);
		return this.harness.additionalData(hooks);
	}

	/**
	 * `getExecutePollFunctions(...)(workflow, node)`: the PollContext of a registration. Its `__emit`
	 * saves the workflow's static data (`void workflowStaticDataService.saveStaticData(workflow)`)
	 * and starts the execution; n8n 1.123's PollContext has no `getPollBudgetMs`.
	 */
	private contextFor(workflow: Workflow, node: INode, additionalData: IWorkflowExecuteAdditionalData, activation: ActivationMode): PollContext {
		const context = new PollContext(
			workflow,
			node,
			additionalData,
			'trigger',
			activation,
			() => saveStaticData(this.line, workflow, this.database),
			undefined,
			undefined,
			undefined,
			undefined,
			() => this.budgetMs,
		);
		if (this.line === '1.123') delete (context as { getPollBudgetMs?: unknown }).getPollBudgetMs;
		return context;
	}

	/** Publishes the workflow: n8n activates it (the activation poll's result). */
	async activate(): Promise<PollResult> {
		this.published = true;
		const result = await this.publish(async () => await this.register('activate'));
		// n8n 1.123 rolls a user's activation that failed back (`WorkflowService._addToActiveWorkflowManager`).
		if (result.error && this.line === '1.123') this.published = false;
		return result;
	}

	/**
	 * n8n 2.41: `fn` once the publication under way, if any, is over (`WorkflowPublicationLifecycleLock`);
	 * n8n 1.123: at once.
	 */
	private async publish<T>(fn: () => Promise<T>): Promise<T> {
		if (this.line === '1.123') return await fn();
		const process = this.process;
		const before = this.publication;
		const run = (async () => {
			await before?.catch(() => undefined);
			// n8n restarted meanwhile: its lock went with it, and so did this publication.
			if (process !== this.process) throw new Error('n8n restarted before the publication ran');
			return await fn();
		})();
		this.publication = run;
		void run.finally(() => this.publication === run && (this.publication = undefined)).catch(() => undefined);
		return await run;
	}

	/**
	 * An activation, as n8n runs it: the webhook triggers of the workflow, then the poller's
	 * registration with its activation poll (`executePollTrigger(true)`: its data emitted, its error
	 * thrown), then `saveStaticData(workflow)`. A failed activation poll: n8n 2.41 registers the node
	 * again (a new PollContext over the same Workflow) up to 5 times, 1, 2, 4 and 8 seconds apart, then
	 * gives up (the trigger 'failed'); n8n 1.123 gives up at once when a user activates or saves, and
	 * retries an activation at its start-up for ever (here: {@link INIT_ATTEMPTS_1_123} times). The
	 * trigger is active afterwards only when an attempt succeeded.
	 */
	private async register(activation: ActivationMode, withAlongside = true): Promise<PollResult> {
		const attempts =
			this.line === '2.41' ? ACTIVATION_ATTEMPTS_2_41 : activation === 'init' ? INIT_ATTEMPTS_1_123 : 1;
		const generation = ++this.generation;
		const node = this.nodeNow();
		const workflow = this.workflowNow(node);
		let additionalData = this.additionalDataNow(node);
		if (withAlongside) for (const other of this.spec.alongside ?? []) await other.activate(workflow);
		let result: PollResult = { items: null };
		let registration: Registration | undefined;
		for (let attempt = 0; attempt < attempts; attempt++) {
			if (attempt > 0) {
				await sleep(Math.min(REACTIVATE_INITIAL_MS * 2 ** (attempt - 1), REACTIVATE_MAX_MS));
				// A deactivation, save or restart meanwhile removed the queued activation.
				if (generation !== this.generation) return result;
				// n8n 1.123's queued activation runs `add()` again, with `getBase` (its Workflow wraps
				// the same static-data object, which a failed poll of this trigger leaves unchanged).
				if (this.line === '1.123') additionalData = this.additionalDataNow(node);
			}
			registration = {
				workflow,
				node,
				context: this.contextFor(workflow, node, additionalData, activation),
				process: this.process,
				removed: false,
			};
			// n8n 1.123 `ActiveWorkflows.add` enters the workflow before its pollers' activation polls.
			this.registered = true;
			result = await this.observed(node, async () => await this.runPoll(registration!, true));
			// n8n restarted meanwhile: this activation went with the process.
			if (registration.process !== this.process) return result;
			if (!result.error) break;
			registration.removed = true;
		}
		if (result.error) {
			if (this.line === '2.41') this.failed = true;
			// n8n 1.123 leaves the workflow entered only if it has other triggers (`ActiveWorkflows.add`).
			else if (!this.spec.alongside?.length) this.registered = false;
		} else {
			if (this.line === '2.41') this.failed = false;
			// The cron, registered after the activation poll (n8n 1.123: even when a save or deactivation
			// came meanwhile: then beside those of later activations, or alone).
			this.crons.push(registration!);
		}
		// n8n 2.41 saves after the registration phase whatever became of it; n8n 1.123 after success.
		if (this.line === '2.41' || !result.error) saveStaticData(this.line, workflow, this.database);
		return result;
	}

	/** A tick of n8n's crons (each of them at once), or with 'manual' the editor's Fetch Test Event. */
	async poll(mode: 'trigger' | 'manual' = 'trigger'): Promise<PollResult> {
		if (mode === 'manual') {
			// `WorkflowExecute.executePollNode` in a manual run, over a Workflow of its own.
			const node = this.nodeNow();
			const workflow = this.workflowNow(node);
			const context = new PollContext(workflow, node, this.additionalDataNow(node), 'manual', 'manual');
			return await this.observed(node, async () => {
				const nodeType = workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
				try {
					const data = await nodeType.poll!.call(context);
					return { items: data?.[0] ?? null };
				} catch (error) {
					// The editor shows the node's error.
					return { items: null, error: error as PollResult['error'] };
				}
			});
		}
		const crons = [...this.crons];
		if (crons.length === 0) throw new Error('The harness workflow is not active: n8n has no cron to tick');
		// The crons of one tick start together, in the order n8n registered them.
		const ticks = crons.map(async (cron) => await this.observed(cron.node, async () => await this.runPoll(cron, false)));
		const [first, ...others] = await Promise.all(ticks);
		// Several crons (n8n 1.123, above): what they emitted, in their order, and the first error.
		return others.reduce(
			(all, one) => ({
				items: all.items || one.items ? [...(all.items ?? []), ...(one.items ?? [])] : null,
				...(all.error ?? one.error ? { error: all.error ?? one.error } : {}),
			}),
			first,
		);
	}

	/** One poll, collected for the scans (items, errors, static data). */
	private async observed(node: INode, poll: () => Promise<PollResult>): Promise<PollResult> {
		const [result, exposures] = await observeExposures(poll);
		collectRun('poll', { result }, result.items?.length ?? 0, [node], exposures, undefined, {
			'static data': { state: this.state, saved: this.saved },
		});
		return result;
	}

	/**
	 * n8n 2.41's `PollTriggerExecutor.create(...)` (n8n 1.123: `activatePolling`'s `executeTrigger`)
	 * over the registration's PollContext: the node's poll, then `__emit` of what it returned. n8n
	 * 2.41 checks `isCurrent()` when the poll returns: a registration removed meanwhile (the node saved
	 * changed, the workflow deactivated) has its result and its error dropped; n8n 1.123 has no such
	 * check and emits it, saving the static data of the Workflow it polled over. A poll of a process
	 * that has ended (a restart) is lost with it on both.
	 */
	private async runPoll(registration: Registration, testing: boolean): Promise<PollResult> {
		const { workflow, node, context } = registration;
		const lost = () =>
			registration.process !== this.process || (this.line === '2.41' && registration.removed && !testing);
		const nodeType = workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
		try {
			const data = await nodeType.poll!.call(context);
			if (lost()) return { items: null, discarded: true };
			if (data !== null) context.__emit(data);
			return { items: data?.[0] ?? null };
		} catch (error) {
			if (lost()) return { items: null, discarded: true };
			return { items: null, error: error as PollResult['error'] };
		}
	}

	/**
	 * The user saves the active workflow with `parameters` (and, if given, another credential) (n8n
	 * 2.41: and publishes it). n8n 2.41 compares the trigger nodes of the old and new version
	 * (`computeTriggerDiff`: name, type, version, webhook id, credentials, parameters, deeply): an
	 * unchanged Flare Trigger keeps its registration, and nothing happens (null); a changed one is
	 * deregistered and activated again ('update') over a new Workflow built from the database, alone
	 * (the other triggers keep theirs). n8n 1.123 (`WorkflowService.update`) removes the whole workflow
	 * and adds it again, changed or not, and rolls it back (unpublished) when that fails. Returns the
	 * activation poll's result.
	 */
	async reactivate(parameters: IDataObject, change: { credentialId?: string } = {}): Promise<PollResult | null> {
		return await this.publish(async () => {
			const before = this.nodeNow();
			this.spec.parameters = parameters;
			if (change.credentialId !== undefined) this.spec.credentialId = change.credentialId;
			if (this.line === '2.41' && this.active && sameRegistration(before, this.nodeNow())) return null;
			this.remove();
			const result = await this.register('update', this.line === '1.123');
			if (result.error && this.line === '1.123') this.published = false;
			return result;
		});
	}

	/**
	 * A new n8n process (stopped gracefully or killed: n8n saves no poller's static data on the way
	 * down): what the old one held in memory is gone, a poll or an activation under way is lost with
	 * it, and n8n activates the workflow from its database at start-up ('init') when it is published
	 * (n8n 1.123 `ActiveWorkflowManager.addActiveWorkflows` reads the active ones; n8n 2.41's
	 * reconciler, `WorkflowPublicationReconcilerService.reconcile('startup')`, skips a trigger whose last
	 * activation failed). Returns that activation's result, or `notActivated` when n8n activates nothing.
	 */
	async restart(): Promise<PollResult> {
		this.process++;
		this.generation++;
		this.publication = undefined;
		for (const cron of this.crons) cron.removed = true;
		this.crons = [];
		this.registered = false;
		if (!this.published || (this.line === '2.41' && this.failed)) return { items: null, notActivated: true };
		// n8n 2.41's start-up activation is a publication too (`reconcile('startup')` through the outbox).
		return await this.publish(async () => await this.register('init'));
	}

	/**
	 * Unpublishes the workflow: n8n stops the cron (`ActiveWorkflowTriggers.remove`; n8n 1.123
	 * `ActiveWorkflows.remove`) and saves no poller's static data; a poll under way is dropped by n8n
	 * 2.41 and emitted by n8n 1.123. On n8n 2.41 an activation under way ends first (the returned
	 * promise settles then); on n8n 1.123 it carries on (above).
	 */
	deactivate(): Promise<void> {
		this.published = false;
		if (this.line === '2.41' && this.publication) return this.publish(async () => this.remove());
		this.remove();
		return Promise.resolve();
	}

	/**
	 * n8n's removal of the trigger's crons: n8n 2.41 deregisters its registration; n8n 1.123 removes
	 * every cron of the workflow when `ActiveWorkflows` has it, and nothing otherwise (an activation that
	 * carried on after an earlier removal left its cron: it ticks on). Either way a queued activation
	 * (a retry) is cancelled.
	 */
	private remove(): void {
		this.generation++;
		if (this.line === '1.123' && !this.registered) return;
		for (const cron of this.crons) cron.removed = true;
		this.crons = [];
		this.registered = false;
	}
}
