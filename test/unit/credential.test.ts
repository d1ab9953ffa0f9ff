import type { IHttpRequestHelper, IHttpRequestOptions } from 'n8n-workflow';

import { FlareApi } from '../../credentials/FlareApi.credentials';

/** A recognisable API key that must never be echoed. */
const KEY = ['fk', 'unit', 'never', 'echoed'].join('_');

/** A helpers stub that records the request and answers with `answer`. */
function helpers(answer: () => Promise<unknown>) {
	const sent: IHttpRequestOptions[] = [];
	const context: IHttpRequestHelper = {
		helpers: {
			httpRequest: (async (options: IHttpRequestOptions) => {
				sent.push(options);
				return await answer();
			}) as IHttpRequestHelper['helpers']['httpRequest'],
		},
	};
	return { context, sent };
}

function httpFailure(status: number, body: unknown) {
	return Object.assign(new Error(`Request failed with status code ${status}`), { response: { status, data: body } });
}

describe('FlareApi credential', () => {
	const credential = new FlareApi();

	it('declares the parameters that saved credentials rely on', () => {
		expect(credential.name).toBe('flareApi');
		expect(credential.displayName).toBe('Flare API');
		expect(credential.properties.map((property) => [property.name, property.type])).toEqual([
			['apiKey', 'string'],
			['tenantId', 'number'],
			['baseUrl', 'string'],
			['productSegment', 'string'],
			['accessToken', 'hidden'],
		]);
		const byName = Object.fromEntries(credential.properties.map((property) => [property.name, property]));
		expect(byName.apiKey.typeOptions).toEqual({ password: true });
		expect(byName.apiKey.required).toBe(true);
		expect(byName.baseUrl.default).toBe('https://api.flare.io');
		expect(byName.productSegment.default).toBe('firework');
		expect(byName.accessToken.typeOptions).toEqual({ expirable: true, password: true });
	});

	it('exchanges the raw key (no Bearer) at /tokens/generate, trimming trailing slashes', async () => {
		const { context, sent } = helpers(async () => ({ token: 'ftok_new', refresh_token_exp: 1 }));

		const result = await credential.preAuthentication.call(context, { apiKey: KEY, baseUrl: 'https://flare.test//', tenantId: '' });

		expect(result).toEqual({ accessToken: 'ftok_new' });
		expect(sent).toEqual([
			{ method: 'POST', url: 'https://flare.test/tokens/generate', headers: { Authorization: KEY }, body: undefined, json: true },
		]);
	});

	it('selects the tenant in the exchange body when a tenant ID is set', async () => {
		const { context, sent } = helpers(async () => ({ token: 'ftok_tenant' }));

		await credential.preAuthentication.call(context, { apiKey: KEY, baseUrl: 'https://flare.test', tenantId: 202 });

		expect(sent[0].body).toEqual({ tenant_id: 202 });
	});

	it.each([
		[401, /^The API key was rejected by Flare \(HTTP 401\)\. Check the API key, or create a new key/],
		[403, /^The API key was rejected by Flare \(HTTP 403\)/],
	])('explains a %i from the token endpoint without the key or the response body', async (status, message) => {
		const { context } = helpers(async () => {
			throw httpFailure(status, { error: { code: 'UNAUTHORIZED', message: `invalid api key ${KEY}` } });
		});

		const failure = credential.preAuthentication.call(context, { apiKey: KEY, baseUrl: 'https://flare.test' });

		await expect(failure).rejects.toThrow(message);
		await expect(failure).rejects.not.toThrow(KEY);
		await expect(failure).rejects.not.toThrow('invalid api key');
	});

	it('names the tenant when a tenant-scoped exchange is refused', async () => {
		const { context } = helpers(async () => {
			throw httpFailure(403, {});
		});

		await expect(
			credential.preAuthentication.call(context, { apiKey: KEY, baseUrl: 'https://flare.test', tenantId: 7 }),
		).rejects.toThrow('Check the API key and that it may access tenant 7');
	});

	it('explains an unreachable token endpoint and a missing token', async () => {
		const unreachable = helpers(async () => {
			throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
		});
		await expect(
			credential.preAuthentication.call(unreachable.context, { apiKey: KEY, baseUrl: 'https://flare.test' }),
		).rejects.toThrow('Flare did not issue an access token (no response). Check the base URL and try again.');

		const empty = helpers(async () => ({ refresh_token_exp: 1 }));
		await expect(
			credential.preAuthentication.call(empty.context, { apiKey: KEY, baseUrl: 'https://flare.test' }),
		).rejects.toThrow('Flare answered the token request without a token. Check the base URL.');
	});

	it('authenticates with the bearer token and tests with GET /tokens/test', () => {
		expect(credential.authenticate).toEqual({
			type: 'generic',
			properties: { headers: { Authorization: '=Bearer {{$credentials.accessToken}}' } },
		});
		expect(credential.test.request).toMatchObject({ url: '/tokens/test', method: 'GET' });
	});
});
