/**
 * A record's own secret values, looked for in its free text and URLs (docs/api-contract.md,
 * "Masking", rules 1, 6 and 7): its secret fields, the secrets its item was given, and what the
 * reader found in its texts.
 *
 * Where they could be ordinary words they are matched only as a whole text: shorter than 6
 * characters, a word of the rule (`password`, `Bearer`), or a word of 6 to 8 letters (`monkey`,
 * `Summer`, `letmein`); so a stealer log whose saved passwords are `1`, `id`, `login` or `password`
 * keeps `…/id/login`, `?step=1` and its own Flare link (hostile review of 2026-12-07, R-M3). Others
 * are masked wherever they are in free text (those of 6 or 7 characters as whole words, not inside a
 * longer run of letters and digits); in a URL, where one is a whole part after the host (a path
 * segment, a parameter's name or value, a part of a percent-encoded value), as it is or percent- or
 * form-encoded, never in the host nor in a Flare link. Many values are looked for at once, by an
 * Aho–Corasick automaton, in time linear in the text's length.
 */
import { isFlareHost } from './hosts';
import { isRuleWord } from './names';
import type { Ranges } from './reader';
import { endOf } from './urls';

/** Values shorter than this could be ordinary words. */
export const MIN_SEARCHED_LENGTH = 6;
/** Values shorter than this are looked for only as whole words (a hash `123456` leaves `91234567`). */
const ANYWHERE_LENGTH = 8;
/** A word of a language: letters only, 6 to 8 of them, capitalised at most. */
const ORDINARY_WORD = /^[A-Za-z][a-z]{5,7}$/;
/**
 * Above this many values, and this much reading (values × characters to read) a text is read once
 * for all of them, by an automaton that takes time to build, rather than once for each (`indexOf`).
 */
const FEW_VALUES = 8;
const MUCH_READING = 1 << 22;

/** Whether a value is looked for inside texts (rather than only as a whole text). */
export function isSearched(value: string): boolean {
	if (value.length < MIN_SEARCHED_LENGTH) return false;
	return value.length > 16 || (!ORDINARY_WORD.test(value) && !isRuleWord(value));
}

/**
 * The Aho–Corasick automaton of `values`, built in time linear in their length and stored flat: a
 * state is a number, its transitions one map for all (state × 65,536 + character), its failure link
 * and the length of the longest value that ends there in typed arrays.
 */
class Automaton {
	private readonly next = new Map<number, number>();
	private readonly fail: Int32Array;
	private readonly longest: Int32Array;

	constructor(values: readonly string[], characters: number) {
		this.fail = new Int32Array(characters + 1);
		this.longest = new Int32Array(characters + 1);
		let states = 1;
		for (const value of values) {
			let state = 0;
			for (let at = 0; at < value.length; at++) {
				const key = state * 65536 + value.charCodeAt(at);
				let next = this.next.get(key);
				if (next === undefined) this.next.set(key, (next = states++));
				state = next;
			}
			this.longest[state] = Math.max(this.longest[state], value.length);
		}
		// Breadth first, so that each state's suffix has its own before it: the children of each
		// state, from the transitions grouped by their state.
		const children: number[][] = Array.from({ length: states }, () => []);
		for (const [key, child] of this.next)
			children[Math.floor(key / 65536)].push(key % 65536, child);
		const queue: number[] = [];
		for (let index = 0; index < children[0].length; index += 2) queue.push(children[0][index + 1]);
		for (let head = 0; head < queue.length; head++) {
			const state = queue[head];
			const list = children[state];
			for (let index = 0; index < list.length; index += 2) {
				const [code, child] = [list[index], list[index + 1]];
				let fail = this.fail[state];
				while (fail !== 0 && !this.next.has(fail * 65536 + code)) fail = this.fail[fail];
				const target = this.next.get(fail * 65536 + code);
				this.fail[child] = target !== undefined && target !== child ? target : 0;
				this.longest[child] = Math.max(this.longest[child], this.longest[this.fail[child]]);
				queue.push(child);
			}
		}
	}

	/** Each end of a value in `text`: `found(end, length)` with the longest that ends there. */
	scan(text: string, found: (end: number, length: number) => void): void {
		let state = 0;
		for (let at = 0; at < text.length; at++) {
			const code = text.charCodeAt(at);
			let next = this.next.get(state * 65536 + code);
			while (next === undefined && state !== 0) {
				state = this.fail[state];
				next = this.next.get(state * 65536 + code);
			}
			state = next ?? 0;
			if (this.longest[state] > 0) found(at + 1, this.longest[state]);
		}
	}
}

/**
 * What of a record's values is looked for inside texts: values of at most 512 characters (a longer
 * one, a key's body, only as a whole text; its notation's own rule finds it), 256 Ki characters of
 * them in all, the first noted first (its secret fields, then what the rules found). A record written
 * to hold megabytes of "secrets" then costs no more than this to search (hostile review of issue 38,
 * RV-10: 12 passwords of 300 kB built an automaton of 2 GB).
 */
const MAX_SEARCHED_LENGTH = 512;
const MAX_SEARCHED_CHARACTERS = 256 * 1024;

/** The secret values of a record, to find in its texts. */
export class SecretValues {
	private readonly whole: Set<string>;
	private readonly searched: string[];
	private readonly searchedSet: Set<string>;
	private readonly automaton?: Automaton;

	/** `values`, to find in texts of `length` characters in all. */
	constructor(values: readonly string[] = [], length = Infinity) {
		this.whole = new Set(values);
		this.searched = [];
		let characters = 0;
		for (const value of this.whole) {
			if (!isSearched(value) || value.length > MAX_SEARCHED_LENGTH) continue;
			if ((characters += value.length) > MAX_SEARCHED_CHARACTERS) break;
			this.searched.push(value);
		}
		this.searchedSet = new Set(this.searched);
		const many = this.searched.length > FEW_VALUES;
		if (many && this.searched.length * length > MUCH_READING) {
			this.automaton = new Automaton(this.searched, Math.min(characters, MAX_SEARCHED_CHARACTERS));
		}
	}

	get empty(): boolean {
		return this.whole.size === 0;
	}

	/** Whether `text` is, as a whole, one of the values. */
	has(text: string): boolean {
		return this.whole.has(text);
	}

	/** Every occurrence of the searched values in `text` (the longest that ends at each character). */
	find(text: string, ranges: Ranges): void {
		const automaton = this.automaton;
		if (!automaton) {
			for (const value of this.searched) {
				for (let at = text.indexOf(value); at !== -1; ) {
					const end = at + value.length;
					const whole = value.length >= ANYWHERE_LENGTH || isWord(text, at, end);
					if (whole) ranges.push(at, end);
					at = text.indexOf(value, whole ? end : at + 1);
				}
			}
			return;
		}
		automaton.scan(text, (end, longest) => {
			if (longest >= ANYWHERE_LENGTH || isWord(text, end - longest, end))
				ranges.push(end - longest, end);
		});
	}

	/**
	 * A record's own values in a URL: where one is a whole part of its userinfo (`jane:…@host`, also
	 * without a scheme), after its host's colon, or of its path and query, as it is or percent- or
	 * form-encoded, also inside another parameter's percent-encoded value; never its host, nor
	 * anything in a Flare link (`https://app.flare.io/#/…`: its ids are Flare's).
	 */
	findInUrl(url: string, ranges: Ranges): void {
		if (this.searched.length === 0) return;
		const scheme = url.slice(0, 40).indexOf('://');
		const host = scheme !== -1 ? scheme + 3 : url.startsWith('//') ? 2 : 0;
		const afterHost = endOf(url, HOST_END, host);
		if (isFlareHost(url, host, afterHost)) return;
		const userinfoEnd = Math.max(url.lastIndexOf('@', afterHost - 1), host - 1);
		this.findColonParts(url, host, userinfoEnd, ranges);
		// After the host's colon, a port or a stealer log's `login:password` (`site:jane@mail.com:…`),
		// whose password may run past a `/`, `?` or `#`.
		let hostColon = userinfoEnd + 1;
		while (hostColon < afterHost && url.charCodeAt(hostColon) !== 0x3a) hostColon++;
		if (hostColon < afterHost) {
			const lastColon = this.findColonParts(url, hostColon + 1, afterHost, ranges);
			if (afterHost < url.length && this.hasEncoded(url.slice(lastColon + 1)))
				ranges.push(lastColon + 1, url.length);
		}
		for (let start = afterHost; start < url.length; ) {
			const end = endOf(url, URL_PART_END, start + 1);
			const part = start + 1;
			if (end > part) {
				const text = url.slice(part, end);
				if (this.hasEncoded(text)) ranges.push(part, end);
				else if (text.includes('%')) this.findEncodedParts(text, part, ranges);
			}
			start = end;
		}
	}

	/** The parts of `url` between `:`s in `start`…`end` that are searched values; returns the last `:` (or start - 1). */
	private findColonParts(url: string, start: number, end: number, ranges: Ranges): number {
		let lastColon = start - 1;
		for (let at = start; at < end; ) {
			let partEnd = at;
			while (partEnd < end && url.charCodeAt(partEnd) !== 0x3a) partEnd++;
			if (partEnd > at && this.hasEncoded(url.slice(at, partEnd))) ranges.push(at, partEnd);
			if (partEnd < end) lastColon = partEnd;
			at = partEnd + 1;
		}
		return lastColon;
	}

	/** Whether `text`, as it is or percent- or form-decoded, is one of the searched values. */
	private hasEncoded(text: string): boolean {
		if (this.searchedSet.has(text)) return true;
		if (!text.includes('%') && !text.includes('+')) return false;
		try {
			return this.searchedSet.has(decodeURIComponent(text.replace(/\+/g, '%20')));
		} catch {
			return false;
		}
	}

	/** The parts of a percent-encoded value (`%2Fcb%3Fq%3D…`) that are the record's values. */
	private findEncodedParts(text: string, offset: number, ranges: Ranges): void {
		let start = 0;
		for (let end = endOf(text, ENCODED_PART_END, 0); ; end = endOf(text, ENCODED_PART_END, start)) {
			if (end > start && this.hasEncoded(text.slice(start, end)))
				ranges.push(offset + start, offset + end);
			if (end >= text.length) return;
			start = end + 3;
		}
	}
}

/** What separates the parts of a URL that a record's value may be: path segments, parameters. */
const URL_PART_END = /[/?&#;=\s]/g;
const HOST_END = /[/?#]/g;
const ENCODED_PART_END = /%(?:2[Ff]|3[Ff]|26|23|3[Bb]|3[Dd])/g;

/** Whether a letter or a digit is at `at` in `text`. */
function isAlphanumeric(text: string, at: number): boolean {
	const code = text.charCodeAt(at);
	return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/** Whether `text` from `start` to `end` is not inside a longer run of letters and digits. */
function isWord(text: string, start: number, end: number): boolean {
	return (
		!(start > 0 && isAlphanumeric(text, start) && isAlphanumeric(text, start - 1)) &&
		!(end < text.length && isAlphanumeric(text, end - 1) && isAlphanumeric(text, end))
	);
}
