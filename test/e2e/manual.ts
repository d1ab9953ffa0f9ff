/**
 * Manual executions, as the editor runs them: a signed-in owner asks a running n8n (`n8n start`) to run
 * a workflow from its trigger (`POST /rest/workflows/:id/run`), then reads the saved execution. This is
 * how a trigger's "fetch test event" runs in manual mode, which `n8n execute` cannot do.
 */
import { sleep } from 'n8n-workflow';

import { fs, path } from '../support/node';
import type { Execution } from './n8n';
import type { RunJson } from './report';
import { NEW_CONNECTION, type N8nServer } from './server';

/** Credentials of the instance's owner, created on the first sign-in (the instances are throwaway). */
export const OWNER = {
	email: 'owner@example.com',
	firstName: 'Flare',
	lastName: 'Tester',
	password: 'Flare-e2e-0wner',
};

/** The execution data n8n's REST API returns is serialised with `flatted`: this reads it back. */
export function unflatten(text: string): unknown {
	const input = JSON.parse(text) as unknown[];
	const revived = new Set<object>();
	// Every object is one entry of `input`; inside it, a string is the index of the entry it holds.
	const revive = (value: object): object => {
		if (revived.has(value)) return value;
		revived.add(value);
		const record = value as Record<string, unknown>;
		for (const key of Object.keys(record)) {
			if (typeof record[key] !== 'string') continue;
			const target = input[Number(record[key])];
			record[key] = target !== null && typeof target === 'object' ? revive(target) : target;
		}
		return value;
	};
	const root = input[0];
	return root !== null && typeof root === 'object' ? revive(root) : root;
}

interface SavedExecution {
	id: string;
	status: string;
	data: string;
}

export class EditorSession {
	private executions = 0;

	private constructor(
		private readonly server: N8nServer,
		private readonly cookie: string,
		private readonly folder: string,
	) {}

	/** Creates the owner account of a fresh instance; its answer signs the owner in. */
	static async signIn(server: N8nServer, userFolder: string): Promise<EditorSession> {
		await EditorSession.restReady(server);
		return EditorSession.fromAnswer(server, userFolder, await EditorSession.setUpOwner(server));
	}

	/** Signs the owner in again, e.g. after the instance was restarted. */
	static async logIn(server: N8nServer, userFolder: string): Promise<EditorSession> {
		await EditorSession.restReady(server);
		const response = await fetch(`${server.url}/rest/login`, {
			method: 'POST',
			headers: EditorSession.headers(),
			body: JSON.stringify({ emailOrLdapLoginId: OWNER.email, password: OWNER.password }),
		});
		if (!response.ok) {
			throw new Error(
				`n8n refused the owner's login: HTTP ${response.status} ${await response.text()}`,
			);
		}
		return EditorSession.fromAnswer(server, userFolder, response);
	}

	/** The session whose cookie n8n set in `response`. */
	private static fromAnswer(
		server: N8nServer,
		userFolder: string,
		response: Response,
	): EditorSession {
		const cookie = (response.headers.getSetCookie?.() ?? [])
			.map((value) => value.split(';')[0])
			.find((value) => value.startsWith('n8n-auth='));
		if (!cookie) throw new Error(`n8n set no n8n-auth cookie after ${response.url}`);
		const folder = path.join(userFolder, 'runs');
		fs.mkdirSync(folder, { recursive: true });
		return new EditorSession(server, cookie, folder);
	}

	/**
	 * Creates the owner account unless the instance has one (a user folder kept from an earlier run);
	 * returns whether it created it. Signs nothing in: the editor's login form does that.
	 */
	static async ensureOwner(server: N8nServer): Promise<boolean> {
		await EditorSession.restReady(server);
		const answer = await fetch(`${server.url}/rest/settings`, { headers: NEW_CONNECTION });
		const settings = (await answer.json()) as {
			data: { userManagement: { showSetupOnFirstLoad?: boolean } };
		};
		if (!settings.data.userManagement.showSetupOnFirstLoad) return false;
		await EditorSession.setUpOwner(server);
		return true;
	}

	private static async setUpOwner(server: N8nServer): Promise<Response> {
		const response = await fetch(`${server.url}/rest/owner/setup`, {
			method: 'POST',
			headers: EditorSession.headers(),
			body: JSON.stringify(OWNER),
		});
		if (!response.ok) {
			throw new Error(
				`n8n refused the owner set-up: HTTP ${response.status} ${await response.text()}`,
			);
		}
		return response;
	}

	/** n8n 1.x reports ready (database migrated) before its REST routes exist: wait for them. */
	private static async restReady(server: N8nServer, timeoutSeconds = 120): Promise<void> {
		const started = Date.now();
		for (;;) {
			const status = await fetch(`${server.url}/rest/settings`, { headers: NEW_CONNECTION }).then(
				(response) => response.status,
				() => 0,
			);
			if (status === 200) return;
			if (Date.now() - started > timeoutSeconds * 1000) {
				throw new Error(
					`n8n's REST API did not answer within ${timeoutSeconds} s (last: HTTP ${status})`,
				);
			}
			await sleep(500);
		}
	}

	/**
	 * The editor sends a browser id with every request; n8n ties the session cookie to it. Each request
	 * takes a new connection (server.ts NEW_CONNECTION).
	 */
	private static headers(cookie?: string): Record<string, string> {
		return {
			'content-type': 'application/json',
			'browser-id': 'flare-e2e',
			...NEW_CONNECTION,
			...(cookie ? { cookie } : {}),
		};
	}

	/**
	 * A request of the editor's; an n8n that does not answer within a minute fails it. A GET that found
	 * no connection, or lost it, is sent again (twice at most): reading changes nothing.
	 */
	async request<T>(method: string, route: string, body?: unknown): Promise<T> {
		const send = async () =>
			await fetch(`${this.server.url}/rest${route}`, {
				method,
				headers: EditorSession.headers(this.cookie),
				body: body === undefined ? undefined : JSON.stringify(body),
				signal: AbortSignal.timeout(60_000),
			});
		const attempt = async () =>
			await send().then(
				(answer) => ({ answer }),
				(error: Error) => ({ error }),
			);
		let sent = await attempt();
		for (let retry = 0; retry < 2 && method === 'GET' && lostConnection(sent); retry++) {
			await sleep(1_000);
			sent = await attempt();
		}
		if ('error' in sent) return await Promise.reject(sent.error);
		const response = sent.answer;
		const text = await response.text();
		if (!response.ok) throw new Error(`${method} /rest${route}: HTTP ${response.status} ${text}`);
		return (JSON.parse(text) as { data: T }).data;
	}

	/**
	 * Activates (publishes) a workflow, as the editor's Publish button does. n8n 2.x adds its triggers
	 * after answering: see N8nInstance.triggerActivations.
	 */
	async activate(workflowId: string): Promise<void> {
		const { versionId } = await this.request<{ versionId: string }>(
			'GET',
			`/workflows/${workflowId}`,
		);
		await this.request('POST', `/workflows/${workflowId}/activate`, { versionId });
	}

	/** Deactivates (unpublishes) a workflow, as the editor's Unpublish does: n8n removes its triggers. */
	async deactivate(workflowId: string): Promise<void> {
		await this.request('POST', `/workflows/${workflowId}/deactivate`, {});
	}

	/**
	 * Runs the workflow from `trigger` as the editor's "Execute workflow" does, waits for it to end,
	 * and returns it like `n8n execute` would (the run, and a file holding what n8n answered).
	 */
	async runFromTrigger(
		workflow: { id: string } & Record<string, unknown>,
		trigger: string,
		timeoutSeconds = 300,
	): Promise<Execution> {
		const started = Date.now();
		const answer = await this.request<{ executionId?: string; waitingForWebhook?: boolean }>(
			'POST',
			`/workflows/${workflow.id}/run`,
			{ workflowData: workflow, triggerToStartFrom: { name: trigger } },
		);
		if (!answer.executionId) {
			throw new Error(`n8n started no execution: ${JSON.stringify(answer)}`);
		}
		const run = await this.finishedExecution(answer.executionId, timeoutSeconds);
		const output = JSON.stringify(run, null, 2);
		this.executions++;
		const outputFile = path.join(
			this.folder,
			`manual-${String(this.executions).padStart(2, '0')}-${workflow.id}.json`,
		);
		fs.writeFileSync(outputFile, output);
		return {
			workflowId: workflow.id,
			executionId: answer.executionId,
			run,
			exitCode: run.status === 'success' ? 0 : 1,
			output,
			outputFile,
			seconds: (Date.now() - started) / 1000,
		};
	}

	/** A saved execution: its status, and its run data once n8n has stored it. */
	async execution(id: string): Promise<{ status: string; run?: RunJson }> {
		const saved = await this.request<SavedExecution>('GET', `/executions/${id}`);
		const data = saved.data ? (unflatten(saved.data) as Partial<RunJson['data']>) : undefined;
		return {
			status: saved.status,
			run: data?.resultData ? { status: saved.status, data: data as RunJson['data'] } : undefined,
		};
	}

	/**
	 * Waits until n8n runs no execution, e.g. after a failed request left one running whose requests
	 * would otherwise reach the fake during the next case. What still runs after `timeoutSeconds` is
	 * stopped, as the editor's Stop button does, and waited for as long again at most.
	 */
	async settled(timeoutSeconds = 120): Promise<void> {
		const filter = encodeURIComponent(JSON.stringify({ status: ['new', 'running'] }));
		let stopped: string[] | undefined;
		const refusals: string[] = [];
		let started = Date.now();
		for (;;) {
			const { results } = await this.request<{ results: Array<{ id: string }> }>(
				'GET',
				`/executions?filter=${filter}`,
			);
			if (results.length === 0) return;
			if (Date.now() - started > timeoutSeconds * 1000) {
				const ids = results.map((execution) => execution.id);
				if (stopped) {
					const refused = refusals.length ? ` (${refusals.join('; ')})` : '';
					throw new Error(
						`n8n still runs execution(s) ${ids.join(', ')} ${timeoutSeconds} s after it was asked to stop ${stopped.join(', ')}${refused}`,
					);
				}
				// One that ended meanwhile cannot be stopped (n8n answers 400): the next poll decides.
				for (const id of ids) {
					await this.request('POST', `/executions/${id}/stop`, {}).then(undefined, (error: Error) => {
						if (!error.message.includes(': HTTP 400 ')) refusals.push(error.message);
					});
				}
				stopped = ids;
				started = Date.now();
			}
			await sleep(250);
		}
	}

	/**
	 * Waits until the execution has ended and its data is stored (n8n can report the end of an
	 * execution a moment before its data is stored; n8n 1.123 even a success whose data is still
	 * empty, logging "Found successful execution where data is empty stringified array"), and
	 * returns its run.
	 */
	async finishedExecution(id: string, timeoutSeconds = 300): Promise<RunJson> {
		const started = Date.now();
		for (;;) {
			const { status, run } = await this.execution(id);
			const stored = run && (status !== 'success' || Object.keys(run.data.resultData.runData ?? {}).length > 0);
			if (!['new', 'running'].includes(status) && stored) return run;
			if (Date.now() - started > timeoutSeconds * 1000) {
				throw new Error(
					`execution ${id} still ${status}, without its data, after ${timeoutSeconds} s`,
				);
			}
			await sleep(250);
		}
	}
}

/** A request that never got an answer: no connection, or one lost (not a timeout, not an HTTP error). */
function lostConnection(sent: { error: Error } | { answer: Response }): boolean {
	return 'error' in sent && sent.error.name === 'TypeError' && sent.error.message === 'fetch failed';
}
