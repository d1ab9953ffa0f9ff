import 'reflect-metadata';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IDataObject,
	IExecuteData,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	INodeTypes,
	IPollFunctions,
	IRun,
	ITaskData,
	IVersionedNodeType,
	IWorkflowExecuteAdditionalData,
	INodeListSearchResult,
	INodeParameters,
	INodePropertyOptions,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import {
	NodeConnectionTypes,
	NodeHelpers,
	Workflow,
	createRunExecutionData,
	sleep,
} from 'n8n-workflow';
import {
	ExecuteContext,
	ExecutionLifecycleHooks,
	LoadOptionsContext,
	PackageDirectoryLoader,
	RoutingNode,
	WorkflowExecute,
} from 'n8n-core';

import { path, processRef } from '../support/node';
import { collectRun, registerSecret } from './collect';
import { useGenerousRegexTimeout } from './regex';
import { asNode, instrumentMasking, observeExposures } from './exposure';
import { CredentialStore, HarnessCredentialsHelper } from './credentials';

export const PACKAGE_NAME = 'n8n-nodes-flareio';
export const CREDENTIAL_TYPE = 'flareApi';

/** Number of items that the nodes of a run output. */
function outputItems(run: IRun): number {
	let count = 0;
	for (const tasks of Object.values(run.data.resultData.runData)) {
		for (const task of tasks) for (const items of task.data?.main ?? []) count += items?.length ?? 0;
	}
	return count;
}

/** Source of input items for the node under test, so that items are paired to a real upstream node. */
class HarnessItems implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Harness Items',
		name: 'harnessItems',
		group: ['input'],
		version: 1,
		description: 'Emits the JSON items given in its parameter',
		defaults: { name: 'Items' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Items', name: 'items', type: 'json', default: '[]' }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = JSON.parse(this.getNodeParameter('items', 0) as string) as IDataObject[];
		return [items.map((json) => ({ json, pairedItem: { item: 0 } }))];
	}
}

/** Executions started in this process by every harness, for their IDs. */
let executionsStarted = 0;

/** n8n's no-op node type name; the credential test runs as a temporary node of this type. */
const NO_OP = 'n8n-nodes-base.noOp';

let loaded: Promise<PackageDirectoryLoader> | undefined;

/**
 * Loads the built package (dist/) exactly as n8n loads a community package; from the folder that
 * `FLARE_PACKAGE_DIR` names, if set (the trigger model's deliberately broken variants).
 */
export async function loadPackage(): Promise<PackageDirectoryLoader> {
	loaded ??= (async () => {
		const directory = processRef.env.FLARE_PACKAGE_DIR ?? path.resolve('.');
		const loader = new PackageDirectoryLoader(directory);
		await loader.loadAll();
		// What each node run's masking was given, for the leaked-value scan (exposure.ts).
		await instrumentMasking(directory);
		return loader;
	})();
	return await loaded;
}

/**
 * Lifts Flare's documented pace (Search 1 request/s, Basic 4/s) from the node's rate gates in this
 * test file, for suites of hundreds of runs that test something else (the pacing suites keep it).
 * Gates are made per organization on first use, so this applies to every fake started afterwards
 * whose gates are made before the returned function restores the pace (fakes started later).
 */
export async function withoutRatePacing(): Promise<() => void> {
	const gate = (await import(path.resolve('dist/nodes/Flare/shared/rateGate.js'))) as {
		DOCUMENTED_INTERVAL_MS: Record<string, number>;
	};
	const documented = { ...gate.DOCUMENTED_INTERVAL_MS };
	gate.DOCUMENTED_INTERVAL_MS.search = 0;
	gate.DOCUMENTED_INTERVAL_MS.basic = 0;
	return () => Object.assign(gate.DOCUMENTED_INTERVAL_MS, documented);
}

class HarnessNodeTypes implements INodeTypes {
	constructor(private readonly types: Record<string, INodeType | IVersionedNodeType>) {}

	getByName(name: string) {
		const type = this.types[name];
		if (!type) throw new Error(`Unknown node type ${name}`);
		return type;
	}

	getByNameAndVersion(name: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.getByName(name), version);
	}

	getKnownTypes() {
		return {};
	}
}

export interface NodeRun {
	/** Items of each output (0 = main, 1 = error output when enabled). */
	outputs: INodeExecutionData[][];
	error?: ITaskData['error'];
	hints?: ITaskData['hints'];
}

export interface WorkflowResult {
	run: IRun;
	status: IRun['status'];
	/** The failure that stopped the workflow, if any. */
	error: IRun['data']['resultData']['error'];
	node(name: string): NodeRun;
}

export interface FlareNodeSpec {
	type?: 'flare' | 'flareTrigger';
	name?: string;
	parameters: IDataObject;
	onError?: INode['onError'];
	/** n8n's node settings Retry On Fail, Max Tries and Wait Between Tries (ms). */
	retryOnFail?: { maxTries: number; waitBetweenTries: number };
}

/** The workflow `Items → <our node>`: the items node emits `items` (one empty item by default). */
export function itemsIntoNode(
	spec: FlareNodeSpec,
	options: { items?: IDataObject[]; credentialId?: string } = {},
): { nodes: INode[]; connections: Workflow['connectionsBySourceNode'] } {
	const name = spec.name ?? 'Flare';
	return {
		nodes: [
			{
				id: 'items',
				name: 'Items',
				type: 'harness.items',
				typeVersion: 1,
				position: [0, 0],
				parameters: { items: JSON.stringify(options.items ?? [{}]) },
			},
			{
				id: 'flare',
				name,
				type: `${PACKAGE_NAME}.${spec.type ?? 'flare'}`,
				typeVersion: 1,
				position: [200, 0],
				parameters: spec.parameters,
				onError: spec.onError,
				...(spec.retryOnFail ? { retryOnFail: true, ...spec.retryOnFail } : {}),
				credentials: { [CREDENTIAL_TYPE]: { id: options.credentialId ?? 'cred-1', name: 'Flare' } },
			} as INode,
		],
		connections: { Items: { main: [[{ node: name, type: NodeConnectionTypes.Main, index: 0 }]] } },
	};
}

/**
 * Runs workflows with n8n-core's real WorkflowExecute: our package loaded from dist/ by n8n's own
 * loader, credentials served by {@link HarnessCredentialsHelper}, HTTP over real sockets.
 */
export class Harness {
	readonly credentials = new CredentialStore();
	/**
	 * n8n's Variables (`$vars`): n8n reads them into the additional data of an activation or an
	 * execution as it starts (`WorkflowExecuteAdditionalData.getBase`, frozen), so a change reaches an
	 * active trigger at its next activation.
	 */
	readonly variables: Record<string, string> = {};

	private readonly helper: HarnessCredentialsHelper;

	private constructor(private readonly loader: PackageDirectoryLoader) {
		this.helper = new HarnessCredentialsHelper(this.credentials, {
			getByName: (name: string): ICredentialType => loader.getCredential(name).type,
		});
	}

	static async create(): Promise<Harness> {
		useGenerousRegexTimeout();
		return new Harness(await loadPackage());
	}

	/**
	 * Edits a stored credential as n8n's credential dialog does: the fields given change, the hidden
	 * ones (the access token and what it was issued for) are kept.
	 */
	editFlareCredential(changes: IDataObject, id = 'cred-1'): void {
		registerSecret(changes.apiKey);
		const record = this.credentials.get(id);
		this.credentials.put({ ...record, data: { ...record.data, ...(changes as ICredentialDataDecryptedObject) } });
	}

	/** Makes n8n slow to hand requests to its HTTP client: `delayMs` is asked once per request. */
	delayHandOver(delayMs: () => number = () => 0): void {
		this.helper.handOverDelayMs = delayMs;
	}

	/** When our node's execute() last settled (ms since the epoch): cancellation tests read it. */
	lastSettledAt?: number;

	/**
	 * Our node types, each execute() timed (see {@link lastSettledAt}), and each execute() and poll()
	 * known as its node's to what the masking is given (exposure.ts); behaviour unchanged.
	 */
	private timed(type: INodeType | IVersionedNodeType): INodeType | IVersionedNodeType {
		const { execute, poll } = type as INodeType;
		if (!execute && !poll) return type;
		const settled = () => (this.lastSettledAt = Date.now());
		const called = () => this.executeCalls++;
		return Object.assign(Object.create(type) as INodeType, {
			...(execute && {
				async execute(this: IExecuteFunctions) {
					called();
					try {
						return await asNode(this.getNode().name, async () => await execute.call(this));
					} finally {
						settled();
					}
				},
			}),
			...(poll && {
				async poll(this: IPollFunctions) {
					return await asNode(this.getNode().name, async () => await poll.call(this));
				},
			}),
		});
	}

	/** Times n8n called our nodes' execute(): once per node run, again for each of n8n's retries. */
	executeCalls = 0;

	/** Stores a `flareApi` credential (id `cred-1` unless given) pointing at `baseUrl`. */
	addFlareCredential(data: IDataObject, id = 'cred-1'): string {
		registerSecret(data.apiKey);
		this.credentials.put({ id, name: `Flare ${id}`, type: CREDENTIAL_TYPE, data: { accessToken: '', ...data } });
		return id;
	}

	/** Node types besides the package's, by their full name (e.g. the lifecycle probe, probe.ts). */
	private readonly otherTypes: Record<string, INodeType> = {};

	/** Makes a node type of another package (as n8n would load it) known to the workflows run here. */
	addNodeType(name: string, type: INodeType): void {
		this.otherTypes[name] = type;
	}

	nodeTypes(): HarnessNodeTypes {
		const types: Record<string, INodeType | IVersionedNodeType> = { 'harness.items': new HarnessItems(), ...this.otherTypes };
		for (const [name, { type }] of Object.entries(this.loader.nodeTypes)) {
			types[`${PACKAGE_NAME}.${name}`] = this.timed(type);
		}
		return new HarnessNodeTypes(types);
	}

	/**
	 * What n8n gives an execution (or an activation) besides its workflow; each call its own
	 * execution ID, as n8n gives each execution (the Flare node keeps the writes of a run by it).
	 */
	additionalData(hooks: ExecutionLifecycleHooks): IWorkflowExecuteAdditionalData {
		return {
			credentialsHelper: this.helper,
			hooks,
			executionId: `harness-${++executionsStarted}`,
			currentNodeExecutionIndex: 0,
			restApiUrl: 'http://localhost:5678/rest',
			instanceBaseUrl: 'http://localhost:5678',
			formBaseUrl: 'http://localhost:5678/form',
			formWaitingBaseUrl: 'http://localhost:5678/form-waiting',
			formTestBaseUrl: 'http://localhost:5678/form-test',
			webhookBaseUrl: 'http://localhost:5678/webhook',
			webhookWaitingBaseUrl: 'http://localhost:5678/webhook-waiting',
			webhookTestBaseUrl: 'http://localhost:5678/webhook-test',
			mcpBaseUrl: 'http://localhost:5678/mcp',
			mcpTestBaseUrl: 'http://localhost:5678/mcp-test',
			variables: Object.freeze({ ...this.variables }),
			userId: 'harness-user',
			currentNodeParameters: undefined,
			executeWorkflow: async () => {
				throw new Error('Sub-workflows are not supported by the harness');
			},
			getRunExecutionData: async () => undefined,
			getRuntimeCredential: async () => undefined,
			logAiEvent: () => {},
			startRunnerTask: async () => {
				throw new Error('Task runners are not supported by the harness');
			},
		} as unknown as IWorkflowExecuteAdditionalData;
	}

	/**
	 * Runs `Items → <our node>`: the items node emits `items` (one empty item by default), our node
	 * uses the stored credential `credentialId`.
	 */
	async runNode(
		spec: FlareNodeSpec,
		options: { items?: IDataObject[]; credentialId?: string; mode?: WorkflowExecuteMode; cancelAfterMs?: number } = {},
	): Promise<WorkflowResult & { output: INodeExecutionData[]; errorOutput: INodeExecutionData[] }> {
		const name = spec.name ?? 'Flare';
		const { nodes, connections } = itemsIntoNode(spec, options);
		const result = await this.runWorkflow(nodes, connections, options.mode, options.cancelAfterMs);
		const run = result.status === 'success' || result.run.data.resultData.runData[name] ? result.node(name) : { outputs: [] };
		return { ...result, output: run.outputs[0] ?? [], errorOutput: run.outputs[1] ?? [] };
	}

	async runWorkflow(
		nodes: INode[],
		connections: Workflow['connectionsBySourceNode'],
		mode: WorkflowExecuteMode = 'manual',
		cancelAfterMs?: number,
	): Promise<WorkflowResult> {
		const [run, exposures] = await observeExposures(
			async () => await this.executeWorkflow(nodes, connections, mode, cancelAfterMs),
		);
		collectRun('run', run, outputItems(run), nodes, exposures);
		return {
			run,
			status: run.status,
			error: run.data.resultData.error,
			node(name: string): NodeRun {
				const task = run.data.resultData.runData[name]?.[0];
				if (!task) throw new Error(`Node ${name} did not run`);
				return {
					outputs: (task.data?.main ?? []).map((items) => items ?? []),
					error: task.error,
					hints: task.hints,
				};
			},
		};
	}

	/**
	 * Calls a list method of one of our nodes (a picker's `listSearch`, a dropdown's `loadOptions`) as
	 * n8n's DynamicNodeParametersService does: a temporary workflow holding the node being edited, and
	 * a LoadOptionsContext on it at `path`. What it returns or throws is collected for the scans, as
	 * a run's output is.
	 */
	async listOptions(spec: {
		type?: 'flare' | 'flareTrigger';
		kind: 'listSearch' | 'loadOptions';
		method: string;
		parameters: INodeParameters;
		/** The parameter being edited, e.g. `parameters.identifierId`. */
		path: string;
		filter?: string;
		paginationToken?: string;
		credentialId?: string;
	}): Promise<INodeListSearchResult | INodePropertyOptions[]> {
		const nodeTypes = this.nodeTypes();
		const node: INode = {
			id: 'temp',
			name: 'Temp-Node',
			type: `${PACKAGE_NAME}.${spec.type ?? 'flare'}`,
			typeVersion: 1,
			position: [0, 0],
			parameters: spec.parameters,
			credentials: { flareApi: { id: spec.credentialId ?? 'cred-1', name: 'Flare' } },
		};
		const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
		const additionalData = this.additionalData(new ExecutionLifecycleHooks('internal', 'harness', {} as never));
		additionalData.currentNodeParameters = spec.parameters;
		const context = new LoadOptionsContext(workflow, workflow.getNode(node.name)!, additionalData, spec.path);
		const method = nodeTypes.getByNameAndVersion(node.type, 1).methods?.[spec.kind]?.[spec.method] as
			| ((this: LoadOptionsContext, filter?: string, token?: string) => Promise<INodeListSearchResult | INodePropertyOptions[]>)
			| undefined;
		if (!method) throw new Error(`No ${spec.kind} method ${spec.method}`);
		const [outcome, exposures] = await observeExposures(
			async () =>
				await asNode(node.name, async () =>
					await method.call(context, spec.filter, spec.paginationToken).then(
						(result) => ({ result }),
						(error: unknown) => ({ error }),
					),
				),
		);
		const listed = 'result' in outcome ? outcome.result : undefined;
		const count = Array.isArray(listed) ? listed.length : (listed?.results.length ?? 0);
		collectRun('list', outcome, count, [node], exposures, `list.${spec.method}`);
		if ('error' in outcome) throw outcome.error;
		return listed!;
	}

	/** When the last run started with `cancelAfterMs` was cancelled (ms since the epoch). */
	cancelledAt?: number;

	/**
	 * Runs a workflow from its first node and returns n8n's run as is, without the secret scan of
	 * {@link runWorkflow} (which serialises the whole run: the benchmarks use this). With
	 * `cancelAfterMs`, the execution is cancelled then, as the editor's Stop does, and the run n8n
	 * reports at that moment is returned.
	 */
	async executeWorkflow(
		nodes: INode[],
		connections: Workflow['connectionsBySourceNode'],
		mode: WorkflowExecuteMode = 'manual',
		cancelAfterMs?: number,
	): Promise<IRun> {
		const workflow = new Workflow({
			id: 'harness-workflow',
			name: 'Harness',
			nodes,
			connections,
			active: false,
			nodeTypes: this.nodeTypes(),
			settings: { executionOrder: 'v1' },
		});
		const hooks = new ExecutionLifecycleHooks(mode, 'harness', {
			id: 'harness-workflow',
			name: 'Harness',
			nodes,
			connections,
			active: false,
			activeVersionId: null,
			isArchived: false,
			createdAt: new Date(),
			updatedAt: new Date(),
			settings: {},
		} as never);
		const startNode = nodes[0];
		const runData = createRunExecutionData({
			executionData: {
				nodeExecutionStack: [{ node: startNode, data: { main: [[{ json: {} }]] }, source: null }],
			},
		});
		const running = new WorkflowExecute(this.additionalData(hooks), mode, runData).processRunExecutionData(workflow);
		if (cancelAfterMs === undefined) return await running;
		const ended = new Promise<IRun>((resolve) => hooks.addHandler('workflowExecuteAfter', (run) => resolve(run)));
		void sleep(cancelAfterMs).then(() => {
			this.cancelledAt = Date.now();
			running.cancel();
		});
		return await ended;
	}

	/** Runs the credential test the way n8n's CredentialsTester does (a temporary no-op routing node). */
	async testCredential(credentialId = 'cred-1'): Promise<{ status: 'OK' | 'Error'; message: string }> {
		const credentialType = this.loader.getCredential(CREDENTIAL_TYPE).type;
		const node: INode = {
			id: 'temp',
			name: 'Temp-Node',
			type: NO_OP,
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
			credentials: { [CREDENTIAL_TYPE]: { id: credentialId, name: 'Flare' } },
		};
		const testNodeType: INodeType = {
			description: {
				displayName: 'No Operation',
				name: NO_OP,
				group: ['transform'],
				version: 1,
				description: 'Credential test',
				defaults: { name: 'Temp' },
				inputs: [NodeConnectionTypes.Main],
				outputs: [NodeConnectionTypes.Main],
				credentials: [{ name: CREDENTIAL_TYPE, required: true }],
				properties: [
					{ displayName: 'Temp', name: 'temp', type: 'string', default: '', routing: { request: credentialType.test!.request } },
				],
			},
		};
		const workflow = new Workflow({
			nodes: [node],
			connections: {},
			active: false,
			nodeTypes: new HarnessNodeTypes({ [NO_OP]: testNodeType }),
		});
		const hooks = new ExecutionLifecycleHooks('internal', 'harness', {} as never);
		const executeData: IExecuteData = { node, data: {}, source: null };
		const context = new ExecuteContext(
			workflow,
			workflow.getNode('Temp-Node')!,
			this.additionalData(hooks),
			'internal',
			createRunExecutionData(),
			0,
			[],
			{ main: [[{ json: {} }]] },
			executeData,
			[],
		);
		const stored = this.credentials.get(credentialId);
		try {
			await new RoutingNode(context, testNodeType, {
				id: stored.id,
				name: stored.name,
				type: stored.type,
				data: await this.helper.getDecrypted({} as never, { id: stored.id, name: stored.name }, CREDENTIAL_TYPE),
			}).runNode();
			return { status: 'OK', message: 'Connection successful!' };
		} catch (error) {
			collectRun('credentialTest', error, 0);
			const cause = (error as { cause?: { response?: { status: number; statusText?: string }; code?: string } }).cause;
			if (cause?.response) {
				return { status: 'Error', message: cause.response.statusText || `Received HTTP status code: ${cause.response.status}` };
			}
			return { status: 'Error', message: cause?.code ?? (error as Error).message };
		}
	}
}
