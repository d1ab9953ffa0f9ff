import type { ICredentialDataDecryptedObject, IHttpRequestHelper, IHttpRequestOptions } from 'n8n-workflow';

import { FlareApi } from '../../credentials/FlareApi.credentials';
import { madeWith, readSettings, tokenFingerprint, USER_AGENT, type MadeWith } from '../../nodes/Flare/shared/connection';
import { forgetTenantTokens } from '../../nodes/Flare/shared/token';

/** A recognisable API key that must never be echoed. */
const KEY = ['fk', 'unit', 'never', 'echoed'].join('_');

/** A helpers stub that records each request and answers with the next of `answers` (the last repeats). */
function helpers(...answers: Array<() => Promise<unknown>>) {
	const sent: IHttpRequestOptions[] = [];
	const context: IHttpRequestHelper = {
		helpers: {
			httpRequest: (async (options: IHttpRequestOptions) => {
				sent.push(options);
				return await answers[Math.min(sent.length, answers.length) - 1]();
			}) as IHttpRequestHelper['helpers']['httpRequest'],
		},
	};
	return { context, sent };
}

const answer = (body: unknown) => async () => ({ body, statusCode: 200, headers: {} });

function httpFailure(status: number, body: unknown, headers: Record<string, string> = {}) {
	return Object.assign(new Error(`Request failed with status code ${status}`), { response: { status, data: body, headers } });
}

const fails = (status: number, body: unknown = {}, headers?: Record<string, string>) => async () => {
	throw httpFailure(status, body, headers);
};

describe('FlareApi credential', () => {
	const credential = new FlareApi();

	it('declares the parameters that saved credentials rely on', () => {
		expect(credential.name).toBe('flareApi');
		expect(credential.displayName).toBe('Flare API');
		expect(credential.properties.map((property) => [property.name, property.type])).toEqual([
			['apiKey', 'string'],
			['tenantId', 'number'],
			['baseUrl', 'string'],
			['allowOtherHost', 'boolean'],
			['productSegment', 'string'],
			['accessToken', 'hidden'],
			['accessTokenFor', 'hidden'],
		]);
		const byName = Object.fromEntries(credential.properties.map((property) => [property.name, property]));
		expect(byName.apiKey.typeOptions).toEqual({ password: true });
		expect(byName.apiKey.required).toBe(true);
		expect(byName.baseUrl.default).toBe('https://api.flare.io');
		expect(byName.productSegment.default).toBe('firework');
		expect(byName.accessToken.typeOptions).toEqual({ expirable: true, password: true });
		expect(byName.accessTokenFor.typeOptions).toEqual({ password: true });
	});

	it('exchanges the raw key (no Bearer) at /tokens/generate: no redirects, a 30 s deadline, trailing slashes trimmed', async () => {
		const { context, sent } = helpers(answer({ token: 'ftok_new', refresh_token_exp: 1 }));

		const result = await credential.preAuthentication.call(context, { apiKey: KEY, baseUrl: 'https://api.flare.io//', tenantId: '' });

		expect(result).toEqual({ accessToken: 'ftok_new', accessTokenFor: expect.stringMatching(/^[0-9a-f]{32}$/) });
		expect(result.accessTokenFor).not.toContain(KEY);
		expect(sent).toEqual([
			{
				method: 'POST',
				url: 'https://api.flare.io/tokens/generate',
				headers: { Authorization: KEY, 'User-Agent': 'n8n-nodes-flareio/0.1.0 n8n' },
				body: undefined,
				json: true,
				encoding: 'stream',
				returnFullResponse: true,
				disableFollowRedirect: true,
				timeout: 30_000,
				abortSignal: expect.any(AbortSignal),
			},
		]);
	});

	it('selects the tenant in the exchange body when a tenant ID is set', async () => {
		const { context, sent } = helpers(answer({ token: 'ftok_tenant' }));

		await credential.preAuthentication.call(context, { apiKey: KEY, baseUrl: 'https://api.flare.io', tenantId: 202 });

		expect(sent[0].body).toEqual({ tenant_id: 202 });
	});

	it('binds the token to Base URL, Tenant ID and API key: each edit changes the fingerprint', async () => {
		const fingerprint = async (data: ICredentialDataDecryptedObject) =>
			(await credential.preAuthentication.call(helpers(answer({ token: 't' })).context, data)).accessTokenFor;
		const base = { apiKey: KEY, baseUrl: 'https://api.flare.io', tenantId: 101 };

		const prints = await Promise.all([
			fingerprint(base),
			fingerprint({ ...base, tenantId: 202 }),
			fingerprint({ ...base, baseUrl: 'https://api.eu.flare.io' }),
			fingerprint({ ...base, apiKey: `${KEY}2` }),
		]);

		expect(new Set(prints).size).toBe(4);
		expect(await fingerprint({ ...base, baseUrl: 'https://api.flare.io/' })).toBe(prints[0]);
	});

	it.each([
		[400, /^Flare at api\.flare\.io rejected the API key \(HTTP 400\)\. Check the API key, or create a new key/],
		[401, /^Flare at api\.flare\.io rejected the API key \(HTTP 401\)\. Check the API key, or create a new key/],
		[403, /^Flare at api\.flare\.io rejected the API key \(HTTP 403\)/],
	])('explains a %i from the token endpoint at once, without the key or the response body', async (status, message) => {
		const { context, sent } = helpers(fails(status, { error: { code: 'UNAUTHORIZED', message: `invalid api key ${KEY}` } }));

		const failure = credential.preAuthentication.call(context, { apiKey: KEY, baseUrl: 'https://api.flare.io' });

		await expect(failure).rejects.toThrow(message);
		await expect(failure).rejects.not.toThrow(KEY);
		await expect(failure).rejects.not.toThrow('invalid api key');
		expect(sent).toHaveLength(1);
	});

	it('names the tenant when a tenant-scoped exchange is refused', async () => {
		const { context } = helpers(fails(403));

		await expect(
			credential.preAuthentication.call(context, { apiKey: KEY, baseUrl: 'https://api.flare.io', tenantId: 7 }),
		).rejects.toThrow('Check the API key and that it may access tenant 7');
	});

	it('tries a 429 or 5xx again, at most 3 times, and then says rate-limited or unavailable', async () => {
		const recovers = helpers(fails(503), fails(429, {}, { 'retry-after': '0' }), answer({ token: 'ftok_third' }));
		await expect(credential.preAuthentication.call(recovers.context, { apiKey: KEY, baseUrl: 'https://api.flare.io' })).resolves.toMatchObject({
			accessToken: 'ftok_third',
		});
		expect(recovers.sent).toHaveLength(3);

		const unavailable = helpers(fails(502));
		await expect(credential.preAuthentication.call(unavailable.context, { apiKey: KEY, baseUrl: 'https://api.flare.io' })).rejects.toThrow(
			'Flare at api.flare.io: the token service is temporarily unavailable (HTTP 502). Try again later.',
		);
		expect(unavailable.sent).toHaveLength(3);

		const rateLimited = helpers(fails(429, {}, { 'retry-after': '3600' }));
		await expect(credential.preAuthentication.call(rateLimited.context, { apiKey: KEY, baseUrl: 'https://api.flare.io' })).rejects.toThrow(
			'Flare at api.flare.io is rate-limiting the token requests of this API key (HTTP 429). Try again in a minute.',
		);
		expect(rateLimited.sent).toHaveLength(1);
	}, 15_000);

	it('refuses a redirect, naming where it pointed', async () => {
		const { context, sent } = helpers(fails(307, '', { location: 'https://collector.example:8443/keys' }));

		await expect(credential.preAuthentication.call(context, { apiKey: KEY, baseUrl: 'https://api.flare.io' })).rejects.toThrow(
			'Flare at api.flare.io answered the token request with a redirect to collector.example:8443 (HTTP 307); nothing was sent there. Check the Base URL in the Flare API credential.',
		);
		expect(sent).toHaveLength(1);
	});

	it('explains an unreachable token endpoint and a missing token', async () => {
		const unreachable = helpers(async () => {
			throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
		});
		await expect(
			credential.preAuthentication.call(unreachable.context, { apiKey: KEY, baseUrl: 'https://api.flare.io' }),
		).rejects.toThrow('Flare at api.flare.io did not issue an access token (ECONNREFUSED). Check the Base URL in the Flare API credential.');

		const empty = helpers(answer({ refresh_token_exp: 1 }));
		await expect(
			credential.preAuthentication.call(empty.context, { apiKey: KEY, baseUrl: 'https://api.flare.io' }),
		).rejects.toThrow('Flare at api.flare.io answered the token request without a token. Check the Base URL in the Flare API credential.');
	});

	it.each([
		[{ baseUrl: 'http://api.flare.io' }, `The Flare API credential's 'Base URL' must start with https://, not "http://"`],
		[{ baseUrl: 'ftp://api.flare.io' }, `The Flare API credential's 'Base URL' must start with https://, not "ftp://"`],
		[{ baseUrl: 'https://user:pass@api.flare.io' }, `The Flare API credential's 'Base URL' must not contain a user name, a password, a query (?) or a fragment (#)`],
		[{ baseUrl: 'https://api.flare.io?x=1' }, `The Flare API credential's 'Base URL' must not contain a user name, a password, a query (?) or a fragment (#)`],
		[{ baseUrl: 'https://api.flare.io#x' }, `The Flare API credential's 'Base URL' must not contain a user name, a password, a query (?) or a fragment (#)`],
		[{ baseUrl: 'api.flare.io' }, `The Flare API credential's 'Base URL' is not a URL: "api.flare.io"`],
		[{ productSegment: 'x/../../tokens/generate?' }, `The Flare API credential's 'Product Segment' may contain only letters, digits, - and _, not "x/../../tokens/generate?"`],
		[{ tenantId: 'abc' }, `The Flare API credential's 'Tenant ID' must be empty or a positive whole number, not "abc"`],
		[{ tenantId: 0 }, `The Flare API credential's 'Tenant ID' must be empty or a positive whole number, not "0"`],
		[{ tenantId: 1.5 }, `The Flare API credential's 'Tenant ID' must be empty or a positive whole number, not "1.5"`],
		[{ apiKey: '  ' }, `The Flare API credential's 'API Key' is empty`],
	])('refuses the setting %j before anything is sent', async (setting, message) => {
		const { context, sent } = helpers(answer({ token: 't' }));

		await expect(credential.preAuthentication.call(context, { apiKey: KEY, baseUrl: 'https://api.flare.io', ...setting })).rejects.toThrow(message);
		expect(sent).toEqual([]);
	});

	it.each(['http://localhost:5678', 'http://127.0.0.1:8080/', 'http://[::1]:9000', 'https://api.eu.flare.io', 'https://localhost:8443'])(
		'accepts the Base URL %s',
		async (baseUrl) => {
			const { context, sent } = helpers(answer({ token: 't' }));

			await credential.preAuthentication.call(context, { apiKey: KEY, baseUrl, productSegment: '/firework/' });

			expect(sent[0].url).toBe(`${baseUrl.replace(/\/+$/, '')}/tokens/generate`);
		},
	);

	it('sends the stored token only with the settings it was issued for', async () => {
		const settings = { apiKey: KEY, baseUrl: 'https://api.flare.io', tenantId: 101 };
		const issued = await credential.preAuthentication.call(helpers(answer({ token: 'ftok_101' })).context, settings);
		const headersFor = async (data: ICredentialDataDecryptedObject) =>
			(await credential.authenticate({ ...issued, ...data }, { baseURL: String(data.baseUrl), url: '/x', headers: { Accept: 'application/json' } }))
				.headers;

		const anonymous = { Accept: 'application/json', 'User-Agent': USER_AGENT };
		expect(await headersFor(settings)).toEqual({ ...anonymous, Authorization: 'Bearer ftok_101' });
		expect(await headersFor({ ...settings, tenantId: 202 })).toEqual(anonymous);
		expect(await headersFor({ ...settings, baseUrl: 'https://api.eu.flare.io' })).toEqual(anonymous);
		expect(await headersFor({ ...settings, apiKey: 'another' })).toEqual(anonymous);
		expect(await headersFor({ ...settings, baseUrl: 'http://api.flare.io' })).toEqual(anonymous);
		expect(await headersFor({ ...settings, accessTokenFor: '' })).toEqual(anonymous);
		// Another host's token is never sent, even with Allow Another Host turned on afterwards.
		expect(await headersFor({ ...settings, baseUrl: 'https://proxy.example', allowOtherHost: true })).toEqual(anonymous);
	});

	it.each([
		'https://api.flare.io.example.net',
		'https://api.flare.io.evil.example/flare',
		'https://flare.io',
		'https://app.flare.io',
		'https://eu.api.flare.io',
		'https://api.flare.io..',
		'https://xn--pi-7kc.flare.io',
		'https://proxy.example/flare',
	])('refuses the Base URL %s before anything is sent, naming Allow Another Host', async (baseUrl) => {
		const { context, sent } = helpers(answer({ token: 't' }));
		// A fully qualified name is the same host: one trailing dot is dropped.
		const host = new URL(baseUrl).hostname.replace(/\.$/, '');

		const failure = credential.preAuthentication.call(context, { apiKey: KEY, baseUrl });

		await expect(failure).rejects.toThrow(
			`The Flare API credential's 'Base URL' points to ${host}, which is not Flare's API (api.flare.io or api.eu.flare.io), so the API key was not sent. To send it to ${host} on purpose, turn on 'Allow Another Host' in the credential`,
		);
		expect(sent).toEqual([]);
		// The stored token is not sent there either.
		const headers = (await credential.authenticate({ apiKey: KEY, baseUrl, accessToken: 'ftok_x', accessTokenFor: 'any' }, { baseURL: baseUrl, url: '/x' }))
			.headers;
		expect(headers).toEqual({ 'User-Agent': USER_AGENT });
	});

	it('sends the key to another host only with Allow Another Host on, and names that host in its messages', async () => {
		const { context, sent } = helpers(fails(401));

		await expect(
			credential.preAuthentication.call(context, { apiKey: KEY, baseUrl: 'https://proxy.example/flare/', allowOtherHost: true }),
		).rejects.toThrow(/^Flare at proxy\.example rejected the API key \(HTTP 401\)/);
		expect(sent.map((request) => request.url)).toEqual(['https://proxy.example/flare/tokens/generate']);
		expect(credential.properties.find((property) => property.name === 'allowOtherHost')).toMatchObject({
			displayName: 'Allow Another Host',
			default: false,
			description: expect.stringMatching(/receives the API key and every access token, and can act in Flare as the key's user/),
		});
	});

	it("renews a node's tenant token that Flare refused in that request's own data (n8n 1.x asks after a 401): one exchange, nothing to store", async () => {
		forgetTenantTokens();
		const { context, sent } = helpers(answer({ token: 'ftok_303_new' }));
		const data = { apiKey: KEY, baseUrl: 'https://api.flare.io', tenantId: 303, accessToken: 'ftok_303', accessTokenFor: 'old', flareNodeTenantView: true };

		await expect(credential.preAuthentication.call(context, data)).resolves.toEqual({});

		expect(sent.map((request) => [request.url, request.body])).toEqual([['https://api.flare.io/tokens/generate', { tenant_id: 303 }]]);
		// n8n 1.x sends the request again with this data: the new token, and what it was issued for.
		expect(data.accessToken).toBe('ftok_303_new');
		expect(data.accessTokenFor).toBe(tokenFingerprint(readSettings(data)));
		expect((await credential.authenticate(data, { baseURL: 'https://api.flare.io', url: '/x' })).headers?.Authorization).toBe('Bearer ftok_303_new');
	});

	it.each([
		['https://api.flare.io:8443', '8443', 'api.flare.io'],
		['https://api.eu.flare.io:444/', '444', 'api.eu.flare.io'],
	])("refuses the Base URL %s (another port of Flare's host) unless Allow Another Host is on", async (baseUrl, port, host) => {
		const { context, sent } = helpers(answer({ token: 't' }));

		await expect(credential.preAuthentication.call(context, { apiKey: KEY, baseUrl })).rejects.toThrow(
			`The Flare API credential's 'Base URL' points to port ${port} of ${host}, where Flare's API does not answer (it answers on the default port, 443), so the API key was not sent. To send it there on purpose, turn on 'Allow Another Host' in the credential`,
		);
		expect(sent).toEqual([]);

		await credential.preAuthentication.call(context, { apiKey: KEY, baseUrl, allowOtherHost: true });
		expect(sent.map((request) => request.url)).toEqual([`https://${host}:${port}/tokens/generate`]);
	});

	it.each(['https://api.flare.io.', 'https://API.flare.io.:443/'])('accepts the fully qualified Base URL %s as https://api.flare.io, and its Test', async (baseUrl) => {
		const { context, sent } = helpers(answer({ token: 'ftok_fqdn' }));

		const issued = await credential.preAuthentication.call(context, { apiKey: KEY, baseUrl });

		expect(sent.map((request) => request.url)).toEqual(['https://api.flare.io/tokens/generate']);
		expect(issued.accessTokenFor).toBe(tokenFingerprint(readSettings({ apiKey: KEY, baseUrl: 'https://api.flare.io' })));
		// The credential's Test sends the Base URL as typed (trailing slashes trimmed): the same host.
		const test = { baseURL: baseUrl.replace(/\/+$/, ''), url: '/tokens/test' };
		expect((await credential.authenticate({ apiKey: KEY, baseUrl, ...issued }, test)).headers?.Authorization).toBe('Bearer ftok_fqdn');
	});

	it("sends the token only to the Base URL it was issued for: the same scheme, host, port and path (the HTTP Request node may use this credential)", async () => {
		const data = { apiKey: KEY, baseUrl: 'https://proxy.example/flare', allowOtherHost: true, accessToken: 'ftok_p' };
		const issued = { ...data, accessTokenFor: tokenFingerprint(readSettings(data)) };
		const authorization = async (options: IHttpRequestOptions) => (await credential.authenticate(issued, options)).headers?.Authorization;

		expect(await authorization({ baseURL: 'https://proxy.example/flare', url: '/firework/v2/me/tenants' })).toBe('Bearer ftok_p');
		expect(await authorization({ url: 'https://proxy.example/flare/firework/v2/me/tenants' })).toBe('Bearer ftok_p');
		expect(await authorization({ url: 'https://PROXY.example:443/flare' })).toBe('Bearer ftok_p');
		for (const elsewhere of [
			{ url: 'https://collector.example/flare/x' },
			{ url: 'http://proxy.example/flare/x' },
			{ url: 'https://proxy.example:8443/flare/x' },
			{ url: 'https://proxy.example/flarex' },
			{ url: 'https://proxy.example/other' },
			{ url: 'https://proxy.example/flare/../other' },
			{ baseURL: 'https://collector.example/flare', url: '/x' },
			{ baseURL: 'https://proxy.example/flare', url: 'https://collector.example/x' },
			{ url: '/flare/x' },
		]) {
			expect([elsewhere, await authorization(elsewhere)]).toEqual([elsewhere, undefined]);
		}
	});

	it('drops an Authorization header set before (n8n hands the same options again after a 401)', async () => {
		const options = { baseURL: 'https://api.flare.io', url: '/x', headers: { authorization: 'Bearer ftok_old' } };

		const headers = (await credential.authenticate({ apiKey: KEY, baseUrl: 'https://api.flare.io', accessToken: 'ftok_y', accessTokenFor: 'another' }, options)).headers;

		expect(headers).toEqual({ 'User-Agent': USER_AGENT });
	});

	it('sends nothing for a request made with other settings than the credential has now (edited while it waited), and says so', async () => {
		const now = { apiKey: KEY, baseUrl: 'https://api.flare.io', tenantId: 101, accessToken: 'ftok_101' };
		const issued = { ...now, accessTokenFor: tokenFingerprint(readSettings(now)) };
		const request = (settings: ICredentialDataDecryptedObject) => {
			const made: MadeWith = { fingerprint: tokenFingerprint(readSettings({ ...now, ...settings })) };
			return { made, options: madeWith({ baseURL: String(settings.baseUrl ?? now.baseUrl), url: '/x' }, made) };
		};

		const same = request({});
		expect((await credential.authenticate(issued, same.options)).headers?.Authorization).toBe('Bearer ftok_101');
		expect(same.made).toEqual({ fingerprint: same.made.fingerprint });
		const edits: ICredentialDataDecryptedObject[] = [{ baseUrl: 'https://api.eu.flare.io' }, { tenantId: 202 }, { apiKey: `${KEY}_old` }];
		for (const before of edits) {
			const { made, options } = request(before);
			await expect(credential.authenticate(issued, options)).rejects.toThrow('The Flare API credential changed after this request was made');
			expect(made.changed).toBe(true);
			expect(options).not.toHaveProperty('headers');
		}
	});

	it('tests with GET /tokens/test, not following redirects', () => {
		expect(credential.test.request).toMatchObject({ url: '/tokens/test', method: 'GET', disableFollowRedirect: true });
	});
});
