import { NodeApiError, type IPollFunctions } from 'n8n-workflow';

import type { FlareFailure } from '../Flare/shared/failure';

/**
 * What the Flare Trigger does about n8n's lifecycle around its polls (docs/trigger.md, "What n8n
 * saves, and when"; test/harness/README.md cites n8n's source):
 * - **the activation poll** n8n runs when it starts, or when the workflow is saved: a failure of
 *   Flare's that may pass (a 5xx, a 429, no answer, a time-out) does not fail it when the trigger has
 *   a state to go on from. n8n 2.41 tries an activation 5 times within 15 seconds and then leaves the
 *   trigger off for good (its reconciler never publishes again a trigger whose activation failed, a
 *   restart included); n8n 1.123 tries one at start-up for ever. So such a poll says so in n8n's log
 *   and returns nothing: n8n keeps the trigger, the next poll goes on from the saved state, and nothing
 *   is lost. A first activation (no state) and the user's own errors (401, 403, a bad parameter) still
 *   fail it: the user is there to see it, and trying again changes nothing.
 * - **the workflow's id**, which decides whether n8n saves the trigger's state at all.
 */

/** The contexts that have polled: n8n runs the activation poll first with the context it then ticks with. */
const polled = new WeakSet<object>();

/**
 * Whether this poll is the first of its context, the activation poll: n8n makes one PollContext per
 * activation and polls with it at once (n8n-core 2.41 `ActiveWorkflowTriggers.activatePollTrigger`,
 * 1.122 `ActiveWorkflows.activatePolling`: `executeTrigger(true)`), then at every tick.
 */
export function isActivationPoll(context: IPollFunctions): boolean {
	if (polled.has(context)) return false;
	polled.add(context);
	return true;
}

/** The activations after which n8n keeps the trigger only if their poll succeeded and no one is there to see it fail. */
const UNATTENDED = new Set(['init', 'update', 'leadershipChange']);

/** Errors marked as failures that may pass (e.g. a full event Flare could not send for now). */
const passing = new WeakSet<object>();

/** Marks `error` as a failure that may pass. Returns it. */
export function passingError<E extends object>(error: E): E {
	passing.add(error);
	return error;
}

/**
 * Whether `error` is a failure of Flare's that may pass by itself: a 5xx, 408 or 429 (a quota
 * included), no answer or none in time, a token exchange that did not fail on the key (errors.ts
 * keeps what failed in the error's `context.failure`).
 */
function mayPass(error: unknown): boolean {
	if (typeof error === 'object' && error !== null && passing.has(error)) return true;
	if (!(error instanceof NodeApiError)) return false;
	const { status, code = '', refused } = (error.context.failure ?? {}) as FlareFailure;
	if (status !== undefined) return status >= 500 || status === 408 || status === 429;
	if (code === 'TOKEN_EXCHANGE') return refused !== true;
	// Node's and undici's connection errors (ECONNRESET, ENOTFOUND, UND_ERR_SOCKET, …) and ours.
	return (
		['TIMEOUT', 'NO_ANSWER', 'RETRY_AFTER_TOO_LONG', 'QUOTA_USED_UP'].includes(code) ||
		/^(E[A-Z_]+|UND_ERR_[A-Z_]+)$/.test(code)
	);
}

/**
 * Whether an activation poll that failed with `error` returns nothing instead (see the top of this
 * file): n8n activates the trigger for a start or a save, the trigger has a state to go on from
 * (`hasState`), and the failure may pass. Says so in n8n's log.
 */
export function waitsForNextPoll(context: IPollFunctions, hasState: boolean, error: unknown): boolean {
	if (!hasState || !mayPass(error)) return false;
	if (!UNATTENDED.has(context.getActivationMode())) return false;
	context.logger?.warn(
		`Flare Trigger: Flare could not be read as n8n activated the workflow (${(error as Error).message}). The trigger stays active and goes on from its saved state at the next poll: nothing is lost.`,
	);
	return true;
}

/**
 * Whether n8n saves this workflow's static data (`isWorkflowIdValid`, n8n's `dist/utils.js`): for an
 * id of 1 to 21 characters on n8n 2.41 (whose PollContext offers `getPollBudgetMs`), of at most 16 on
 * n8n 1.x (whose PollContext does not). A workflow imported with a longer id (`n8n import:workflow`
 * keeps the file's) keeps the trigger's state in memory only, and n8n says nothing.
 */
export function savesStateOf(context: IPollFunctions): boolean {
	const id = context.getWorkflow().id;
	if (typeof id !== 'string') return false;
	return isN8n1(context) ? id.length <= 16 : id.length > 0 && id.length <= 21;
}

const isN8n1 = (context: IPollFunctions) => typeof context.getPollBudgetMs !== 'function';

/**
 * Whether the state of a poll that emitted stays in this process's memory for the next activation:
 * on n8n 1.x, for a workflow whose state n8n does not save. n8n 1.x emits every poll (it has no
 * `isCurrent` check) and activates the trigger again at every save, from a database that holds
 * nothing for it: memory is all there is. Never on n8n 2.41, which may drop an emitted poll (poll.ts
 * `Shared.state`).
 */
export function keepsEmittedState(context: IPollFunctions): boolean {
	return isN8n1(context) && !savesStateOf(context);
}

/** Says in n8n's log, at a first activation, that n8n will not save this trigger's state (docs/trigger.md). */
export function warnOfUnsavedState(context: IPollFunctions): void {
	if (savesStateOf(context)) return;
	const id = String(context.getWorkflow().id ?? '');
	context.logger?.warn(
		`Flare Trigger: n8n does not save the state of a workflow whose ID has more than ${isN8n1(context) ? '16 characters (n8n 1.x; n8n 2.41: 21)' : '21 characters (n8n 2.41; n8n 1.x: 16)'}, and this one's has ${id.length} ("${id}"): after a restart of n8n the trigger starts anew and what arrived meanwhile is not emitted. Import the workflow again with an ID of 16 characters, or none (n8n then gives one).`,
	);
}
