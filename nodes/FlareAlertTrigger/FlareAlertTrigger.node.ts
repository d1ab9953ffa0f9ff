/**
 * The Flare Alert Trigger (README, "Receive Flare's alerts"): the webhook a Flare alert channel posts
 * to; checks the signature (signature.ts), starts one execution per delivery, never twice for the same
 * alert (deliveries.ts), answers Flare at once, leaked values masked.
 */
import {
	NodeConnectionTypes,
	NodeOperationError,
	type ICredentialsDecrypted,
	type ICredentialTestFunctions,
	type IDataObject,
	type IHookFunctions,
	type INodeCredentialTestResult,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
	type Workflow,
} from 'n8n-workflow';

import { leakedValueOutput } from '../Flare/shared/descriptions';
import { protectLeakedValues, type LeakedValueOutput } from '../Flare/shared/masking';
import { alertItem, isChannelTest } from './alert';
import {
	CHANNEL_SETUP,
	channelProperties,
	channelSecret,
	channelWebhookMethods,
	createsChannel,
} from './channel';
import { admit, deliveryKey, type DeliveryState, rememberWhenSaved } from './deliveries';
import { acceptedBody, parseAlerts, type Refusal, refusalLogLine } from './receive';
import {
	checkSignature,
	DEFAULT_TOLERANCE_SECONDS,
	MAX_TOLERANCE_SECONDS,
	readSignatureHeader,
	SIGNATURE_HEADER,
} from './signature';

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
 * What a caller is answered when the node is not set up (500): the detail, which may be n8n's own
 * words (about its credentials, its encryption key), goes to n8n's log and to the editor only.
 */
const NOT_SET_UP = "The Flare Alert Trigger is not set up: see n8n's log";

/** A trigger of this process: its workflow and node. */
const triggerOf = (context: IWebhookFunctions | IHookFunctions) =>
	`${context.getWorkflow().id ?? ''} ${context.getNode().id}`;

/** Whether alerts must be signed: Request Signature, or the channel the trigger created. */
const signed = (context: IWebhookFunctions | IHookFunctions) =>
	createsChannel(context) || context.getNodeParameter('authentication', 'none') === 'requestSignature';

/** Options → Timestamp Tolerance, in seconds; NaN when it is not a number. */
function toleranceOf(context: IWebhookFunctions | IHookFunctions): number {
	const options = context.getNodeParameter('options', {}) as IDataObject;
	return Number(options.timestampTolerance ?? DEFAULT_TOLERANCE_SECONDS);
}

/**
 * n8n saves a webhook's static data after the request when it changed. n8n 2.41 wraps the same object
 * again as it starts the execution (`WorkflowRunner.establishContextForPersistence`), which clears
 * its change mark, so that only its first change was ever saved (docs/alerts.md, "What n8n saves, and
 * when"). The request's workflow (n8n-core's context holds it, in 1.x and 2.x) gets a copy of its
 * static data, marked changed (`Workflow.overrideStaticData`), which the second wrap does not touch:
 * n8n saves it after the request, as n8n 1.x saves every change.
 */
function saveAfterTheRequest(context: IWebhookFunctions): void {
	const { workflow } = context as unknown as {
		workflow?: Partial<Pick<Workflow, 'staticData' | 'overrideStaticData'>>;
	};
	if (workflow?.staticData && typeof workflow.overrideStaticData === 'function') {
		workflow.overrideStaticData({ ...workflow.staticData });
	}
}

/**
 * Logs what was refused, in the trigger's own words (never a part of the request), at most a line a
 * minute per status (docs/alerts.md, "Where a refusal shows"); then: in production, answers the
 * refusal itself and starts nothing; for a test event, throws it, so that the editor shows it (n8n
 * answers 500 and records the execution in error).
 */
function refuse(context: IWebhookFunctions, refusal: Refusal): IWebhookResponseData {
	const line = refusalLogLine(triggerOf(context), refusal, Date.now());
	if (line) {
		context.logger.warn(line, {
			workflowId: context.getWorkflow().id,
			node: context.getNode().name,
		});
	}
	if (context.getMode() === 'manual') {
		throw new NodeOperationError(context.getNode(), refusal.message, {
			description: `${refusal.status === 401 ? SIGNATURE_FIX : ''}In production, this request is answered ${refusal.status} and starts no execution; n8n's log keeps a warning.`,
		});
	}
	const message = refusal.status >= 500 ? NOT_SET_UP : refusal.message;
	context.getResponseObject().status(refusal.status).json({ message });
	return { noWebhookResponse: true };
}

/** A refusal of the node's settings (500): the caller is told only that it is not set up. */
const notSetUp = (detail: string): Refusal => ({ status: 500, message: detail, logged: detail });

/** The signing secret of the node's credential, or a refusal (500: the node is not set up). */
async function signingSecret(context: IWebhookFunctions): Promise<string | Refusal> {
	let secret: unknown;
	try {
		secret = (await context.getCredentials(CREDENTIAL_TYPE)).signingSecret;
	} catch (error) {
		return notSetUp(
			`The Flare Alert Webhook API credential of the node could not be read: ${(error as Error).message}`,
		);
	}
	if (typeof secret !== 'string' || secret === '') {
		return notSetUp(
			'The Flare Alert Webhook API credential has no signing secret: enter the request signature secret of the Flare alert channel',
		);
	}
	return secret;
}

/**
 * The signing secret of the channel the trigger creates, derived from the node's Flare API
 * credential, or a refusal (500: the node is not set up).
 */
async function createdChannelSecret(context: IWebhookFunctions): Promise<string | Refusal> {
	try {
		return await channelSecret(context);
	} catch (error) {
		return notSetUp(
			`The Flare API credential of the node could not be read: ${(error as Error).message}`,
		);
	}
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
					'In Flare, as an admin: Alert Central → Channels → Add Channel → Webhook (where Alert Central is not there yet: Team → Edit → Create a New Alert Channel → Webhook). Paste the Production URL above as its Webhook URL and press Test: Flare sends a sample alert (use the Test URL while this node listens for a test event). Then send your alerts to this channel.',
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
						typeOptions: { minValue: 1, maxValue: MAX_TOLERANCE_SECONDS },
						default: DEFAULT_TOLERANCE_SECONDS,
						description:
							'How far the time of a signature (t= in X-Flare-Signature) may be from now, at most 3600 seconds. A signed alert outside this window is refused as a replay. Raise it only when the clocks of Flare and n8n are apart.',
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
	 * (channel.ts). At each activation, the static data n8n keeps for the workflow's pollers and other
	 * triggers (and saves whole when they change it) is made to write the window of received alerts as
	 * it is then, not as it was read (docs/alerts.md, "What n8n saves, and when").
	 */
	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				if (this.getMode() !== 'manual') {
					const tolerance = signed(this) ? toleranceOf(this) : 0;
					rememberWhenSaved(
						triggerOf(this),
						this.getWorkflowStaticData('node') as DeliveryState,
						Date.now(),
						Number.isFinite(tolerance) ? Math.min(Math.max(tolerance, 0), MAX_TOLERANCE_SECONDS) : 0,
					);
				}
				return await channelWebhookMethods.checkExists.call(this);
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return await channelWebhookMethods.create.call(this);
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return await channelWebhookMethods.delete.call(this);
			},
		},
	};

	/**
	 * One request of the alert channel (docs/alerts.md, "What it checks and answers"): the body JSON,
	 * bounded and shallow (415, 413, 400), the signature checked when asked for (401), the JSON read
	 * (400), alerts received lately in production left out (200, nothing started), then one item per
	 * alert, its leaked values protected. n8n answers Flare at once ("onReceived"), before the
	 * workflow runs.
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

		/** The signature's time, when the request is signed: a replay of the request repeats it. */
		let signedAt: string | undefined;
		/** How long a replay of a signed request is accepted: its alerts are remembered that long. */
		let tolerance = 0;
		const created = createsChannel(this);
		if (signed(this)) {
			tolerance = toleranceOf(this);
			if (!Number.isFinite(tolerance) || tolerance < 1 || tolerance > MAX_TOLERANCE_SECONDS) {
				return refuse(
					this,
					notSetUp(
						`Options → Timestamp Tolerance must be a number of seconds from 1 to ${MAX_TOLERANCE_SECONDS}, not "${String(options.timestampTolerance)}"`,
					),
				);
			}
			// What needs no secret first: a request without a well-formed, timely header never costs
			// a read of the credential.
			const stamp = readSignatureHeader(request.headers[SIGNATURE_HEADER], tolerance, Date.now());
			if (!stamp.valid) {
				return refuse(this, { status: 401, message: stamp.reason, logged: stamp.check });
			}
			const secret = created ? await createdChannelSecret(this) : await signingSecret(this);
			if (typeof secret !== 'string') return refuse(this, secret);
			const verdict = checkSignature(stamp, rawBody, secret);
			if (!verdict.valid) {
				return refuse(this, { status: 401, message: verdict.reason, logged: verdict.check });
			}
			signedAt = verdict.t;
		}

		const alerts = parseAlerts(rawBody);
		if (!Array.isArray(alerts)) return refuse(this, alerts);

		// The items are built, and masked, before their alerts are remembered: a body the node fails
		// on is not taken for a repeat when Flare sends it again.
		const receivedAt = new Date(Date.now()).toISOString();
		const items = alerts.map((alert) => alertItem(alert, receivedAt));
		const mode = (options.leakedValueOutput ?? 'masked') as LeakedValueOutput;
		const output = this.helpers.returnJsonArray(
			items.map((item) => protectLeakedValues(item, mode)),
		);
		if (this.getMode() === 'manual') {
			// A test event always shows, and touches nothing.
			return {
				workflowData: [output],
				webhookResponse: { message: 'Workflow was started' },
			};
		}
		// The channel's Test alert is the same each time: a signed one is known by its request (a
		// replay is refused, a new press of Test has a new t); an unsigned one starts each time.
		const keys = items.map((item, index) => {
			const uid = item.uid as string | null;
			if (!isChannelTest(alerts[index])) return deliveryKey(uid, alerts[index]);
			return signedAt === undefined ? null : deliveryKey(uid, alerts[index], signedAt);
		});
		const fresh = admit(
			triggerOf(this),
			this.getWorkflowStaticData('node') as DeliveryState,
			keys,
			Date.now(),
			tolerance,
		);
		if (fresh.some((isNew, index) => isNew && keys[index] !== null)) saveAfterTheRequest(this);
		const started = output.filter((_, index) => fresh[index]);
		if (started.length === 0) {
			return { webhookResponse: { message: 'Alert already received: no execution started' } };
		}
		return {
			workflowData: [started],
			webhookResponse: { message: 'Workflow was started' },
		};
	}
}
