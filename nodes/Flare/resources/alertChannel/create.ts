import type { INodeProperties } from 'n8n-workflow';

import { notice, updateDisplayOptions } from '../../shared/descriptions';
import { recordOfAnswer, type FlareOperation } from '../../shared/operation';
import { boundedText, MAX_NAME_LENGTH } from '../../shared/validation';
import { channelFields, channelParams, channelTypeField } from './params';

const fields: INodeProperties[] = [
	notice(
		'alertChannelCreateNotice',
		"Flare's public API cannot update or delete a channel: change or remove it in Flare (Alert Central → Channels). Its secrets are masked in the output, but n8n saves what you type in the workflow and its executions: give secrets as an expression from a secure source, e.g. {{ $secrets.vault.jiraToken }}.",
	),
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Acme SOC Jira',
		description: 'Name of the channel, shown in Flare and in the Alert Channel pickers',
	},
	channelTypeField,
	...channelFields,
];

export const createDescription = updateDisplayOptions(
	{ show: { resource: ['alertChannel'], operation: ['create'] } },
	fields,
);

/**
 * A new alert channel of the tenant (`POST /{segment}/v4/alerts/channels`, v4 OpenAPI
 * `CreateAlertChannel {name, params}`, `params` by its `type`): the channel as Flare answers it
 * (`AlertChannel`: id, name, type, state, params), its secrets masked. The form has no Leaked Value
 * Output: its output is always Masked, so the secrets given are masked wherever Flare quotes them
 * (runner.ts `outputProtectionOf`). Alert Rule → Create then sends a rule's alerts to it.
 */
export const createOperation: FlareOperation = {
	action: 'create the alert channel',
	method: 'POST',
	path: '/{segment}/v4/alerts/channels',
	tier: 'basic',
	write: true,
	properties: fields,
	apiFields: {
		name: 'name',
		type: 'channelType',
		webhook_url: 'webhookUrl',
		teams_webhook_url: 'webhookUrl',
		secret: 'secret',
		email: 'email',
		server_netloc: 'jiraSite',
		api_token: 'apiToken',
		project_key: 'projectKey',
		issue_type: 'issueType',
		server_url: 'serverUrl',
		api_key: 'apiKey',
		table_name: 'tableName',
		workspace_id: 'workspaceId',
		shared_key: 'sharedKey',
		entra_client_id: 'entraClientId',
		entra_tenant_id: 'entraTenantId',
		entra_secret: 'entraSecret',
		url: 'ingestionUrl',
		netloc: 'splunkHost',
		index: 'index',
		labels: 'labels',
	},
	prepare(item, request) {
		request.body = {
			name: boundedText(item, 'name', MAX_NAME_LENGTH),
			params: channelParams(item),
		};
	},
	output: (_item, _records, response) => recordOfAnswer(response, ['id'], 'an alert channel'),
};
