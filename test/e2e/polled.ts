/**
 * Playbooks started by the Flare Trigger, active in a real n8n (the started n8n of the alert cases,
 * alerts.ts). Publishing the workflow runs the trigger's activation poll, which notes what Flare
 * already has and emits nothing. Each `poll()` then publishes it again, as a user who saved it would:
 * n8n runs the activation poll at once, which goes on from the trigger's saved state and emits what
 * arrived since, each record once (docs/trigger.md): the poll n8n runs at each start, without waiting
 * for the schedule. The executions it starts are read through n8n's REST API.
 */
import { sleep } from 'n8n-workflow';

import { type AlertCase, type AlertCaseContext, ActiveWorkflow } from './alerts';
import { E2eFailure } from './report';

/**
 * How long n8n may take to publish a workflow and finish its trigger's activation poll (90 s ran out
 * once on n8n 2.41.1, after the identity playbook's bulk case; the cause is not found yet).
 */
const ACTIVATION_DEADLINE_SECONDS = 180;

/** A workflow of the Flare Trigger, active in a running n8n. */
export class ActivePolledWorkflow extends ActiveWorkflow {
	/** The trigger's state as n8n stored it (as text), or '' before it stored any. */
	private async stored(): Promise<string> {
		return JSON.stringify((await this.server.n8n.storedStaticData(this.workflow.id)) ?? '');
	}

	/**
	 * Publishes the workflow and waits until n8n has stored the state of the activation poll (n8n
	 * stores it once the poll is over: ActiveWorkflowManager.add, saveStaticData; n8n 2.x publishes
	 * after answering the REST call).
	 */
	override async activate(): Promise<void> {
		const before = await this.stored();
		await super.activate();
		const started = Date.now();
		while ((await this.stored()) === before) {
			if (Date.now() - started > ACTIVATION_DEADLINE_SECONDS * 1000) {
				throw new E2eFailure(
					this.trigger,
					`n8n stored no state of the trigger's activation poll within ${ACTIVATION_DEADLINE_SECONDS} s`,
				);
			}
			await sleep(250);
		}
	}

	/** The trigger polls now: the workflow is unpublished and published again. */
	async poll(): Promise<void> {
		await this.deactivate();
		await this.activate();
	}

	async deactivate(): Promise<void> {
		await this.server.session.deactivate(this.workflow.id);
	}
}

/**
 * A case on a workflow of the Flare Trigger: published (its activation poll notes what exists), then
 * `run`, then unpublished, so that the next case of the same workflow goes on from its state.
 */
export function polledCase(options: {
	file: string;
	trigger: string;
	name: string;
	about: string;
	run(context: AlertCaseContext<ActivePolledWorkflow>): Promise<void>;
}): AlertCase<ActivePolledWorkflow> {
	return {
		...options,
		async start(server, workflow) {
			const active = new ActivePolledWorkflow(server, workflow, options.trigger);
			await active.skipPast();
			await active.activate();
			// What Flare imports from now on arrives after the activation (imported_at has whole seconds).
			await sleep(1_100);
			return active;
		},
		async run(context) {
			try {
				await options.run(context);
			} finally {
				await context.active.deactivate();
			}
		},
	};
}
