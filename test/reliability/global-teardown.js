// Jest global teardown (plain JavaScript: the strict lint bans `process` in TypeScript files).
// 1. Secret hygiene over the whole jest run: reads what the harness's run collector saw in every
//    workflow run, trigger poll and credential test (test/harness/collect.ts), scans every n8n log
//    file of the run for API keys and access tokens (test/reliability/secret-scan.ts), writes
//    test-results/secret-scan-harness.json, and fails the run if anything was found. The same for the
//    leaked values the fake plants: none in the output or errors of this package's nodes unless they
//    ran with Leaked Value Output Full (and Full runs must give some back), and none, in any mode, in
//    n8n's log files, the triggers' static data or the alert webhook's answers.
// 2. Merges the result rows of the reliability tests into test-results/reliability.json (the long-proof
//    run, FLARE_LONG=1: reliability-long.json), which test/reliability/table.ts prints as the tables of
//    docs/reliability.md. Each row says which recorder (test file) it came from.
// Jest transforms this hook's TypeScript requires with the project's transform (ts-jest).
const fs = require('node:fs');
const path = require('node:path');

const {
	addLeakedValueScans,
	describeHits,
	describeLeakedValueScan,
	emptyLeakedValueScan,
	leakedValueProblems,
	scanFiles,
	scanLogSurface,
	scanSummaryFile,
	secretPatterns,
} = require('./secret-scan.ts');

const filesIn = (dir, pattern) =>
	fs.existsSync(dir)
		? fs
				.readdirSync(dir)
				.filter((name) => pattern.test(name))
				.sort()
				.map((name) => path.join(dir, name))
		: [];

const LONG = process.env.FLARE_LONG === '1';

async function scanRun(scanDir) {
	const summary = { suite: LONG ? 'harness-long' : 'harness', runs: 0, items: 0, errors: 0, bytes: 0, logFiles: 0, logLines: 0, leaks: 0, hits: [], leakedValues: emptyLeakedValueScan() };
	for (const file of filesIn(scanDir, /^runs-\d+\.jsonl$/)) {
		for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
			if (!line.trim()) continue;
			const run = JSON.parse(line);
			summary.runs++;
			summary.items += run.items;
			summary.errors += run.errors;
			summary.bytes += run.bytes;
			for (const hit of run.hits) summary.hits.push({ ...hit, source: `${run.kind} in ${run.test ?? 'unknown test'}` });
			if (run.leakedValues) summary.leakedValues = addLeakedValueScans(summary.leakedValues, run.leakedValues);
		}
	}
	const literals = filesIn(scanDir, /^secrets-\d+\.json$/).flatMap((file) => JSON.parse(fs.readFileSync(file, 'utf8')));
	const logFiles = filesIn(path.join(scanDir, 'n8n-logs'), /\.log$/);
	const logs = await scanFiles(logFiles, secretPatterns(literals));
	await scanLogSurface(summary.leakedValues, logFiles);
	summary.logFiles = logs.files;
	summary.logLines = logs.lines;
	summary.bytes += logs.bytes;
	summary.hits.push(...logs.hits);
	summary.leaks = summary.hits.length;
	return summary;
}

function mergeRows(rowsDir) {
	return filesIn(rowsDir, /\.json$/).flatMap((file) =>
		JSON.parse(fs.readFileSync(file, 'utf8')).map((row) => ({ ...row, recorder: path.basename(file, '.json') })),
	);
}

module.exports = async function globalTeardown() {
	const scanDir = process.env.FLARE_SECRET_SCAN_DIR;
	const rowsDir = process.env.FLARE_RELIABILITY_DIR;
	if (!scanDir) return;
	const results = path.resolve('test-results');
	const summary = await scanRun(scanDir);
	fs.writeFileSync(scanSummaryFile(results, summary.suite), `${JSON.stringify(summary, null, '\t')}\n`);
	// Only a run with reliability tests replaces the figures (a run of one other test file does not).
	const rows = rowsDir ? mergeRows(rowsDir) : [];
	if (rows.length > 0) {
		fs.writeFileSync(
			path.join(results, LONG ? 'reliability-long.json' : 'reliability.json'),
			`${JSON.stringify({ generatedAt: new Date().toISOString(), rows, secretScan: [summary] }, null, '\t')}\n`,
		);
	}
	for (const dir of [scanDir, rowsDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
	const line = `Secret scan: ${summary.runs} runs (${summary.items} output items, ${summary.errors} errors) and ${summary.logLines} n8n log lines in ${summary.logFiles} files: ${summary.leaks} leaks`;
	const leakedLine = describeLeakedValueScan(summary.leakedValues);
	if (summary.leaks > 0) throw new Error(`${line}\n${describeHits(summary.hits)}`);
	const problems = leakedValueProblems(summary.leakedValues);
	if (problems.length > 0) {
		throw new Error(`${leakedLine}\n${problems.join('; ')}\n${describeHits(summary.leakedValues.hits)}`);
	}
	process.stdout.write(`\n${line}\n${leakedLine}\n`);
};
