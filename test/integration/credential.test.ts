import { FakeFlare } from '../fake-flare';
import { Harness } from '../harness/engine';

/** Half of the dataset is on globex.io: 12,500 credentials, two pages of at most 10,000 for Return All. */
/** An API key the fake does not know. */
const unknownKey = (suffix: string) => `fk_unknown_${suffix}`;

const DATASET = { credentials: 25_000, domains: ['globex.io', 'acme.com'], quirks: { emptyPageEvery: 0, shortPageEvery: 0 } };
const searchParameters = {
	resource: 'leakedCredential',
	operation: 'search',
	queryType: 'domain',
	fqdn: 'globex.io',
	returnAll: false,
	limit: 12,
};

describe('Flare API credential in the real engine', () => {
	let fake: FakeFlare;
	let harness: Harness;

	beforeAll(async () => {
		fake = await FakeFlare.start(DATASET);
		harness = await Harness.create();
	});
	afterAll(async () => await fake.stop());
	beforeEach(() => {
		fake.reset(DATASET);
		harness.addFlareCredential({ apiKey: fake.apiKeys.full, baseUrl: `${fake.url}/`, productSegment: 'firework' });
	});

	const exchanges = () => fake.requests.filter((request) => request.path === '/tokens/generate');
	const storedToken = () => String(harness.credentials.get('cred-1').data.accessToken);

	it('exchanges the key once when the token is empty, and sends it raw, without Bearer', async () => {
		const result = await harness.runNode({ parameters: searchParameters });

		expect(result.status).toBe('success');
		expect(result.output).toHaveLength(12);
		expect(exchanges()).toHaveLength(1);
		expect(exchanges()[0]).toMatchObject({ method: 'POST', auth: 'apiKey', body: undefined, status: 200 });
		const apiCalls = fake.requests.filter((request) => request.path !== '/tokens/generate');
		expect(apiCalls.every((request) => request.auth === 'bearer' && request.tokenValid === true)).toBe(true);
		expect(storedToken()).toMatch(/^ftok_/);
	});

	it('reuses the stored token in later executions', async () => {
		await harness.runNode({ parameters: searchParameters });
		const token = storedToken();
		fake.clearLog();

		const second = await harness.runNode({ parameters: searchParameters });

		expect(second.status).toBe('success');
		expect(exchanges()).toHaveLength(0);
		expect(storedToken()).toBe(token);
	});

	it('after the server expires the token mid-run: one 401, exactly one new exchange, the walk completes', async () => {
		await harness.runNode({ parameters: { ...searchParameters, limit: 1 } });
		const firstToken = storedToken();
		fake.clearLog();
		// The second page of the walk arrives after every token has expired.
		fake.faults.add({ path: '/firework/v4/credentials/global/_search', skip: 1, fault: { expireTokens: true } });

		const result = await harness.runNode({ parameters: { ...searchParameters, returnAll: true } });

		expect(result.status).toBe('success');
		const expected = fake.dataset.searchAll({ query: { type: 'domain', fqdn: 'globex.io' } });
		expect(result.output.map((item) => item.json.id)).toEqual(expected.map((record) => record.id));
		expect(result.output).toHaveLength(12_500);
		expect(fake.requests.filter((request) => request.status === 401)).toHaveLength(1);
		expect(exchanges()).toHaveLength(1);
		expect(storedToken()).not.toBe(firstToken);
		expect(harness.credentials.get('cred-1').data.accessToken).toBe(storedToken());
	});

	it('sends the tenant in the token exchange when one is set', async () => {
		harness.addFlareCredential({ apiKey: fake.apiKeys.full, baseUrl: fake.url, tenantId: 202 });

		const result = await harness.testCredential();

		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(exchanges()[0].body).toEqual({ tenant_id: 202 });
		const tested = fake.requests.find((request) => request.path === '/tokens/test');
		expect(tested).toMatchObject({ status: 200, auth: 'bearer' });
	});

	it('passes the credential test with a good key, always exchanging a fresh token', async () => {
		harness.addFlareCredential({ apiKey: fake.apiKeys.full, baseUrl: fake.url, accessToken: 'ftok_stale' });

		const result = await harness.testCredential();

		expect(result.status).toBe('OK');
		expect(exchanges()).toHaveLength(1);
		expect(exchanges()[0].body).toBeUndefined();
		expect(storedToken()).not.toBe('ftok_stale');
	});

	it('fails the credential test with a bad key, with a clear message and no secret', async () => {
		harness.addFlareCredential({ apiKey: unknownKey('123'), baseUrl: fake.url });

		const result = await harness.testCredential();

		expect(result.status).toBe('Error');
		// The message names the host the key was sent to.
		expect(result.message).toMatch(new RegExp(`^Flare at 127\\.0\\.0\\.1:${new URL(fake.url).port} rejected the API key \\(HTTP 401\\)`));
		expect(result.message).not.toContain(unknownKey('123'));
		expect(result.message).not.toContain('invalid api key');
		expect(fake.requests.map((request) => request.path)).toEqual(['/tokens/generate']);
	});

	it.each(['https://api.flare.io.example.net', 'https://flare.example'])(
		'refuses the Base URL %s before any request, in the credential test and in a run, naming Allow Another Host',
		async (baseUrl) => {
			harness.addFlareCredential({ apiKey: fake.apiKeys.full, baseUrl });
			const host = new URL(baseUrl).host;
			const message = `The Flare API credential's 'Base URL' points to ${host}, which is not Flare's API (api.flare.io or api.eu.flare.io), so the API key was not sent. To send it to ${host} on purpose, turn on 'Allow Another Host' in the credential`;

			const tested = await harness.testCredential();
			const run = await harness.runNode({ parameters: searchParameters });

			expect(tested).toEqual({ status: 'Error', message });
			expect(run.error?.message).toBe(`${message} [item 0]`);
			expect(run.error?.description).toMatch(/Turn on 'Allow Another Host' only for a proxy or a test API you trust: that host receives the API key/);
			expect(fake.requests).toEqual([]);
		},
	);

	it('identifies itself on every request: the token exchange, the credential test, the API', async () => {
		await harness.testCredential();
		await harness.runNode({ parameters: { ...searchParameters, limit: 1 } });

		expect(fake.requests.map((request) => [request.path, request.userAgent])).toEqual([
			['/tokens/generate', 'n8n-nodes-flareio/0.1.0 n8n'],
			['/tokens/test', 'n8n-nodes-flareio/0.1.0 n8n'],
			['/firework/v4/credentials/global/_search', 'n8n-nodes-flareio/0.1.0 n8n'],
		]);
	});

	it('fails a node run with a bad key before any API call, naming the problem, not the key', async () => {
		harness.addFlareCredential({ apiKey: unknownKey('456'), baseUrl: fake.url });

		const result = await harness.runNode({ parameters: searchParameters });

		expect(result.status).toBe('error');
		expect(result.error?.message).toMatch(/rejected the API key/);
		expect(JSON.stringify(result.run)).not.toContain(unknownKey('456'));
		expect(fake.requests.every((request) => request.path === '/tokens/generate')).toBe(true);
	});
});

describe('The token exchange under load', () => {
	let fake: FakeFlare;
	let harness: Harness;

	beforeAll(async () => {
		fake = await FakeFlare.start({ credentials: 100 });
		harness = await Harness.create();
	});
	afterAll(async () => await fake.stop());
	beforeEach(() => fake.reset());

	const search = { resource: 'leakedCredential', operation: 'search', queryType: 'domain', fqdn: 'acme.com', limit: 1 };

	it('a rate-limited or failing token endpoint is tried again, then named as such, not as a bad Base URL', async () => {
		harness.addFlareCredential({ apiKey: fake.apiKeys.full, baseUrl: fake.url });
		fake.faults.add({ path: '/tokens/generate', times: 3, fault: { status: 429, headers: { 'Retry-After': '0' }, body: { error: { code: 'RATELIMIT_REACHED', message: 'ratelimit reached' } } } });

		const limited = await harness.runNode({ parameters: search });

		expect(limited.error?.message).toBe(`Flare at ${new URL(fake.url).host} is rate-limiting the token requests of this API key (HTTP 429). Try again in a minute.`);
		expect(fake.requests.map((request) => request.path)).toEqual(Array(3).fill('/tokens/generate'));

		fake.reset();
		fake.faults.add({ path: '/tokens/generate', times: 2, fault: { status: 503, rawBody: 'down' } });
		const recovered = await harness.runNode({ parameters: search });

		expect(recovered.status).toBe('success');
		expect(fake.requests.map((request) => [request.path, request.status])).toEqual([
			['/tokens/generate', 503],
			['/tokens/generate', 503],
			['/tokens/generate', 200],
			['/firework/v4/credentials/global/_search', 200],
		]);
	}, 20_000);

	it('a 429 with Retry-After: 7 at the token exchange: the next exchange comes 7 s later, on the clock', async () => {
		harness.addFlareCredential({ apiKey: fake.apiKeys.full, baseUrl: fake.url });
		fake.faults.add({ path: '/tokens/generate', times: 1, fault: { status: 429, headers: { 'Retry-After': '7' }, body: { error: { code: 'RATELIMIT_REACHED', message: 'ratelimit reached' } } } });

		const result = await harness.runNode({ parameters: search });

		expect(result.status).toBe('success');
		const exchanges = fake.requests.filter((request) => request.path === '/tokens/generate');
		expect(exchanges.map((request) => request.status)).toEqual([429, 200]);
		// The virtual clock moves by the waits alone: 7 s, and less than one more second of work.
		const waited = exchanges[1].at - exchanges[0].at;
		expect(waited).toBeGreaterThanOrEqual(7_000);
		expect(waited).toBeLessThan(8_000);
	});
});
