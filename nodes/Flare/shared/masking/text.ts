/**
 * A record's strings, masked (docs/api-contract.md, "Masking"): free text through the reader
 * (view.ts, reader.ts), URL fields and hosts by the URL rules (urls.ts); then, in a second pass,
 * every string for the record's secret values, among them what the rules found in any of its strings
 * (values.ts: a password a record states once, `Password: …`, and repeats in prose).
 */
import { applyRanges } from './apply';
import { LABEL, SEGMENT, SOFT } from './chars';
import { MASK, maskValue } from './modes';
import { readView, type Ranges } from './reader';
import { urlRanges } from './urls';
import { MIN_SEARCHED_LENGTH, SecretValues } from './values';
import { viewOf, type View } from './view';

/** A string, as the rules read it, and what they found in it. */
export interface Scanned {
	view: View;
	ranges: Ranges;
	/** Whether the record's values are looked for as in a URL (whole parts after its host). */
	url: boolean;
	/** Ranges to mask whose values the record's other strings are not searched for. */
	unnoted?: Ranges;
}

/**
 * What every notation the reader knows needs at least one of (its separator, markup, a name written
 * without one: `.netrc`'s `machine`, `Bearer`, `net user`; a token's shape): a text with none is
 * not read (most of a record's short texts: titles, names, sentences without punctuation). A family
 * added to the reader adds what it needs here; the generation property fails otherwise.
 */
const NOTATION_HINT = new RegExp(
	`[:=@|\\t<>[\\]&\\\\\`*_~'"\\-;,/\\uff1a\\uff1d${String.fromCharCode(SEGMENT, LABEL, SOFT)}]|AKIA|ASIA|ABIA|ACCA|AIza|eyJ|SG\\.|[Bb]earer|machine|net user`,
);

/** Free text: everything the reader finds in it. */
export function textRules(text: string): Scanned {
	if (!NOTATION_HINT.test(text)) return { view: plainView(text), ranges: [], url: false };
	const view = viewOf(text);
	const unnoted: Ranges = [];
	return { view, ranges: readView(view, unnoted), url: false, unnoted };
}

/** The view of a text without markup: the text itself. */
const plainView = (text: string): View => ({ text, plain: text, tags: [], attributesAt: text.length });

/** A URL field: its userinfo's password, a webhook's path, secret parameters, known token shapes. */
export function urlRules(url: string): Scanned {
	const ranges: Ranges = [];
	urlRanges(url, 0, url.length, ranges);
	return { view: plainView(url), ranges, url: true };
}

/** The userinfo of a host without scheme (a `netloc`): `user:password@host`. */
const NETLOC_USERINFO = /^([^\s/?#:@]{0,256}):([^\s/?#]{1,1024})@/;

/** A host field (`user:password@host`, a URL's netloc). */
export function netlocRules(netloc: string): Scanned {
	const scanned = urlRules(netloc);
	const match = netloc.includes('@') ? NETLOC_USERINFO.exec(netloc) : null;
	if (match) scanned.ranges.push(match[1].length + 1, match[0].length - 1);
	return scanned;
}

/**
 * What the rules find that a record's other strings are searched for: values of up to 512
 * characters, the first 256 of a record. Attacker-written text can hold a hundred thousand
 * "secrets", and a search for them all would take memory without bound; each is masked where a rule
 * finds it all the same.
 */
const MAX_RULE_VALUE_LENGTH = 512;
const MAX_RULE_VALUES = 256;

const UNRESERVED = /^[\w.!~*'()-]*$/;

/** A secret value and the forms a URL writes it in (percent-encoded; `+` for a space). */
export function noteValue(value: string, into: string[]): void {
	if (value === '') return;
	into.push(value);
	// Characters a URL writes as they are: nothing to encode.
	if (UNRESERVED.test(value)) return;
	let encoded: string;
	try {
		encoded = encodeURIComponent(value);
	} catch {
		return; // a lone surrogate: no URL holds it encoded
	}
	if (encoded === value) return;
	into.push(encoded);
	if (encoded.includes('%20')) into.push(encoded.replace(/%20/g, '+'));
}

/**
 * Notes what the rules found in `scanned` among the record's `values`, so that a value stated
 * anywhere in the record is masked wherever it is repeated; a label's value of several words is
 * noted whole and by its first word (`Password: hunter2 (reused)`).
 */
export function noteRuleValues(scanned: Scanned, values: string[], noted: Set<string>): void {
	const { plain } = scanned.view;
	const { ranges } = scanned;
	const note = (value: string) => {
		if (noted.size >= MAX_RULE_VALUES) return;
		if (value.length < MIN_SEARCHED_LENGTH || value.length > MAX_RULE_VALUE_LENGTH) return;
		// Our own marks (the mask, errors' `[redacted]`) are not secrets to look for.
		if (value.includes(MASK) || value.includes('[redacted]') || noted.has(value)) return;
		noted.add(value);
		noteValue(value, values);
	};
	for (let index = 0; index < ranges.length && noted.size < MAX_RULE_VALUES; index += 2) {
		const start = ranges[index];
		const end = ranges[index + 1];
		if (end - start < MIN_SEARCHED_LENGTH || end - start > MAX_RULE_VALUE_LENGTH) continue;
		const value = plain.slice(start, end);
		note(value);
		const blank = value.search(/\s/);
		if (blank > 0) note(value.slice(0, blank));
	}
}

/**
 * `scanned`'s text with what the rules found and the record's `values` masked: in free text wherever
 * they are, in a URL as a whole part after its host. A string that is a secret value of the record
 * as a whole is masked as that value is.
 */
export function maskFound(scanned: Scanned, values: SecretValues): string {
	const { view, ranges, unnoted } = scanned;
	if (values.has(view.text)) return maskValue(view.text) as string;
	for (const position of unnoted ?? []) ranges.push(position);
	// Values looked for in the text as written too, where markup was read through: a password may
	// hold markup's characters at its edge (`Qwerty123*`, `_Summer2024_`) that the plain view lost.
	const written: Ranges = [];
	if (!values.empty) {
		if (scanned.url) values.findInUrl(view.plain, ranges);
		else {
			values.find(view.plain, ranges);
			if (view.starts) values.find(view.text, written);
		}
	}
	return ranges.length === 0 && written.length === 0
		? view.text
		: applyRanges(view, ranges, MASK, written);
}

const NO_VALUES = new SecretValues();

/**
 * Free text masked on its own (an error's message): the rules, `values` given, and each value the
 * rules found wherever the text repeats it.
 */
export function maskText(text: string, values: readonly string[] = []): string {
	const scanned = textRules(text);
	const all = [...values];
	noteRuleValues(scanned, all, new Set());
	return maskFound(scanned, all.length > 0 ? new SecretValues(all, text.length) : NO_VALUES);
}

/** Where a string is: the object or list holding it, and its key or index. */
export type Place = [Record<string | number, unknown> | unknown[], string | number];

/** The strings of a record to mask, by how they are read, and its secret values. */
export interface Strings {
	texts?: Place[];
	urls?: Place[];
	netlocs?: Place[];
	values?: string[];
}

/**
 * Masks a record's strings in place, in two passes: the rules first, whose values join the record's
 * secret values; then every string, for all of them.
 */
export function maskStrings(strings: Strings): void {
	const scanned: Array<[Place, Scanned]> = [];
	const values = (strings.values ??= []);
	const noted = new Set<string>();
	const read = (places: Place[] | undefined, rules: (text: string) => Scanned) => {
		for (const place of places ?? []) {
			const [holder, key] = place;
			const found = rules((holder as Record<string | number, string>)[key]);
			noteRuleValues(found, values, noted);
			scanned.push([place, found]);
		}
	};
	read(strings.texts, textRules);
	read(strings.urls, urlRules);
	read(strings.netlocs, netlocRules);
	let length = 0;
	for (const [, found] of scanned) length += found.view.plain.length;
	const secrets = values.length > 0 ? new SecretValues(values, length) : NO_VALUES;
	for (const [[holder, key], found] of scanned) {
		(holder as Record<string | number, string>)[key] = maskFound(found, secrets);
	}
}
