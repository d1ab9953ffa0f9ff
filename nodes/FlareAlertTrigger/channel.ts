import { createHash, createHmac } from 'crypto';
import {
	NodeOperationError,
	type IDataObject,
	type IHookFunctions,
	type INodeProperties,
	type IWebhookFunctions,
	type NodeApiError,
} from 'n8n-workflow';

import { getAllOperation as listChannels } from '../Flare/resources/alertChannel/getAll';
import { CREDENTIAL_TYPE, readSettings } from '../Flare/shared/connection';
import { FlareItem } from '../Flare/shared/item';
import { isObject, type FlareOperation } from '../Flare/shared/operation';
import { callFlare } from '../Flare/shared/runner';

/**
 * "Create on Activation" (docs/alerts.md, "A channel of its own"): the trigger creates a Webhook
 * channel in Flare that sends to its Production URL, signed with a secret derived from the Flare API
 * key (never kept), and keeps the channel's ID in the workflow's static data, by the node's webhook
 * ID, to reuse it on later activations. Flare's public API lists and creates channels
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
			"When the workflow is published, the trigger creates a Webhook channel in Flare (Alert Central → Channels) that sends to the Production URL, signed with a secret derived from the Flare API key, and reuses it later (after a change of API key, it creates a new one: move your alert rules to it). Flare's API cannot delete a channel: after you unpublish or delete this workflow, delete the channel in Flare. Send alerts to it with the Flare node's Alert Rule → Create. The Test URL is not registered: to listen for a test event, use a channel set up in Flare.",
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

/**
 * What the workflow's static data keeps of the channel the trigger created, under `flareChannels`
 * and the node's webhook ID (the ID in its URL, unchanged when the node is renamed).
 */
interface CreatedChannel {
	id: number;
	/** The URL it sends to: a channel for another URL is not this workflow's any more. */
	url: string;
	name: string;
	/** A digest of the channel's signing secret: another one means the API key changed. */
	secretCheck: string;
}

const CHANNELS_KEY = 'flareChannels';

/** What the channel is kept by: the node's webhook ID. */
function webhookKey(context: IHookFunctions | IWebhookFunctions): string {
	const node = context.getNode();
	return node.webhookId ?? node.id;
}

function createdChannel(context: IHookFunctions): CreatedChannel | undefined {
	const all = context.getWorkflowStaticData('global')[CHANNELS_KEY];
	const channel = isObject(all) ? all[webhookKey(context)] : undefined;
	if (!isObject(channel)) return undefined;
	const { id, url, name, secretCheck } = channel;
	if (typeof id !== 'number' || typeof url !== 'string') return undefined;
	return {
		id,
		url,
		name: typeof name === 'string' ? name : '',
		secretCheck: typeof secretCheck === 'string' ? secretCheck : '',
	};
}

function keepChannel(context: IHookFunctions, channel: CreatedChannel): void {
	const data = context.getWorkflowStaticData('global');
	const all = isObject(data[CHANNELS_KEY]) ? data[CHANNELS_KEY] : {};
	data[CHANNELS_KEY] = { ...all, [webhookKey(context)]: { ...channel } };
}

/** Whether the trigger creates its own channel. */
export function createsChannel(context: IHookFunctions | IWebhookFunctions): boolean {
	return context.getNodeParameter(CHANNEL_SETUP, 'manual') === 'create';
}

/**
 * The signing secret of the channel the trigger creates (docs/alerts.md, "Its signing secret"):
 * HMAC-SHA256 of the workflow and webhook IDs under the Flare API key. Derived, never kept, it is the
 * same at every activation and in every process: a renamed node, an execution saving older static
 * data or a recreated channel cannot part a channel from its secret.
 */
export async function channelSecret(context: IHookFunctions | IWebhookFunctions): Promise<string> {
	const { apiKey } = readSettings(await context.getCredentials(CREDENTIAL_TYPE));
	return createHmac('sha256', apiKey)
		.update(`n8n-flare-alert-channel/v1/${context.getWorkflow().id ?? ''}/${webhookKey(context)}`)
		.digest('hex');
}

/** What the static data keeps to tell a secret: a short digest, which does not give it away. */
const secretCheckOf = (secret: string) =>
	createHash('sha256').update(`n8n-flare-alert-channel/check/${secret}`).digest('hex').slice(0, 16);

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

/**
 * How long a hook method may take on Flare's requests, retries and waits included: n8n activates
 * workflows one at a time at startup, so a Flare that does not answer must not hold it long.
 */
export const HOOK_TIME_LIMIT_MS = 30_000;

/**
 * A Flare request of the hook, with the Flare API credential of the node, cancelled at `deadline`.
 */
const itemOf = (context: IHookFunctions, deadline: AbortSignal) =>
	FlareItem.ofNode(context, channelProperties, deadline);

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

/** Pages of channels read to find the kept one, at most: past them, it is taken as there. */
const MAX_LOOKUP_PAGES = 10;

/**
 * Whether Flare still lists the channel `id`, found by its ID: first among the channels named like
 * it (Flare's `q`), then, renamed in Flare, among all the channels; at most {@link MAX_LOOKUP_PAGES}
 * pages in all, past which it is taken as there.
 */
async function stillListed(
	context: IHookFunctions,
	channel: CreatedChannel,
	deadline: AbortSignal,
): Promise<boolean> {
	let found = false;
	let pages = 0;
	const walk = async (query: IDataObject) =>
		await callFlare(
			itemOf(context, deadline),
			{
				...listChannels,
				properties: channelProperties,
				prepare(_item, request) {
					request.qs = { ...query, order_type: 'asc' };
				},
			},
			{
				onPage(records) {
					pages++;
					found ||= records.some((record) => Number(record.id) === channel.id);
					return !found && pages < MAX_LOOKUP_PAGES;
				},
			},
		);
	let end = await walk(channel.name ? { q: channel.name } : {});
	if (!found && end.next === undefined && pages < MAX_LOOKUP_PAGES && channel.name) {
		end = await walk({});
	}
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
		const channel = createdChannel(this);
		if (!channel || channel.url !== this.getNodeWebhookUrl('default')) return false;
		// Another API key: the channel signs with a secret the trigger no longer derives.
		if (channel.secretCheck !== secretCheckOf(await channelSecret(this))) return false;
		try {
			return await stillListed(this, channel, AbortSignal.timeout(HOOK_TIME_LIMIT_MS));
		} catch (error) {
			this.logger.warn(
				`Flare Alert Trigger: could not check that the Flare alert channel ${channel.id} still exists (${(error as Error).message}); it is used as it is`,
			);
			return true;
		}
	},

	/**
	 * Creates the Webhook channel, signed with the derived secret; a channel for another URL, or made
	 * with another API key, stays in Flare.
	 */
	async create(this: IHookFunctions): Promise<boolean> {
		if (!createsChannel(this)) return true;
		const url = this.getNodeWebhookUrl('default');
		if (!url) throw new Error('n8n gave no Production URL to register');
		const previous = createdChannel(this);
		const name = channelName(this);
		const secret = await channelSecret(this);
		const deadline = AbortSignal.timeout(HOOK_TIME_LIMIT_MS);
		let answer: IDataObject | undefined;
		try {
			await callFlare(
				itemOf(this, deadline),
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
			if (deadline.aborted) {
				throw new NodeOperationError(
					this.getNode(),
					`Flare did not answer within ${HOOK_TIME_LIMIT_MS / 1000} seconds while creating the alert channel`,
					{
						description:
							'Publish the workflow again later. Flare may have created the channel all the same: if Alert Central → Channels lists it twice, delete the one no alert rule uses.',
					},
				);
			}
			// Flare may quote what it was sent (a 422's input): never the secret, in n8n's message or log.
			throw withoutSecret(error as NodeApiError, secret);
		}
		const id = Number(answer?.id);
		if (!Number.isInteger(id)) {
			throw new Error('Flare created the alert channel but did not say its ID');
		}
		keepChannel(this, { id, url, name, secretCheck: secretCheckOf(secret) });
		// A channel Flare no longer lists is gone; one for another URL, or signing with the secret of
		// another API key, stays in Flare.
		const left =
			previous === undefined || previous.id === id
				? undefined
				: previous.url !== url
					? 'sends to an earlier URL of this workflow'
					: previous.secretCheck !== secretCheckOf(secret)
						? `signs with a secret of another Flare API key, so n8n refuses its alerts (401): send its alert rules to channel ${id}`
						: undefined;
		if (previous && left) {
			this.logger.warn(
				`Flare Alert Trigger: the Flare alert channel ${previous.id} ("${previous.name}") ${left}, and stays in Flare (Flare's API cannot delete a channel): delete it in Flare, Alert Central → Channels`,
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
		const channel = createdChannel(this);
		if (channel) {
			this.logger.warn(
				`Flare Alert Trigger: the Flare alert channel ${channel.id} ("${channel.name}") stays in Flare, since Flare's API cannot delete a channel. Publishing the workflow again reuses it; to remove it, delete it in Flare, Alert Central → Channels`,
			);
		}
		return true;
	},
};
