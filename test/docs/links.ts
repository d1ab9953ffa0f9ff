/**
 * Checks the links of the documentation, offline: every relative link and image must name a file or
 * folder that exists, every `#anchor` a heading (as GitHub writes its anchor) or an `id` of the file it
 * points to; every http(s) link must be a well-formed URL with a host. Nothing is fetched.
 * `npx tsx test/docs/check-links.ts` runs it on the repository.
 */
import { fs, path } from '../support/node';

/** The documentation a user or a contributor reads, relative to the repository's root. */
export function documentationFiles(root: string): string[] {
	const docs = fs
		.readdirSync(path.join(root, 'docs'))
		.filter((name) => name.endsWith('.md'))
		.sort()
		.map((name) => path.join('docs', name));
	return [
		'README.md',
		'CONTRIBUTING.md',
		'CHANGELOG.md',
		...docs,
		path.join('workflows', 'README.md'),
		path.join('bench', 'README.md'),
		path.join('test', 'fake-flare', 'README.md'),
	];
}

export interface Link {
	file: string;
	line: number;
	target: string;
}

export interface BrokenLink extends Link {
	reason: string;
}

/** Markdown text without fenced code blocks and code spans, whose brackets are not links. */
function withoutCode(markdown: string): string {
	const blank = (text: string) => text.replace(/[^\n]/g, ' ');
	return markdown
		.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, blank)
		.replace(/(`+)[^`\n][\s\S]*?\1/g, blank);
}

/** Every link target of a Markdown file: inline links and images, reference definitions, HTML src and href. */
export function linksOf(file: string, markdown: string): Link[] {
	const text = withoutCode(markdown);
	const found: Array<{ index: number; target: string }> = [];
	const patterns = [
		/!?\[(?:[^\]\n]|\][^(\n])*\]\(\s*(<[^>\n]*>|[^\s)]+)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g,
		/^ {0,3}\[[^\]\n]+\]:\s*(<[^>\n]*>|\S+)/gm,
		/<(?:a|img)\b[^>]*?\s(?:href|src)="([^"]*)"/g,
	];
	for (const pattern of patterns) {
		for (const match of text.matchAll(pattern)) {
			found.push({ index: match.index ?? 0, target: match[1].replace(/^<|>$/g, '') });
		}
	}
	return found
		.sort((a, b) => a.index - b.index)
		.map(({ index, target }) => ({ file, line: text.slice(0, index).split('\n').length, target }));
}

/** A heading's anchor as GitHub writes it: lower case, punctuation dropped, spaces as hyphens. */
export function slug(heading: string): string {
	const text = heading
		.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link or an image shows its text
		.replace(/<[^>]+>/g, '')
		.replace(/[`*]/g, '')
		.trim()
		.toLowerCase();
	return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** The anchors a Markdown file offers: its headings (repeated ones get -1, -2, …) and HTML ids and names. */
export function anchorsOf(markdown: string): Set<string> {
	const anchors = new Set<string>();
	const seen = new Map<string, number>();
	for (const match of withoutCode(markdown).matchAll(/^ {0,3}#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
		const base = slug(match[1]);
		const count = seen.get(base) ?? 0;
		seen.set(base, count + 1);
		anchors.add(count === 0 ? base : `${base}-${count}`);
	}
	for (const match of markdown.matchAll(/<[a-z]+\b[^>]*?\s(?:id|name)="([^"]+)"/g))
		anchors.add(match[1]);
	return anchors;
}

function externalProblem(target: string): string | undefined {
	try {
		const url = new URL(target);
		if (!url.hostname || !/^[a-z0-9.-]+$/i.test(url.hostname) || !url.hostname.includes('.')) {
			return 'the host is not a domain name';
		}
		return undefined;
	} catch {
		return 'not a well-formed URL';
	}
}

/** The links of `files` (relative to `root`) that do not resolve, with the reason. */
export function brokenLinks(root: string, files: string[]): BrokenLink[] {
	const broken: BrokenLink[] = [];
	const anchorCache = new Map<string, Set<string>>();
	const anchorsIn = (file: string) => {
		if (!anchorCache.has(file)) anchorCache.set(file, anchorsOf(fs.readFileSync(file, 'utf8')));
		return anchorCache.get(file)!;
	};
	for (const file of files) {
		const absolute = path.resolve(root, file);
		for (const link of linksOf(file, fs.readFileSync(absolute, 'utf8'))) {
			const fail = (reason: string) => broken.push({ ...link, reason });
			const { target } = link;
			if (/^https?:/i.test(target)) {
				const problem = externalProblem(target);
				if (problem) fail(problem);
				continue;
			}
			if (/^mailto:[^@\s]+@[^@\s]+$/i.test(target)) continue;
			if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
				fail('only relative, http(s) and mailto links are allowed');
				continue;
			}
			const hash = target.indexOf('#');
			const pathPart = decodeURI(hash < 0 ? target : target.slice(0, hash));
			const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
			const resolved = pathPart
				? path.resolve(
						pathPart.startsWith('/') ? root : path.dirname(absolute),
						pathPart.replace(/^\//, ''),
					)
				: absolute;
			if (!resolved.startsWith(path.resolve(root))) {
				fail('points outside the repository');
				continue;
			}
			if (!fs.existsSync(resolved)) {
				fail(`no such file: ${path.relative(root, resolved)}`);
				continue;
			}
			if (anchor === undefined) continue;
			if (!resolved.endsWith('.md') || fs.statSync(resolved).isDirectory()) {
				fail('an anchor in a file that is not Markdown');
			} else if (!anchorsIn(resolved).has(anchor)) {
				fail(`no heading or id "${anchor}" in ${path.relative(root, resolved)}`);
			}
		}
	}
	return broken;
}
