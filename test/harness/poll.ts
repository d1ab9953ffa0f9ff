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
/**
 * n8n 1.123 retries an activation at start-up that failed for ever (`addQueuedWorkflowActivation`,
 * the wait doubled each time up to a day); the harness gives up after this many.
 */
export const INIT_ATTEMPTS_1_123 = 12;

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
}

/** Workflows made so far: each gets an id of its own unless the spec gives one. */
let triggerWorkflows = 0;

/** How n8n activates: a user's publish, a save of an active workflow, or n8n's start. */
type ActivationMode = 'activate' | 'update' | 'init';

/**
 * One registration of the trigger (`ActiveWorkflowTriggers.activatePollTrigger`, n8n-core): the
 * Workflow n8n built for the activation, and the ONE PollContext (`getPollFunctions(...)`) every tick
 * of this activation polls with, until n8n deregisters it.
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
 * - `poll('manual')` is the editor's "Fetch Test Event" (WorkflowExecute.executePollNode): a PollContext
 *   of its own in 'manual' mode; n8n never saves static data after it.
 * - `reactivate(parameters)` is a save of the active workflow (a publish in n8n 2.41): n8n 2.41
 *   registers the trigger again only when the node changed (`computeTriggerDiff`); n8n 1.123 always
 *   removes and adds the whole workflow again.
 * - `restart()` is a new n8n process: unsaved changes and the node's process memory are lost, a poll
 *   under way too; n8n activates the workflow again from its database at start-up.
 * - `deactivate()` unpublishes it: the cron stops.
 */
export class TriggerWorkflow {
	/** Answer of `getPollBudgetMs()` for the next active polls (n8n 2.41). */
	budgetMs: number;
	/** Whether a registration is active (false before activation, after a failed one, or deactivation). */
	active = false;

	readonly line: N8nLine;
	private readonly workflowId: string;
	private readonly name: string;
	private readonly database: StaticDataColumn;
	private registration?: Registration;
	/** The n8n process: each restart is a new one. */
	private process = 0;
	/** Counted up by each activation, deactivation and restart: an activation still under way then is over. */
	private generation = 0;

	constructor(
		private readonly harness: Harness,
		private readonly spec: TriggerSpec,
	) {
		this.name = spec.name ?? 'Flare Trigger';
		this.workflowId = spec.workflowId ?? `trigger-${++triggerWorkflows}`;
		this.budgetMs = spec.budgetMs ?? DEFAULT_POLL_BUDGET_MS;
		this.database = spec.database ?? new StaticDataColumn();
		this.line = spec.n8n ?? '2.41';
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
		return await this.register('activate');
	}

	/**
	 * An activation, as n8n runs it: the webhook triggers of the workflow, then the poller's
	 * registration with its activation poll (`executePollTrigger(true)`: its data emitted, its error
	 * thrown), then `saveStaticData(workflow)`. A failed activation poll: n8n 2.41 registers the node
	 * again (a new PollContext over the same Workflow) up to 5 times, 1, 2, 4 and 8 seconds apart, then
	 * gives up; n8n 1.123 gives up at once when a user activates, and retries an activation at its
	 * start-up for ever (here: {@link INIT_ATTEMPTS_1_123} times). The workflow is active afterwards
	 * only when an attempt succeeded.
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
		for (let attempt = 0; attempt < attempts; attempt++) {
			if (attempt > 0) {
				await sleep(REACTIVATE_INITIAL_MS * 2 ** (attempt - 1));
				if (generation !== this.generation) return result;
				// n8n 1.123's queued activation runs `add()` again, with `getBase` (its Workflow wraps
				// the same static-data object, which a failed poll of this trigger leaves unchanged).
				if (this.line === '1.123') additionalData = this.additionalDataNow(node);
			}
			const registration: Registration = {
				workflow,
				node,
				context: this.contextFor(workflow, node, additionalData, activation),
				process: this.process,
				removed: false,
			};
			this.registration = registration;
			result = await this.observed(node, async () => await this.runPoll(registration, true));
			// n8n restarted, or the workflow was saved or deactivated, meanwhile: this activation is over.
			if (generation !== this.generation) return result;
			if (!result.error) break;
			registration.removed = true;
		}
		this.active = !result.error;
		if (!this.active) this.registration = undefined;
		// n8n 2.41 saves after the registration phase whatever became of it; n8n 1.123 after success.
		if (this.line === '2.41' || this.active) saveStaticData(this.line, workflow, this.database);
		return result;
	}

	/** A tick of n8n's cron, or with 'manual' the editor's Fetch Test Event. */
	async poll(mode: 'trigger' | 'manual' = 'trigger'): Promise<PollResult> {
		if (mode === 'manual') {
			const node = this.nodeNow();
			const workflow = this.registration?.workflow ?? this.workflowNow(node);
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
		const registration = this.registration;
		if (!registration || !this.active) throw new Error('The harness workflow is not active: n8n has no cron to tick');
		return await this.observed(registration.node, async () => await this.runPoll(registration, false));
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
	 * The user saves the active workflow with `parameters` (n8n 2.41: and publishes it). n8n 2.41
	 * compares the trigger nodes of the old and new version (`computeTriggerDiff`: name, type,
	 * version, webhook id, credentials, parameters): an unchanged Flare Trigger keeps its
	 * registration, and nothing happens (null); a changed one is deregistered and activated again
	 * ('update') over a new Workflow built from the database, alone (the other triggers keep theirs).
	 * n8n 1.123 (`WorkflowService.update`) removes the whole workflow and adds it again, changed or
	 * not. Returns the activation poll's result.
	 */
	async reactivate(parameters: IDataObject): Promise<PollResult | null> {
		const changed = JSON.stringify(plain(parameters)) !== JSON.stringify(plain(this.spec.parameters));
		this.spec.parameters = parameters;
		if (this.line === '2.41' && !changed && this.active) return null;
		this.deactivate();
		return await this.register('update', this.line === '1.123');
	}

	/**
	 * A new n8n process (stopped gracefully or killed: n8n saves no poller's static data on the way
	 * down): what the old one held in memory is gone, a poll under way is lost with it, and n8n
	 * activates the workflow from its database at start-up ('init'). Returns that activation's result.
	 */
	async restart(): Promise<PollResult> {
		this.process++;
		this.deactivate();
		return await this.register('init');
	}

	/**
	 * Unpublishes the workflow: n8n stops the cron (`ActiveWorkflowTriggers.remove`) and saves no
	 * poller's static data; a poll under way is dropped by n8n 2.41 and emitted by n8n 1.123.
	 */
	deactivate(): void {
		this.generation++;
		if (this.registration) this.registration.removed = true;
		this.registration = undefined;
		this.active = false;
	}
}
