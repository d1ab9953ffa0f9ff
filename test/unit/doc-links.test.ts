import { anchorsOf, brokenLinks, documentationFiles, slug } from '../docs/links';
import { fs, os, path, processRef } from '../support/node';

/** Jest runs from the repository's root. */
const root = processRef.cwd();

describe('the documentation links check', () => {
	it('finds every relative link, anchor and image of the documentation resolved', () => {
		const files = documentationFiles(root);
		expect(files).toEqual(
			expect.arrayContaining([
				'README.md',
				'CONTRIBUTING.md',
				'CHANGELOG.md',
				'docs/reliability.md',
				'workflows/README.md',
			]),
		);
		expect(brokenLinks(root, files)).toEqual([]);
	});

	it('reports each broken link with its file, line and reason', () => {
		const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'flare-links-'));
		fs.mkdirSync(path.join(folder, 'docs', 'images'), { recursive: true });
		fs.writeFileSync(path.join(folder, 'docs', 'images', 'shown.png'), '');
		fs.writeFileSync(
			path.join(folder, 'docs', 'guide.md'),
			'# Guide\n\n## What n8n saves, and when\n\n<a id="kept"></a>\n',
		);
		fs.writeFileSync(
			path.join(folder, 'README.md'),
			[
				'# Title',
				'',
				'[fine](docs/guide.md#what-n8n-saves-and-when) [id](docs/guide.md#kept) ![shown](docs/images/shown.png) [self](#title)',
				'[anchor](docs/guide.md#what-n8n-saves) [file](docs/gone.md) ![image](docs/images/gone.png)',
				'[here](#titel) [url](https://) <img src="docs/images/missing.png"> [away](../outside.md)',
				'',
				'```bash',
				'[not a link](nowhere.md)',
				'```',
				'',
				'`[code](nowhere.md)` [web](https://docs.n8n.io/integrations/#community-nodes)',
				'',
				'[reference]: docs/old.md',
			].join('\n'),
		);
		expect(brokenLinks(folder, ['README.md'])).toEqual([
			{
				file: 'README.md',
				line: 4,
				target: 'docs/guide.md#what-n8n-saves',
				reason: 'no heading or id "what-n8n-saves" in docs/guide.md',
			},
			{ file: 'README.md', line: 4, target: 'docs/gone.md', reason: 'no such file: docs/gone.md' },
			{
				file: 'README.md',
				line: 4,
				target: 'docs/images/gone.png',
				reason: 'no such file: docs/images/gone.png',
			},
			{
				file: 'README.md',
				line: 5,
				target: '#titel',
				reason: 'no heading or id "titel" in README.md',
			},
			{ file: 'README.md', line: 5, target: 'https://', reason: 'not a well-formed URL' },
			{
				file: 'README.md',
				line: 5,
				target: 'docs/images/missing.png',
				reason: 'no such file: docs/images/missing.png',
			},
			{
				file: 'README.md',
				line: 5,
				target: '../outside.md',
				reason: 'points outside the repository',
			},
			{ file: 'README.md', line: 13, target: 'docs/old.md', reason: 'no such file: docs/old.md' },
		]);
		fs.rmSync(folder, { recursive: true, force: true });
	});

	it("writes a heading's anchor as GitHub does", () => {
		expect(slug('What n8n saves, and when')).toBe('what-n8n-saves-and-when');
		expect(slug("1. Under Flare's documented limits")).toBe('1-under-flares-documented-limits');
		expect(slug('Flare Trigger → New Event')).toBe('flare-trigger--new-event');
		expect(slug('The `leakedValueOutput` **option**')).toBe('the-leakedvalueoutput-option');
		expect(slug('[Unreleased]')).toBe('unreleased');
		expect([...anchorsOf('# Usage\n\n## Usage\n\n```\n# not a heading\n```\n')]).toEqual([
			'usage',
			'usage-1',
		]);
	});
});
