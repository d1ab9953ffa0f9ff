import type { ICredentialType, Icon, INodeProperties } from 'n8n-workflow';

/**
 * The request signature secret of a Flare webhook alert channel, for the Flare Alert Trigger. Kept in
 * a credential so that n8n stores it encrypted, never in the workflow. The trigger's credential test
 * checks that it is set: Flare has no endpoint to check it against.
 */
export class FlareAlertWebhookApi implements ICredentialType {
	name = 'flareAlertWebhookApi';

	displayName = 'Flare Alert Webhook API';

	icon: Icon = { light: 'file:../icons/flare.svg', dark: 'file:../icons/flare.dark.svg' };

	documentationUrl = 'https://github.com/flareio-community/n8n-nodes-flareio#receive-flares-alerts';

	properties: INodeProperties[] = [
		{
			displayName: 'Signing Secret',
			name: 'signingSecret',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description:
				'The Request Signature Secret of the Flare alert channel (Team → Edit → the Webhook channel; the + button beside the field adds one). Flare signs every alert with it in the X-Flare-Signature header.',
		},
	];
}
