import type { IDataObject } from 'n8n-workflow';

import { FakeFlare } from '../fake-flare';
import { apiRequests, useFakeFlare } from './support';

const SEARCH_PATH = '/firework/v4/credentials/global/_search';
const searchDomain = (fqdn: string, extra: IDataObject = {}) => ({
	resource: 'leakedCredential',
	operation: 'search',
	queryType: 'domain',
	fqdn,
	...extra,
});

describe('Validation, errors, retries and rate limits', () => {
	const flare = useFakeFlare({ credentials: 500 });

	describe('bad input stops the item before anything is sent', () => {
		it.each([
			[searchDomain('https://example.com/login'), `'Domain' is not a domain name: "https://example.com/login" [item 0]`],
			[searchDomain('exa mple.com'), `'Domain' is not a domain name: "exa mple.com" [item 0]`],
			[{ resource: 'leakedCredential', operation: 'search', queryType: 'email', email: 'jane.example.com' }, `'Email' is not an e-mail address: "jane.example.com" [item 0]`],
			[searchDomain('example.com', { limit: 0 }), `'Limit' must be a whole number of at least 1 [item 0]`],
			[searchDomain('example.com', { requestOptions: { timeout: -5 } }), `'Timeout' must be a whole number of milliseconds, at least 1 [item 0]`],
			[searchDomain('example.com', { options: { importedFrom: '2025-02-01T00:00:00Z', importedTo: '2025-01-01T00:00:00Z' } }), `'Imported From' is after Imported To [item 0]`],
			[searchDomain('example.com', { options: { importedFrom: 'yesterday-ish' } }), `'Imported From' is not a date and time: "yesterday-ish" [item 0]`],
			[{ resource: 'astpUrl', operation: 'getAll', credentialHash: 'not-hex!' }, `'Credential Hash' must be a hexadecimal digest [item 0]`],
			[{ resource: 'identity', operation: 'getByKeyword', keyword: 'jo*hn' }, `'Keyword' has a misplaced wildcard: "jo*hn" [item 0]`],
			[{ resource: 'identity', operation: 'getByKeyword', keyword: '*john*' }, `'Keyword' has a misplaced wildcard: "*john*" [item 0]`],
			[{ resource: 'source', operation: 'get', sourceId: '={{ "  " }}' }, `'Source' is required [item 0]`],
			[{ resource: 'matchingPolicy', operation: 'assign', policyUuid: 'not-a-uuid', identifierIds: '1' }, `'Matching Policy' is not a UUID: "not-a-uuid" [item 0]`],
			[{ resource: 'matchingPolicy', operation: 'assign', policyUuid: '1f0e4f2a-8c1d-4b6e-9a53-3c2d7e8f9a10', identifierIds: '7001, x' }, `'Identifier IDs' must be a positive whole number, not "x" [item 0]`],
			[{ resource: 'matchingPolicy', operation: 'getByIdentifier', identifierId: '12.5' }, `'Identifier' must be a positive whole number, not "12.5" [item 0]`],
			[{ resource: 'identifier', operation: 'delete', identifierId: '../1' }, `'Identifier' must be a positive whole number, not "../1" [item 0]`],
			[{ resource: 'event', operation: 'get', uid: '={{ "" }}' }, `'Event UID' is required [item 0]`],
			[{ resource: 'threatReport', operation: 'createRequest', reportTitle: '={{ " " }}' }, `'Report Title' is required [item 0]`],
			[{ resource: 'threatReport', operation: 'createRequest', reportTitle: 'R', timeRangeType: 'range', timeRangeFrom: '2025-02-01T00:00:00Z', timeRangeTo: '2025-01-01T00:00:00Z' }, `'From' must be before To [item 0]`],
			[{ resource: 'threatReport', operation: 'createRequest', reportTitle: 'R', timeRangeType: 'range', timeRangeFrom: '2025-02-01T00:00:00Z', timeRangeTo: '={{ "" }}' }, `'To' is required for a custom range [item 0]`],
		])('%j → %s', async (parameters, message) => {
			const result = await flare.harness.runNode({ parameters });

			expect(result.status).toBe('error');
			expect(result.error?.message).toBe(message);
			expect(result.error?.name).toBe('NodeOperationError');
			expect(flare.fake.requests).toEqual([]);
		});

		it('names the item that failed', async () => {
			const result = await flare.harness.runNode(
				{ parameters: searchDomain('={{ $json.domain }}', { limit: 1 }) },
				{ items: [{ domain: 'example.com' }, { domain: 'acme.com' }, { domain: 'not a domain' }] },
			);

			expect(result.error?.message).toBe(`'Domain' is not a domain name: "not a domain" [item 2]`);
		});
	});

	describe('API failures become NodeApiErrors that say what happened and how to fix it', () => {
		it('401 after a refresh', async () => {
			flare.fake.faults.add({ path: SEARCH_PATH, times: 2, fault: { status: 401, body: { error: { code: 'UNAUTHORIZED', message: 'token revoked' } } } });

			const result = await flare.harness.runNode({ parameters: searchDomain('example.com', { limit: 1 }) });

			expect(result.error?.message).toBe('Flare refused the credentials while trying to search leaked credentials');
			expect(result.error?.description).toBe(
				'A fresh access token was requested and still refused. Flare says: "token revoked". Check the API key in the Flare API credential, or create a new one under Profile → API Keys.',
			);
			expect(flare.fake.requests.filter((request) => request.path === '/tokens/generate')).toHaveLength(2);
		});

		it('403 names the missing entitlement', async () => {
			flare.harness.addFlareCredential({ apiKey: flare.fake.apiKeys.noAstp, baseUrl: flare.fake.url });

			const result = await flare.harness.runNode({ parameters: { resource: 'source', operation: 'get', sourceId: 'collection-1' } });

			expect(result.error?.message).toBe('Your Flare account has no access to the ASTP feature, needed to get a source');
			expect(result.error?.description).toMatch(/^Ask your Flare Customer Success Manager to enable the ASTP feature/);
			expect(apiRequests(flare.fake)).toHaveLength(1);
		});

		it('403 for threat intelligence', async () => {
			flare.harness.addFlareCredential({ apiKey: flare.fake.apiKeys.noThreatIntel, baseUrl: flare.fake.url });

			const result = await flare.harness.runNode({ parameters: { resource: 'threatReport', operation: 'createRequest', reportTitle: 'X' } });

			expect(result.error?.message).toBe(
				'Your Flare account has no access to Threat Flow, needed to create the threat report request',
			);
		});

		it('422 maps the location to the display name of the parameter', async () => {
			flare.fake.faults.add({
				path: SEARCH_PATH,
				fault: { status: 422, body: { detail: [{ loc: ['body', 'query', 'fqdn'], msg: 'fqdn is invalid', type: 'value_error' }] } },
			});

			const result = await flare.harness.runNode({ parameters: searchDomain('example.com', { limit: 1 }) });

			expect(result.error?.message).toBe("Flare rejected the value of 'Domain'");
			expect(result.error?.description).toBe("fqdn is invalid. Correct 'Domain' and try again.");
		});

		it('429 quota exceeded fails at once and names the quota', async () => {
			flare.fake.reset({ credentials: 500, quota: 0 });

			const result = await flare.harness.runNode({ parameters: searchDomain('example.com', { limit: 1 }) });

			expect(result.error?.message).toBe('The global search quota of your Flare organization is used up');
			expect(apiRequests(flare.fake)).toHaveLength(1);
		});

		it('5xx on a read is retried a bounded number of times, then explained', async () => {
			flare.fake.faults.add({ path: SEARCH_PATH, times: 20, fault: { status: 503, rawBody: '<html>down</html>' } });

			const result = await flare.harness.runNode({ parameters: searchDomain('example.com', { limit: 1 }) });

			expect(result.error?.message).toBe('Flare is temporarily unavailable (HTTP 503) after 5 attempts');
			expect(apiRequests(flare.fake)).toHaveLength(5);
		});

		it('never contains the key or a token', async () => {
			flare.fake.faults.add({ path: SEARCH_PATH, times: 20, fault: { status: 500 } });

			const result = await flare.harness.runNode({ parameters: searchDomain('example.com', { limit: 1 }) });

			const everything = JSON.stringify(result.run);
			expect(everything).not.toContain(flare.fake.apiKeys.full);
			expect(everything).not.toMatch(/ftok_/);
		});
	});

	describe('retries that keep every record once', () => {
		it('a 5xx and a reset in mid-walk are retried; nothing is lost or repeated', async () => {
			flare.fake.reset({ credentials: 60_000, domains: ['acme.com', 'example.com'] });
			flare.fake.faults.add({ path: SEARCH_PATH, skip: 1, fault: { status: 502 } });
			flare.fake.faults.add({ path: SEARCH_PATH, skip: 3, fault: { reset: true } });

			const result = await flare.harness.runNode({ parameters: searchDomain('acme.com', { returnAll: true }) });

			expect(result.status).toBe('success');
			const expected = flare.fake.dataset.searchAll({ query: { type: 'domain', fqdn: 'acme.com' } });
			expect(result.output.map((item) => item.json.id)).toEqual(expected.map((record) => record.id));
			expect(apiRequests(flare.fake).filter((request) => request.status !== 200)).toHaveLength(2);
		});

		it('a read slower than the Timeout is abandoned and retried', async () => {
			flare.fake.faults.add({ path: SEARCH_PATH, fault: { delayMs: 1_500 } });

			const result = await flare.harness.runNode({ parameters: searchDomain('example.com', { limit: 2, requestOptions: { timeout: 300 } }) });

			expect(result.status).toBe('success');
			expect(result.output).toHaveLength(2);
			expect(apiRequests(flare.fake).map((request) => request.body)).toEqual([
				{ query: { type: 'domain', fqdn: 'example.com' }, order: 'desc', size: 2 },
				{ query: { type: 'domain', fqdn: 'example.com' }, order: 'desc', size: 2 },
			]);
		});

		it('a 429 in mid-walk waits Retry-After and retries that page only', async () => {
			flare.fake.reset({ credentials: 60_000, domains: ['acme.com', 'example.com'] });
			flare.fake.faults.add({
				path: SEARCH_PATH,
				skip: 2,
				fault: { status: 429, body: { error: { code: 'RATELIMIT_REACHED', message: 'ratelimit reached' } }, headers: { 'Retry-After': '1' } },
			});

			const result = await flare.harness.runNode({ parameters: searchDomain('acme.com', { returnAll: true }) });

			expect(result.status).toBe('success');
			const expected = flare.fake.dataset.searchAll({ query: { type: 'domain', fqdn: 'acme.com' } });
			expect(result.output.map((item) => item.json.id)).toEqual(expected.map((record) => record.id));
			const requests = apiRequests(flare.fake);
			const limited = requests.findIndex((request) => request.status === 429);
			expect(requests[limited + 1].body).toEqual(requests[limited].body);
			expect(requests[limited + 1].at - requests[limited].at).toBeGreaterThanOrEqual(1_000);
		});

		it('a write is not sent again after a 5xx or a reset: Flare may have applied it', async () => {
			const policy = flare.fake.dataset.policies()[1];
			const [identifierId] = flare.fake.dataset.identifierIds();
			flare.fake.faults.add({ path: /\/assignments$/, phase: 'after', fault: { status: 500 } });

			const assign = await flare.harness.runNode({
				parameters: { resource: 'matchingPolicy', operation: 'assign', policyUuid: policy.uuid, identifierIds: String(identifierId) },
			});
			flare.fake.faults.add({ path: /\/identifiers\//, phase: 'after', fault: { reset: true } });
			const remove = await flare.harness.runNode({ parameters: { resource: 'identifier', operation: 'delete', identifierId } });

			expect(assign.error?.message).toBe('Flare did not confirm the request to assign the matching policy');
			expect(remove.error?.description).toMatch(/^The connection failed \(ECONNRESET\)\. The request was not sent again/);
			expect(apiRequests(flare.fake).map((request) => request.method)).toEqual(['POST', 'DELETE']);
			expect(flare.fake.state.writes.map((write) => write.method)).toEqual(['POST', 'DELETE']);
		});

		it('a 429 on a write is retried: Flare did not process it', async () => {
			flare.fake.faults.add({ path: /\/reports\/requests$/, fault: { status: 429, body: { error: { code: 'RATELIMIT_REACHED' } }, headers: { 'Retry-After': '0' } } });

			const result = await flare.harness.runNode({ parameters: { resource: 'threatReport', operation: 'createRequest', reportTitle: 'X' } });

			expect(result.status).toBe('success');
			expect(apiRequests(flare.fake).map((request) => request.status)).toEqual([429, 200]);
			expect(flare.fake.state.reportRequests).toHaveLength(1);
		});
	});

	describe('continue on fail', () => {
		const items = [{ domain: 'example.com' }, { domain: 'bad domain' }, { domain: 'acme.com' }];
		const parameters = searchDomain('={{ $json.domain }}', { limit: 2 });

		it('regular output: one error item per failed input item, paired, the others succeed', async () => {
			const result = await flare.harness.runNode({ parameters, onError: 'continueRegularOutput' }, { items });

			expect(result.status).toBe('success');
			expect(result.output.map((item) => item.pairedItem)).toEqual([
				{ item: 0 },
				{ item: 0 },
				{ item: 1 },
				{ item: 2 },
				{ item: 2 },
			]);
			expect(result.output[2].json).toEqual({ error: `'Domain' is not a domain name: "bad domain" [item 1]` });
			expect(result.output[2].error).toMatchObject({
				name: 'NodeOperationError',
				description: 'Enter a domain such as example.com, without scheme or path.',
			});
			expect(apiRequests(flare.fake)).toHaveLength(2);
		});

		it('error output: failed items go to the error branch with their input, the rest to the main one', async () => {
			flare.fake.faults.add({ path: SEARCH_PATH, skip: 1, times: 20, fault: { status: 500 } });

			const result = await flare.harness.runNode({ parameters, onError: 'continueErrorOutput' }, { items });

			expect(result.status).toBe('success');
			expect(result.output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 0 }]);
			expect(result.errorOutput.map((item) => item.pairedItem)).toEqual([{ item: 1 }, { item: 2 }]);
			expect(result.errorOutput.map((item) => item.json)).toEqual([
				{ error: `'Domain' is not a domain name: "bad domain" [item 1]` },
				{ error: 'Flare is temporarily unavailable (HTTP 500) after 5 attempts' },
			]);
			expect(result.errorOutput[1].error).toMatchObject({ name: 'NodeApiError', httpCode: '500', description: 'Run the workflow again later.' });
		});

		it('a Return All that fails in mid-walk emits its error item only, none of the pages before it', async () => {
			flare.fake.reset({ credentials: 40_000, domains: ['acme.com', 'example.com'] });
			// The first page of the first item is served; every try of its second page fails.
			flare.fake.faults.add({ path: SEARCH_PATH, skip: 1, times: 5, fault: { status: 500 } });

			const result = await flare.harness.runNode(
				{ parameters: searchDomain('={{ $json.domain }}', { returnAll: true }), onError: 'continueRegularOutput' },
				{ items: [{ domain: 'acme.com' }, { domain: 'example.com' }] },
			);

			expect(result.status).toBe('success');
			const expected = flare.fake.dataset.searchAll({ query: { type: 'domain', fqdn: 'example.com' } });
			expect(result.output).toHaveLength(1 + expected.length);
			expect(result.output[0]).toMatchObject({
				json: { error: 'Flare is temporarily unavailable (HTTP 500) after 5 attempts' },
				pairedItem: { item: 0 },
			});
			expect(result.output.slice(1).map((item) => item.json.id)).toEqual(expected.map((record) => record.id));
			expect(result.output.slice(1).every((item) => (item.pairedItem as { item: number }).item === 1)).toBe(true);
			// The first item's walk: one page, then five tries of the second; then the second item's pages.
			const statuses = apiRequests(flare.fake).map((request) => request.status);
			expect(statuses.slice(0, 6)).toEqual([200, 500, 500, 500, 500, 500]);
			expect(statuses.slice(6).every((status) => status === 200)).toBe(true);
		});
	});

	it('twenty input items against the documented Search rate, without Retry-After: all succeed, paired, zero 429s', async () => {
		// A fake of its own (a new address, so a gate of its own) enforcing 1 search per second.
		const limited = await FakeFlare.start({ credentials: 500, rateLimits: { search: 1 }, retryAfter: 'none' });
		flare.harness.addFlareCredential({ apiKey: limited.apiKeys.full, baseUrl: limited.url });
		const domains = ['example.com', 'acme.com', 'globex.io', 'initech.net', 'umbrella.org'];
		const items = Array.from({ length: 20 }, (_, index) => ({ domain: domains[index % 5] }));

		try {
			const result = await flare.harness.runNode({ parameters: searchDomain('={{ $json.domain }}', { limit: 3 }) }, { items });

			expect(result.status).toBe('success');
			expect(result.output).toHaveLength(60);
			result.output.forEach((item, index) => {
				const input = Math.floor(index / 3);
				expect(item.pairedItem).toEqual({ item: input });
				expect(String(item.json.identity_name).endsWith(`@${items[input].domain}`)).toBe(true);
			});
			const searches = apiRequests(limited);
			expect(searches.map((request) => request.status)).toEqual(Array(20).fill(200));
		} finally {
			await limited.stop();
		}
	});
});
