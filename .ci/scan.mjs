/**
 * Runs the n8n community-package scanner offline, on the source and on the packed tarball, as n8n's
 * verification does online (n8n-facts §4.3). The online CLI also checks npm provenance, which only a
 * published version has; that part is covered by the GitHub publish workflow.
 *
 *   node .ci/scan.mjs          scan the source tree and `npm pack` output of this folder
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { analyzePackage, SOURCE_FILE_PATTERNS } from '@n8n/scan-community-package/scanner/scanner.mjs';

async function scan(label, directory, patterns) {
	const result = await analyzePackage(directory, patterns);
	console.log(`${label}: ${result.passed ? 'passed' : 'FAILED'}`);
	if (!result.passed) {
		console.log(result.message);
		if (result.details) console.log(result.details);
	}
	return result.passed;
}

const root = process.cwd();
const sourcePassed = await scan('scanner, source', root, SOURCE_FILE_PATTERNS);

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'flare-scan-'));
const [{ filename }] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', work], { encoding: 'utf8' }));
execFileSync('tar', ['xzf', path.join(work, filename), '-C', work]);
const unpacked = path.join(work, 'package');
const required = ['dist/credentials/FlareApi.credentials.js', 'dist/nodes/Flare/Flare.node.js', 'dist/icons/flare.svg', 'dist/icons/flare.dark.svg'];
const missing = required.filter((file) => !fs.existsSync(path.join(unpacked, file)));
if (missing.length) console.log(`tarball lacks: ${missing.join(', ')}`);
const tarballPassed = await scan('scanner, packed tarball', unpacked, ['**/*.js', 'package.json']);
fs.rmSync(work, { recursive: true, force: true });

process.exit(sourcePassed && tarballPassed && missing.length === 0 ? 0 : 1);
