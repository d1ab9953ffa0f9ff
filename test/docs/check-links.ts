/**
 * Fails when a link of the documentation does not resolve (test/docs/links.ts); run from the
 * repository's root, as CI does.
 *
 *   npx tsx test/docs/check-links.ts            the documentation of this repository
 *   npx tsx test/docs/check-links.ts FILE…      these Markdown files
 *
 * Exits with 1 and lists each broken link (file, line, target, why).
 */
import { fs, path, processRef } from '../support/node';
import { brokenLinks, documentationFiles, linksOf } from './links';

const root = processRef.cwd();
const files = processRef.argv.slice(2).map((file) => path.relative(root, path.resolve(file)));
const checked = files.length > 0 ? files : documentationFiles(root);
const broken = brokenLinks(root, checked);
if (broken.length > 0) {
	processRef.stderr.write(`${broken.length} broken link(s) in the documentation:\n`);
	for (const link of broken) {
		processRef.stderr.write(`  ${link.file}:${link.line}  ${link.target}  (${link.reason})\n`);
	}
	processRef.exitCode = 1;
} else {
	const count = checked.reduce(
		(total, file) => total + linksOf(file, fs.readFileSync(path.join(root, file), 'utf8')).length,
		0,
	);
	processRef.stdout.write(`Links: ${count} links in ${checked.length} files, all resolve.\n`);
}
