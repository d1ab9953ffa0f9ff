import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { parameterError } from '../../shared/errors';
import type { FlareItem } from '../../shared/item';
import { booleanValue, boundedText, emailAddress, guid, optionValue } from '../../shared/validation';
import { textList } from '../event/feed';
import { isGiven } from '../identifier/data';

/**
 * The destinations of an alert channel, each with its fields: v4 OpenAPI `CreateAlertChannel.params`
 * (`AlertChannel<Type>Params`, one per `type`). Every secret among them (webhook URLs, API tokens and
 * keys, the shared key, the Entra secret, the webhook's signing secret, its basic-auth password and
 * custom header values) is a password field: masked in the form, and in the output wherever Flare
 * quotes it (docs/api-contract.md, "Masking"). `channel` (a rule's pointer to a channel) is not a
 * destination, so it is not offered.
 */
export const CHANNEL_TYPES = [
	'azure_sentinel',
	'azure_sentinel_v2',
	'discord',
	'email',
	'jira',
	'servicenow',
	'slack',
	'splunk',
	'teams',
	'webhook',
] as const;
type ChannelType = (typeof CHANNEL_TYPES)[number];

export const channelTypeField: INodeProperties = {
	displayName: 'Type',
	name: 'channelType',
	type: 'options',
	default: 'email',
	description: 'Where Flare sends the alerts of the rules that use the channel',
	options: [
		{ name: 'Discord', value: 'discord', description: "A Discord channel's webhook" },
		{ name: 'Email', value: 'email', description: 'An e-mail address' },
		{ name: 'Jira', value: 'jira', description: 'An issue per alert in a Jira project' },
		{
			name: 'Microsoft Sentinel',
			value: 'azure_sentinel_v2',
			description: 'A Log Analytics workspace, through the Logs Ingestion API (Entra app)',
		},
		{
			name: 'Microsoft Sentinel (Legacy)',
			value: 'azure_sentinel',
			description: "A Log Analytics workspace, through the HTTP Data Collector API (shared key)",
		},
		{ name: 'Microsoft Teams', value: 'teams', description: "A Teams channel's incoming webhook" },
		{ name: 'ServiceNow', value: 'servicenow', description: 'A record per alert in a ServiceNow table' },
		{ name: 'Slack', value: 'slack', description: "A Slack channel's incoming webhook" },
		{ name: 'Splunk', value: 'splunk', description: "Splunk's HTTP Event Collector" },
		{
			name: 'Webhook',
			value: 'webhook',
			description: 'Your own endpoint, e.g. the Flare Alert Trigger, signed with a secret',
		},
	],
};

const shownFor = (...types: ChannelType[]) => ({ show: { channelType: types } });

const text = (
	displayName: string,
	name: string,
	types: ChannelType[],
	placeholder: string,
	description: string,
	secret = false,
): INodeProperties => ({
	displayName,
	name,
	type: 'string',
	...(secret ? { typeOptions: { password: true } } : {}),
	required: true,
	default: '',
	placeholder,
	description,
	displayOptions: shownFor(...types),
});

/** The fields of each destination, shown for its type. */
export const channelFields: INodeProperties[] = [
	text(
		'Webhook URL',
		'webhookUrl',
		['discord', 'slack', 'teams', 'webhook'],
		'e.g. https://hooks.slack.com/services/T000/B000/XXXX',
		'URL Flare posts each alert to. Anyone who has it can post there, so it is kept as a secret.',
		true,
	),
	text(
		'Signing Secret',
		'secret',
		['webhook'],
		'e.g. a long random text',
		"Secret with which Flare signs each alert (X-Flare-Signature), e.g. the Flare Alert Trigger's",
		true,
	),
	text('Email', 'email', ['email'], 'e.g. soc@example.com', 'E-mail address that receives the alerts'),
	{
		displayName: 'Email Options',
		name: 'emailOptions',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		description: 'What the e-mails hold',
		displayOptions: shownFor('email'),
		options: [
			{
				displayName: 'Attach CSV',
				name: 'csvAttachment',
				type: 'boolean',
				default: false,
				description: 'Whether each e-mail carries the alerts as a CSV file',
			},
			{
				displayName: 'Attach JSON',
				name: 'jsonAttachment',
				type: 'boolean',
				default: false,
				description: 'Whether each e-mail carries the alerts as a JSON file',
			},
			{
				displayName: 'Language',
				name: 'language',
				type: 'options',
				default: 'en',
				description: 'Language of the e-mails',
				options: [
					{ name: 'English', value: 'en' },
					{ name: 'French', value: 'fr' },
				],
			},
			{
				displayName: 'Subject Tag',
				name: 'subjectTag',
				type: 'string',
				default: '',
				placeholder: 'e.g. [FLARE]',
				description: "Text put in each e-mail's subject, e.g. for a mail filter",
			},
		],
	},
	text('Jira Site', 'jiraSite', ['jira'], 'e.g. acme.atlassian.net', 'Host name of the Jira site, without https://'),
	text('Jira Account Email', 'accountEmail', ['jira'], 'e.g. flare-bot@example.com', 'E-mail address of the Jira account that creates the issues'),
	text(
		'API Token',
		'apiToken',
		['jira', 'splunk'],
		'e.g. ATATT3xFfGF0…',
		"The Jira account's API token, or the Splunk HTTP Event Collector's token",
		true,
	),
	text('Project Key', 'projectKey', ['jira'], 'e.g. SEC', 'Key of the Jira project the issues go to'),
	text('Issue Type', 'issueType', ['jira'], 'e.g. Task', 'Type of the issues, as named in the project'),
	text('ServiceNow URL', 'serverUrl', ['servicenow'], 'e.g. https://acme.service-now.com', 'URL of the ServiceNow instance'),
	text('API Key', 'apiKey', ['servicenow'], 'e.g. now_1a2b3c…', 'API key of the ServiceNow account that creates the records', true),
	text('Table Name', 'tableName', ['servicenow'], 'e.g. incident', 'ServiceNow table the records go to'),
	text('Workspace ID', 'workspaceId', ['azure_sentinel'], 'e.g. 72f988bf-86f1-41af-91ab-2d7cd011db47', 'ID of the Log Analytics workspace'),
	text('Shared Key', 'sharedKey', ['azure_sentinel'], 'e.g. the primary key of the workspace', "The workspace's primary or secondary key", true),
	text('Entra Tenant ID', 'entraTenantId', ['azure_sentinel_v2'], 'e.g. 72f988bf-86f1-41af-91ab-2d7cd011db47', 'Directory (tenant) ID of the Entra app'),
	text('Entra Client ID', 'entraClientId', ['azure_sentinel_v2'], 'e.g. 0f3a9c1e-5b7d-4e2f-8a6c-1d9e7b3f5a20', 'Application (client) ID of the Entra app'),
	text('Entra Client Secret', 'entraSecret', ['azure_sentinel_v2'], 'e.g. the value of a client secret of the app', 'A client secret of the Entra app', true),
	text(
		'Logs Ingestion URL',
		'ingestionUrl',
		['azure_sentinel_v2'],
		'e.g. https://acme-dce.eastus-1.ingest.monitor.azure.com/dataCollectionRules/dcr-…/streams/Custom-Flare_CL',
		"URL of the data collection rule's stream that receives the alerts",
	),
	text('Splunk Host', 'splunkHost', ['splunk'], 'e.g. splunk.example.com:8088', 'Host (and port) of the HTTP Event Collector, without https://'),
	text('Index', 'index', ['splunk'], 'e.g. flare', 'Splunk index the events go to'),
	{
		displayName: 'Labels',
		name: 'labels',
		type: 'string',
		default: '',
		placeholder: 'e.g. flare, leaks',
		description: 'Labels of the issues (Jira) or events (Splunk), separated by commas',
		displayOptions: shownFor('jira', 'splunk'),
	},
	{
		displayName: 'Custom Fields',
		name: 'customFields',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		placeholder: 'Add Custom Field',
		description: 'Values of custom fields of the Jira issues',
		displayOptions: shownFor('jira'),
		options: [
			{
				displayName: 'Field',
				name: 'field',
				values: [
					{
						displayName: 'Field ID',
						name: 'name',
						type: 'string',
						default: '',
						placeholder: 'e.g. customfield_10042',
						description: 'ID of the custom field',
					},
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						default: '',
						placeholder: 'e.g. Flare',
						description: 'Value of the field',
					},
				],
			},
		],
	},
	{
		displayName: 'Webhook Options',
		name: 'webhookOptions',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		description: 'How Flare authenticates to your endpoint',
		displayOptions: shownFor('webhook'),
		options: [
			{
				displayName: 'Basic Auth Password',
				name: 'basicAuthPassword',
				type: 'string',
				typeOptions: { password: true },
				default: '',
				placeholder: 'e.g. a long random text',
				description: 'Password Flare sends with HTTP basic authentication (with the username)',
			},
			{
				displayName: 'Basic Auth Username',
				name: 'basicAuthUsername',
				type: 'string',
				default: '',
				placeholder: 'e.g. flare',
				description: 'Username Flare sends with HTTP basic authentication (with the password)',
			},
			{
				displayName: 'Custom Headers',
				name: 'customHeaders',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				default: {},
				placeholder: 'Add Header',
				description: 'Headers Flare sends with each alert; their values are kept as secrets',
				options: [
					{
						displayName: 'Header',
						name: 'header',
						values: [
							{
								displayName: 'Name',
								name: 'name',
								type: 'string',
								default: '',
								placeholder: 'e.g. X-Api-Key',
								description: 'Name of the header',
							},
							{
								displayName: 'Value',
								name: 'value',
								type: 'string',
								typeOptions: { password: true },
								default: '',
								placeholder: 'e.g. the value your endpoint expects',
								description: 'Value of the header',
							},
						],
					},
				],
			},
		],
	},
];

/** Longest value of a channel's field (a decision: Flare documents none). */
const MAX_FIELD_LENGTH = 2_048;

/** An http(s) URL. */
function url(item: FlareItem, name: string): string {
	const value = boundedText(item, name, MAX_FIELD_LENGTH);
	let parsed: URL | undefined;
	try {
		parsed = new URL(value);
	} catch {
		parsed = undefined;
	}
	if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || parsed.hostname === '') {
		throw parameterError(item, name, 'is not an http(s) URL', 'Enter e.g. https://example.com/alerts.');
	}
	return value;
}

/** A host name, maybe with a port, without scheme or path. */
function host(item: FlareItem, name: string): string {
	const value = boundedText(item, name, 255);
	if (!/^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?(:\d{1,5})?$/.test(value)) {
		throw parameterError(
			item,
			name,
			`is not a host name: "${value.slice(0, 100)}"`,
			'Enter the host only, e.g. acme.atlassian.net, without https:// or a path.',
		);
	}
	return value;
}

const field = (item: FlareItem, name: string) => boundedText(item, name, MAX_FIELD_LENGTH);

/** An HTTP header's name: a token (RFC 9110, section 5.1; RFC 7230's `field-name`). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Refuses a custom header Flare could not send as given: a name that is no HTTP header name (a line
 * break in it would add a header of its own), a value with a line break or another control
 * character. The value is a secret: the message does not quote it.
 */
function checkHeader(item: FlareItem, name: string, k: number, key: string, value: string): void {
	if (!HEADER_NAME.test(key)) {
		throw parameterError(
			item,
			name,
			`has a header ${k + 1} whose name is not an HTTP header name: ${JSON.stringify(key.slice(0, 100))}`,
			"A header name is letters, digits and ! # $ % & ' * + - . ^ _ ` | ~, without spaces, e.g. X-Api-Key.",
		);
	}
	const control = (code: number) => (code < 0x20 && code !== 0x09) || code === 0x7f;
	if ([...value].some((character) => control(character.charCodeAt(0)))) {
		throw parameterError(
			item,
			name,
			`has a header ${k + 1} (${key}) whose value holds a line break or another control character`,
			'Enter the value on one line, without control characters.',
		);
	}
}

/**
 * The name/value entries of a fixed collection (custom fields, or headers: each then checked), each
 * name once.
 */
function pairs(item: FlareItem, name: string, group: string): IDataObject | undefined {
	const entries = item.parameter<IDataObject>(name, {})[group];
	if (entries === undefined) return undefined;
	if (!Array.isArray(entries)) throw parameterError(item, name, 'must be a list of name and value');
	const result: IDataObject = {};
	entries.forEach((entry: unknown, k) => {
		const { name: key, value } = (entry ?? {}) as IDataObject;
		if (typeof key !== 'string' || key.trim() === '' || typeof value !== 'string') {
			throw parameterError(item, name, `has an entry ${k + 1} without a name and a text value`);
		}
		if (group === 'header') checkHeader(item, name, k, key.trim(), value);
		result[key.trim()] = value;
	});
	return Object.keys(result).length ? result : undefined;
}

/** The channel's `params`, checked before anything is sent. */
export function channelParams(item: FlareItem): IDataObject {
	const type = optionValue(item, 'channelType', CHANNEL_TYPES, 'email');
	switch (type) {
		case 'discord':
		case 'slack':
			return { type, webhook_url: url(item, 'webhookUrl') };
		case 'teams':
			return { type, teams_webhook_url: url(item, 'webhookUrl') };
		case 'email': {
			const flag = (name: string) => booleanValue(item, `emailOptions.${name}`);
			return {
				type,
				email: emailAddress(item, 'email'),
				json_attachment: flag('jsonAttachment'),
				csv_attachment: flag('csvAttachment'),
				...(isGiven(item, 'emailOptions.subjectTag')
					? { subject_tag: boundedText(item, 'emailOptions.subjectTag', 255) }
					: {}),
				language: optionValue(item, 'emailOptions.language', ['en', 'fr'], 'en'),
			};
		}
		case 'jira':
			return {
				type,
				server_netloc: host(item, 'jiraSite'),
				email: emailAddress(item, 'accountEmail'),
				api_token: field(item, 'apiToken'),
				project_key: field(item, 'projectKey'),
				issue_type: field(item, 'issueType'),
				labels: textList(item, 'labels'),
				...(pairs(item, 'customFields', 'field') ? { custom_fields: pairs(item, 'customFields', 'field') } : {}),
			};
		case 'servicenow':
			return {
				type,
				server_url: url(item, 'serverUrl'),
				api_key: field(item, 'apiKey'),
				table_name: field(item, 'tableName'),
			};
		case 'azure_sentinel':
			return { type, workspace_id: guid(item, 'workspaceId'), shared_key: field(item, 'sharedKey') };
		case 'azure_sentinel_v2':
			return {
				type,
				entra_client_id: guid(item, 'entraClientId'),
				entra_tenant_id: guid(item, 'entraTenantId'),
				entra_secret: field(item, 'entraSecret'),
				url: url(item, 'ingestionUrl'),
			};
		case 'splunk':
			return {
				type,
				api_token: field(item, 'apiToken'),
				netloc: host(item, 'splunkHost'),
				index: field(item, 'index'),
				labels: textList(item, 'labels'),
			};
		case 'webhook':
			return { type, webhook_url: url(item, 'webhookUrl'), secret: field(item, 'secret'), ...webhookAuth(item) };
	}
}

/** The webhook's basic auth (both or neither) and custom headers. */
function webhookAuth(item: FlareItem): IDataObject {
	const username = isGiven(item, 'webhookOptions.basicAuthUsername');
	const password = isGiven(item, 'webhookOptions.basicAuthPassword');
	if (username !== password) {
		const [missing, given] = username
			? ['webhookOptions.basicAuthPassword', 'webhookOptions.basicAuthUsername']
			: ['webhookOptions.basicAuthUsername', 'webhookOptions.basicAuthPassword'];
		throw parameterError(
			item,
			missing,
			`is required with '${item.displayName(given)}'`,
			'Set both Basic Auth Username and Basic Auth Password, or neither.',
		);
	}
	const headers = pairs(item, 'webhookOptions.customHeaders', 'header');
	return {
		...(username
			? {
					basic_auth: {
						username: field(item, 'webhookOptions.basicAuthUsername'),
						password: field(item, 'webhookOptions.basicAuthPassword'),
					},
				}
			: {}),
		...(headers ? { custom_headers: headers } : {}),
	};
}
