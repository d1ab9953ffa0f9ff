import {
	NodeConnectionTypes,
	NodeOperationError,
	type ICredentialsDecrypted,
	type ICredentialTestFunctions,
	type IDataObject,
	type INodeCredentialTestResult,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { leakedValueOutput } from '../Flare/shared/descriptions';
import { protectLeakedValues, type LeakedValueOutput } from '../Flare/shared/output';
import { alertItem, isChannelTest } from './alert';
import {
	CHANNEL_SETUP,
	channelProperties,
	channelWebhookMethods,
	createdChannelSecret,
	createsChannel,
} from './channel';
import { admit, deliveryKey, type DeliveryState } from './deliveries';
import { acceptedBody, parseAlerts, type Refusal } from './receive';
import { DEFAULT_TOLERANCE_SECONDS, SIGNATURE_HEADER, verifySignature } from './signature';

/** The credential holding the signing secret; the same as the credential class's name. */
const CREDENTIAL_TYPE = 'flareAlertWebhookApi';

/** The part of n8n's request the trigger reads (n8n keeps the body's bytes as `rawBody`). */
interface AlertRequest {
	headers: Record<string, string | string[] | undefined>;
	rawBody?: Buffer;
}

/** How to fix what a 401 refused. */
const SIGNATURE_FIX =
	"Enter the request signature secret of the Flare alert channel in the node's credential, and check that the clocks of Flare and n8n agree (Options → Timestamp Tolerance). ";

/**
 * Logs what was refused (never a secret), then: in production, answers `refusal` itself and starts
 * nothing; for a test event, throws it, so that the editor shows it (n8n answers 500 and records the
 * execution in error; docs/alerts.md, "What it checks and answers").
 */
function refuse(context: IWebhookFunctions, refusal: Refusal): IWebhookResponseData {
	context.logger.warn(
		`Flare Alert Trigger refused a request with ${refusal.status}: ${refusal.message}`,
		{ workflowId: context.getWorkflow().id, node: context.getNode().name },
	);
	if (context.getMode() === 'manual') {
		throw new NodeOperationError(context.getNode(), refusal.message, {
			description: `${refusal.status === 401 ? SIGNATURE_FIX : ''}In production, this request is answered ${refusal.status} and starts no execution; n8n's log keeps a warning.`,
		});
	}
	context.getResponseObject().status(refusal.status).json({ message: refusal.message });
	return { noWebhookResponse: true };
}

/** The signing secret of the node's credential, or a refusal (500: the node is not set up). */
async function signingSecret(context: IWebhookFunctions): Promise<string | Refusal> {
	let secret: unknown;
	try {
		secret = (await context.getCredentials(CREDENTIAL_TYPE)).signingSecret;
	} catch (error) {
		return {
			status: 500,
			message: `The Flare Alert Webhook API credential of the node could not be read: ${(error as Error).message}`,
		};
	}
	if (typeof secret !== 'string' || secret === '') {
		return {
			status: 500,
			message:
				'The Flare Alert Webhook API credential has no signing secret: enter the request signature secret of the Flare alert channel',
		};
	}
	return secret;
}

/** The signing secret of the channel the trigger created, or a refusal (500: not created yet). */
function channelSecret(context: IWebhookFunctions): string | Refusal {
	return (
		createdChannelSecret(context) ?? {
			status: 500,
			message:
				'The trigger has not created its Flare alert channel yet: publish the workflow (Alert Channel: Create on Activation)',
		}
	);
}

export class FlareAlertTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Flare Alert Trigger',
		name: 'flareAlertTrigger',
		icon: { light: 'file:../../icons/flare.svg', dark: 'file:../../icons/flare.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle:
			'={{$parameter["authentication"] === "requestSignature" ? "Signed alerts" : "Unsigned alerts"}}',
		description: 'Starts the workflow when a Flare alert channel sends an alert to its webhook',
		defaults: { name: 'Flare Alert Trigger' },
		triggerPanel: {
			header: 'Press Test in the Flare alert channel, with the Test URL as its Webhook URL',
			executionsHelp: {
				inactive:
					"The Flare alert channel can send to two URLs. <br /><br /><b>Test URL, while you build the workflow</b>: click 'Listen for test event', paste the Test URL as the channel's Webhook URL and press Test in Flare: the sample alert shows here. <br /><br /><b>Production URL, to run it on every alert</b>: publish the workflow and paste the Production URL. Executions then show in the executions list, not in the editor.",
				active:
					"The Flare alert channel can send to two URLs. <br /><br /><b>Test URL, while you build the workflow</b>: click 'Listen for test event', paste the Test URL as the channel's Webhook URL and press Test in Flare: the sample alert shows here. <br /><br /><b>Production URL, to run it on every alert</b>: the workflow is published, so each alert Flare sends to the Production URL starts an execution, shown in the <a data-key=\"executions\">executions list</a>.",
			},
			activationHint:
				'Once the workflow does what you want, publish it and paste the Production URL in the Flare alert channel: every alert then runs it.',
		},
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				// The literal, not CREDENTIAL_TYPE: n8n's lint reads the name from this line.
				name: 'flareAlertWebhookApi',
				required: true,
				testedBy: 'signingSecretIsSet',
				displayOptions: {
					show: { authentication: ['requestSignature'], [CHANNEL_SETUP]: ['manual'] },
				},
			},
			{
				// To create the alert channel in Flare (channel.ts).
				name: 'flareApi',
				required: true,
				displayOptions: { show: { [CHANNEL_SETUP]: ['create'] } },
			},
		],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				// Empty: n8n answers with the webhookResponse below (without it, the word "firstEntryJson").
				responseData: '',
				path: 'flare-alert',
			},
		],
		properties: [
			...channelProperties,
			{
				displayName:
					'In Flare, as an admin: Team → Edit → Create a New Alert Channel → Webhook. Paste the Production URL above as its Webhook URL and press Test: Flare sends a sample alert (use the Test URL while this node listens for a test event). Then send your alerts to this channel.',
				name: 'setupNotice',
				type: 'notice',
				default: '',
				displayOptions: { show: { [CHANNEL_SETUP]: ['manual'] } },
			},
			{
				displayName: 'Authentication',
				name: 'authentication',
				type: 'options',
				default: 'none',
				// A channel the trigger creates is always signed, with its own secret.
				displayOptions: { show: { [CHANNEL_SETUP]: ['manual'] } },
				description: 'How the trigger knows that an alert comes from Flare',
				options: [
					{
						name: 'None',
						value: 'none',
						description: 'Every JSON request to the URL starts the workflow',
					},
					{
						name: 'Request Signature',
						value: 'requestSignature',
						description:
							"Only alerts signed with the alert channel's request signature secret (X-Flare-Signature) start the workflow; others get 401",
					},
				],
			},
			{
				displayName:
					"Anyone who learns this URL can start the workflow. Recommended: add a request signature secret to the Flare alert channel (the + button beside Request Signature Secret), choose Request Signature above and enter the secret in the node's credential.",
				name: 'unsignedNotice',
				type: 'notice',
				default: '',
				displayOptions: { show: { authentication: ['none'], [CHANNEL_SETUP]: ['manual'] } },
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					leakedValueOutput,
					{
						displayName: 'Timestamp Tolerance (Seconds)',
						name: 'timestampTolerance',
						type: 'number',
						typeOptions: { minValue: 1 },
						default: DEFAULT_TOLERANCE_SECONDS,
						description:
							'How far the time of a signature (t= in X-Flare-Signature) may be from now. A signed alert outside this window is refused as a replay. Raise it only when the clocks of Flare and n8n are apart.',
						displayOptions: { show: { '/authentication': ['requestSignature'] } },
					},
				],
			},
		],
	};

	methods = {
		credentialTest: {
			/** Nothing to call: Flare checks the secret only when it signs an alert. */
			async signingSecretIsSet(
				this: ICredentialTestFunctions,
				credential: ICredentialsDecrypted,
			): Promise<INodeCredentialTestResult> {
				const secret = credential.data?.signingSecret;
				if (typeof secret !== 'string' || secret === '') {
					return { status: 'Error', message: 'The signing secret is empty' };
				}
				return {
					status: 'OK',
					message:
						"The signing secret is set. Press Test in Flare's alert channel to send a signed sample alert.",
				};
			},
		},
	};

	/**
	 * Set up in Flare: an admin creates the alert channel and pastes the URL, and n8n has nothing to
	 * register with Flare, nor to remove. Create on Activation: the trigger creates its own channel
	 * (channel.ts).
	 */
	webhookMethods = { default: channelWebhookMethods };

	/**
	 * One request of the alert channel (docs/alerts.md, "What it checks and answers"): the body JSON
	 * and bounded (415, 413), the signature checked when asked for (401), the JSON read (400), alerts
	 * received lately in production left out (200, nothing started), then one item per alert, its
	 * leaked values protected. n8n answers Flare at once ("onReceived"), before the workflow runs.
	 */
	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const request = this.getRequestObject() as unknown as AlertRequest;
		const options = this.getNodeParameter('options', {}) as IDataObject;
		const contentType = request.headers['content-type'];
		const rawBody = acceptedBody(
			Array.isArray(contentType) ? contentType[0] : contentType,
			request.rawBody,
		);
		if (!Buffer.isBuffer(rawBody)) return refuse(this, rawBody);

		const created = createsChannel(this);
		if (created || this.getNodeParameter('authentication', 'none') === 'requestSignature') {
			const tolerance = Number(options.timestampTolerance ?? DEFAULT_TOLERANCE_SECONDS);
			if (!Number.isFinite(tolerance) || tolerance < 1) {
				return refuse(this, {
					status: 500,
					message: `Options → Timestamp Tolerance must be a number of seconds of at least 1, not "${String(options.timestampTolerance)}"`,
				});
			}
			const secret = created ? channelSecret(this) : await signingSecret(this);
			if (typeof secret !== 'string') return refuse(this, secret);
			const verdict = verifySignature(
				request.headers[SIGNATURE_HEADER],
				rawBody,
				secret,
				tolerance,
				Date.now(),
			);
			if (!verdict.valid) return refuse(this, { status: 401, message: verdict.reason });
		}

		const alerts = parseAlerts(rawBody);
		if (!Array.isArray(alerts)) return refuse(this, alerts);

		// The items are built, and masked, before their alerts are remembered: a body the node fails
		// on is not taken for a repeat when Flare sends it again.
		const receivedAt = new Date().toISOString();
		const items = alerts.map((alert) => alertItem(alert, receivedAt));
		const production = this.getMode() !== 'manual';
		const keys = production
			? items.map((item, index) =>
					isChannelTest(alerts[index])
						? null
						: deliveryKey(item.uid as string | null, alerts[index]),
				)
			: [];
		const mode = (options.leakedValueOutput ?? 'masked') as LeakedValueOutput;
		let output = items.map((item) => protectLeakedValues(item, mode));
		if (production) {
			// A test event always shows; production leaves out what it received lately.
			const trigger = `${this.getWorkflow().id ?? ''} ${this.getNode().id}`;
			const fresh = admit(
				trigger,
				this.getWorkflowStaticData('node') as DeliveryState,
				keys,
				Date.now(),
			);
			output = output.filter((_, index) => fresh[index]);
			if (output.length === 0) {
				return {
					webhookResponse: {
						message: 'Alert already received: no execution started',
					},
				};
			}
		}
		return {
			workflowData: [this.helpers.returnJsonArray(output)],
			webhookResponse: { message: 'Workflow was started' },
		};
	}
}
