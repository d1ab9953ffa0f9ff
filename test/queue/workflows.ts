/**
 * The workflows of the queue-mode test: the repository's example workflows, each pointed at a Flare
 * credential of its own (its own fake, so that cases running side by side keep their own request
 * logs), and the production workflows of the scenarios, started the way production starts them: a
 * webhook, and the Flare Trigger's polls.
 */
import { randomUUID } from 'crypto';

import type { CredentialToImport } from '../e2e/n8n';
import { fs } from '../support/node';

export const FLARE_NODE = 'n8n-nodes-flareio.flare';
export const FLARE_TRIGGER_NODE = 'n8n-nodes-flareio.flareTrigger';

interface WorkflowNode {
	id: string;
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
	webhookId?: string;
}

export interface WorkflowJson {
	id: string;
	name: string;
	nodes: WorkflowNode[];
	connections: Record<string, unknown>;
	[key: string]: unknown;
}

export type CredentialReference = Pick<CredentialToImport, 'id' | 'name'>;

/** A workflow file of workflows/ with its credentials replaced, by credential type. */
export function withCredentials(
	file: string,
	credentials: Record<string, CredentialReference>,
): WorkflowJson {
	const workflow = JSON.parse(fs.readFileSync(file, 'utf8')) as WorkflowJson;
	for (const node of workflow.nodes) {
		for (const type of Object.keys(node.credentials ?? {})) {
			if (credentials[type]) node.credentials![type] = { ...credentials[type] };
		}
	}
	return workflow;
}

const flareCredentials = (credential: CredentialReference) => ({
	flareApi: { id: credential.id, name: credential.name },
});

/**
 * Webhook (POST /webhook/<path>, answering with every item of the last node) → one Flare node: a
 * production execution, started by an HTTP call to the main and run by a worker.
 */
export function webhookWorkflow(options: {
	id: string;
	name: string;
	path: string;
	credential: CredentialReference;
	flare: { name: string; parameters: Record<string, unknown> };
}): WorkflowJson {
	const { flare } = options;
	return {
		id: options.id,
		name: options.name,
		active: false,
		nodes: [
			{
				id: randomUUID(),
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: randomUUID(),
				parameters: {
					httpMethod: 'POST',
					path: options.path,
					responseMode: 'lastNode',
					responseData: 'allEntries',
					options: {},
				},
			},
			{
				id: randomUUID(),
				name: flare.name,
				type: FLARE_NODE,
				typeVersion: 1,
				position: [220, 0],
				parameters: flare.parameters,
				credentials: flareCredentials(options.credential),
			},
		],
		connections: { Webhook: { main: [[{ node: flare.name, type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
		pinData: {},
	};
}

/** The Flare Trigger alone, polling every minute (n8n's shortest interval) for a domain. */
export function triggerWorkflow(options: {
	id: string;
	name: string;
	node: string;
	domain: string;
	credential: CredentialReference;
}): WorkflowJson {
	return {
		id: options.id,
		name: options.name,
		active: false,
		nodes: [
			{
				id: randomUUID(),
				name: options.node,
				type: FLARE_TRIGGER_NODE,
				typeVersion: 1,
				position: [0, 0],
				parameters: {
					pollTimes: { item: [{ mode: 'everyMinute' }] },
					event: 'newLeakedCredential',
					queryType: 'domain',
					fqdn: options.domain,
					options: {},
				},
				credentials: flareCredentials(options.credential),
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
		pinData: {},
	};
}
