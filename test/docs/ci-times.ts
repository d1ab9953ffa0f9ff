/**
 * The time of each step of the last `bash .ci/run` (its `test-results/ci-steps.tsv`: a step's name
 * and the second it began, then `done` and the second the run ended), written to CONTRIBUTING.md's
 * block `ci-times` by the run itself (CONTRIBUTING.md, "Tests").
 */
import { fs, os, path, processRef } from '../support/node';
import { writeBlock } from './blocks';

const root = path.resolve('.');
const steps = fs
	.readFileSync(path.join(root, 'test-results', 'ci-steps.tsv'), 'utf8')
	.trim()
	.split('\n')
	.map((line) => {
		const [name, at] = line.split('\t');
		return { name, at: Number(at) };
	});
const time = (s: number) => (s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`);
const rows = steps.slice(0, -1).map((step, index) => `| ${step.name} | ${time(steps[index + 1].at - step.at)} |`);
const total = steps[steps.length - 1].at;
writeBlock(
	path.join(root, 'CONTRIBUTING.md'),
	'ci-times',
	[
		`The last \`bash .ci/run\` on ${new Date().toISOString().slice(0, 10)} (${os.cpus().length} CPUs): ${time(total)} in all. Suites that run in the background (n8n's installation, the live trigger test, the differential check, the editor test) overlap the steps after them; a step \`…: its result\` takes what was left to wait for.`,
		'',
		'| Step | Time |',
		'|---|---|',
		...rows,
	].join('\n'),
);
processRef.stdout.write(`Wrote the time of each CI step into CONTRIBUTING.md (${time(total)} in all).\n`);
