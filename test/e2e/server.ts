/**
 * Long-running processes of the tests: `n8n start` as a server for the editor test and the manual
 * executions (a real n8n serving its editor and REST API on a free port of 127.0.0.1), and any other
 * process a suite starts and must stop (queue mode's workers, Redis, PostgreSQL).
 * Each runs in its own process group, so stopping it also stops whatever it started; it is killed
 * when this process exits or is interrupted, so it never outlives the test. n8n servers also run
 * under guard.mjs, which stops them even when this process is killed outright (the sandbox).
 */
import { sleep } from 'n8n-workflow';

import { childProcess, fs, path, processRef } from '../support/node';
import { freePort, type N8nInstance } from './n8n';
import { SERVER_OUTPUT_FILE } from './secrets';
import { repositoryRoot } from './suite';

/**
 * The header every request of the suites to n8n sends: a new connection each time. A kept-alive one
 * that n8n closes after 5 s of idleness, as a harness starved of CPU sends on it, fails with ECONNRESET
 * (a CI run of 2026-12-08: one case failed so, and its execution's requests went on into the next
 * case's). Node's fetch would also send a request with this header on a connection another request
 * left open: hence on every request, not some.
 */
export const NEW_CONNECTION = { connection: 'close' } as const;

export interface N8nServer {
	/** Base URL of the editor and the REST API, without a trailing slash. */
	url: string;
	/** Everything the server printed. */
	logFile: string;
	/** Seconds from spawn to a ready /healthz/readiness. */
	startSeconds: number;
	/** The process group of n8n and whatever it started (the id of its guard process). */
	processGroup: number;
	/** Resolves with how n8n ended (exit code or signal), stopped or not. */
	exited: Promise<string>;
	stop(): Promise<void>;
	/** SIGKILL to n8n and everything in its group at once, as in a power cut; resolves once it exited. */
	kill(): Promise<void>;
}

/** A process started by a test, in its own process group, with its output in a file. */
export interface BackgroundProcess {
	pid: number;
	/** Everything the process printed. */
	logFile: string;
	/** Resolves with the exit code (or signal) once the process has exited. */
	exited: Promise<string>;
	/** Whether the process is still running. */
	running(): boolean;
	/** SIGTERM to its process group, then SIGKILL when it has not exited after `graceSeconds`. */
	stop(graceSeconds?: number): Promise<void>;
	/** SIGKILL to the process itself, at once: it dies as in a crash. */
	crash(): void;
	/** SIGKILL to its whole process group at once; resolves once the process has exited. */
	kill(): Promise<void>;
}

export const tail = (file: string) => {
	try {
		return fs.readFileSync(file, 'utf8').slice(-4000);
	} catch {
		return '(no output)';
	}
};

/** Starts `command` in the background; its output (stdout and stderr) goes to `logFile`. */
export function startProcess(
	command: string,
	args: string[],
	options: {
		cwd: string;
		env: Record<string, string | undefined>;
		logFile: string;
		/** Run as this user (PostgreSQL refuses to run as root). */
		uid?: number;
		gid?: number;
		/**
		 * Run under guard.mjs, which stops the group even when this process dies by SIGKILL. `crash()`
		 * then kills the guard, not the command.
		 */
		guarded?: boolean;
	},
): BackgroundProcess {
	const fd = fs.openSync(options.logFile, 'w');
	const guard = path.join(repositoryRoot(), 'test', 'e2e', 'guard.mjs');
	const child = childProcess.spawn(
		options.guarded ? processRef.execPath : command,
		options.guarded ? [guard, command, ...args] : args,
		{
			cwd: options.cwd,
			env: options.env,
			// The guard's stdin is a pipe this process never writes to: it closes when this process ends.
			stdio: [options.guarded ? 'pipe' : 'ignore', fd, fd],
			detached: true,
			uid: options.uid,
			gid: options.gid,
		},
	);
	fs.closeSync(fd);
	let exitedWith: string | undefined;
	const exited = new Promise<string>((resolve) => {
		child.on('exit', (code, signal) => {
			exitedWith = signal ?? `code ${code}`;
			child.stdin?.destroy();
			resolve(exitedWith);
		});
		child.on('error', (error) => {
			exitedWith = exitedWith ?? `error: ${error.message}`;
			resolve(exitedWith);
		});
	});
	const pid = child.pid ?? -1;
	// Short sleeps rather than one long one: no timer is left behind once the process is gone.
	const exitWithin = async (seconds: number) => {
		const deadline = Date.now() + seconds * 1000;
		while (exitedWith === undefined && Date.now() < deadline) await sleep(100);
	};
	const signalGroup = (name: 'SIGTERM' | 'SIGKILL') => {
		try {
			processRef.kill(-pid, name); // the whole process group we started
		} catch {
			// already gone
		}
	};

	// Whatever happens to this process, the child must not outlive it.
	const killNow = () => {
		if (exitedWith === undefined && pid > 0) signalGroup('SIGKILL');
	};
	const onSignal = (signal: NodeJS.Signals) => {
		killNow();
		processRef.exit(signal === 'SIGINT' ? 130 : 143);
	};
	processRef.on('exit', killNow);
	processRef.once('SIGINT', onSignal);
	processRef.once('SIGTERM', onSignal);
	void exited.then(() => {
		processRef.removeListener('exit', killNow);
		processRef.removeListener('SIGINT', onSignal);
		processRef.removeListener('SIGTERM', onSignal);
	});

	return {
		pid,
		logFile: options.logFile,
		exited,
		running: () => exitedWith === undefined,
		stop: async (graceSeconds = 20) => {
			if (exitedWith !== undefined || pid <= 0) return;
			signalGroup('SIGTERM');
			await exitWithin(graceSeconds);
			if (exitedWith === undefined) {
				signalGroup('SIGKILL');
				await exitWithin(5);
			}
		},
		crash: () => {
			if (exitedWith === undefined && pid > 0) processRef.kill(pid, 'SIGKILL');
		},
		kill: async () => {
			if (exitedWith !== undefined || pid <= 0) return;
			signalGroup('SIGKILL');
			await exitWithin(5);
		},
	};
}

/**
 * Waits until `ready()` holds; rejects with the process's output when it exits first or is not ready
 * within the timeout, and stops it then.
 */
export async function waitUntilReady(
	child: BackgroundProcess,
	what: string,
	ready: () => Promise<boolean> | boolean,
	timeoutSeconds: number,
): Promise<void> {
	const started = Date.now();
	let isReady = false;
	try {
		for (;;) {
			isReady = await ready();
			if (isReady) return;
			if (!child.running()) {
				throw new Error(
					`${what} exited (${await child.exited}) before it was ready:\n${tail(child.logFile)}`,
				);
			}
			if (Date.now() - started > timeoutSeconds * 1000) {
				throw new Error(`${what} was not ready after ${timeoutSeconds} s:\n${tail(child.logFile)}`);
			}
			await sleep(250);
		}
	} finally {
		if (!isReady) await child.stop();
	}
}

/** Whether the process's output contains `text` (a readiness line). */
export const printed = (child: BackgroundProcess, text: string) => () =>
	fs.readFileSync(child.logFile, 'utf8').includes(text);

/**
 * Moves what an earlier start of the instance's server printed to runs/server-<n>.log, where the
 * secret scan reads it (secrets.ts `addInstanceFiles`), so that no start overwrites it.
 */
export function keepServerOutput(userFolder: string): void {
	const output = path.join(userFolder, SERVER_OUTPUT_FILE);
	if (!fs.existsSync(output)) return;
	const runs = path.join(userFolder, 'runs');
	fs.mkdirSync(runs, { recursive: true });
	let start = 1;
	while (fs.existsSync(path.join(runs, `server-${start}.log`))) start++;
	fs.renameSync(output, path.join(runs, `server-${start}.log`));
}

/**
 * Starts `n8n start` for the instance and resolves once /healthz/readiness answers 200 (the database
 * is migrated and the server listens). Rejects with the server's output when it exits or does not
 * get ready within the timeout; the process is stopped in both cases.
 */
export async function startServer(
	n8n: N8nInstance,
	options: {
		timeoutSeconds?: number;
		env?: Record<string, string>;
		/** The port to listen on when it is free (default: any free port). */
		port?: number;
	} = {},
): Promise<N8nServer> {
	const port = await freePort(options.port);
	const brokerPort = await freePort();
	const url = `http://127.0.0.1:${port}`;
	const started = Date.now();
	keepServerOutput(n8n.userFolder);
	const server = startProcess(n8n.install.nodeBin, [n8n.install.n8nMain, 'start'], {
		cwd: n8n.userFolder,
		env: {
			...n8n.env(),
			N8N_PORT: String(port),
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_HOST: '127.0.0.1',
			N8N_PROTOCOL: 'http',
			N8N_EDITOR_BASE_URL: url,
			N8N_SECURE_COOKIE: 'false',
			N8N_RUNNERS_BROKER_PORT: String(brokerPort),
			N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
			N8N_HIRING_BANNER_ENABLED: 'false',
			N8N_ONBOARDING_FLOW_DISABLED: 'true',
			...options.env,
		},
		logFile: path.join(n8n.userFolder, SERVER_OUTPUT_FILE),
		guarded: true,
	});
	await waitUntilReady(
		server,
		`n8n start (${url}/healthz/readiness)`,
		async () =>
			await fetch(`${url}/healthz/readiness`, { headers: NEW_CONNECTION }).then(
				(response) => response.status === 200,
				() => false, // not listening yet
			),
		options.timeoutSeconds ?? 180,
	);
	return {
		url,
		logFile: server.logFile,
		startSeconds: (Date.now() - started) / 1000,
		processGroup: server.pid,
		exited: server.exited,
		stop: async () => await server.stop(),
		kill: async () => await server.kill(),
	};
}
