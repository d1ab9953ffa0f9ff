import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestHelper,
	IHttpRequestOptions,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

import {
	CREDENTIAL_FIELDS,
	DEFAULT_BASE_URL,
	DEFAULT_SEGMENT,
	FLARE_API_HOSTS,
	goesTo,
	madeWithOf,
	NODE_TENANT_VIEW,
	readSettings,
	tokenFingerprint,
	USER_AGENT,
	type FlareSettings,
} from '../nodes/Flare/shared/connection';
import { sending } from '../nodes/Flare/shared/rateGate';
import { exchangeToken, tenantToken } from '../nodes/Flare/shared/token';

export class FlareApi implements ICredentialType {
	// The same as CREDENTIAL_TYPE (shared/connection.ts): n8n's lint reads the name from this line.
	name = 'flareApi';

	displayName = 'Flare API';

	icon: Icon = { light: 'file:../icons/flare.svg', dark: 'file:../icons/flare.dark.svg' };

	documentationUrl = 'https://github.com/flareio-community/n8n-nodes-flareio#credentials';

	properties: INodeProperties[] = [
		{
			displayName: CREDENTIAL_FIELDS.apiKey,
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description:
				'API key created in the Flare web application under Profile → API Keys. It never expires and has the permissions of the user who created it.',
		},
		{
			displayName: CREDENTIAL_FIELDS.tenantId,
			name: 'tenantId',
			type: 'number',
			default: '',
			placeholder: 'e.g. 12345',
			description:
				'Tenant to work in, as shown under Profile → Tenants or listed by Tenant → Get Many in the Flare node. Leave empty to use the default tenant of the API key. Each Flare node and trigger can work in another tenant the key can access (its Tenant field).',
		},
		{
			displayName: CREDENTIAL_FIELDS.baseUrl,
			name: 'baseUrl',
			type: 'string',
			default: DEFAULT_BASE_URL,
			placeholder: `e.g. ${DEFAULT_BASE_URL}`,
			description: `Address of the Flare API, starting with https://: ${FLARE_API_HOSTS.map((host) => `https://${host}`).join(' or ')}. Requests never follow redirects, so enter it exactly. Another host, or another port, is refused unless Allow Another Host is on; localhost is accepted for tests.`,
		},
		{
			displayName: CREDENTIAL_FIELDS.allowOtherHost,
			name: 'allowOtherHost',
			type: 'boolean',
			default: false,
			description: `Whether to send the API key to a Base URL that is not Flare's API (${FLARE_API_HOSTS.join(', ')} on port 443), e.g. a proxy or a test API. That host receives the API key and every access token, and can act in Flare as the key's user: turn it on only for a host you run or trust. Localhost needs no option, for tests: on a shared n8n, whatever listens there (n8n itself, someone's webhook) would receive the key.`,
		},
		{
			displayName: CREDENTIAL_FIELDS.productSegment,
			name: 'productSegment',
			type: 'string',
			default: DEFAULT_SEGMENT,
			placeholder: `e.g. ${DEFAULT_SEGMENT}`,
			description:
				'Path segment before /v4/ in the Flare API paths. Keep the default unless Flare tells you otherwise.',
		},
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'hidden',
			typeOptions: { expirable: true, password: true },
			default: '',
		},
		{
			displayName: 'Access Token Issued For',
			name: 'accessTokenFor',
			type: 'hidden',
			typeOptions: { password: true },
			default: '',
		},
	];

	/**
	 * Exchanges the API key for a one-hour access token. n8n calls this when the stored token is
	 * empty, after a request answered 401, and for the credential test, then stores what it returns:
	 * the token, and the fingerprint of the settings it was issued for (never the key itself). The
	 * settings are checked first; errors never carry the key, the token or the token endpoint's body.
	 * A node working in another tenant holds that tenant's token itself (transport.ts): n8n 2.x never
	 * asks here for one; n8n 1.x does after Flare refused it (401), and then sends the request again:
	 * the tenant's token is renewed here, in the data of that one request, so that the refused token
	 * is not sent twice; nothing is returned, so nothing is stored, and the stored token and settings
	 * stay the credential's own.
	 */
	async preAuthentication(
		this: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
	): Promise<ICredentialDataDecryptedObject> {
		const settings = readSettings(credentials);
		if (credentials[NODE_TENANT_VIEW] === true) {
			const refused = typeof credentials.accessToken === 'string' ? credentials.accessToken : '';
			credentials.accessToken = await tenantToken(this, settings, refused);
			credentials.accessTokenFor = tokenFingerprint(settings);
			return {};
		}
		return {
			accessToken: await exchangeToken(this, settings),
			accessTokenFor: tokenFingerprint(settings),
		};
	}

	/**
	 * Sends a token only with what it was issued for: the Base URL, Tenant ID and API key (after one
	 * of them was edited, the old token is not sent; Flare answers 401 and n8n exchanges a token for
	 * the new settings: docs/architecture.md, "Tokens"), and only to that Base URL. A request a Flare
	 * node made carries the settings it was made with (connection.ts `madeWith`): when the credential
	 * no longer has them (edited while the request waited for its turn), nothing is sent at all, so
	 * that a token never goes to the host or tenant the request was not made for. A node working in
	 * another tenant hands over that tenant's token with the settings it was issued for
	 * (transport.ts): the same checks apply. Every request says who sends it (User-Agent). n8n calls
	 * this last before sending: the node's rate gate counts the next slot from here.
	 */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		let settings: FlareSettings | undefined;
		try {
			settings = readSettings(credentials);
		} catch {
			// Settings that cannot be used: no token goes anywhere.
		}
		const made = madeWithOf(requestOptions);
		if (made && (!settings || tokenFingerprint(settings) !== made.fingerprint)) {
			made.changed = true;
			throw new Error('The Flare API credential changed after this request was made');
		}
		// n8n hands the same options again after a 401: a token set then is not kept.
		const headers = Object.fromEntries(
			Object.entries(requestOptions.headers ?? {}).filter(
				([name]) => name.toLowerCase() !== 'authorization',
			),
		);
		requestOptions.headers = { ...headers, 'User-Agent': USER_AGENT };
		const token = credentials.accessToken;
		if (
			settings &&
			typeof token === 'string' &&
			token !== '' &&
			credentials.accessTokenFor === tokenFingerprint(settings) &&
			goesTo(requestOptions, settings.baseUrl)
		) {
			requestOptions.headers.Authorization = `Bearer ${token}`;
		}
		sending(requestOptions);
		return requestOptions;
	}

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: '/tokens/test',
			method: 'GET',
			disableFollowRedirect: true,
		},
	};
}
