import { writeBlock } from '../docs/blocks';
import { fs, os, path, processRef } from '../support/node';

/** Jest runs from the repository's root. */
const root = processRef.cwd();

describe('generated blocks of the documentation', () => {
	let folder: string;
	beforeEach(() => {
		folder = fs.mkdtempSync(path.join(os.tmpdir(), 'flare-blocks-'));
	});
	afterEach(() => fs.rmSync(folder, { recursive: true, force: true }));

	it('replaces what lies between the markers and nothing else', () => {
		const file = path.join(folder, 'page.md');
		fs.writeFileSync(
			file,
			'# Page\n\nBefore.\n\n<!-- figures:start (written by a run) -->\n| old |\n<!-- figures:end -->\n\nAfter.\n',
		);
		writeBlock(file, 'figures', '\n| new |\n| --- |\n');
		expect(fs.readFileSync(file, 'utf8')).toBe(
			'# Page\n\nBefore.\n\n<!-- figures:start (written by a run) -->\n| new |\n| --- |\n<!-- figures:end -->\n\nAfter.\n',
		);
		writeBlock(file, 'figures', '| newer |');
		expect(fs.readFileSync(file, 'utf8')).toContain('-->\n| newer |\n<!-- figures:end -->');
	});

	it('refuses a file without the markers, leaving it as it was', () => {
		const file = path.join(folder, 'page.md');
		fs.writeFileSync(file, '# Page\n\n<!-- other:start -->\n<!-- other:end -->\n');
		expect(() => writeBlock(file, 'figures', '| new |')).toThrow(
			`${file} lacks the markers <!-- figures:start … --> … <!-- figures:end -->`,
		);
		expect(fs.readFileSync(file, 'utf8')).toBe(
			'# Page\n\n<!-- other:start -->\n<!-- other:end -->\n',
		);
	});

	it.each([
		['docs/reliability.md', 'reliability'],
		['docs/queue-mode.md', 'queue'],
		['README.md', 'operations'],
	])('%s holds the %s block its run writes', (file, name) => {
		const text = fs.readFileSync(path.join(root, file), 'utf8');
		const start = text.search(new RegExp(`<!-- ${name}:start \\(.+\\) -->\\n`));
		expect(start).toBeGreaterThanOrEqual(0);
		expect(text.indexOf(`<!-- ${name}:end -->`)).toBeGreaterThan(start);
	});
});
