// Jest global setup (plain JavaScript: the strict lint bans `process` in TypeScript files).
// Prepares the folders where this jest run leaves its evidence, one pair per run so that jest runs
// started at the same time in the same checkout do not mix their figures:
// - test-results/secret-scan/<run>/: what the harness's run collector saw (test/harness/collect.ts)
//   and n8n's log files, scanned by global-teardown.js;
// - test-results/reliability/<run>/: one JSON file of result rows per reliability test file,
//   merged by global-teardown.js into test-results/reliability.json (printed by table.ts).
const fs = require('node:fs');
const path = require('node:path');

module.exports = async function globalSetup() {
	const run = `${Date.now()}-${process.pid}`;
	const results = path.resolve('test-results');
	const scanDir = path.join(results, 'secret-scan', run);
	const rowsDir = path.join(results, 'reliability', run);
	fs.mkdirSync(path.join(scanDir, 'n8n-logs'), { recursive: true });
	fs.mkdirSync(rowsDir, { recursive: true });
	process.env.FLARE_SECRET_SCAN_DIR = scanDir;
	process.env.FLARE_RELIABILITY_DIR = rowsDir;
};
