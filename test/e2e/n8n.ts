/**
 * One headless n8n instance: its own user folder (database, encryption key, community packages), the
 * package installed the way users install a community package, and the CLI commands the suite uses:
 * import:credentials, import:workflow and execute --id --rawOutput.
 */
import { childProcess, fs, net, path, processRef } from '../support/node';
import { type InstalledN8n, run } from './install';
import type { RunJson } from './report';
import { N8N_LOG_FILE } from './secrets';

export interface Execution {
	workflowId: string;
	/** n8n's id of the execution, when it was run through a started n8n. */
	executionId?: string;
	/** The run as n8n printed it, when it printed one. */
	run?: RunJson;
	exitCode: number;
	/** Everything the command printed, and the file it is kept in. */
	output: string;
	outputFile: string;
	seconds: number;
}

export interface CredentialToImport {
	id: string;
	name: string;
	type: string;
	data: Record<string, unknown>;
}

export class N8nInstance {
	private executions = 0;

	private constructor(
		readonly install: InstalledN8n,
		readonly userFolder: string,
		private readonly settings: Record<string, string>,
	) {}

	/**
	 * A fresh instance: the user folder is emptied first. `settings` is environment every command of
	 * the instance gets on top of the defaults (e.g. queue mode's database and Redis).
	 */
	static create(
		install: InstalledN8n,
		userFolder: string,
		settings: Record<string, string> = {},
	): N8nInstance {
		fs.rmSync(userFolder, { recursive: true, force: true });
		fs.mkdirSync(path.join(userFolder, '.n8n', 'nodes'), { recursive: true });
		return new N8nInstance(install, path.resolve(userFolder), settings);
	}

	/**
	 * The instance in `userFolder` as an earlier run left it (database, key, packages kept), with
	 * `settings` as `create` takes them.
	 */
	static open(
		install: InstalledN8n,
		userFolder: string,
		settings: Record<string, string> = {},
	): N8nInstance {
		fs.mkdirSync(path.join(userFolder, '.n8n', 'nodes'), { recursive: true });
		return new N8nInstance(install, path.resolve(userFolder), settings);
	}

	/** Environment of every n8n (and npm) command of this instance. */
	env(): Record<string, string | undefined> {
		const env: Record<string, string | undefined> = { ...processRef.env };
		// Nothing of the caller's n8n or tsx set-up may leak into the instance.
		for (const key of Object.keys(env)) if (key.startsWith('N8N_')) delete env[key];
		delete env.NODE_OPTIONS;
		return {
			...env,
			PATH: `${this.install.nodeBinDir}${path.delimiter}${processRef.env.PATH ?? ''}`,
			N8N_USER_FOLDER: this.userFolder,
			N8N_DIAGNOSTICS_ENABLED: 'false',
			N8N_RUNNERS_ENABLED: 'false',
			N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
			N8N_PERSONALIZATION_ENABLED: 'false',
			N8N_TEMPLATES_ENABLED: 'false',
			N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
			GENERIC_TIMEZONE: 'UTC',
			TZ: 'UTC',
			// n8n's own log also goes to a file, which the secret scan reads. (At debug level n8n
			// changes its console format, and the run it prints could no longer be read.)
			N8N_LOG_LEVEL: 'info',
			N8N_LOG_OUTPUT: 'console,file',
			N8N_LOG_FILE_LOCATION: path.join(this.userFolder, N8N_LOG_FILE),
			// One file, never rotated (n8n starts n8n1.log at 16 MiB), as `logged` reads it.
			N8N_LOG_FILE_SIZE_MAX: '4096',
			...this.install.env,
			...this.settings,
		};
	}

	private async n8n(args: string[], allowFailure = false) {
		return await run(this.install.nodeBin, [this.install.n8nMain, ...args], {
			cwd: this.userFolder,
			env: { ...this.env(), N8N_RUNNERS_BROKER_PORT: String(await freePort()) },
			allowFailure,
		});
	}

	/**
	 * Installs the packed package as a self-hosted user does: `npm install <package>` in
	 * `~/.n8n/nodes`. Peer dependencies are left out (`--legacy-peer-deps`), as n8n's own installer
	 * (Settings → Community Nodes) does: the package then uses n8n's own n8n-workflow. Whatever an
	 * earlier run installed there is replaced.
	 */
	async installPackage(tarball: string): Promise<number> {
		const nodesFolder = path.join(this.userFolder, '.n8n', 'nodes');
		fs.rmSync(path.join(nodesFolder, 'node_modules'), { recursive: true, force: true });
		fs.rmSync(path.join(nodesFolder, 'package-lock.json'), { force: true });
		fs.writeFileSync(
			path.join(nodesFolder, 'package.json'),
			`${JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }, null, 2)}\n`,
		);
		const { seconds } = await run(
			'npm',
			[
				'install',
				path.resolve(tarball),
				'--legacy-peer-deps',
				'--ignore-scripts',
				'--no-audit',
				'--no-fund',
				'--loglevel=error',
			],
			{ cwd: nodesFolder, env: this.env() },
		);
		return seconds;
	}

	async importCredentials(credentials: CredentialToImport[]): Promise<number> {
		const file = path.join(this.userFolder, 'credentials.json');
		fs.writeFileSync(file, JSON.stringify(credentials, null, 2));
		const { seconds } = await this.n8n(['import:credentials', `--input=${file}`]);
		return seconds;
	}

	/** Imports every workflow file given, in one command. */
	async importWorkflows(files: string[]): Promise<number> {
		const folder = path.join(this.userFolder, 'workflows-to-import');
		fs.rmSync(folder, { recursive: true, force: true });
		fs.mkdirSync(folder, { recursive: true });
		files.forEach((file, index) =>
			fs.copyFileSync(file, path.join(folder, `${String(index).padStart(3, '0')}.json`)),
		);
		const { seconds } = await this.n8n(['import:workflow', '--separate', `--input=${folder}`]);
		return seconds;
	}

	/**
	 * `n8n execute --id <id> --rawOutput`; never rejects for a failed workflow. The output goes to a
	 * file, not a pipe: n8n exits right after printing, and a large run written to a pipe would be cut.
	 */
	async execute(workflowId: string): Promise<Execution> {
		const folder = path.join(this.userFolder, 'runs');
		fs.mkdirSync(folder, { recursive: true });
		this.executions++;
		const outputFile = path.join(
			folder,
			`${String(this.executions).padStart(2, '0')}-${workflowId}.log`,
		);
		const started = Date.now();
		// n8n 2.x always starts its task broker, on 5679 by default: another n8n on this machine
		// would make the command fail, so each command gets a free port.
		const port = String(await freePort());
		const fd = fs.openSync(outputFile, 'w');
		let exitCode: number;
		try {
			exitCode = await new Promise<number>((resolve, reject) => {
				const child = childProcess.spawn(
					this.install.nodeBin,
					[this.install.n8nMain, 'execute', `--id=${workflowId}`, '--rawOutput'],
					{
						cwd: this.userFolder,
						env: { ...this.env(), N8N_RUNNERS_BROKER_PORT: port },
						stdio: ['ignore', fd, fd],
					},
				);
				child.on('error', reject);
				child.on('close', (code) => resolve(code ?? 1));
			});
		} finally {
			fs.closeSync(fd);
		}
		const output = fs.readFileSync(outputFile, 'utf8');
		return {
			workflowId,
			run: parseRun(output),
			exitCode,
			output,
			outputFile,
			seconds: (Date.now() - started) / 1000,
		};
	}

	/**
	 * Timestamps of the entries of n8n's log (kept across restarts) whose message starts with `start`
	 * and ends with `end`, e.g. the debug entries "Poll trigger initiated for workflow …".
	 */
	logged(start: string, end = ''): string[] {
		const file = path.join(this.userFolder, N8N_LOG_FILE);
		if (!fs.existsSync(file)) return [];
		return fs
			.readFileSync(file, 'utf8')
			.split('\n')
			.filter((line) => line.includes(start.split('"')[0])) // quotes are escaped in the JSON
			.map((line) => JSON.parse(line) as { message: string; metadata?: { timestamp?: string } })
			.filter((entry) => entry.message.startsWith(start) && entry.message.endsWith(end))
			.map((entry) => entry.metadata?.timestamp ?? '?');
	}

	/**
	 * The workflow's static data as n8n stored it in its SQLite database (null before it stored any),
	 * read with n8n's own sqlite3 module (read-only, also while n8n runs).
	 */
	async storedStaticData(workflowId: string): Promise<Record<string, unknown> | null> {
		const script = [
			"const sqlite3 = require('sqlite3');",
			'const db = new sqlite3.Database(process.argv[1], sqlite3.OPEN_READONLY);',
			"db.get('select staticData from workflow_entity where id = ?', [process.argv[2]], (error, row) => {",
			'  if (error) { console.error(error.message); process.exitCode = 1; }',
			"  else process.stdout.write(row && row.staticData ? String(row.staticData) : '');",
			'  db.close();',
			'});',
		].join('\n');
		const database = path.join(this.userFolder, '.n8n', 'database.sqlite');
		const { stdout } = await run(this.install.nodeBin, ['-e', script, database, workflowId], {
			cwd: path.join(this.install.dir, 'node_modules', 'n8n'),
		});
		return stdout ? (JSON.parse(stdout) as Record<string, unknown>) : null;
	}

	/** When n8n polled the workflow's triggers (its log at debug level). */
	polls(workflowName: string): string[] {
		return this.logged(`Poll trigger initiated for workflow "${workflowName}"`);
	}

	/**
	 * When n8n activated a trigger of the workflow: after its first poll, once per activation (each
	 * start of n8n activates its active workflows again). With n8n 2.x's publication service this is
	 * after the REST call that asked for it has returned.
	 */
	triggerActivations(workflowName: string): string[] {
		return this.logged('Activated trigger node', `for workflow "${workflowName}"`);
	}
}

/** A TCP port that is free on 127.0.0.1 right now: `preferred` when it is, else any. */
export async function freePort(preferred = 0): Promise<number> {
	const listen = async (port: number) =>
		await new Promise<number>((resolve, reject) => {
			const server = net.createServer();
			server.once('error', reject);
			server.listen(port, '127.0.0.1', () => {
				const { port: bound } = server.address() as net.AddressInfo;
				server.close(() => resolve(bound));
			});
		});
	if (preferred) {
		try {
			return await listen(preferred);
		} catch {
			// taken: any free port will do
		}
	}
	return await listen(0);
}

/**
 * The run JSON in what `n8n execute --rawOutput` printed. n8n prints it pretty, from a line `{` to a
 * line `}`, after its start-up messages; for a failed run it prints the same JSON through its logger
 * before the error.
 */
export function parseRun(text: string): RunJson | undefined {
	const lines = text.split('\n');
	const start = lines.indexOf('{');
	if (start === -1) return undefined;
	const end = lines.indexOf('}', start);
	if (end === -1) return undefined;
	try {
		return JSON.parse(lines.slice(start, end + 1).join('\n')) as RunJson;
	} catch {
		return undefined;
	}
}
