/**
 * Shared pieces of the reliability suites: the canary credentials, the result rows that the tables of
 * docs/reliability.md are printed from, and the comparison of delivered records with the oracle.
 */
import type { FakeFlareOptions } from '../fake-flare';
import { fs, path, processRef } from '../support/node';
import { CANARY_API_KEY, CANARY_TOKEN_PREFIX } from './secret-scan';

/** Every reliability fake runs with a recognisable API key and recognisable access tokens. */
export const CANARY_OPTIONS: FakeFlareOptions = {
	apiKeys: { full: CANARY_API_KEY },
	tokenPrefix: CANARY_TOKEN_PREFIX,
};

export type Outcome =
	/** Every record delivered once, in order. */
	| 'recovered'
	/** The run stopped with the decided error (and, for the trigger, the next poll delivered all). */
	| 'failed as decided';

/** One fault scenario of a paging read or of the trigger. */
export interface FaultRow {
	kind: 'fault';
	operation: string;
	fault: string;
	position: 'first' | 'middle' | 'last';
	/** Pages of the walk without faults. */
	pages: number;
	/** Records the oracle says the walk must deliver. */
	expected: number;
	/** Records delivered (for the trigger: over the failed poll and the next one). */
	delivered: number;
	/** Records compared with the oracle (0 when a node run failed as decided and delivered nothing). */
	checked: number;
	lost: number;
	duplicated: number;
	/** Requests to the API (the token exchange not counted). */
	requests: number;
	/** The contract's maximum for this walk and fault (pages plus the retries it allows). */
	bound: number;
	tokenRequests: number;
	outcome: Outcome;
	/** The error of a run that failed as decided. */
	error?: string;
	ms: number;
}

/** One fault scenario of a write. */
export interface WriteRow {
	kind: 'write';
	operation: string;
	fault: string;
	/** Whether the fault hit before Flare processed the write, or after. */
	phase: 'before' | 'after';
	requests: number;
	/** Times the fake applied the write. */
	writes: number;
	/** Times the same write was applied more than once (must be 0). */
	duplicated: number;
	outcome: 'succeeded once' | 'failed, not resent';
	error?: string;
}

/** The property-based runs over one parameter of one operation. */
export interface BadInputRow {
	kind: 'badInput';
	operation: string;
	parameter: string;
	runs: number;
	/** Rejected with a NodeOperationError naming the parameter, before any request. */
	rejected: number;
	/** Ran and succeeded. */
	worked: number;
	/** Ran; Flare answered 404 for an ID that does not exist (the request itself was well-formed). */
	notFound: number;
	/** Requests whose path parameter was checked to stay one segment that decodes to the input. */
	pathsChecked: number;
}

/** Masking by default of one output. */
export interface MaskingRow {
	kind: 'masking';
	operation: string;
	items: number;
	/** Leaked values (hash fields) in those items, each checked to be masked. */
	values: number;
}

/** One scenario of a hostile answer or setting (hostile.test.ts), measured against its bounds. */
export interface HostileRow {
	kind: 'hostile';
	/** The class of fault, e.g. "redirect"; docs/reliability.md has one line per class. */
	fault: string;
	/** The scenario within the class, e.g. "307 at the token exchange". */
	scenario: string;
	/** Requests that reached another origin (a redirect's target, or the host before a Base URL edit). */
	otherOrigin: number;
	/** Secrets found in the run's output, errors and what n8n logged of it. */
	leaks: number;
	lost: number;
	duplicated: number;
	/** Requests the fake received for the scenario (the token exchange included). */
	requests: number;
	requestBound: number;
	ms: number;
	msBound: number;
	/** Growth of the process's resident memory during the scenario, when measured. */
	memoryMiB?: number;
	memoryBoundMiB?: number;
	outcome: 'recovered' | 'failed as decided';
	error?: string;
}

/** Unexpected answers (answers.test.ts): the shapes one operation met, each worked or failed as decided. */
export interface AnswerRow {
	kind: 'answer';
	operation: string;
	shapes: number;
	/** Runs that worked: every output item an object, paired with its input. */
	worked: number;
	/** Runs that stopped with the node's error saying what came. */
	failed: number;
}

/** A walk of a feed that Flare's filters leave with long runs of empty pages (filtered-feeds.test.ts). */
export interface FilteredWalkRow {
	kind: 'filteredWalk';
	scenario: string;
	/** Pages the walk read, the empty ones among them, and the longest run of them. */
	pages: number;
	emptyPages: number;
	longestEmptyRun: number;
	expected: number;
	delivered: number;
	lost: number;
	duplicated: number;
	outcome: 'delivered all' | 'failed as decided' | 'stopped at the bound, went on next poll';
	error?: string;
}

/** A batched write (batched-writes.test.ts): its requests, and what each item was told. */
export interface BatchRow {
	kind: 'batch';
	operation: string;
	scenario: string;
	items: number;
	requests: number;
	/** Writes Flare received in input order (0 when it applied one out of order). */
	inOrder: boolean;
	/** Items with an output or an error of their own, paired with their input. */
	paired: number;
	/** Items whose error said whether Flare applied them (all failed items). */
	toldApplied: number;
	failed: number;
	outcome: string;
}

export type ReliabilityRow =
	| FaultRow
	| WriteRow
	| BadInputRow
	| MaskingRow
	| HostileRow
	| AnswerRow
	| FilteredWalkRow
	| BatchRow;

/**
 * Collects the rows of one test file and writes them where the jest global teardown merges them
 * into test-results/reliability.json.
 */
export class Recorder {
	readonly rows: ReliabilityRow[] = [];

	constructor(private readonly name: string) {}

	add(row: ReliabilityRow): void {
		this.rows.push(row);
	}

	save(): void {
		const dir = processRef.env.FLARE_RELIABILITY_DIR ?? path.resolve('test-results', 'reliability', 'standalone');
		fs.mkdirSync(dir, { recursive: true });
		fs.writeFileSync(path.join(dir, `${this.name}.json`), `${JSON.stringify(this.rows, null, '\t')}\n`);
	}
}

export interface Comparison {
	/** Expected records missing from the delivery. */
	lost: number;
	/** Deliveries of a record already delivered. */
	duplicated: number;
	/** Delivered records the oracle does not know. */
	unexpected: number;
	/** Same records, same order, each once. */
	exact: boolean;
}

/** Compares delivered record keys with the oracle's, as multisets and in order. */
export function compare(expected: string[], delivered: string[]): Comparison {
	const wanted = new Set(expected);
	const seen = new Set<string>();
	let duplicated = 0;
	let unexpected = 0;
	for (const key of delivered) {
		if (seen.has(key)) duplicated++;
		else if (!wanted.has(key)) unexpected++;
		seen.add(key);
	}
	const lost = expected.filter((key) => !seen.has(key)).length;
	const exact =
		expected.length === delivered.length && expected.every((key, index) => key === delivered[index]);
	return { lost, duplicated, unexpected, exact };
}
