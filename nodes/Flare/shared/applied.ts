import { createHash } from 'crypto';
import type {
	IExecuteFunctions,
	INodeExecutionData,
	NodeApiError,
	NodeOperationError,
} from 'n8n-workflow';

import { FlareRequestFailed, mayHaveApplied } from './failure';

/**
 * Writes Flare may have applied, remembered so that n8n's Retry On Fail never sends one twice
 * (docs/api-contract.md, "Errors"). n8n runs a node again
 * when its run failed, and, with continue on fail, when its first output item is an error, up to Max
 * Tries: n8n-core 2.41.1, `WorkflowExecute.processRunExecutionData`
 * (dist/execution-engine/workflow-execute.js, lines 1206–1237: the loop over `tryIndex` and its
 * `checkFailure` re-runs) calls `runNode` again with the same `executionData`, `runIndex` and
 * `additionalData`: the same execution ID, node, run index and input items. So each write Flare may
 * have applied is kept here, in this process, with its outcome (its output items, or its error), by
 * execution, node, run index, item and a digest of what the request is made from; a try that finds
 * one gives that outcome again and sends nothing. (An AI Agent's retry of a tool call gives each try
 * a new run index: not covered, see the docs.)
 */

/** What a write ended with: its output items, or the error of its item. */
export type WriteOutcome =
	| { outputs: INodeExecutionData[] }
	| { error: NodeApiError | NodeOperationError };

interface Kept {
	at: number;
	size: number;
	outcome: WriteOutcome;
}

/**
 * How much is kept, the oldest dropped first: a node run of more writes than `entries`, or retried
 * more than `ageMs` after a write, may send that write again (docs/api-contract.md).
 */
export const APPLIED_WRITES_BOUND = {
	entries: 10_000,
	characters: 16 * 1024 * 1024,
	ageMs: 6 * 3_600_000,
};

const kept = new Map<string, Kept>();
let keptCharacters = 0;

/** Writes kept (for the tests: the record stays within its bound). */
export const appliedWritesKept = () => ({ entries: kept.size, characters: keptCharacters });

/** The execution ID n8n uses when it has none (n8n-core `PLACEHOLDER_EMPTY_EXECUTION_ID`). */
const NO_EXECUTION = '__UNKNOWN__';

function forget(key: string): void {
	const entry = kept.get(key);
	if (!entry) return;
	keptCharacters -= entry.size;
	kept.delete(key);
}

/** Drops the expired entries, then the oldest while over the bound (the newest always stays). */
function prune(now: number): void {
	for (const [key, entry] of kept) {
		const over =
			kept.size > APPLIED_WRITES_BOUND.entries || keptCharacters > APPLIED_WRITES_BOUND.characters;
		if (kept.size > 1 && (over || now - entry.at > APPLIED_WRITES_BOUND.ageMs)) forget(key);
		else break;
	}
}

function sizeOf(outcome: WriteOutcome): number {
	if ('error' in outcome) {
		const { message, description } = outcome.error;
		return message.length + (description?.length ?? 0);
	}
	return JSON.stringify(outcome.outputs.map((output) => output.json)).length;
}

/**
 * The writes of one node run (`context`): what an earlier try of the run applied, and what this one
 * applies. Reads keep nothing.
 */
export class AppliedWrites {
	private readonly keys = new Map<number, string | undefined>();

	private constructor(
		private readonly context: IExecuteFunctions,
		private readonly run: string | undefined,
	) {}

	static of(context: IExecuteFunctions, write: boolean): AppliedWrites {
		if (!write) return new AppliedWrites(context, undefined);
		let run: string | undefined;
		try {
			const execution = context.getExecutionId();
			const runIndex = context.getWorkflowDataProxy(0).$runIndex;
			if (execution && execution !== NO_EXECUTION && typeof runIndex === 'number') {
				run = JSON.stringify([execution, context.getNode().name, runIndex]);
			}
		} catch {
			run = undefined;
		}
		return new AppliedWrites(context, run);
	}

	/**
	 * Item `index`'s key: its run, its index, and a digest of what its request is made from (the
	 * node's parameters as saved and the item's input). Not the request itself: a request built again
	 * may differ where it holds the time (an alert rule's `start_at`, an expression of `$now`).
	 */
	private keyOf(index: number): string | undefined {
		if (!this.keys.has(index)) this.keys.set(index, this.digestOf(index));
		return this.keys.get(index);
	}

	private digestOf(index: number): string | undefined {
		if (this.run === undefined) return undefined;
		const node = this.context.getNode();
		try {
			const made = JSON.stringify([
				node.parameters,
				node.credentials ?? null,
				this.context.getInputData()[index]?.json ?? null,
			]);
			return `${this.run}|${index}|${createHash('sha256').update(made).digest('hex')}`;
		} catch {
			return undefined;
		}
	}

	/**
	 * Item `index`'s output items as an earlier try of this node run gave them, each a copy (n8n may
	 * change what a node returns), or undefined when none applied its write; its error is thrown.
	 */
	replayed(index: number): INodeExecutionData[] | undefined {
		const key = this.keyOf(index);
		const entry = key === undefined ? undefined : kept.get(key);
		if (!entry || Date.now() - entry.at > APPLIED_WRITES_BOUND.ageMs) return undefined;
		if ('error' in entry.outcome) throw entry.outcome.error;
		return entry.outcome.outputs.map((output) => ({
			...output,
			json: structuredClone(output.json),
		}));
	}

	/** Keeps item `index`'s outcome: its write was applied, or may have been. */
	applied(index: number, outcome: WriteOutcome): void {
		const key = this.keyOf(index);
		if (key === undefined) return;
		forget(key);
		const size = sizeOf(outcome);
		kept.set(key, { at: Date.now(), size, outcome });
		keptCharacters += size;
		prune(Date.now());
	}
}

/**
 * Whether a write whose request was `sent` and that failed with `error` may have been applied: it
 * was answered (a later step failed, e.g. its read-back), or it failed as a write Flare may have
 * processed (a 5xx, a time-out, a dropped connection: errors.ts `mayHaveApplied`).
 */
export function mayHaveBeenApplied(sent: boolean, answered: boolean, error: unknown): boolean {
	if (!sent) return false;
	if (answered || !(error instanceof FlareRequestFailed)) return true;
	return mayHaveApplied(error.failure);
}
