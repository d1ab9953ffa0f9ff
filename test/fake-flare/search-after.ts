/**
 * Sort orders of the global search and walks that resume after a sort key, as Elasticsearch's
 * search_after does: a page returns what sorts after the key as the data is when the page is asked for.
 *
 * A record's sort key is `[primary, id]`, or `[primary, null, index]` for a record without an id.
 * `primary` is imported_at in ms (`importedAt`) or the domain reversed label by label, `com.acme`
 * (`domainThenId`). Keys compare by primary, then id, in the order asked; a record without an id comes
 * after those with one of the same primary in either order (Elasticsearch's `missing: _last`), and such
 * records follow each other by their place in the dataset (`index`).
 *
 * The dataset is cut into runs: index ranges in which the candidates of a query (a {@link Matcher}) sort
 * in index order. A walk finds where each run passes the key (binary search) and merges the runs.
 */
import type { Matcher } from './scan';
import { lowerBound } from './scan';

export type SearchOrder = 'importedAt' | 'domainThenId';
export type EndCursor = 'null' | 'resumable';
export type SortKey =
	| [primary: number | string, id: number]
	| [primary: number | string, id: null, index: number];

export interface Run {
	lo: number;
	hi: number;
	matcher: Matcher;
	/** The key of candidate `index` of this run; it increases with the index over [lo, hi). */
	keyAt: (index: number) => SortKey;
}

export interface Walk {
	/** Matching indices in sort order, up to the limit. */
	found: number[];
	/** When the cap stopped the walk before the end: the key of the last candidate examined. */
	cut: SortKey | null;
}

/** `com.acme` for `acme.com`. */
export function reversedDomain(domain: string): string {
	return domain.split('.').reverse().join('.');
}

/** Negative when `a` comes first in direction `dir` (1 ascending, -1 descending). */
export function compareKeys(a: SortKey, b: SortKey, dir: 1 | -1): number {
	if (a[0] !== b[0]) return (a[0] < b[0] ? -1 : 1) * dir;
	if (a[1] === null || b[1] === null) {
		if (a[1] !== null) return -1;
		if (b[1] !== null) return 1;
		return ((a[2] as number) - (b[2] as number)) * dir;
	}
	return (a[1] - b[1]) * dir;
}

/** Whether `value` is a sort key whose primary is of type `primary`. */
export function isSortKey(value: unknown, primary: 'number' | 'string'): value is SortKey {
	if (!Array.isArray(value) || typeof value[0] !== primary) return false;
	if (primary === 'number' && !Number.isFinite(value[0])) return false;
	const whole = (n: unknown) => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
	if (value.length === 2) return whole(value[1]);
	return value.length === 3 && value[1] === null && whole(value[2]);
}

/**
 * The matches of `runs` that sort after `after` (null: from the start) in direction `dir`, up to `limit`,
 * examining at most `cap` candidates.
 */
export function walkAfter(
	runs: Run[],
	after: SortKey | null,
	dir: 1 | -1,
	limit: number,
	cap: number,
): Walk {
	const heap = new StreamHeap(dir);
	for (const run of runs) {
		const stream = new Candidates(run, startAfter(run, after, dir), dir);
		if (stream.current !== null) heap.push(stream);
	}
	const found: number[] = [];
	let examined = 0;
	let last: { run: Run; index: number } | undefined;
	for (let stream = heap.top(); stream; stream = heap.top()) {
		if (found.length === limit) return { found, cut: null };
		if (examined === cap) return { found, cut: last ? last.run.keyAt(last.index) : after };
		const index = stream.current as number;
		examined++;
		last = { run: stream.run, index };
		if (!stream.run.matcher.test || stream.run.matcher.test(index)) found.push(index);
		stream.advance();
		heap.update();
	}
	return { found, cut: null };
}

/** The first index of the run, in direction `dir`, whose key comes after `after`. */
function startAfter(run: Run, after: SortKey | null, dir: 1 | -1): number {
	const { lo, hi } = run;
	if (after === null) return dir === 1 ? lo : hi - 1;
	const at = (k: number) => (dir === 1 ? lo + k : hi - 1 - k);
	const passed = lowerBound(hi - lo, (k) => compareKeys(run.keyAt(at(k)), after, dir) > 0);
	return at(passed);
}

/** The candidates of a run from `start` on, in direction `dir` (the stepping of `scan`). */
class Candidates {
	/** The candidate at hand, or null when the run is over. */
	current: number | null = null;
	/** Its key, when a merge asked for it. */
	key: SortKey | undefined;
	private base = 0;
	private k = 0;

	constructor(
		readonly run: Run,
		start: number,
		private readonly dir: 1 | -1,
	) {
		const { lo, hi, matcher } = run;
		const { period, residues } = matcher;
		if (residues.length === 0 || start < lo || start >= hi) return;
		this.base = start - (start % period);
		if (dir === 1) {
			this.k = residues.findIndex((r) => this.base + r >= start);
			if (this.k === -1) {
				this.k = 0;
				this.base += period;
			}
		} else {
			this.k = lastIndexWhere(residues, (r) => this.base + r <= start);
			if (this.k === -1) {
				this.k = residues.length - 1;
				this.base -= period;
			}
		}
		this.settle();
	}

	advance(): void {
		const { period, residues } = this.run.matcher;
		if (this.dir === 1 && ++this.k === residues.length) {
			this.k = 0;
			this.base += period;
		}
		if (this.dir === -1 && --this.k < 0) {
			this.k = residues.length - 1;
			this.base -= period;
		}
		this.settle();
	}

	private settle(): void {
		const candidate = this.base + this.run.matcher.residues[this.k];
		const inside = candidate >= this.run.lo && candidate < this.run.hi;
		this.current = inside ? candidate : null;
		this.key = undefined;
	}
}

/** Candidate streams by their current key; keys are computed only when two or more streams compete. */
class StreamHeap {
	private readonly items: Candidates[] = [];

	constructor(private readonly dir: 1 | -1) {}

	push(stream: Candidates): void {
		this.items.push(stream);
		this.up(this.items.length - 1);
	}

	top(): Candidates | undefined {
		return this.items[0];
	}

	/** Restores the order after the top stream advanced (it leaves when it is over). */
	update(): void {
		const { items } = this;
		if (items[0].current === null) {
			const last = items.pop() as Candidates;
			if (items.length === 0) return;
			items[0] = last;
		}
		if (items.length > 1) this.down(0);
	}

	private before(a: Candidates, b: Candidates): boolean {
		return compareKeys(keyOf(a), keyOf(b), this.dir) < 0;
	}

	private up(at: number): void {
		const { items } = this;
		while (at > 0) {
			const parent = (at - 1) >> 1;
			if (!this.before(items[at], items[parent])) return;
			[items[at], items[parent]] = [items[parent], items[at]];
			at = parent;
		}
	}

	private down(at: number): void {
		const { items } = this;
		for (;;) {
			let first = at;
			for (const child of [2 * at + 1, 2 * at + 2]) {
				if (child < items.length && this.before(items[child], items[first])) first = child;
			}
			if (first === at) return;
			[items[at], items[first]] = [items[first], items[at]];
			at = first;
		}
	}
}

function keyOf(stream: Candidates): SortKey {
	stream.key ??= stream.run.keyAt(stream.current as number);
	return stream.key;
}

function lastIndexWhere(values: number[], predicate: (value: number) => boolean): number {
	for (let k = values.length - 1; k >= 0; k--) if (predicate(values[k])) return k;
	return -1;
}
