/**
 * What a line says as a whole, read once at its head (docs/api-contract.md, "Masking", rules 3 and 8):
 *
 *   email,password,ip               | User | Password |          <tr><th>User</th><th>Password</th></tr>
 *   jane@acme.com,hunter2,1.2.3.4   |------|----------|          <tr><td>jane</td><td>hunter2</td></tr>
 *   "bob@acme.com","p,ss"           | jane | hunter2  |
 *
 *   .acme.com	TRUE	/	FALSE	1767225600	sid	…     a Netscape cookies.txt line: its value
 *   Private-Lines: 14                                   PuTTY: the key's lines that follow
 *   Password:                                           a label whose value is the next line
 *   password: |                                         YAML's block scalar: the lines indented more
 *   jane:hunter2                                        a login and its password, a line of its own
 *
 * A table's header (comma-, semicolon- or tab-separated, or `|` cells, HTML tables included) whose
 * cells are all names and one a secret's, followed by a line of as many cells, makes each later row's
 * cells under that name secrets, to a blank line or a line of fewer cells; a row with more cells than
 * the header (a password holding the separator, unquoted) has the extra cells masked with it.
 */
import { PIPE, TAB, isBlank, isHardLineEnd, isLineEnd } from './chars';
import { credentialLine } from './credentials';
import { maybeSecret } from './assignments';
import { NOT_SECRET_NAME, SECRET_NAME_HINT, nameKind } from './names';
import type { Reader } from './reader';

export interface Table {
	delimiter: number;
	/** The columns named like secrets. */
	columns: number[];
	/** How many cells the header has. */
	count: number;
}

/** A table's header cell: a name of at most four words, or a row number's (`#`, `No.`) or none. */
const HEADER_CELL = /^(?:[\p{L}][\p{L}\p{N} _.\-/#()]{0,47}|#|No\.?|N°|№|)$/u;
const MAX_CELLS = 64;

/** Reads the head of the line the reader is at. */
export function lineHead(reader: Reader): void {
	const { plain, lineEnd } = reader;
	const at = reader.skipBlanks(reader.lineStart);
	const blank = at >= lineEnd;
	if (reader.privateLines > 0) {
		if (!blank) {
			reader.privateLines--;
			reader.mask(at, reader.trimEnd(at, lineEnd));
		}
		return;
	}
	if (blank) {
		reader.table = undefined;
		return;
	}
	if (reader.blockIndent !== -1) {
		if (at - reader.lineStart > reader.blockIndent) {
			reader.mask(at, reader.trimEnd(at, lineEnd));
			return;
		}
		reader.blockIndent = -1;
	}
	reader.pipeRow = plain.charCodeAt(at) === PIPE;
	if (reader.labelPending) {
		reader.labelPending = false;
		if (!startsLabel(reader, at)) {
			reader.mask(at, reader.trimEnd(at, lineEnd));
			return;
		}
	}
	if (reader.table) {
		if (tableRow(reader, at)) return;
		reader.table = undefined;
	}
	if (cookieFileLine(reader, at) || tableHeader(reader, at)) return;
	credentialLine(reader, at);
}

/** The head of a string that opens on the line (`{"log": "email,password\n…"}`): a line of its own. */
export function stringHead(reader: Reader, from: number): void {
	const at = reader.skipBlanks(from);
	if (reader.table || at >= reader.lineEnd) return;
	if (reader.plain.charCodeAt(at) === PIPE) reader.pipeRow = true;
	if (cookieFileLine(reader, at) || tableHeader(reader, at)) return;
	credentialLine(reader, at);
}

/** Whether the line starts with a name and a separator (another label, not a value). */
function startsLabel(reader: Reader, at: number): boolean {
	const { plain } = reader;
	let end = reader.runEnd(at);
	if (end === at) return false;
	end = reader.skipBlanks(end);
	const code = plain.charCodeAt(end);
	// Not base64's padding (`dXNlcjpw==`, a folded `Authorization: Basic`'s credential).
	if (code === 0x3d) return end + 1 < reader.lineEnd && plain.charCodeAt(end + 1) !== 0x3d;
	return code === 0x3a || code === 0xff1a;
}

/** The cells of the line from `at`, trimmed ([start, end) pairs), or undefined past {@link MAX_CELLS}. */
function cellsOf(
	reader: Reader,
	at: number,
	delimiter: number,
): Array<[number, number]> | undefined {
	const { plain, n } = reader;
	let rowEnd = reader.lineEnd;
	const cells: Array<[number, number]> = [];
	let start = delimiter === PIPE ? at + 1 : at;
	for (let index = start; index <= rowEnd; index++) {
		const code = index < rowEnd ? plain.charCodeAt(index) : delimiter;
		// A quoted cell of a CSV line holds the delimiter ("p,ss", "a ""b""") and reads across the
		// line ends markup made (a password "a<J>b", read as a tag); the row goes on after it.
		if (code === 0x22 && delimiter !== PIPE && reader.skipBlanks(start) === index) {
			for (index++; index < n && !isHardLineEnd(plain.charCodeAt(index)); index++) {
				if (plain.charCodeAt(index) !== 0x22) continue;
				if (plain.charCodeAt(index + 1) !== 0x22) break;
				index++;
			}
			while (rowEnd < index) rowEnd = lineEndFrom(plain, rowEnd + 1);
			// A quote that does not close: the cell runs to the line's end.
			if (index >= rowEnd) index = rowEnd - 1;
			continue;
		}
		if (code !== delimiter) continue;
		const cellStart = skipBlanks(plain, start, rowEnd);
		cells.push([cellStart, reader.trimEnd(cellStart, index)]);
		if (cells.length > MAX_CELLS) return undefined;
		start = index + 1;
	}
	// `| a | b |`: nothing after the last border.
	const last = cells[cells.length - 1];
	if (delimiter === PIPE && last && last[0] === last[1]) cells.pop();
	return cells;
}

/** Where the line that holds `at` ends. */
function lineEndFrom(plain: string, at: number): number {
	while (at < plain.length && !isLineEnd(plain.charCodeAt(at))) at++;
	return at;
}

function skipBlanks(plain: string, at: number, end: number): number {
	while (at < end && isBlank(plain.charCodeAt(at))) at++;
	return at;
}

/** The delimiter of a line that is not a `|` row: a tab, else a comma, else a semicolon; -1 if none. */
function delimiterOf(reader: Reader, at: number): number {
	const { plain, lineEnd } = reader;
	let comma = false;
	let semicolon = false;
	for (let index = at; index < lineEnd; index++) {
		const code = plain.charCodeAt(index);
		if (code === TAB) return TAB;
		if (code === 0x2c) comma = true;
		else if (code === 0x3b) semicolon = true;
	}
	return comma ? 0x2c : semicolon ? 0x3b : -1;
}

/** A cell's text without the quotes around it. */
function cellText(plain: string, [start, end]: [number, number]): string {
	const text = plain.slice(start, end);
	return text.length >= 2 && text[0] === '"' && text[text.length - 1] === '"'
		? text.slice(1, -1)
		: text;
}

/** Where a table's header may name a secret: the letters every secret's name holds (names.ts). */
const NAME_HINT = new RegExp(SECRET_NAME_HINT.source, 'gi');
const TABS = /\t/g;

function tableHeader(reader: Reader, at: number): boolean {
	const { plain } = reader;
	if (reader.nextMatch(NAME_HINT, 0, at) >= reader.lineEnd) return false;
	// `Dump: | # | Email | Password |`: a Markdown header after a label on its line.
	const cellsAt = reader.pipeRow ? at : pipesAfterLabel(reader, at);
	const delimiter = cellsAt !== -1 ? PIPE : delimiterOf(reader, at);
	if (cellsAt !== -1) at = cellsAt;
	if (delimiter === -1) return false;
	const cells = cellsOf(reader, at, delimiter);
	if (!cells || cells.length < 2) return false;
	// `Dump: email,password`: the header after a label on its line.
	const [firstStart, firstEnd] = cells[0];
	for (let index = firstEnd - 1; index >= firstStart; index--) {
		if (plain.charCodeAt(index) === 0x3a && (index + 1 === firstEnd || isBlank(plain.charCodeAt(index + 1)))) {
			cells[0] = [Math.min(reader.skipBlanks(index + 1), firstEnd), firstEnd];
			break;
		}
	}
	const columns: number[] = [];
	for (let column = 0; column < cells.length; column++) {
		const name = cellText(plain, cells[column]).trim();
		if (!HEADER_CELL.test(name) || name.split(' ').length > 4) return false;
		if (nameKind(name) !== NOT_SECRET_NAME) columns.push(column);
	}
	if (columns.length === 0 || !nextLineFits(reader, delimiter, cells.length)) return false;
	reader.table = { delimiter, columns, count: cells.length };
	reader.headerRow = true;
	return true;
}

/** Where `|` cells start after a `:` and blanks (`Dump: Update 2: | …`), or -1. */
function pipesAfterLabel(reader: Reader, at: number): number {
	const { plain, lineEnd } = reader;
	for (let index = at; index < lineEnd; index++) {
		if (plain.charCodeAt(index) !== 0x3a) continue;
		const cells = reader.skipBlanks(index + 1);
		if (cells > index + 1 && plain.charCodeAt(cells) === PIPE) return cells;
	}
	return -1;
}

/** Whether the line after this one is a row of a table of `count` cells (or a Markdown delimiter row). */
function nextLineFits(reader: Reader, delimiter: number, count: number): boolean {
	const { plain, n } = reader;
	let at = reader.lineEnd;
	if (plain.charCodeAt(at) === 0x0d) at++;
	if (plain.charCodeAt(at) === 0x0a || plain.charCodeAt(at) === 0x0b) at++;
	while (at < n && isBlank(plain.charCodeAt(at))) at++;
	if (delimiter === PIPE) return plain.charCodeAt(at) === PIPE;
	let found = 0;
	for (; at < n; at++) {
		const code = plain.charCodeAt(at);
		if (isLineEnd(code)) break;
		if (code === delimiter) found++;
	}
	return found >= count - 1;
}

/** A row of the current table: masks its secret cells; false when the line is no row of it. */
function tableRow(reader: Reader, at: number): boolean {
	const { plain } = reader;
	const table = reader.table!;
	if (table.delimiter === PIPE) {
		if (!reader.pipeRow) return false;
		if (/^[|:\s]*-[|\-:\s]*$/.test(plain.slice(at, reader.lineEnd))) {
			reader.headerRow = true;
			return true;
		}
	}
	const cells = cellsOf(reader, at, table.delimiter);
	if (!cells || cells.length < 2 || (table.delimiter !== PIPE && cells.length < table.count))
		return false;
	const extra = Math.max(0, cells.length - table.count);
	for (const column of table.columns) {
		if (column >= cells.length) continue;
		let start = cells[column][0];
		let end = cells[Math.min(column + extra, cells.length - 1)][1];
		if (
			end - start >= 2 &&
			plain.charCodeAt(start) === 0x22 &&
			plain.charCodeAt(end - 1) === 0x22
		) {
			start++;
			end--;
		}
		if (maybeSecret(reader, start, end, false)) reader.mask(start, end);
	}
	// The row's cells are values: a cell that is a name is no label here.
	reader.headerRow = true;
	return true;
}

/**
 * A line of a Netscape cookies file (curl's and wget's format, and stealer logs'): domain, flag,
 * path, secure, expiry, name and value, separated by tabs; its value is masked.
 */
function cookieFileLine(reader: Reader, at: number): boolean {
	const { plain, lineEnd } = reader;
	if (reader.nextMatch(TABS, 1, at) >= lineEnd) return false;
	const tabs: number[] = [];
	for (let index = at; index < lineEnd && tabs.length <= 6; index++) {
		if (plain.charCodeAt(index) === TAB) tabs.push(index);
	}
	if (tabs.length !== 6) return false;
	const field = (index: number) => plain.slice(tabs[index - 1] + 1, tabs[index]);
	if (
		!/^(?:TRUE|FALSE)$/i.test(field(1)) ||
		!/^(?:TRUE|FALSE)$/i.test(field(3)) ||
		!/^\d+$/.test(field(4))
	)
		return false;
	reader.mask(tabs[5] + 1, reader.trimEnd(tabs[5] + 1, lineEnd));
	return true;
}
