import type {
	IDataObject,
	INode,
	INodeType,
	INodeExecutionData,
	IRun,
	IWebhookData,
	IWebhookResponseData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { Workflow, createRunExecutionData } from 'n8n-workflow';
import { ExecutionLifecycleHooks, HookContext, WebhookContext, WorkflowExecute } from 'n8n-core';

import { http, type net } from '../support/node';
import { collectRun, registerSecret } from './collect';
import { CREDENTIAL_TYPE, type Harness, PACKAGE_NAME } from './engine';
import type { AlongsideTrigger } from './poll';
import { type N8nLine, plain, savesStaticDataFor, StaticDataColumn } from './static-data';

/** The credential type of the Flare Alert Trigger's signing secret. */
export const ALERT_CREDENTIAL_TYPE = 'flareAlertWebhookApi';
/** n8n's default bound on a request body (N8N_PAYLOAD_SIZE_MAX, in MiB). */
export const N8N_PAYLOAD_SIZE_MAX_MB = 16;

/** Stores a Flare Alert Webhook API credential with `signingSecret` (the secret scan knows it). */
export function addAlertCredential(
	harness: Harness,
	signingSecret: string,
	id = 'alert-cred-1',
): string {
	registerSecret(signingSecret);
	harness.credentials.put({
		id,
		name: `Flare alerts ${id}`,
		type: ALERT_CREDENTIAL_TYPE,
		data: { signingSecret },
	});
	return id;
}

/**
 * How the n8n served here saves a webhook trigger's static data (docs/alerts.md, "What n8n saves, and
 * when"): both save what the webhook changed after the request (if its Workflow's static data is
 * marked changed then), and what an execution changed when it ends, for a workflow id n8n takes as
 * valid (static-data.ts `savesStaticDataFor`); n8n 2.41 wraps the static data object the webhook's
 * Workflow was built over again as it starts the execution
 * (`WorkflowRunner.establishContextForPersistence`), which clears its change mark.
 */
export type N8nSaving = N8nLine;

export interface AlertTriggerSpec {
	parameters: IDataObject;
	/** The Flare Alert Webhook API credential of the node, if any. */
	credentialId?: string;
	/** The Flare API credential of the node (Alert Channel: Create on Activation), if any. */
	flareCredentialId?: string;
	workflowId?: string;
	name?: string;
	/** The n8n whose saving is reproduced; default 2.41. */
	n8n?: N8nSaving;
	/** The workflow's static data in the database, when another harness workflow shares it. */
	database?: StaticDataColumn;
	/**
	 * Activated with another trigger of the workflow (a poller's harness, through {@link
	 * AlertWebhookWorkflow.alongside}), not on its own.
	 */
	activatedAlongside?: boolean;
}

/** What n8n answered one request. */
export interface WebhookAnswer {
	status: number;
	body: unknown;
}

/**
 * An execution the trigger started: its mode, the trigger's items, and n8n's run once it ended; or,
 * when the node threw, the execution in error n8n records instead (no items, the node's `error`).
 */
export interface StartedExecution {
	mode: WorkflowExecuteMode;
	items: INodeExecutionData[];
	run: IRun;
	error?: { message: string; description?: string | null };
	/** When the request arrived and when the execution started (ms since the epoch). */
	receivedAt: number;
	startedAt: number;
}

/** Workflows made so far: each gets an id of its own unless the spec gives one. */
let alertWorkflows = 0;

/** The parts of express's request and response that n8n and its webhook nodes use. */
type HarnessRequest = http.IncomingMessage & {
	rawBody: Buffer;
	body?: unknown;
	contentType?: string;
	encoding?: BufferEncoding;
	header(name: string): string | undefined;
};
type HarnessResponse = http.ServerResponse & {
	/** What was sent, for the secret scan. */
	sentBody?: unknown;
	status(code: number): HarnessResponse;
	json(body: unknown): HarnessResponse;
	send(body: unknown): HarnessResponse;
};

function asExpressResponse(res: http.ServerResponse): HarnessResponse {
	const response = res as HarnessResponse;
	response.status = (code: number) => {
		response.statusCode = code;
		return response;
	};
	response.json = (body: unknown) => {
		if (!response.headersSent)
			response.setHeader('content-type', 'application/json; charset=utf-8');
		response.sentBody = body;
		response.end(JSON.stringify(body));
		return response;
	};
	response.send = (body: unknown) => {
		if (typeof body === 'object' && body !== null && !Buffer.isBuffer(body))
			return response.json(body);
		response.sentBody = body;
		response.end(body as string | Buffer);
		return response;
	};
	return response;
}

/** n8n's rawBodyReader: the whole body, refused beyond n8n's own bound. */
async function readRawBody(req: http.IncomingMessage): Promise<Buffer | undefined> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of req) {
		size += (chunk as Buffer).length;
		if (size > N8N_PAYLOAD_SIZE_MAX_MB * 1024 * 1024) return undefined;
		chunks.push(chunk as Buffer);
	}
	return Buffer.concat(chunks);
}

/**
 * A workflow with the Flare Alert Trigger (loaded from dist/ by the harness), served over real HTTP
 * the way n8n serves a webhook trigger (n8n's webhook-helpers and live-webhooks, reproduced for the
 * parts that touch a node):
 * - `POST <productionUrl>`: the active workflow ('webhook' mode). As n8n does for each request, the
 *   workflow is built from the static data last saved to the database; the body is read whole and
 *   parsed as n8n parses it (application/json: a body that is not JSON gets n8n's 422 before the
 *   node runs); the node runs in n8n-core's real WebhookContext; data it returns starts an execution
 *   (n8n-core's WorkflowExecute, over the static data read again) that is not waited for
 *   ("onReceived"); the static data is saved when it changed, as the n8n reproduced saves it
 *   ({@link N8nSaving}); then n8n answers. When the execution ends, the static data it changed is
 *   saved.
 * - `POST <testUrl>` after `listen()`: the editor's "listen for test event" ('manual' mode) until a
 *   request starts an execution, as n8n's TestWebhooks (`executeWebhook` deregisters only once an
 *   execution has an id); its static data is never saved.
 * - A node that throws: n8n answers 500 and records an execution in error (webhook-helpers'
 *   `executeWebhook`), which the editor shows for a test event.
 * - `restart()`: a new n8n process: what the node keeps in memory is gone (the node gets an id no
 *   earlier process saw), the saved static data stays.
 */
export class AlertWebhookWorkflow {
	/** Executions wait for this before they run (see {@link holdExecutions}). */
	private held?: Promise<void>;
	/** The next request's save waits for this (see {@link holdSaves}). */
	private heldSaves?: Promise<void>;
	private readonly database: StaticDataColumn;
	/** Every execution started so far, in the order they ended. */
	readonly executions: StartedExecution[] = [];
	/** Every answer, in order. */
	readonly answers: WebhookAnswer[] = [];

	private readonly workflowId: string;
	private name: string;
	private readonly line: N8nSaving;
	readonly webhookId = 'c0ffee00-flare-alert-0000-harness';
	private restarts = 0;
	private nodeId = '';
	private listening = false;
	private readonly running = new Set<Promise<void>>();
	private server?: http.Server;
	private base = '';

	private constructor(
		private readonly harness: Harness,
		private readonly spec: AlertTriggerSpec,
	) {
		this.name = spec.name ?? 'Flare Alert Trigger';
		this.line = spec.n8n ?? '2.41';
		this.workflowId = spec.workflowId ?? `alert-wf-${++alertWorkflows}`;
		this.database = spec.database ?? new StaticDataColumn();
		this.restart();
	}

	/** The static data as n8n last saved it to the database. */
	get saved(): IDataObject {
		return this.database.value ?? {};
	}

	set saved(data: IDataObject) {
		this.database.value = data;
	}

	/** Serves its URLs, then activates the workflow (the node's webhook lifecycle, as n8n runs it). */
	static async start(harness: Harness, spec: AlertTriggerSpec): Promise<AlertWebhookWorkflow> {
		const workflow = new AlertWebhookWorkflow(harness, spec);
		const server = http.createServer((req, res) => void workflow.handle(req, res));
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
		workflow.server = server;
		workflow.base = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
		if (spec.activatedAlongside) return workflow;
		// n8n does not activate a workflow whose activation fails: nothing is served then.
		await workflow.activate().catch(async (error: unknown) => {
			await workflow.stop();
			return await Promise.reject(error);
		});
		return workflow;
	}

	get path(): string {
		return `${this.webhookId}/flare-alert`;
	}

	/** The URL Flare posts to once the workflow is active. */
	get productionUrl(): string {
		return `${this.base}/webhook/${this.path}`;
	}

	/** The URL the editor listens on for a test event. */
	get testUrl(): string {
		return `${this.base}/webhook-test/${this.path}`;
	}

	/** A new n8n process: memory gone, saved static data kept. */
	restart(): void {
		this.nodeId = `flare-alert-trigger-${this.restarts++}`;
	}

	/**
	 * The node renamed in the editor: n8n's `Workflow.renameNode` moves its parameters and connections,
	 * not its static data (`node:<name>` stays under the old name).
	 */
	renameNode(name: string): void {
		this.name = name;
	}

	/** "Listen for test event": requests to the test URL are served until one starts an execution. */
	listen(): void {
		this.listening = true;
	}

	/**
	 * Executions started from now on wait, before their first node runs, until the function returned
	 * is called: an execution still running when the next request comes.
	 */
	holdExecutions(): () => void {
		let release = () => {};
		this.held = new Promise<void>((resolve) => {
			release = () => {
				this.held = undefined;
				resolve();
			};
		});
		return release;
	}

	/**
	 * The save after the next request waits until the function returned is called (and n8n answers
	 * after the save): a request whose save comes after a later request's.
	 */
	holdSaves(): () => void {
		let release = () => {};
		this.heldSaves = new Promise<void>((resolve) => (release = resolve));
		return release;
	}

	/**
	 * This trigger in a workflow whose activation another harness runs (a poller's, sharing the
	 * {@link AlertTriggerSpec.database}): n8n runs its webhook methods over the Workflow it built for
	 * the activation, which the pollers keep.
	 */
	alongside(): AlongsideTrigger {
		return {
			node: () => this.node(),
			activate: async (workflow) =>
				await this.lifecycle('activate', workflow, async (methods, context) => {
					if (!(await methods.checkExists!.call(context())))
						await methods.create!.call(context());
				}),
		};
	}

	/** Saves static data to the database, as WorkflowStaticDataService does (JSON, `toJSON` called). */
	private save(staticData: IDataObject): void {
		if (!savesStaticDataFor(this.line, this.workflowId)) return;
		this.saved = plain(staticData);
		delete this.saved.__dataChanged;
	}

	/** The static data n8n reads from its database: null while it holds none. */
	private stored(): IDataObject | null {
		return this.database.value === null ? null : plain(this.database.value);
	}

	/** Waits until every execution started so far has ended. */
	async settled(): Promise<void> {
		while (this.running.size > 0) await Promise.all([...this.running]);
	}

	async stop(): Promise<void> {
		await this.settled();
		await new Promise<void>((resolve) => {
			this.server?.close(() => resolve());
			this.server?.closeAllConnections();
		});
	}

	private node(): INode {
		const credentials = {
			...(this.spec.credentialId
				? { [ALERT_CREDENTIAL_TYPE]: { id: this.spec.credentialId, name: 'Flare alerts' } }
				: {}),
			...(this.spec.flareCredentialId
				? { [CREDENTIAL_TYPE]: { id: this.spec.flareCredentialId, name: 'Flare' } }
				: {}),
		};
		return {
			id: this.nodeId,
			name: this.name,
			type: `${PACKAGE_NAME}.flareAlertTrigger`,
			typeVersion: 1,
			position: [0, 0],
			webhookId: this.webhookId,
			parameters: plain(this.spec.parameters),
			...(Object.keys(credentials).length ? { credentials } : {}),
		} as INode;
	}

	private workflow(node: INode, staticData: IDataObject | null): Workflow {
		return new Workflow({
			id: this.workflowId,
			name: 'Harness alert trigger',
			nodes: [node],
			connections: {},
			active: true,
			nodeTypes: this.harness.nodeTypes(),
			staticData: staticData ?? undefined,
			settings: { executionOrder: 'v1' },
		});
	}

	private hooks(mode: WorkflowExecuteMode, node: INode): ExecutionLifecycleHooks {
		return new ExecutionLifecycleHooks(mode, 'harness-webhook', {
			id: this.workflowId,
			name: 'Harness alert trigger',
			nodes: [node],
			connections: {},
			active: true,
			activeVersionId: null,
			isArchived: false,
			createdAt: new Date(),
			updatedAt: new Date(),
			settings: {},
		} as never);
	}

	private webhookData(node: INode, workflow: Workflow, mode: WorkflowExecuteMode): IWebhookData {
		const nodeType = workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
		return {
			httpMethod: 'POST',
			node: node.name,
			path: this.path,
			webhookDescription: nodeType.description.webhooks![0],
			workflowId: this.workflowId,
			webhookId: this.webhookId,
			workflowExecuteAdditionalData: {
				...this.harness.additionalData(this.hooks(mode, node)),
				// n8n's webhook URLs: where this harness serves them.
				webhookBaseUrl: `${this.base}/webhook`,
				webhookTestBaseUrl: `${this.base}/webhook-test`,
			},
			isTest: mode === 'manual',
		};
	}

	/**
	 * ActiveWorkflowManager: checkExists, then create when it answers false; then n8n saves the
	 * static data (`saveStaticData`). A method that throws fails the activation, as in n8n.
	 */
	async activate(): Promise<void> {
		await this.lifecycle('activate', undefined, async (methods, context) => {
			if (!(await methods.checkExists!.call(context()))) await methods.create!.call(context());
		});
	}

	/** ActiveWorkflowManager's `deregisterWebhooks`: delete, then n8n saves the static data. */
	async deactivate(): Promise<void> {
		await this.lifecycle('update', undefined, async (methods, context) => {
			await methods.delete!.call(context());
		});
	}

	/**
	 * The node's webhook methods over the workflow n8n builds for the activation, then n8n saves its
	 * static data if it changed; over `shared`, the workflow of another harness's activation, which
	 * saves it.
	 */
	private async lifecycle(
		activation: 'activate' | 'update',
		shared: Workflow | undefined,
		run: (
			methods: NonNullable<NonNullable<INodeType['webhookMethods']>['default']>,
			context: () => HookContext,
		) => Promise<void>,
	): Promise<void> {
		const node = shared?.getNode(this.name) ?? this.node();
		const workflow = shared ?? this.workflow(node, this.stored());
		const webhookData = this.webhookData(node, workflow, 'trigger');
		const methods = workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion)
			.webhookMethods!.default!;
		const context = () =>
			new HookContext(
				workflow,
				node,
				webhookData.workflowExecuteAdditionalData,
				'trigger',
				activation,
				webhookData,
			);
		await run(methods, context);
		if (!shared && workflow.staticData.__dataChanged === true) this.save(workflow.staticData);
	}

	private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
		const receivedAt = Date.now();
		const heldSave = this.heldSaves;
		this.heldSaves = undefined;
		const response = asExpressResponse(res);
		const answer = (status: number, body: unknown) => {
			if (!response.writableEnded) response.status(status).json(body);
		};
		const url = req.url ?? '';
		const mode: WorkflowExecuteMode | undefined =
			req.method === 'POST' && url === `/webhook/${this.path}`
				? 'webhook'
				: req.method === 'POST' && url === `/webhook-test/${this.path}` && this.listening
					? 'manual'
					: undefined;
		if (!mode) {
			answer(404, {
				code: 404,
				message: `The requested webhook "${req.method} ${url}" is not registered.`,
			});
			return this.record(response);
		}
		const rawBody = await readRawBody(req);
		if (!rawBody) {
			answer(413, { code: 413, message: 'request entity too large' });
			return this.record(response);
		}
		const request = Object.assign(req, {
			rawBody,
			header: (name: string) => req.headers[name.toLowerCase()] as string | undefined,
		}) as HarnessRequest;
		// n8n's parseBody for a node of version 1: the body parsed by its media type.
		const [type] = (req.headers['content-type'] ?? '').split(';');
		request.contentType = type.trim().toLowerCase() || undefined;
		if (rawBody.length && request.contentType === 'application/json') {
			try {
				request.body = JSON.parse(rawBody.toString('utf8').replace(/^\uFEFF/, ''));
			} catch {
				answer(422, { code: 422, message: 'Failed to parse request body' });
				return this.record(response);
			}
		} else if (rawBody.length && request.contentType === 'text/plain') {
			request.body = rawBody.toString('utf8');
		}
		request.body ??= {};

		const node = this.node();
		// LiveWebhooks: the workflow over the static data read from the database for this request.
		const staticData = mode === 'webhook' ? this.stored() : {};
		const workflow = this.workflow(node, staticData);
		const webhookData = this.webhookData(node, workflow, mode);
		const additionalData = webhookData.workflowExecuteAdditionalData;
		additionalData.httpRequest = request as never;
		additionalData.httpResponse = response as never;
		const nodeType = workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
		let result: IWebhookResponseData;
		try {
			result = await nodeType.webhook!.call(
				new WebhookContext(workflow, node, additionalData, mode, webhookData, [], null),
			);
		} catch (error) {
			collectRun('webhook', error, 0);
			answer(500, { code: 500, message: 'Workflow Webhook Error: Workflow could not be started!' });
			this.failedExecution(node, mode, error as Error, receivedAt);
			if (mode === 'manual') this.listening = false;
			return this.record(response);
		}
		if (result.workflowData !== undefined) {
			// n8n 2.41's WorkflowRunner.establishContextForPersistence: a Workflow over the static
			// data object the webhook's Workflow was built over, whose ObservableObject.create clears
			// its change mark.
			if (mode === 'webhook' && this.line === '2.41' && staticData) this.workflow(node, staticData);
			this.startExecution(node, mode, result.workflowData, receivedAt);
			if (mode === 'manual') this.listening = false;
		}
		// LiveWebhooks: the static data is saved when its Workflow's is marked changed, then n8n answers.
		if (mode === 'webhook' && heldSave) await heldSave;
		if (mode === 'webhook' && workflow.staticData.__dataChanged === true) {
			this.save(workflow.staticData);
		}
		if (result.noWebhookResponse !== true) {
			// webhook-on-received-response-extractor: the description's responseData (n8n's default
			// "firstEntryJson" when it has none), as is, unless empty.
			const responseData = webhookData.webhookDescription.responseData ?? 'firstEntryJson';
			const started = responseData
				? responseData
				: (result.webhookResponse ?? { message: 'Workflow was started' });
			answer(
				200,
				result.workflowData !== undefined
					? started
					: (result.webhookResponse ?? { message: 'Webhook call received' }),
			);
		}
		this.record(response);
	}

	/** Keeps what n8n answered (the secret and leaked-value scans read it, and the static data saved). */
	private record(response: HarnessResponse): void {
		const answer = { status: response.statusCode, body: response.sentBody ?? null };
		this.answers.push(answer);
		collectRun('webhook', answer, 0, [], undefined, undefined, {
			'webhook answers': answer,
			'static data': this.saved,
		});
	}

	/** webhook-helpers' `executeWebhook` when the node threw: an execution in error, without items. */
	private failedExecution(
		node: INode,
		mode: WorkflowExecuteMode,
		error: Error & { description?: string | null },
		receivedAt: number,
	): void {
		const at = new Date();
		const run = {
			data: createRunExecutionData({
				resultData: {
					runData: {},
					lastNodeExecuted: node.name,
					error: { ...error, message: error.message, stack: error.stack } as never,
				},
			}),
			mode,
			status: 'error',
			finished: false,
			startedAt: at,
			stoppedAt: at,
		} as IRun;
		collectRun('run', run, 0, [node]);
		const { message, description } = error;
		this.executions.push({
			mode,
			items: [],
			run,
			error: { message, description },
			receivedAt,
			startedAt: at.getTime(),
		});
	}

	/**
	 * WorkflowRunner: the execution's workflow over the static data read from the database as it
	 * starts; the trigger's items are its first node's input (n8n runs the node's `execute`, else
	 * passes them on); the run is not waited for. When it ends, the static data it changed is saved
	 * (n8n-core's `workflowExecuteAfter` with `newStaticData`, saved by n8n's lifecycle hooks), not in
	 * manual mode.
	 */
	private startExecution(
		node: INode,
		mode: WorkflowExecuteMode,
		data: INodeExecutionData[][],
		receivedAt: number,
	): void {
		const startedAt = Date.now();
		const workflow = this.workflow(node, mode === 'webhook' ? this.stored() : {});
		const runData = createRunExecutionData({
			executionData: { nodeExecutionStack: [{ node, data: { main: data }, source: null }] },
		});
		const hooks = this.hooks(mode, node);
		hooks.addHandler('workflowExecuteAfter', async (_run, newStaticData) => {
			if (mode !== 'manual' && newStaticData) this.save(newStaticData);
		});
		const held = this.held;
		const running = (held ?? Promise.resolve())
			.then(
				async () =>
					await new WorkflowExecute(this.harness.additionalData(hooks), mode, runData).processRunExecutionData(
						workflow,
					),
			)
			.then((run) => {
				collectRun('run', run, data[0]?.length ?? 0, [node]);
				const items = run.data.resultData.runData[node.name]?.[0]?.data?.main?.[0] ?? [];
				this.executions.push({ mode, items, run, receivedAt, startedAt });
			})
			.finally(() => this.running.delete(running));
		this.running.add(running);
	}
}
