import type {
	IAuthenticateGeneric,
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IDataObject,
	IHttpRequestHelper,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

/** Base URL of the credential without trailing slashes, as used by every request. */
export function flareBaseUrl(credentials: ICredentialDataDecryptedObject): string {
	return String(credentials.baseUrl ?? '').replace(/\/+$/, '');
}

/** HTTP status of a failed request made with `helpers.httpRequest`, if the server answered. */
function statusOf(error: unknown): number | undefined {
	const candidate = error as { response?: { status?: number }; httpCode?: string };
	return candidate?.response?.status ?? (Number(candidate?.httpCode) || undefined);
}

export class FlareApi implements ICredentialType {
	name = 'flareApi';

	displayName = 'Flare API';

	icon: Icon = { light: 'file:../icons/flare.svg', dark: 'file:../icons/flare.dark.svg' };

	documentationUrl = 'https://github.com/flareio-community/n8n-nodes-flareio#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description:
				'API key created in the Flare web application under Profile → API Keys. It never expires and has the permissions of the user who created it.',
		},
		{
			displayName: 'Tenant ID',
			name: 'tenantId',
			type: 'number',
			default: '',
			placeholder: 'e.g. 12345',
			description:
				'Tenant to work in, as shown under Profile → Tenants. Leave empty to use the default tenant of the API key.',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: 'https://api.flare.io',
			placeholder: 'e.g. https://api.flare.io',
			description: 'Address of the Flare API',
		},
		{
			displayName: 'Product Segment',
			name: 'productSegment',
			type: 'string',
			default: 'firework',
			placeholder: 'e.g. firework',
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
	];

	/**
	 * Exchanges the API key for a one-hour access token. n8n calls this when the stored token is
	 * empty, after a request answered 401, and for the credential test, then stores the new token.
	 * Errors never carry the key, the token or the body of the token endpoint.
	 */
	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
		const tenantId = Number(credentials.tenantId);
		let response: IDataObject;
		try {
			response = (await this.helpers.httpRequest({
				method: 'POST',
				url: `${flareBaseUrl(credentials)}/tokens/generate`,
				headers: { Authorization: String(credentials.apiKey ?? '') },
				body: tenantId > 0 ? { tenant_id: tenantId } : undefined,
				json: true,
			})) as IDataObject;
		} catch (error) {
			const status = statusOf(error);
			if (status === 401 || status === 403) {
				throw new Error(
					`The API key was rejected by Flare (HTTP ${status}). Check the API key${tenantId > 0 ? ' and that it may access tenant ' + tenantId : ''}, or create a new key under Profile → API Keys.`,
				);
			}
			throw new Error(
				`Flare did not issue an access token (${status ? 'HTTP ' + status : 'no response'}). Check the base URL and try again.`,
			);
		}
		if (typeof response?.token !== 'string' || response.token === '') {
			throw new Error('Flare answered the token request without a token. Check the base URL.');
		}
		return { accessToken: response.token };
	}

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '=Bearer {{$credentials.accessToken}}',
			},
		},
	};

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: '/tokens/test',
			method: 'GET',
		},
	};
}
