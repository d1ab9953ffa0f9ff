/**
 * The workflows the real n8n runs. Each measured set-up is a sub-workflow called by a parent with a
 * Manual Trigger: `n8n execute --rawOutput` prints the parent's run only (one item), not the million
 * items of the measured node, and n8n records how long the parent's Execute Workflow node took, which
 * is the sub-workflow's run. n8n 2.x runs a sub-workflow only once it is published
 * (`n8n publish:workflow`). The sub-workflow ends with a Limit node that keeps the last item (cheap,
 * and it shows the walk reached the end); its runs are not saved to the database.
 */

export const PACKAGE = 'n8n-nodes-flareio';
export const SEARCH_PATH = '/firework/v4/credentials/global/_search';

interface WorkflowNode {
	id: string;
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
}

export interface Workflow {
	id: string;
	name: string;
	active: false;
	nodes: WorkflowNode[];
	connections: Record<
		string,
		{ main: Array<Array<{ node: string; type: 'main'; index: number }>> }
	>;
	settings: Record<string, unknown>;
}

/** Node name of the parent's Execute Workflow node: its execution time is the measured figure. */
export const MEASURED_NODE = 'Measured sub-workflow';
/** Node name of the Limit node that ends every sub-workflow. */
export const LAST_NODE = 'Last item';

function chain(nodes: WorkflowNode[]): Workflow['connections'] {
	const connections: Workflow['connections'] = {};
	for (let index = 0; index + 1 < nodes.length; index++) {
		connections[nodes[index].name] = {
			main: [[{ node: nodes[index + 1].name, type: 'main', index: 0 }]],
		};
	}
	return connections;
}

function placed(
	nodes: Array<Omit<WorkflowNode, 'position' | 'id'>>,
	prefix: string,
): WorkflowNode[] {
	return nodes.map((node, index) => ({
		...node,
		id: `${prefix}-${index}`,
		position: [index * 220, 0],
	}));
}

/** A parent (Manual Trigger → Execute Workflow) and its sub-workflow running `measured`. */
export function measuredPair(
	id: string,
	name: string,
	measured: Array<Omit<WorkflowNode, 'position' | 'id'>>,
): { parent: Workflow; child: Workflow } {
	const childId = `${id}Sub`;
	const childNodes = placed(
		[
			{
				name: 'Called',
				type: 'n8n-nodes-base.executeWorkflowTrigger',
				typeVersion: 1.1,
				parameters: { inputSource: 'passthrough' },
			},
			...measured,
			{
				name: LAST_NODE,
				type: 'n8n-nodes-base.limit',
				typeVersion: 1,
				parameters: { maxItems: 1, keep: 'lastItems' },
			},
		],
		childId,
	);
	const settings = {
		executionOrder: 'v1',
		saveDataSuccessExecution: 'none',
		saveExecutionProgress: false,
		saveManualExecutions: false,
		callerPolicy: 'any',
	};
	const parentNodes = placed(
		[
			{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, parameters: {} },
			{
				name: MEASURED_NODE,
				type: 'n8n-nodes-base.executeWorkflow',
				typeVersion: 1.2,
				parameters: {
					source: 'database',
					workflowId: { __rl: true, mode: 'id', value: childId },
					mode: 'once',
					options: { waitForSubWorkflow: true },
				},
			},
		],
		id,
	);
	return {
		parent: {
			id,
			name,
			active: false,
			nodes: parentNodes,
			connections: chain(parentNodes),
			settings,
		},
		child: {
			id: childId,
			name: `${name} (measured)`,
			active: false,
			nodes: childNodes,
			connections: chain(childNodes),
			settings,
		},
	};
}

/**
 * A workflow run directly (Manual Trigger → `measured` → the last item), for figures that do not need
 * n8n's timing: no sub-workflow, so nothing to publish.
 */
export function plainWorkflow(
	id: string,
	name: string,
	measured: Array<Omit<WorkflowNode, 'position' | 'id'>>,
): Workflow {
	const nodes = placed(
		[
			{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, parameters: {} },
			...measured,
			{
				name: LAST_NODE,
				type: 'n8n-nodes-base.limit',
				typeVersion: 1,
				parameters: { maxItems: 1, keep: 'lastItems' },
			},
		],
		id,
	);
	return {
		id,
		name,
		active: false,
		nodes,
		connections: chain(nodes),
		settings: {
			executionOrder: 'v1',
			saveDataSuccessExecution: 'none',
			saveManualExecutions: false,
		},
	};
}

const credentialRef = (credentialId: string) => ({
	flareApi: { id: credentialId, name: `Flare ${credentialId}` },
});

/** Our node: Leaked Credential → Search for a domain, Return All or a Limit. */
export function flareSearch(
	credentialId: string,
	limit: number | 'all',
): Omit<WorkflowNode, 'position' | 'id'> {
	return {
		name: 'Flare search',
		type: `${PACKAGE}.flare`,
		typeVersion: 1,
		parameters: {
			resource: 'leakedCredential',
			operation: 'search',
			queryType: 'domain',
			fqdn: 'example.com',
			...(limit === 'all' ? { returnAll: true } : { limit }),
		},
		credentials: credentialRef(credentialId),
	};
}

/**
 * n8n's HTTP Request node on the same search, set up the way a user follows Flare's docs: POST the
 * JSON body, the Flare credential (predefined credential type, so the token exchange is n8n's),
 * pagination "Update a Parameter in Each Request" with body `from` ← `$response.body.next`, complete
 * when `next` is empty. `size` undefined leaves it out (Flare's default, 10). `maxPages` is the
 * "Limit Pages Fetched" option; `requestIntervalMs` its "Interval Between Requests (ms)", the pacing a
 * user sets for Flare's rate limit.
 */
export function httpSearch(
	credentialId: string,
	baseUrl: string,
	size: number | undefined,
	maxPages?: number,
	options: { requestIntervalMs?: number; fqdn?: string } = {},
): Omit<WorkflowNode, 'position' | 'id'> {
	const body: Record<string, unknown> = {
		query: { type: 'domain', fqdn: options.fqdn ?? 'example.com' },
	};
	if (size !== undefined) body.size = size;
	return {
		name: 'HTTP Request',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		parameters: {
			method: 'POST',
			url: `${baseUrl}${SEARCH_PATH}`,
			authentication: 'predefinedCredentialType',
			nodeCredentialType: 'flareApi',
			sendBody: true,
			specifyBody: 'json',
			jsonBody: JSON.stringify(body),
			options: {
				pagination: {
					pagination: {
						paginationMode: 'updateAParameterInEachRequest',
						parameters: {
							parameters: [{ type: 'body', name: 'from', value: '={{ $response.body.next }}' }],
						},
						paginationCompleteWhen: 'other',
						completeExpression: '={{ !$response.body.next }}',
						...(maxPages === undefined ? {} : { limitPagesFetched: true, maxRequests: maxPages }),
						...(options.requestIntervalMs === undefined
							? {}
							: { requestInterval: options.requestIntervalMs }),
					},
				},
			},
		},
		credentials: credentialRef(credentialId),
	};
}

/** Split Out on `items`: one n8n item per credential, as our node delivers them. */
export function splitItems(): Omit<WorkflowNode, 'position' | 'id'> {
	return {
		name: 'Split Out',
		type: 'n8n-nodes-base.splitOut',
		typeVersion: 1,
		parameters: { fieldToSplitOut: 'items', options: {} },
	};
}

/** A Limit node keeping the first `count` items (what a user adds after paging to the end). */
export function keepFirst(count: number): Omit<WorkflowNode, 'position' | 'id'> {
	return {
		name: 'Limit',
		type: 'n8n-nodes-base.limit',
		typeVersion: 1,
		parameters: { maxItems: count, keep: 'firstItems' },
	};
}
