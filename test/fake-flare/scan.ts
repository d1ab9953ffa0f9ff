/**
 * Finding matching credential indices without materialising records.
 *
 * A matcher describes its candidates as residues modulo a period (e.g. "index % D === d" for a domain),
 * so sparse queries jump straight from one candidate to the next; an optional `test` filters candidates
 * (e.g. "the password of index i is X"). Only the candidates examined count toward the scan cap.
 */

export interface Matcher {
	period: number;
	/** Sorted residues in [0, period); empty = matches nothing. */
	residues: number[];
	test?: (index: number) => boolean;
	/**
	 * Whether `index` matches, read from the record's own fields: for records the residues do not
	 * describe (added with a chosen domain or username). Without it, such records never match.
	 */
	recordTest?: (index: number) => boolean;
}

export const NOTHING: Matcher = { period: 1, residues: [] };

export interface ScanResult {
	found: number[];
	/** Index to resume the scan at (inclusive, same direction), or null when the range is exhausted. */
	resume: number | null;
}

/**
 * Scans [lo, hi) from `start` in direction `dir` (1 = ascending, -1 = descending), collecting up to `limit`
 * matches and examining at most `cap` candidates.
 */
export function scan(
	matcher: Matcher,
	range: { lo: number; hi: number },
	start: number,
	dir: 1 | -1,
	limit: number,
	cap: number,
): ScanResult {
	const { period, residues, test } = matcher;
	const found: number[] = [];
	if (residues.length === 0 || range.lo >= range.hi) return { found, resume: null };
	let examined = 0;

	if (dir === 1) {
		const first = Math.max(start, range.lo);
		let base = first - (first % period);
		let k = residues.findIndex((r) => base + r >= first);
		if (k === -1) {
			k = 0;
			base += period;
		}
		for (;;) {
			const candidate = base + residues[k];
			if (candidate >= range.hi) return { found, resume: null };
			if (examined === cap || found.length === limit) return { found, resume: candidate };
			examined++;
			if (!test || test(candidate)) found.push(candidate);
			if (++k === residues.length) {
				k = 0;
				base += period;
			}
		}
	}

	const first = Math.min(start, range.hi - 1);
	let base = first - (first % period);
	let k = lastIndexWhere(residues, (r) => base + r <= first);
	if (k === -1) {
		k = residues.length - 1;
		base -= period;
	}
	for (;;) {
		const candidate = base + residues[k];
		if (candidate < range.lo) return { found, resume: null };
		if (examined === cap || found.length === limit) return { found, resume: candidate };
		examined++;
		if (!test || test(candidate)) found.push(candidate);
		if (--k < 0) {
			k = residues.length - 1;
			base -= period;
		}
	}
}

function lastIndexWhere(values: number[], predicate: (value: number) => boolean): number {
	for (let k = values.length - 1; k >= 0; k--) if (predicate(values[k])) return k;
	return -1;
}

/** The first index in [0, count) for which `predicate` holds, given it is monotone (false..true). */
export function lowerBound(count: number, predicate: (index: number) => boolean): number {
	let lo = 0;
	let hi = count;
	while (lo < hi) {
		const mid = Math.floor((lo + hi) / 2);
		if (predicate(mid)) hi = mid;
		else lo = mid + 1;
	}
	return lo;
}
