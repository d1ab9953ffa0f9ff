/**
 * The one reader of free text (docs/api-contract.md, "Masking", "One reader for free text"): one
 * left-to-right pass over the plain view (view.ts: markup read through), word by word and line by
 * line, that hands each place where a notation may hold a secret to that notation's family:
 *
 * - a secret's name, a separator and its value (assignments.ts): `DB_PASSWORD=…`, `Password: …`,
 *   `"apiKey": "…"`, `Authorization: Bearer …`, `define('DB_PASSWORD', '…')`, `Cookie: …`;
 * - command lines (commands.ts): `--password …`, `mysql -p…`, `curl -u user:…`, `.netrc`;
 * - credential lines (credentials.ts): `jane@acme.com:…`, `site.com:jane:…`, `jane:…` alone;
 * - URLs (urls.ts): `ftp://user:…@host`, `?token=…`, webhook URLs, `https://site/login:jane:…`;
 * - tables, cookie files and key blocks, at each line's head (lines.ts);
 * - tokens known by their shape, and private keys (shapes.ts): `ghp_…`, `AKIA…`, JWTs, PEM.
 *
 * Each family consumes what it reads, or looks ahead a bounded number of characters, or remembers
 * what it did not find (a quote that does not close on its line), so that every character is looked
 * at a bounded number of times: the pass is linear in the text's length, whatever the text.
 */
import { assignmentAt, spacedValue } from './assignments';
import { headLabel, labelValue } from './labels';
import {
	LABEL,
	LF,
	CR,
	SEGMENT,
	isBlank,
	isHardLineEnd,
	isLineEnd,
	isNameCode,
	isQuote,
	isWordCode,
} from './chars';
import { commandWord, option } from './commands';
import { domainTarget, email, hostCombo } from './credentials';
import { lineHead, stringHead, type Table } from './lines';
import { privateKey, tokenShape } from './shapes';
import { isUrlStart, url } from './urls';
import type { View } from './view';

/** Ranges of the plain view to mask: [start, end) pairs, in any order, overlaps allowed. */
export type Ranges = number[];

/** What the reader knows while it reads: the line it is on, and what earlier lines set. */
export class Reader {
	readonly n: number;
	lineStart = 0;
	lineEnd = 0;
	/** Only indentation, list markers and cell borders so far on this line (or in this cell). */
	head = true;
	/** The quote that opened the string the line's head is in (`"Password: …"`), or -1. */
	headQuote = -1;
	/**
	 * Where the line's first words start, until their `:` (`Password for the VPN: …`: `headLabel`);
	 * {@link NEXT_WORDS} after a label that was none (`Analyst: Password 2: …`): the next word starts them.
	 */
	headWordAt = -1;
	/** The end of the last label's value read to its end and read on (labels.ts `labelValue`). */
	restUntil = -1;
	/** Where a value read to its line's end stopped before another name (`Password 1: … Password 2: …`). */
	labelMayStartAt = -1;
	/** The quote that opened the string the reader is in on this line, or -1 (`endsString`). */
	openQuote = -1;
	/** The line is a row of a `|` table; and a table's header. */
	pipeRow = false;
	headerRow = false;
	/** The last two words, when only blanks followed each: a name may have several (`API Key:`). */
	word1 = -1;
	word1Head = false;
	word2 = -1;
	word2Head = false;
	/** `net` or `net user` on this line, and its arguments so far (commands.ts). */
	command?: string;
	arguments = 0;
	/** Where the command's last argument ended (an argument is a chunk between blanks). */
	argumentEnd = -1;
	/** The command of a line whose options take a password, found up to `commandScan` (commands.ts). */
	lineCommand?: string;
	commandLine = -1;
	commandScan = -1;
	/** The text is a `.netrc`: `password` takes the next word. */
	netrc = false;
	/** A `value` before this position is a secret: a pair named like one came first (`name="Password"`). */
	pairUntil = -1;
	/** The last label had no value on its line: the next line that is no label is its value. */
	labelPending = false;
	/** A YAML block scalar's label (`password: |`) was indented this much: more indented lines are its value. */
	blockIndent = -1;
	/** Lines of a PuTTY key still to mask. */
	privateLines = 0;
	/** A table whose header named secret columns (lines.ts). */
	table?: Table;
	/** Per kind and level of quote: where its last search started and what it found (`closingQuote`). */
	private quoteSearches?: Int32Array;
	/** Whether the last `closingQuote` read the text (rather than remembered). */
	fresh = false;
	/** Where patterns were last found (`nextMatch`). */
	private readonly nextMatches = [-1, -1, -1];
	/** Where the segment being read ends, once looked for. */
	private segmentEndAt = -1;
	/** Where the next `-----END` of a private key is (shapes.ts), once looked for. */
	keyEndAt = -1;
	/** Where the last field of a browser's cookie export was, and where the next one is (assignments.ts). */
	cookieFieldAt = -Infinity;
	nextCookieFieldAt = -1;
	/** Up to here, the chunk a host started holds no `host:login:password` (credentials.ts). */
	comboFailUntil = -1;
	/** Up to here, the argument holds no `domain/login:password@host` (credentials.ts). */
	targetFailUntil = -1;

	readonly plain: string;
	readonly levels?: Uint8Array;

	constructor(
		private readonly view: View,
		readonly ranges: Ranges,
		/** Ranges to mask whose values are not looked for elsewhere (a word: `Classification:Confidential`). */
		readonly unnoted: Ranges = [],
	) {
		this.plain = view.plain;
		this.levels = view.levels;
		this.n = this.plain.length;
	}

	/** `start`…`end` of the plain view as the text writes it (markup and all): what a value really is. */
	original(start: number, end: number): string {
		const { starts, ends, text } = this.view;
		return starts ? text.slice(starts[start], ends![end - 1]) : text.slice(start, end);
	}

	/** Reads the whole plain view once. */
	run(): void {
		const { plain, n } = this;
		this.startLine(0);
		for (let at = 0; at < n; ) {
			const code = plain.charCodeAt(at);
			if (isLineEnd(code)) {
				let next = at + 1;
				if (code === CR && plain.charCodeAt(next) === LF) next++;
				if (code === SEGMENT) this.reset();
				this.startLine(next);
				at = next;
			} else if (at > this.lineEnd) {
				// A family read past the line (a private key's body): a line starts where it stopped.
				this.startLine(at);
			} else if (isBlank(code)) at++;
			else if (code === LABEL) {
				this.forgetWords();
				at = labelValue(this, at + 1);
			} else if (isNameCode(code)) at = this.word(at);
			else at = this.punctuation(at, code);
		}
	}

	/** Masks `start`…`end` of the plain view. */
	mask(start: number, end: number): void {
		if (end > start) this.ranges.push(start, end);
	}

	/** The end of the run of name characters that starts at `at`, within the line. */
	runEnd(at: number): number {
		const { plain, lineEnd } = this;
		let end = at;
		while (end < lineEnd && isNameCode(plain.charCodeAt(end))) end++;
		return end;
	}

	/** `at` past blanks, within the line. */
	skipBlanks(at: number): number {
		while (at < this.lineEnd && isBlank(this.plain.charCodeAt(at))) at++;
		return at;
	}

	/** Where the line's last non-blank character before `end` ends, from `start`. */
	trimEnd(start: number, end: number): number {
		while (end > start && isBlank(this.plain.charCodeAt(end - 1))) end--;
		return end;
	}

	/**
	 * The closing quote of the quote at `at` (of the same level of escaping) on its line, read across
	 * the line ends that markup made (a password `a<br>b` in quotes), or -1. Each kind and level of
	 * quote remembers where its last search started and what it found (a close, or none to the line's
	 * end): a search from inside that stretch has the same answer, so that every stretch is read once,
	 * whatever the quotes (`:“` a million times, with no `”`). `fresh` says whether this search read.
	 */
	closingQuote(at: number): number {
		const { plain, levels, n } = this;
		const code = plain.charCodeAt(at);
		const level = levels ? levels[at] : 0;
		this.fresh = false;
		// Escaped 32 times or more: no such quote closes a value (and none is read for it).
		if (level >= 32) return -1;
		const kind = code === 0x22 ? 0 : code === 0x27 ? 1 : code === 0x60 ? 2 : code === 0x201c ? 3 : 4;
		const slot = kind * 32 + level;
		const searches = (this.quoteSearches ??= new Int32Array(320).fill(-1));
		if (searches[slot * 2] !== -1 && searches[slot * 2] <= at && at < searches[slot * 2 + 1]) {
			const found = searches[slot * 2 + 1];
			return isHardLineEnd(plain.charCodeAt(found)) || found >= n ? -1 : found;
		}
		this.fresh = true;
		const closing = code === 0x201c ? 0x201d : code === 0x2018 ? 0x2019 : code;
		let index = at + 1;
		for (; index < n && !isHardLineEnd(plain.charCodeAt(index)); index++) {
			if (plain.charCodeAt(index) === closing && (levels ? levels[index] : 0) === level) break;
		}
		searches[slot * 2] = at;
		searches[slot * 2 + 1] = index;
		return index >= n || isHardLineEnd(plain.charCodeAt(index)) ? -1 : index;
	}

	/** Where the segment that holds `at` ends (the text's end, or a tag's attributes'). */
	segmentEnd(at: number): number {
		if (this.segmentEndAt < at) {
			const found = this.plain.indexOf('\u0000', at);
			this.segmentEndAt = found === -1 ? this.n : found;
		}
		return this.segmentEndAt;
	}

	/** The position before `at` past blanks backwards, on the line (-1 at its start). */
	skipBlanksBack(at: number): number {
		let index = at - 1;
		while (index >= this.lineStart && isBlank(this.plain.charCodeAt(index))) index--;
		return index >= this.lineStart ? index : -1;
	}

	/**
	 * Where `pattern` (global) next matches from `at`: looked for once per stretch of text (each
	 * pattern its own `slot`), so that asking at every line costs one pass in all.
	 */
	nextMatch(pattern: RegExp, slot: number, at: number): number {
		if (this.nextMatches[slot] < at) {
			pattern.lastIndex = at;
			const found = pattern.exec(this.plain);
			this.nextMatches[slot] = found ? found.index : Infinity;
		}
		return this.nextMatches[slot];
	}

	forgetWords(): void {
		this.word1 = this.word2 = -1;
	}

	private startLine(at: number): void {
		const { plain, n } = this;
		let end = at;
		while (end < n && !isLineEnd(plain.charCodeAt(end))) end++;
		this.lineStart = at;
		this.lineEnd = end;
		this.head = true;
		this.headQuote = -1;
		this.headWordAt = -1;
		this.openQuote = -1;
		this.pipeRow = false;
		this.headerRow = false;
		this.command = undefined;
		this.forgetWords();
		lineHead(this);
	}

	/** A new segment (a tag's attributes): nothing read before it applies. */
	private reset(): void {
		this.netrc = false;
		this.pairUntil = -1;
		this.labelPending = false;
		this.blockIndent = -1;
		this.privateLines = 0;
		this.table = undefined;
	}

	/**
	 * Whether the quote at `at` closes the string the reader is in (so that it ends a value written
	 * without quotes: `"Authorization: Bearer abc"`); any other quote is a character of the value
	 * (`PASSWORD=Ab3'Zq9`), and so is an apostrophe inside a word.
	 */
	endsString(at: number): boolean {
		const open = this.openQuote;
		if (open === -1 || open >= at || this.insideWord(at)) return false;
		const code = this.plain.charCodeAt(open);
		const closing = code === 0x201c ? 0x201d : code === 0x2018 ? 0x2019 : code;
		return (
			this.plain.charCodeAt(at) === closing &&
			(this.levels ? this.levels[at] === this.levels[open] : true)
		);
	}

	/** Notes a quote the reader passes: it opens a string, or closes the one it is in. */
	passQuote(at: number): void {
		if (this.insideWord(at)) return;
		if (this.endsString(at)) this.openQuote = -1;
		else if (this.openQuote === -1) this.openQuote = at;
	}

	private insideWord(at: number): boolean {
		return isWordCode(this.plain.charCodeAt(at - 1)) && isWordCode(this.plain.charCodeAt(at + 1));
	}

	private punctuation(at: number, code: number): number {
		this.forgetWords();
		if (isQuote(code)) this.passQuote(at);
		// A cell's border; at a line's or a string's head it makes the line a row (`"| Password: | … |"`).
		if (code === 0x7c && (this.pipeRow || this.head)) {
			this.pipeRow = true;
			this.head = true;
			return at + 1;
		}
		// List markers and headings keep the line's head: `* Password: …`, `> Pass: …`, `## Token: …`.
		const marker =
			code === 0x2a || code === 0x2b || code === 0x23 || code === 0x3e || code === 0x2022;
		if (this.head && marker) return at + 1;
		// The first `:` after the line's first words: a label of several words (`Password for the VPN:`).
		if ((code === 0x3a || code === 0xff1a) && this.headWordAt !== -1) {
			const from = this.headWordAt;
			this.headWordAt = -1;
			if (from >= 0 && headLabel(this, from, at)) return labelValue(this, at + 1, true);
			// `Password 1: … Password 2: …`: from where the value before stopped.
			const next = this.labelMayStartAt;
			if (next > from && next >= this.lineStart && headLabel(this, next, at)) return labelValue(this, at + 1, true);
			if (from >= 0 && isBlank(this.plain.charCodeAt(at + 1))) this.headWordAt = NEXT_WORDS;
		}
		// A string that opens (`{"log": "Password: …"}`) is a line of its own, to its closing quote;
		// one that does not close on its line (JSON's `\n` inside it) has its own lines' heads. At most
		// one quote of each kind and level is left open on a line: their heads are read once.
		if (
			isQuote(code) &&
			(this.head || opensString(this.plain.charCodeAt(this.skipBlanksBack(at))))
		) {
			this.head = true;
			this.headQuote = at;
			if (this.closingQuote(at) === -1 && this.fresh) stringHead(this, at + 1);
			return at + 1;
		}
		this.head = false;
		return at + 1;
	}

	/** The next words may be a label's (`Dump: Password for the VPN: …`: {@link NEXT_WORDS}). */
	wordsMayLabel(): void {
		this.headWordAt = NEXT_WORDS;
	}

	/** A run of name characters: what it starts, or a word to remember. */
	private word(at: number): number {
		const { plain } = this;
		const end = this.runEnd(at);
		// At the line's head, or first after a label of no secret (`Analyst: Password: …`).
		const head = this.head || this.headWordAt === NEXT_WORDS;
		const lineHead = this.head;
		this.head = false;
		// `- Password: …`, also after a label of no secret (`Analyst: - Password: …`).
		if (head && isListMarker(plain, at, end)) {
			this.head = lineHead;
			return end;
		}
		if (head) this.headWordAt = at;
		const shape = tokenShape(plain, at, end, this.lineEnd);
		if (shape) {
			this.mask(shape[0], shape[1]);
			this.forgetWords();
			return Math.max(end, shape[1]);
		}
		const first = plain.charCodeAt(at);
		if (first === 0x2d && plain.startsWith('-----BEGIN ', at)) return privateKey(this, at);
		const next = plain.charCodeAt(end);
		if (first === 0x2d || plain.charCodeAt(at - 1) === 0x2f) {
			const after = option(this, at, end);
			if (after !== -1) return after;
		}
		commandWord(this, at, end);
		if (next === 0x40) return email(this, at, end);
		if (next === 0x3a && isUrlStart(plain, at, end)) return url(this, at);
		if (next === 0x3a && plain.charCodeAt(at - 1) === 0x2f) {
			const target = domainTarget(this, at, end);
			if (target !== -1) return target;
		}
		const assigned = assignmentAt(this, at, end, head);
		if (assigned !== -1) return assigned;
		if (next === 0x3a || next === 0x2f) {
			const combo = hostCombo(this, at, end);
			if (combo !== -1) return combo;
		}
		if (isBlank(next)) {
			const spaced = spacedValue(this, at, end);
			if (spaced !== -1) return spaced;
			this.word2 = this.word1;
			this.word2Head = this.word1Head;
			this.word1 = at;
			this.word1Head = head;
		} else this.forgetWords();
		return end;
	}
}

/** `Reader.headWordAt` after a label of no secret: the words after it may be one's. */
const NEXT_WORDS = -2;

/** What a string opens after: `:`, `=`, `,`, `(`, `[`, `{` (JSON, calls, arrays). */
function opensString(code: number): boolean {
	return (
		code === 0x3a ||
		code === 0x3d ||
		code === 0x2c ||
		code === 0x28 ||
		code === 0x5b ||
		code === 0x7b
	);
}

/** `-`, `--`, `1.`, `a.` before a blank at a line's head: a list's marker. */
function isListMarker(plain: string, at: number, end: number): boolean {
	return (
		end - at <= 4 &&
		isBlank(plain.charCodeAt(end)) &&
		/^(?:-{1,2}|\d{1,3}\.?|[a-z]\.)$/.test(plain.slice(at, end))
	);
}

/** Reads `view` and returns the ranges of its plain text to mask (`unnoted`: those not to look for elsewhere). */
export function readView(view: View, unnoted?: Ranges): Ranges {
	const ranges: Ranges = [];
	new Reader(view, ranges, unnoted).run();
	return ranges;
}
