/**
 * What masking hid, per node run: the harness wraps the package's `protectLeakedValues` and
 * `protectLeakedValuesWith` (dist/nodes/Flare/shared/masking/index.js, as the nodes call them) and notes
 * whether a record they were given held a planted value (test/fake-flare/planted.ts). Such a run,
 * with Leaked Value Output Full or its masking switched off, would show it: the leaked-value scan
 * (collect.ts) reports these runs per operation, so that the reliability table shows, for every
 * operation, that the scan would see masking switched off there (docs/reliability.md).
 */
import { holdsPlanted } from '../fake-flare/planted';
import { AsyncLocalStorage, path } from '../support/node';

/** What the records given to the masking held, for one node of a workflow run, poll or list. */
export interface Exposure {
	/** Records given to the masking. */
	records: number;
	/** Whether one of them held a planted value before it was masked. */
	exposed: boolean;
}

/** The exposures of one workflow run, poll or list, by node name. */
export type Exposures = Map<string, Exposure>;

const scope = new AsyncLocalStorage<{ exposures: Exposures; node?: string }>();

/** Runs `work` as one workflow run, poll or list: returns its result and what each node's masking was given. */
export async function observeExposures<T>(work: () => Promise<T>): Promise<[T, Exposures]> {
	const exposures: Exposures = new Map();
	const result = await scope.run({ exposures }, work);
	return [result, exposures];
}

/** Runs `work` as node `node` of the current workflow run (what its masking is given counts for it). */
export async function asNode<T>(node: string, work: () => Promise<T>): Promise<T> {
	const current = scope.getStore();
	return current ? await scope.run({ exposures: current.exposures, node }, work) : await work();
}

function note(record: unknown): void {
	const current = scope.getStore();
	if (!current?.node) return;
	let exposure = current.exposures.get(current.node);
	if (!exposure) current.exposures.set(current.node, (exposure = { records: 0, exposed: false }));
	exposure.records++;
	// Once is enough: a Return All of a million records is read once.
	if (!exposure.exposed && holdsPlanted(JSON.stringify(record) ?? '')) exposure.exposed = true;
}

const instrumented = new WeakSet<object>();

/** Wraps the masking functions of the package loaded from `packageDir` (once). */
export async function instrumentMasking(packageDir: string): Promise<void> {
	const output = (await import(path.join(packageDir, 'dist/nodes/Flare/shared/masking/index.js'))) as Record<string, unknown>;
	if (instrumented.has(output)) return;
	instrumented.add(output);
	for (const name of ['protectLeakedValues', 'protectLeakedValuesWith']) {
		const original = output[name] as (record: unknown, ...rest: unknown[]) => unknown;
		if (typeof original !== 'function') throw new Error(`dist/nodes/Flare/shared/masking/index.js has no ${name}: rebuild dist/`);
		output[name] = function (this: unknown, record: unknown, ...rest: unknown[]) {
			note(record);
			return original.call(this, record, ...rest);
		};
	}
}
