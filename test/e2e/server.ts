/**
 * `n8n start` as a server for the editor test: a real n8n serving its editor and REST API on a free
 * port of 127.0.0.1, with the instance's user folder (package and credentials already in place).
 * The server runs in its own process group under guard.mjs, so stopping it also stops whatever it
 * started, and it never outlives this process, however this process ends.
 */
import { sleep } from 'n8n-workflow';

import { childProcess, fs, path, processRef } from '../support/node';
import { freePort, type N8nInstance } from './n8n';
import { SERVER_OUTPUT_FILE } from './secrets';
import { repositoryRoot } from './suite';

export interface N8nServer {
	/** Base URL of the editor and the REST API, without a trailing slash. */
	url: string;
	/** Everything the server printed. */
	logFile: string;
	/** Seconds from spawn to a ready /healthz/readiness. */
	startSeconds: number;
	/** The process group of n8n and whatever it started (the id of its guard process). */
	processGroup: number;
	/** Resolves with n8n's exit code when it ends, stopped or not. */
	exited: Promise<number | null>;
	stop(): Promise<void>;
}

const tail = (file: string) => {
	try {
		return fs.readFileSync(file, 'utf8').slice(-4000);
	} catch {
		return '(no output)';
	}
};

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
	const timeoutSeconds = options.timeoutSeconds ?? 180;
	const port = await freePort(options.port);
	const brokerPort = await freePort();
	const url = `http://127.0.0.1:${port}`;
	const logFile = path.join(n8n.userFolder, SERVER_OUTPUT_FILE);
	const fd = fs.openSync(logFile, 'w');
	const started = Date.now();
	const guard = path.join(repositoryRoot(), 'test', 'e2e', 'guard.mjs');
	const child = childProcess.spawn(
		n8n.install.nodeBin,
		[guard, n8n.install.nodeBin, n8n.install.n8nMain, 'start'],
		{
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
			// The guard's stdin is a pipe this process never writes to: it closes when this process ends.
			stdio: ['pipe', fd, fd],
			detached: true,
		},
	);
	fs.closeSync(fd);
	let exited: number | null | undefined;
	const exit = new Promise<number | null>((resolve) => {
		child.on('exit', (code) => {
			exited = code;
			child.stdin?.destroy();
			resolve(code);
		});
		child.on('error', () => {
			exited = exited ?? -1;
			resolve(exited);
		});
	});

	const stop = async () => {
		if (exited !== undefined || child.pid === undefined) return;
		const signal = (name: 'SIGTERM' | 'SIGKILL') => {
			try {
				processRef.kill(-(child.pid as number), name); // the whole process group we started
			} catch {
				// already gone
			}
		};
		// Short sleeps: a long one would keep this process alive after n8n ended.
		const ended = async (seconds: number) => {
			for (let waited = 0; waited < seconds * 1000 && exited === undefined; waited += 100) {
				await sleep(100);
			}
			return exited !== undefined;
		};
		signal('SIGTERM');
		if (!(await ended(20))) {
			signal('SIGKILL');
			await ended(5);
		}
	};

	let ready = false;
	try {
		for (;;) {
			if (exited !== undefined) {
				throw new Error(`n8n start exited (code ${exited}) before it was ready:\n${tail(logFile)}`);
			}
			if (Date.now() - started > timeoutSeconds * 1000) {
				throw new Error(
					`n8n start was not ready after ${timeoutSeconds} s (${url}/healthz/readiness):\n${tail(logFile)}`,
				);
			}
			try {
				const response = await fetch(`${url}/healthz/readiness`);
				if (response.status === 200) break;
			} catch {
				// not listening yet
			}
			await sleep(500);
		}
		ready = true;
	} finally {
		if (!ready) await stop();
	}
	return {
		url,
		logFile,
		startSeconds: (Date.now() - started) / 1000,
		processGroup: child.pid as number,
		exited: exit,
		stop,
	};
}
