import { randomBytes } from 'crypto';
import type {
	IDataObject,
	IHookFunctions,
	INodeProperties,
	IWebhookFunctions,
	NodeApiError,
} from 'n8n-workflow';

import { getAllOperation as listChannels } from '../Flare/resources/alertChannel/getAll';
import { FlareItem } from '../Flare/shared/item';
import { isObject, type FlareOperation } from '../Flare/shared/operation';
import { callFlare } from '../Flare/shared/runner';

/**
 * "Create on Activation" (docs/alerts.md, "A channel of its own"): the trigger creates a Webhook
 * channel in Flare that sends to its Production URL, signed with a secret it keeps in the node's
 * static data, and reuses it on later activations. Flare's public API lists and creates channels
 * (`GET`/`POST /{segment}/v4/alerts/channels`) but cannot update or delete one, so deactivating or
 * deleting the workflow leaves the channel in Flare: the trigger says so in n8n's log, and the form says
 * so before.
 */

/** The parameter: who sets up the channel. Saved workflows without it set it up by hand. */
export const CHANNEL_SETUP = 'alertChannel';

export const channelProperties: INodeProperties[] = [
	{
		displayName: 'Alert Channel',
		name: CHANNEL_SETUP,
		type: 'options',
		noDataExpression: true,
		default: 'manual',
		description: 'Who creates the Flare alert channel that sends to this trigger',
		options: [
			{
				name: 'Set Up in Flare',
				value: 'manual',
				description: 'An admin creates a Webhook channel in Flare and pastes the URL below',
			},
			{
				name: 'Create on Activation',
				value: 'create',
				description:
					'The trigger creates a Webhook channel in Flare, with its own signing secret, when the workflow is published (needs a Flare API credential)',
			},
		],
	},
	{
		displayName:
			"When the workflow is published, the trigger creates a Webhook channel in Flare (Alert Central → Channels) that sends to the Production URL, signed with a secret the trigger keeps, and reuses it later. Flare's API cannot delete a channel: after you unpublish or delete this workflow, delete the channel in Flare. Send alerts to it with the Flare node's Alert Rule → Create. The Test URL is not registered: to listen for a test event, use a channel set up in Flare.",
		name: 'createChannelNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { [CHANNEL_SETUP]: ['create'] } },
	},
	{
		displayName: 'Channel Name',
		name: 'channelName',
		type: 'string',
		default: '',
		placeholder: 'e.g. n8n alerts',
		description: 'Name of the channel in Flare; empty: "n8n: " and the name of the workflow',
		displayOptions: { show: { [CHANNEL_SETUP]: ['create'] } },
	},
];

/** What the node's static data keeps of the channel it created. */
interface CreatedChannel {
	id: number;
	/** The URL it sends to: a channel for another URL is not this workflow's any more. */
	url: string;
	name: string;
	/** Its signing secret: kept in the static data, as n8n's own webhook triggers keep theirs. */
	secret: string;
}

const CHANNEL_KEY = 'flareChannel';

function createdChannel(data: IDataObject): CreatedChannel | undefined {
	const channel = data[CHANNEL_KEY];
	if (!isObject(channel)) return undefined;
	const { id, url, name, secret } = channel;
	if (typeof id !== 'number' || typeof url !== 'string' || typeof secret !== 'string')
		return undefined;
	return { id, url, name: typeof name === 'string' ? name : '', secret };
}

/** Whether the trigger creates its own channel. */
export function createsChannel(context: IHookFunctions | IWebhookFunctions): boolean {
	return context.getNodeParameter(CHANNEL_SETUP, 'manual') === 'create';
}

/** The signing secret of the channel the trigger created, for the signature check. */
export function createdChannelSecret(context: IWebhookFunctions): string | undefined {
	return createdChannel(context.getWorkflowStaticData('node'))?.secret;
}

/** The channel's name: the one given, or "n8n: <workflow name>". */
function channelName(context: IHookFunctions): string {
	const given = String(context.getNodeParameter('channelName', '') ?? '').trim();
	const name =
		given || `n8n: ${context.getWorkflow().name ?? context.getWorkflow().id ?? 'workflow'}`;
	return name.slice(0, 255);
}

/** The error, its texts (message, description, what n8n keeps of the answer) without `secret`. */
function withoutSecret(error: NodeApiError, secret: string): NodeApiError {
	const scrub = (text: unknown) =>
		typeof text === 'string' ? text.split(secret).join('********') : text;
	error.message = scrub(error.message) as string;
	error.description = scrub(error.description) as string | null | undefined;
	const response = (error as { errorResponse?: IDataObject }).errorResponse;
	if (response) {
		for (const key of Object.keys(response)) response[key] = scrub(response[key]) as string;
	}
	return error;
}

/** A Flare request of the hook, with the Flare API credential of the node. */
const itemOf = (context: IHookFunctions) => FlareItem.ofNode(context, channelProperties);

/** POST /{segment}/v4/alerts/channels: a Webhook channel (v4 OpenAPI `CreateAlertChannel`). */
const createChannel: FlareOperation = {
	action: 'create the alert channel',
	method: 'POST',
	path: '/{segment}/v4/alerts/channels',
	tier: 'basic',
	write: true,
	properties: channelProperties,
	apiFields: { name: 'channelName' },
	output: (_item, records) => records,
};

/**
 * Whether Flare still lists the channel `id`: its pages of channels named like it, at most 10 pages;
 * past them, it is taken as there.
 */
async function stillListed(context: IHookFunctions, channel: CreatedChannel): Promise<boolean> {
	let found = false;
	let pages = 0;
	const end = await callFlare(
		itemOf(context),
		{
			...listChannels,
			properties: channelProperties,
			prepare(_item, request) {
				request.qs = { q: channel.name, order_type: 'asc' };
			},
		},
		{
			onPage(records) {
				pages++;
				found ||= records.some((record) => Number(record.id) === channel.id);
				return !found && pages < 10;
			},
		},
	);
	return found || end.next !== undefined;
}

/**
 * n8n's webhook lifecycle (`webhookMethods.default`), as its own triggers that register a webhook
 * have it: `checkExists` at activation, `create` when it answers false, `delete` at deactivation.
 */
export const channelWebhookMethods = {
	/**
	 * Set up in Flare: nothing is registered. Created: the channel this workflow made for the same URL,
	 * if Flare still lists it (a listing that fails keeps it: activation does not depend on Flare). The
	 * Test URL never gets a channel.
	 */
	async checkExists(this: IHookFunctions): Promise<boolean> {
		if (!createsChannel(this)) return false;
		if (this.getMode() === 'manual') return true;
		const channel = createdChannel(this.getWorkflowStaticData('node'));
		if (!channel || channel.url !== this.getNodeWebhookUrl('default')) return false;
		try {
			return await stillListed(this, channel);
		} catch (error) {
			this.logger.warn(
				`Flare Alert Trigger: could not check that the Flare alert channel ${channel.id} still exists (${(error as Error).message}); it is used as it is`,
			);
			return true;
		}
	},

	/** Creates the Webhook channel, with a new signing secret; a channel for another URL stays in Flare. */
	async create(this: IHookFunctions): Promise<boolean> {
		if (!createsChannel(this)) return true;
		const data = this.getWorkflowStaticData('node');
		const url = this.getNodeWebhookUrl('default');
		if (!url) throw new Error('n8n gave no Production URL to register');
		const previous = createdChannel(data);
		const name = channelName(this);
		const secret = randomBytes(32).toString('hex');
		let answer: IDataObject | undefined;
		try {
			await callFlare(
				itemOf(this),
				{
					...createChannel,
					prepare(_item, request) {
						request.body = { name, params: { type: 'webhook', webhook_url: url, secret } };
					},
				},
				{
					onPage(records) {
						[answer] = records;
						return false;
					},
				},
			);
		} catch (error) {
			// Flare may quote what it was sent (a 422's input): never the secret, in n8n's message or log.
			throw withoutSecret(error as NodeApiError, secret);
		}
		const id = Number(answer?.id);
		if (!Number.isInteger(id)) {
			throw new Error('Flare created the alert channel but did not say its ID');
		}
		data[CHANNEL_KEY] = { id, url, name, secret };
		if (previous) {
			this.logger.warn(
				`Flare Alert Trigger: the Flare alert channel ${previous.id} ("${previous.name}") sends to an earlier URL of this workflow and stays in Flare (Flare's API cannot delete a channel): delete it in Flare, Alert Central → Channels`,
			);
		}
		return true;
	},

	/**
	 * Flare's API cannot delete a channel: the one created stays in Flare, and in the static data, so
	 * that the next activation reuses it. n8n's log says so.
	 */
	async delete(this: IHookFunctions): Promise<boolean> {
		if (!createsChannel(this)) return true;
		const channel = createdChannel(this.getWorkflowStaticData('node'));
		if (channel) {
			this.logger.warn(
				`Flare Alert Trigger: the Flare alert channel ${channel.id} ("${channel.name}") stays in Flare, since Flare's API cannot delete a channel. Publishing the workflow again reuses it; to remove it, delete it in Flare, Alert Central → Channels`,
			);
		}
		return true;
	},
};
