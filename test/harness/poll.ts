import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';
import { ExecutionLifecycleHooks, PollContext } from 'n8n-core';

import { collectRun } from './collect';
import { observeExposures } from './exposure';
import { CREDENTIAL_TYPE, type Harness, PACKAGE_NAME } from './engine';
import { plain, StaticDataColumn } from './static-data';

/** n8n's default poll time budget (PollContext). */
export const DEFAULT_POLL_BUDGET_MS = 5 * 60_000;

export interface TriggerSpec {
	parameters: IDataObject;
	/** The workflow's id; two TriggerWorkflows with one id are two activations of one workflow. */
	workflowId?: string;
	name?: string;
	credentialId?: string;
	/** What `getPollBudgetMs()` answers in active polls; n8n's default unless given. */
	budgetMs?: number;
	/**
	 * What becomes of a poll still under way when the workflow is saved (reactivated): n8n 2.41
	 * discards its result and does not save its static data (the default); n8n 1.x emits it and saves
	 * the static data of the workflow it started with, over what the new activation stored.
	 */
	superseded?: 'discard' | 'emit';
	/** The workflow's static data in the database, when another harness workflow shares it. */
	database?: StaticDataColumn;
	/** Other triggers of the same workflow, activated over the same Workflow object as n8n does. */
	alongside?: AlongsideTrigger[];
}

/**
 * Another trigger in the workflow (a Flare Alert Trigger): n8n's active-workflow manager builds one
 * Workflow for the activation, runs the webhook triggers' methods over it (`addWebhooks`), then
 * the pollers' (`addNonWebhookTriggers`), and the pollers keep it from poll to poll.
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
	/** The error of a failed poll, which n8n reports with `__emitError` while the workflow stays active. */
	error?: Error & { description?: string | null };
	/** The workflow was saved or n8n restarted while the poll ran: n8n dropped its result. */
	discarded?: true;
}


/** Workflows made so far: each gets an id of its own unless the spec gives one. */
let triggerWorkflows = 0;

/**
 * A workflow with the Flare Trigger (loaded from dist/ by the harness), polled the way n8n polls it,
 * with n8n-core's real PollContext:
 * - `poll()` is an active poll ('trigger' mode). Like n8n's active-workflow manager, it keeps one
 *   Workflow object whose static data lives in memory from poll to poll, and saves the static data
 *   (here: to `saved`) when a poll emits, if it changed. A failed poll is reported, not thrown.
 * - `poll('manual')` is the editor's "fetch test event" (WorkflowExecute.executePollNode): a
 *   PollContext in 'manual' mode over the same workflow; n8n never saves static data after it.
 * - `restart()` reloads the workflow from the saved static data, as n8n does after a restart; a
 *   poll still under way then is lost with the process (its result dropped, nothing saved).
 * - `reactivate()` is a save of the workflow: the same, in the same process; a poll under way is
 *   superseded (see {@link TriggerSpec.superseded}).
 */
export class TriggerWorkflow {
	/** Answer of `getPollBudgetMs()` for the next active polls. */
	budgetMs: number;

	private readonly workflowId: string;
	private workflow!: Workflow;
	private node!: INode;
	private readonly name: string;

	constructor(
		private readonly harness: Harness,
		private readonly spec: TriggerSpec,
	) {
		this.name = spec.name ?? 'Flare Trigger';
		this.workflowId = spec.workflowId ?? `harness-trigger-${++triggerWorkflows}`;
		this.budgetMs = spec.budgetMs ?? DEFAULT_POLL_BUDGET_MS;
		this.database = spec.database ?? new StaticDataColumn();
		this.rebuild();
	}

	private readonly database: StaticDataColumn;

	/** The static data as n8n last saved it to the database. */
	get saved(): IDataObject {
		return this.database.value ?? {};
	}

	set saved(data: IDataObject) {
		this.database.value = data;
	}

	/** Restarts so far: each is a new n8n process. */
	private restarts = 0;
	/** Activations so far (restarts and saves): a poll started under an earlier one is superseded. */
	private activations = 0;

	/**
	 * Rebuilds the workflow from the saved static data; unsaved changes are lost, as in n8n. The
	 * process's memory goes too: the trigger shares what an n8n process holds between activations by
	 * workflow and node id, so a restarted workflow's node gets an id no earlier "process" saw.
	 */
	restart(): void {
		this.restarts++;
		this.rebuild();
	}

	/**
	 * The user saves the workflow with other parameters: n8n deactivates it and activates it again
	 * from what it stored, in the same process (whose memory stays), the node keeping its id.
	 */
	reactivate(parameters: IDataObject): void {
		this.spec.parameters = parameters;
		this.rebuild();
	}

	private rebuild(): void {
		this.activations++;
		this.node = {
			id: `flare-trigger-${this.restarts}`,
			name: this.name,
			type: `${PACKAGE_NAME}.flareTrigger`,
			typeVersion: 1,
			position: [0, 0],
			parameters: plain(this.spec.parameters),
			credentials: { [CREDENTIAL_TYPE]: { id: this.spec.credentialId ?? 'cred-1', name: 'Flare' } },
		} as INode;
		this.workflow = new Workflow({
			id: this.workflowId,
			name: 'Harness trigger',
			nodes: [this.node, ...(this.spec.alongside ?? []).map((other) => other.node())],
			connections: {},
			active: true,
			nodeTypes: this.harness.nodeTypes(),
			staticData: plain(this.saved),
			settings: { executionOrder: 'v1' },
		});
	}

	/** The trigger node's static data as it is in memory now (a plain copy). */
	get state(): IDataObject {
		return plain(this.workflow.staticData[`node:${this.name}`]);
	}

	/** Whether the in-memory static data has changes that n8n has not saved yet. */
	get unsaved(): boolean {
		return this.workflow.staticData.__dataChanged === true;
	}

	/**
	 * Activation, as n8n's active-workflow manager does it: the other triggers' webhook methods, then
	 * the first poll at once (its data is emitted), and the static data is saved afterwards, emit or
	 * not.
	 */
	async activate(): Promise<PollResult> {
		for (const other of this.spec.alongside ?? []) await other.activate(this.workflow);
		const result = await this.poll();
		this.saveStaticData();
		return result;
	}

	async poll(mode: 'trigger' | 'manual' = 'trigger'): Promise<PollResult> {
		const node = this.node;
		const [result, exposures] = await observeExposures(async () => await this.pollOnce(mode));
		collectRun('poll', { result }, result.items?.length ?? 0, [node], exposures, undefined, {
			'static data': { state: this.state, saved: this.saved },
		});
		return result;
	}

	private async pollOnce(mode: 'trigger' | 'manual'): Promise<PollResult> {
		const activation = this.activations;
		const restarts = this.restarts;
		const workflow = this.workflow;
		const node = this.node;
		/** n8n 2.41's PollTriggerExecutor: `isCurrent()`, checked when the poll function returns. */
		const superseded = () =>
			mode === 'trigger' &&
			activation !== this.activations &&
			(restarts !== this.restarts || this.spec.superseded !== 'emit');
		const hooks = new ExecutionLifecycleHooks(mode, 'harness-poll', {
			id: workflow.id,
			name: workflow.name,
			nodes: [node],
			connections: {},
			active: true,
			activeVersionId: null,
			isArchived: false,
			createdAt: new Date(),
			updatedAt: new Date(),
			settings: {},
		} as never);
		const additionalData = this.harness.additionalData(hooks);
		let emitted: INodeExecutionData[][] | undefined;
		const context =
			mode === 'manual'
				? new PollContext(workflow, node, additionalData, 'manual', 'manual')
				: new PollContext(
						workflow,
						node,
						additionalData,
						'trigger',
						'activate',
						(data) => {
							emitted = data;
							this.saveStaticData(workflow);
						},
						undefined,
						undefined,
						undefined,
						undefined,
						() => this.budgetMs,
					);
		const nodeType = workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
		try {
			const data = await nodeType.poll!.call(context);
			if (mode === 'manual') return { items: data?.[0] ?? null };
			// n8n 2.41: "Discarding in-flight poll result for superseded workflow".
			if (superseded()) return { items: null, discarded: true };
			// PollTriggerExecutor: a poll that returns data emits it; n8n saves the static data on emit.
			if (data !== null) context.__emit(data);
			return { items: emitted?.[0] ?? null };
		} catch (error) {
			if (superseded()) return { items: null, discarded: true };
			return { items: null, error: error as PollResult['error'] };
		}
	}

	/** WorkflowStaticDataService.saveStaticData: saves when the static data changed. */
	private saveStaticData(workflow = this.workflow): void {
		if (workflow.staticData.__dataChanged !== true) return;
		this.saved = plain(workflow.staticData);
		workflow.staticData.__dataChanged = false;
	}
}
