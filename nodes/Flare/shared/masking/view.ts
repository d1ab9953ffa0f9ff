/**
 * The plain view of a free text: the text as a reader sees it once its markup is read through, each
 * of its characters mapped back to where it stands in the text (docs/api-contract.md, "Masking",
 * "One reader for free text"). One left-to-right pass, each character looked at a bounded number of
 * times; nothing is searched for that is not consumed, or remembered as absent.
 *
 * - HTML and XML tags: inline ones are transparent (`<b>Password:</b> x` reads `Password: x`, and
 *   Flare's highlights `<mark>`); the others end a line (`<br>`, `<p>`, `<div>`); table cells become
 *   `|` and rows lines (`<tr><td>jane</td><td>x</td></tr>` reads `|jane|x`); an element named like a
 *   secret (`<password>x</password>`, `<string name="api_key">x</string>`) reads as a label
 *   (`LABEL`) before its text. Attributes are read too, each tag's as a line of their own after
 *   the text (`<add key="Password" value="x"/>`, `<a href="https://u:p@host">`). Comments and CDATA
 *   are read through.
 * - BBCode (`[b]Pass:[/b] x`, `[code]…[/code]`, `[url=…]`, tables), likewise.
 * - Markdown, Slack's mrkdwn and wiki emphasis: runs of `*`, `_`, `~` and backticks at the edge of a
 *   word (`**Password:** x`, `` `Password:` x ``, `_pass_: x`), and of two or more `'` (`'''Pass'''`);
 *   inside a word they are the word's (`DB_PASSWORD`, `p*ss`). A code fence ends a line.
 * - Entities (`&quot;`, `&#58;`, `&#x3A;`) read as their character.
 * - Escapes: a quote after backslashes (JSON inside a string, `{\"password\": \"x\"}`) reads as a
 *   quote with its level of escaping ({@link View.levels}), so that a value closes at the quote of
 *   its own level; `\n`, `\r` and `\t` as what they stand for; `\/` and `\u003d` as their character;
 *   Markdown's `\*` as a plain `*`.
 */
import {
	CR,
	LABEL,
	LF,
	PIPE,
	SEGMENT,
	SOFT,
	SPACE,
	TAB,
	isAsciiLetter,
	isDigit,
	isSpace,
	isWordCode,
} from './chars';
import { NOT_SECRET_NAME, nameKind } from './names';

/** A tag read through (positions in the text). */
export interface Tag {
	start: number;
	end: number;
	/** Its name in lower case, as its closing tag writes it (`mark`, `b`). */
	name: string;
	close: boolean;
	/** Whether it opens or closes an inline element (so that masking keeps it balanced). */
	paired: boolean;
	/** BBCode's `[b]` rather than HTML's `<b>`. */
	bbcode: boolean;
}

export interface View {
	text: string;
	plain: string;
	/** Where each character of `plain` starts and ends in `text`; absent when `plain` is `text`. */
	starts?: Int32Array;
	ends?: Int32Array;
	/** How many backslashes escaped each quote of `plain`; absent when none did. */
	levels?: Uint8Array;
	tags: Tag[];
	/** Where the attributes of tags begin in `plain` (after the text and `SEGMENT`). */
	attributesAt: number;
}

/** What the text's own control characters 0x00 and 0x02 read as, so that they mean nothing. */
const CONTROL = 0x01;

/** Inline elements of HTML: read through, their text joined to what is around. */
const INLINE = new Set(
	'a abbr b bdi bdo big cite code data del dfn em font i ins kbd mark nobr q s samp small span strike strong sub sup time tt u var'.split(
		' ',
	),
);
const VOID = new Set(
	'area base br col embed hr img input link meta param source track wbr'.split(' '),
);
/** HTML's block elements: after a quote they end a line (`"hi"<div>Password: …`), as anywhere. */
const BLOCK = new Set(
	'address article aside blockquote body details dd div dl dt fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 head header hgroup html li main nav ol p pre section summary title ul'.split(
		' ',
	),
);
const CELLS = new Set(['td', 'th']);
const TABLE_TAGS = new Set(['table', 'thead', 'tbody', 'tfoot', 'tr', 'td', 'th', 'caption']);
/** BBCode tags: inline ones, and the rest that a forum knows. */
const BB_INLINE = new Set(
	'b i u s strike color colour size font url email highlight sub sup user icode ispoiler noparse plain'.split(
		' ',
	),
);
const BB_BLOCK = new Set(
	'code php html quote spoiler hide center left right justify indent list li * table tr td th pre media attach heading h1 h2 h3'.split(
		' ',
	),
);
/** Characters a word of a password holds before a `<` (`Ab3<F>`, `x)<F>`): not a quote, a blank or `>`. */
const insideWord = (code: number) =>
	isWordCode(code) || (code < 0x80 && '~!@#$%^&*)+-_.?/|;'.includes(String.fromCharCode(code)));
/** Attributes whose value names the element's text: `<string name="api_key">`, `<entry key="password">`. */
const NAMING_ATTRIBUTES = new Set(['name', 'key', 'id', 'property', 'field']);
const ENTITIES: Record<string, string> = {
	amp: '&',
	lt: '<',
	gt: '>',
	quot: '"',
	apos: "'",
	nbsp: ' ',
	colon: ':',
	equals: '=',
	lowbar: '_',
	ast: '*',
	num: '#',
	sol: '/',
	bsol: '\\',
	lpar: '(',
	rpar: ')',
	commat: '@',
	excl: '!',
	percnt: '%',
	plus: '+',
	comma: ',',
	period: '.',
	semi: ';',
	quest: '?',
	lsqb: '[',
	rsqb: ']',
	lcub: '{',
	rcub: '}',
	vert: '|',
	grave: '`',
	tilde: '~',
	hyphen: '-',
	dash: '-',
	ndash: '–',
	mdash: '—',
	lsquo: '‘',
	rsquo: '’',
	ldquo: '“',
	rdquo: '”',
};
/** The level of a quote written as an entity (`&quot;`), above those of backslashes. */
export const ENTITY_LEVEL = 16;
/** A tag longer than this is not taken for one (its `<` is a character of the text). */
const MAX_TAG = 4096;

/** The plain view of `text`. */
export function viewOf(text: string): View {
	return new Lexer(text).read();
}

class Lexer {
	private readonly n: number;
	/** The view is built only once markup is met: until then `plain` is the text itself. */
	private out?: Uint16Array;
	private starts?: Int32Array;
	private ends?: Int32Array;
	private levels?: Uint8Array;
	private k = 0;
	private readonly tags: Tag[] = [];
	private readonly attributes: Array<[number, number]> = [];
	/** Where the next `[` and `]` are, from where they were last looked for (n: none). */
	private nextOpen = -1;
	private nextClose = -1;
	private inComment = false;
	private inCdata = false;
	/** Where in `out` the last table tag ended: the blanks between table tags mean nothing. */
	private lastTableMark = 0;

	constructor(private readonly text: string) {
		this.n = text.length;
	}

	read(): View {
		const { text, n } = this;
		let at = 0;
		while (at < n) {
			const code = text.charCodeAt(at);
			let next = -1;
			switch (code) {
				case 0x3c: // <
					next = this.tag(at);
					break;
				case 0x5b: // [
					next = this.bbcode(at);
					break;
				case 0x26: // &
					next = this.entity(at);
					break;
				case 0x5c: // backslash
					next = this.escape(at);
					break;
				case 0x2a: // *
				case 0x5f: // _
				case 0x7e: // ~
				case 0x60: // `
				case 0x27: // '
					next = this.emphasis(at, code);
					break;
				case 0x2d: // -
					if (this.inComment && text.startsWith('-->', at)) {
						this.inComment = false;
						next = this.lineBreak(at, at + 3);
					}
					break;
				case 0x5d: // ]
					if (this.inCdata && text.startsWith(']]>', at)) {
						this.inCdata = false;
						next = this.skip(at, at + 3);
					}
					break;
				case SEGMENT:
				case LABEL:
					next = this.virtual(CONTROL, at, at + 1);
					break;
			}
			if (next === -1) {
				if (this.out) this.put(code, at, at + 1);
				next = at + 1;
			}
			at = next;
		}
		return this.finish();
	}

	private finish(): View {
		const { text } = this;
		if (!this.out) {
			return { text, plain: text, tags: this.tags, attributesAt: text.length };
		}
		const attributesAt = this.k;
		for (const [start, end] of this.attributes) {
			this.virtual(SEGMENT, start, start);
			for (let at = start; at < end; ) {
				const code = text.charCodeAt(at);
				const next = code === 0x26 ? this.entity(at) : code === 0x5c ? this.escape(at) : -1;
				if (next === -1) {
					this.put(text.charCodeAt(at), at, at + 1);
					at++;
				} else at = next;
			}
		}
		const out = this.out.subarray(0, this.k);
		let plain = '';
		for (let at = 0; at < out.length; at += 8192) {
			plain += String.fromCharCode.apply(null, out.subarray(at, at + 8192) as unknown as number[]);
		}
		return {
			text,
			plain,
			starts: this.starts,
			ends: this.ends,
			levels: this.levels,
			tags: this.tags,
			attributesAt,
		};
	}

	/** Starts the view: the text read so far, as it is. Room: the view is never longer than the text. */
	private begin(): void {
		if (this.out) return;
		const room = this.n + 16;
		this.out = new Uint16Array(room);
		this.starts = new Int32Array(room);
		this.ends = new Int32Array(room);
	}

	/** Puts a character of the text, or one standing for `start`…`end` of it. */
	private put(code: number, start: number, end: number): void {
		const k = this.k++;
		this.out![k] = code;
		this.starts![k] = start;
		this.ends![k] = end;
	}

	/** Puts what `start`…`end` of the text reads as, and returns `end`. */
	private virtual(code: number, start: number, end: number): number {
		this.catchUp(start);
		this.put(code, start, end);
		return end;
	}

	/** Before the first markup, the view is the text: copy what was read of it. */
	private catchUp(at: number): void {
		if (this.out) return;
		this.begin();
		for (let index = 0; index < at; index++)
			this.put(this.text.charCodeAt(index), index, index + 1);
	}

	/** Reads `start`…`end` through (markup that stands for nothing). */
	private skip(start: number, end: number): number {
		this.catchUp(start);
		return end;
	}

	/** The last character of the view before `at`: a line's end at the start. */
	private lastCode(at: number, back = 1): number {
		if (this.out) return this.k >= back ? this.out[this.k - back] : LF;
		return at >= back ? this.text.charCodeAt(at - back) : LF;
	}

	/**
	 * Whether a tag `name` at `at` follows a word's characters (`Ab3<F>`), a quote among them too
	 * (`b~'<j>`; not before a block element: `"hi"<div>` is prose and markup).
	 */
	private afterWord(at: number, name: string): boolean {
		const last = this.lastCode(at);
		if (insideWord(last)) return true;
		return (last === 0x27 || last === 0x22) && !BLOCK.has(name) && insideWord(this.lastCode(at, 2));
	}

	/** Ends the line there (softly: a quoted value reads across it), unless the view is at a line's start. */
	private lineBreak(start: number, end: number): number {
		this.catchUp(start);
		const last = this.k > 0 ? this.out![this.k - 1] : LF;
		if (last !== LF && last !== SOFT) this.put(SOFT, start, end);
		return end;
	}

	/** A table's tag: the blanks since the last one are dropped, then `code` (a cell, a line) if any. */
	private tableMark(code: number, start: number, end: number, blankLine = false): number {
		this.catchUp(start);
		let k = this.k;
		while (k > this.lastTableMark && isSpace(this.out![k - 1])) k--;
		this.k = k;
		if (code === PIPE) this.put(PIPE, start, end);
		else if (code === LF) {
			this.lineBreak(start, end);
			if (blankLine) this.put(SOFT, start, end);
		}
		this.lastTableMark = this.k;
		return end;
	}

	// ---- tags ----

	private tag(at: number): number {
		const { text } = this;
		if (text.startsWith('<!--', at)) {
			this.inComment = true;
			return this.lineBreak(at, at + 4);
		}
		if (text.startsWith('<![CDATA[', at)) {
			this.inCdata = true;
			return this.skip(at, at + 9);
		}
		const close = text.charCodeAt(at + 1) === 0x2f;
		let nameEnd = at + (close ? 2 : 1);
		const first = text.charCodeAt(nameEnd);
		const declaration = first === 0x21 || first === 0x3f; // <!DOCTYPE …>, <?xml …?>
		if (!declaration && !isAsciiLetter(first) && !(first >= 0xc0 && isWordCode(first))) return -1;
		for (nameEnd++; nameEnd < at + 66 && isTagNameCode(text.charCodeAt(nameEnd)); nameEnd++);
		const after = text.charCodeAt(nameEnd);
		if (after !== 0x3e && after !== 0x2f && !isSpace(after)) return -1;
		const end = this.tagEnd(at, nameEnd);
		if (end === -1) return -1;
		// `<https://…>`, `<https://…|text>`: a link (Markdown's and Slack's), not a tag.
		if (text.charCodeAt(nameEnd - 1) === 0x3a) return -1;
		const rawName = text.slice(at + (close ? 2 : 1), nameEnd);
		const name = rawName.toLowerCase();
		const selfClosing = text.charCodeAt(end - 2) === 0x2f;
		const inline = INLINE.has(name);
		// `Ab3<F>~x`: a tag of no HTML element inside a word is the word's (a password's characters).
		if (
			!close &&
			!inline &&
			!VOID.has(name) &&
			!TABLE_TAGS.has(name) &&
			this.afterWord(at, name) &&
			!isSpace(text.charCodeAt(end)) &&
			text.charCodeAt(end) !== 0x3c &&
			end < text.length
		)
			return -1;
		const attributesEnd = selfClosing ? end - 2 : end - 1;
		if (!close && !declaration && attributesEnd > nameEnd) {
			this.catchUp(at);
			this.attributes.push([nameEnd, attributesEnd]);
		}
		this.tags.push({
			start: at,
			end,
			name,
			close,
			paired: inline && !selfClosing && !VOID.has(name),
			bbcode: false,
		});
		if (inline) return this.skip(at, end);
		if (TABLE_TAGS.has(name)) {
			if (CELLS.has(name))
				return close ? this.tableMark(-1, at, end) : this.tableMark(PIPE, at, end);
			return this.tableMark(LF, at, end, name === 'table');
		}
		this.lineBreak(at, end);
		if (
			!close &&
			!selfClosing &&
			!declaration &&
			!VOID.has(name) &&
			this.names(rawName, nameEnd, attributesEnd)
		) {
			this.put(LABEL, end - 1, end);
		}
		return end;
	}

	/**
	 * Where the tag that starts at `at` ends (after its `>`, which quotes may hold), or -1: a `<`
	 * comes first (XML allows none in a tag), or {@link MAX_TAG} characters. Attempts from two `<`
	 * read different characters, so all of them read the text once.
	 */
	private tagEnd(at: number, from: number): number {
		const { text, n } = this;
		let quote = -1;
		const limit = Math.min(n, at + MAX_TAG);
		for (let index = from; index < limit; index++) {
			const code = text.charCodeAt(index);
			if (code === 0x3c) return -1;
			if (quote !== -1) {
				if (code === quote) quote = -1;
			} else if (code === 0x22 || code === 0x27) quote = code;
			else if (code === 0x3e) return index + 1;
		}
		return -1;
	}

	/** Whether an element's name, or the value of its `name`, `key`… attribute, names a secret. */
	private names(name: string, from: number, to: number): boolean {
		if (secretName(name)) return true;
		const { text } = this;
		for (let at = from; at < to; ) {
			while (at < to && !isTagNameCode(text.charCodeAt(at))) at++;
			const start = at;
			while (at < to && isTagNameCode(text.charCodeAt(at))) at++;
			const attribute = text.slice(start, at).toLowerCase();
			while (at < to && isSpace(text.charCodeAt(at))) at++;
			if (text.charCodeAt(at) !== 0x3d) continue;
			at++;
			while (at < to && isSpace(text.charCodeAt(at))) at++;
			// A value in quotes, escaped too inside a JSON string (`name=\"api_key\"`).
			while (at < to && text.charCodeAt(at) === 0x5c) at++;
			const quote = text.charCodeAt(at);
			const quoted = quote === 0x22 || quote === 0x27;
			if (quoted) at++;
			const valueStart = at;
			while (at < to && (quoted ? text.charCodeAt(at) !== quote : !isSpace(text.charCodeAt(at))))
				at++;
			let valueEnd = at;
			while (valueEnd > valueStart && text.charCodeAt(valueEnd - 1) === 0x5c) valueEnd--;
			const value = text.slice(valueStart, valueEnd);
			if (NAMING_ATTRIBUTES.has(attribute) && secretName(value)) return true;
			if (quoted) at++;
		}
		return false;
	}

	// ---- BBCode ----

	private bbcode(at: number): number {
		const { text } = this;
		const close = text.charCodeAt(at + 1) === 0x2f;
		let nameEnd = at + (close ? 2 : 1);
		const nameStart = nameEnd;
		while (
			nameEnd < at + 12 &&
			(isAsciiLetter(text.charCodeAt(nameEnd)) ||
				isDigit(text.charCodeAt(nameEnd)) ||
				text.charCodeAt(nameEnd) === 0x2a)
		)
			nameEnd++;
		const name = text.slice(nameStart, nameEnd).toLowerCase();
		const inline = BB_INLINE.has(name);
		if (!inline && !BB_BLOCK.has(name)) return -1;
		const after = text.charCodeAt(nameEnd);
		if (after !== 0x5d && after !== 0x3d && after !== SPACE) return -1;
		const end = this.bbcodeEnd(at);
		if (end === -1) return -1;
		if (!close && end - 1 > nameEnd) {
			this.catchUp(at);
			this.attributes.push([nameEnd, end - 1]);
		}
		this.tags.push({ start: at, end, name, close, paired: inline, bbcode: true });
		if (inline) return this.skip(at, end);
		if (name === 'td' || name === 'th')
			return close ? this.tableMark(-1, at, end) : this.tableMark(PIPE, at, end);
		if (name === 'tr' || name === 'table') return this.tableMark(LF, at, end, name === 'table');
		return this.lineBreak(at, end);
	}

	/** Where the BBCode tag that starts at `at` ends: its `]` before any `[` or line end, within 256. */
	private bbcodeEnd(at: number): number {
		const { text } = this;
		if (this.nextClose !== this.n && this.nextClose <= at) {
			const found = text.indexOf(']', at + 1);
			this.nextClose = found === -1 ? this.n : found;
		}
		if (this.nextOpen !== this.n && this.nextOpen <= at) {
			const found = text.indexOf('[', at + 1);
			this.nextOpen = found === -1 ? this.n : found;
		}
		const close = this.nextClose;
		if (close === this.n || close > this.nextOpen || close - at > 256) return -1;
		for (let index = at + 1; index < close; index++) {
			const code = text.charCodeAt(index);
			if (code === LF || code === CR) return -1;
		}
		return close + 1;
	}

	// ---- entities and escapes ----

	private entity(at: number): number {
		const entity = entityAt(this.text, at);
		if (!entity) return -1;
		// A quote written `&quot;` pairs with its like, not with the quotes of JSON around it.
		if (entity[0] === 0x22 || entity[0] === 0x27)
			return this.quote(entity[0], ENTITY_LEVEL, at, entity[1]);
		return this.virtual(entity[0], at, entity[1]);
	}

	/** A quote escaped `level` times (backslashes; {@link ENTITY_LEVEL} and more: written as an entity). */
	private quote(code: number, level: number, start: number, end: number): number {
		this.catchUp(start);
		this.levels ??= new Uint8Array(this.out!.length);
		this.levels[this.k] = Math.min(level, 255);
		this.put(code, start, end);
		return end;
	}

	private escape(at: number): number {
		const { text } = this;
		let end = at;
		while (text.charCodeAt(end) === 0x5c) end++;
		const count = end - at;
		const next = text.charCodeAt(end);
		// An escaped quote written as an entity too (JSON in JSON, shown in HTML: `\&quot;`).
		const entity = next === 0x26 ? entityAt(text, end) : undefined;
		if (entity && (entity[0] === 0x22 || entity[0] === 0x27))
			return this.quote(entity[0], ENTITY_LEVEL + count, at, entity[1]);
		if (next === 0x22 || next === 0x27) return this.quote(next, count, at, end + 1);
		if (next === 0x2f) return this.virtual(0x2f, at, end + 1);
		// Any run: JSON in JSON writes a newline `\n`, `\\n`, `\\\\n`… as deep as it is nested.
		let decoded: number | undefined = ESCAPED[String.fromCharCode(next)];
		let decodedEnd = end + 1;
		if (next === 0x75 && /^[0-9a-fA-F]{4}$/.test(text.slice(end + 1, end + 5))) {
			const value = parseInt(text.slice(end + 1, end + 5), 16);
			if (value < 0x80 && value >= 0x20) [decoded, decodedEnd] = [value, end + 5];
		}
		if (decoded !== undefined) return this.virtual(decoded, at, decodedEnd);
		// Backslashes that escape nothing are the text's.
		if (this.out) for (let index = at; index < end; index++) this.put(0x5c, index, index + 1);
		return end;
	}

	// ---- emphasis ----

	private emphasis(at: number, code: number): number {
		const { text } = this;
		let end = at + 1;
		while (text.charCodeAt(end) === code) end++;
		if (code === 0x27 && end - at < 2) return -1;
		const before = this.lastCode(at);
		const after = end < this.n ? text.charCodeAt(end) : LF;
		if (isWordCode(before) && isWordCode(after)) {
			// Inside a word (`DB__PASSWORD`, `a**b`): the word's characters, every one of them.
			if (this.out) for (let index = at; index < end; index++) this.put(code, index, index + 1);
			return end;
		}
		if (code === 0x60 && end - at >= 3 && (before === LF || before === SOFT || before === SPACE))
			return this.lineBreak(at, end);
		return this.skip(at, end);
	}
}

/** The character an entity at `at` stands for, and where it ends (`&quot;`, `&#58;`, `&#x3A;`). */
function entityAt(text: string, at: number): [number, number] | undefined {
	let end = at + 1;
	let decoded: string;
	if (text.charCodeAt(end) === 0x23) {
		end++;
		const hex = (text.charCodeAt(end) | 0x20) === 0x78;
		if (hex) end++;
		const digitsStart = end;
		while (
			end < digitsStart + 7 &&
			(hex ? isHexDigit(text.charCodeAt(end)) : isDigit(text.charCodeAt(end)))
		)
			end++;
		if (end === digitsStart) return undefined;
		const value = parseInt(text.slice(digitsStart, end), hex ? 16 : 10);
		if (value > 0xffff || value === 0) return undefined;
		decoded = String.fromCharCode(value);
	} else {
		while (end < at + 12 && isAsciiLetter(text.charCodeAt(end))) end++;
		decoded = ENTITIES[text.slice(at + 1, end)] ?? '';
		if (decoded === '') return undefined;
	}
	return text.charCodeAt(end) === 0x3b ? [decoded.charCodeAt(0), end + 1] : undefined;
}

const ESCAPED: Record<string, number> = { n: LF, r: CR, t: TAB };
for (const character of '*_~`[]<>#') ESCAPED[character] = character.charCodeAt(0);
// An escaped `|` in a Markdown table is a character of its cell, not a border.
ESCAPED['|'] = 0xa6;

const isHexDigit = (code: number) => isDigit(code) || ((code | 0x20) >= 97 && (code | 0x20) <= 102);
const isTagNameCode = (code: number) =>
	isWordCode(code) || code === 0x2d || code === 0x5f || code === 0x3a || code === 0x2e;

function secretName(name: string): boolean {
	return name.length <= 64 && nameKind(name) !== NOT_SECRET_NAME;
}
