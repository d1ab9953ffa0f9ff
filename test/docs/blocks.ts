/**
 * Generated blocks of the documentation: what lies between `<!-- name:start … -->` and
 * `<!-- name:end -->` in a Markdown file is written by the run that measured it, never by hand
 * (CONTRIBUTING.md, "Generated documentation").
 */
import { fs } from '../support/node';

/** Replaces the block `name` of `file` with `markdown`; throws when the file lacks its markers. */
export function writeBlock(file: string, name: string, markdown: string): void {
	const text = fs.readFileSync(file, 'utf8');
	const start = new RegExp(`<!-- ${name}:start[^>]*-->\\n`).exec(text);
	const end = text.indexOf(`<!-- ${name}:end -->`);
	if (!start || end < start.index) {
		throw new Error(`${file} lacks the markers <!-- ${name}:start … --> … <!-- ${name}:end -->`);
	}
	const from = start.index + start[0].length;
	fs.writeFileSync(file, `${text.slice(0, from)}${markdown.trim()}\n${text.slice(end)}`);
}
