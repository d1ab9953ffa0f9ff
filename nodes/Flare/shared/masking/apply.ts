/**
 * Writes the mask over what was found (docs/api-contract.md, "Masking"): ranges of the plain view
 * (view.ts) are mapped back onto the text, merged where they meet, and each replaced by the mask. The
 * markup inside a range goes with it, but for the inline tags it would leave open or closed: those
 * are written again after the mask (by name, without attributes), so that highlights stay balanced,
 * unless the tag that balances them stands right before or after the range, which the range then
 * takes whole (`<mark>jane</mark>@acme.com:<mark>Summer</mark>2024!` → `<mark>jane</mark>@acme.com:********`).
 * Linear: ranges are sorted once, tags walked once, each tag's balance kept by counting.
 */
import type { Ranges } from './reader';
import type { Tag, View } from './view';

/** `view`'s text with `ranges` (positions in its plain view) and `written` (in its text) replaced by `mask`. */
export function applyRanges(view: View, ranges: Ranges, mask: string, written: Ranges = []): string {
	const { text, starts, ends, tags } = view;
	const spans: Array<[number, number]> = [];
	for (let index = 0; index < written.length; index += 2) {
		if (written[index + 1] > written[index]) spans.push([written[index], written[index + 1]]);
	}
	for (let index = 0; index < ranges.length; index += 2) {
		const start = ranges[index];
		const end = ranges[index + 1];
		if (end <= start) continue;
		spans.push(starts ? [starts[start], ends![end - 1]] : [start, end]);
	}
	spans.sort((a, b) => a[0] - b[0]);
	let result = '';
	let done = 0;
	let tag = 0;
	for (let index = 0; index < spans.length; ) {
		let [from, to] = spans[index];
		for (index++; index < spans.length && spans[index][0] <= to; index++)
			to = Math.max(to, spans[index][1]);
		if (from < done) from = done;
		if (to <= from) continue;
		while (tag < tags.length && tags[tag].start < from) tag++;
		const before = tag - 1;
		// The inline tags inside, as a stack of those not balanced within it.
		const open: Tag[] = [];
		for (; tag < tags.length && tags[tag].end <= to; tag++) {
			const inside = tags[tag];
			if (!inside.paired) continue;
			const top = open[open.length - 1];
			if (inside.close && top && !top.close && top.name === inside.name) open.pop();
			else open.push(inside);
		}
		let first = 0;
		let last = open.length;
		// A tag closed inside that opens right before: the range takes the pair.
		for (
			let outside = before;
			first < last && open[first].close && outside >= 0;
			outside--, first++
		) {
			const candidate = tags[outside];
			if (
				candidate.end !== from ||
				candidate.close ||
				candidate.name !== open[first].name ||
				candidate.start < done
			)
				break;
			from = candidate.start;
		}
		// A tag opened inside that closes right after: likewise.
		for (; last > first && !open[last - 1].close && tag < tags.length; tag++, last--) {
			const candidate = tags[tag];
			if (candidate.start !== to || !candidate.close || candidate.name !== open[last - 1].name)
				break;
			to = candidate.end;
		}
		result += text.slice(done, from) + mask;
		for (let kept = first; kept < last; kept++) result += tagText(open[kept]);
		done = to;
	}
	return result + text.slice(done);
}

/** A tag as it is written again: by its name, without its attributes. */
function tagText({ name, close, bbcode }: Tag): string {
	const slash = close ? '/' : '';
	return bbcode ? `[${slash}${name}]` : `<${slash}${name}>`;
}
