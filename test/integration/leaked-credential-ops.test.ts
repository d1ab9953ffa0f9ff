/**
 * Leaked Credential → Search ASTP, Take Action and Get Tenant Feed through the real engine, against
 * the fake's oracles (docs/feed-endpoints.md §6–8): exact requests, exact items, paging to the end,
 * Limit, bad input before any request, batching and pairing of the write, and Flare's failures.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	CredentialActionsBody,
	CredentialRecord,
	GlobalSearchBody,
	TenantCredential,
	TenantCredentialsQuery,
} from '../contract';
import { apiRequests, jsonOf, masked, sha256, simplifiedCredential, useFakeFlare } from './support';

const ASTP_PATH = '/astp/v2/credentials/_search';
const ACTIONS_PATH = '/firework/v4/credentials/actions';
const FEED_PATH = '/firework/v2/me/feed/credentials';
/** The tenant of the harness's credential (the fake's first). */
const TENANT = 101;

const astp = (parameters: IDataObject) => ({
	parameters: { resource: 'leakedCredential', operation: 'searchAstp', ...parameters },
});
const act = (parameters: IDataObject) => ({
	parameters: { resource: 'leakedCredential', operation: 'takeAction', ...parameters },
});
const feed = (parameters: IDataObject) => ({
	parameters: { resource: 'leakedCredential', operation: 'getTenantFeed', ...parameters },
});

/** What Simplify promises for a tenant credential, its leaked value already transformed. */
function simplifiedTenantCredential(record: TenantCredential, hash: string): IDataObject {
	return {
		id: record.id,
		identity_name: record.identity_name,
		domain: record.domain,
		hash,
		imported_at: record.imported_at,
		source_id: record.source_id,
		source_name: record.source.name,
		credential_hash: record.credential_hash,
		remediated_at: record.remediated_at ?? null,
		ignored_at: record.ignored_at ?? null,
	};
}

describe('Leaked Credential → Search ASTP', () => {
	const flare = useFakeFlare({ credentials: 1_000 });

	it('sends the search body to the ASTP endpoint, costs no quota, and emits simplified, masked credentials', async () => {
		const result = await flare.harness.runNode(astp({ queryType: 'domain', fqdn: 'Acme.com', limit: 5 }));

		expect(result.status).toBe('success');
		const requests = apiRequests(flare.fake);
		expect(requests.map((request) => [request.method, request.path, request.status, request.tier])).toEqual([
			['POST', ASTP_PATH, 200, 'basic'],
		]);
		const body = { query: { type: 'domain', fqdn: 'acme.com' }, order: 'desc', size: 5 };
		expect(requests[0].body).toEqual(body);
		GlobalSearchBody.parse(requests[0].body);
		const expected = flare.fake.dataset.searchAll({ query: { type: 'domain', fqdn: 'acme.com' } }).slice(0, 5);
		expect(expected).toHaveLength(5);
		expect(jsonOf(result.output)).toEqual(expected.map((record) => simplifiedCredential(record, masked(record.hash))));
		expect(result.output.map((item) => item.pairedItem)).toEqual(expected.map(() => ({ item: 0 })));
		expect(flare.fake.quotaUsed()).toBe(0);
	});

	it('sends the options as Search does and returns raw records with the chosen leaked value output', async () => {
		const sample = flare.fake.dataset.credential(7);
		const options = {
			importedFrom: '2020-01-01T00:00:00Z',
			importedTo: '2030-01-01T00:00:00Z',
			include: ['auth_domains', 'known_password_id'],
			order: 'asc',
			leakedValueOutput: 'sha256',
		};

		const result = await flare.harness.runNode(
			astp({ queryType: 'email', email: sample.identity_name, returnAll: true, simplify: false, options }),
		);

		const body = {
			query: { type: 'email', email: sample.identity_name },
			filters: { imported_at: { gte: '2020-01-01T00:00:00.000Z', lte: '2030-01-01T00:00:00.000Z' } },
			include: ['auth_domains', 'known_password_id'],
			order: 'asc',
			size: 10_000,
		};
		expect(apiRequests(flare.fake).map((request) => request.body)).toEqual([body]);
		const expected = flare.fake.dataset.searchAll(body as never);
		expect(expected.length).toBeGreaterThan(1);
		expect(jsonOf(result.output)).toEqual(expected.map((record) => ({ ...record, hash: sha256(record.hash) })));
		for (const item of result.output) CredentialRecord.parse(item.json);
	});

	it('Return All walks pages of 10,000 to the end, through empty and short pages', async () => {
		flare.fake.reset({ credentials: 50_000, domains: ['example.com', 'acme.com'], quirks: { emptyPageEvery: 2, shortPageEvery: 3 } });

		const result = await flare.harness.runNode(astp({ queryType: 'domain', fqdn: 'acme.com', returnAll: true, options: { leakedValueOutput: 'omit' } }));

		expect(result.status).toBe('success');
		const expected = flare.fake.dataset.searchAll({ query: { type: 'domain', fqdn: 'acme.com' } });
		expect(expected).toHaveLength(25_000);
		expect(jsonOf(result.output)).toEqual(expected.map((record) => simplifiedCredential(record, undefined)));
		const bodies = apiRequests(flare.fake).map((request) => request.body as IDataObject);
		// Pages: 10,000, empty, 5,000 (short), 10,000 (the last); no small first page (no quota).
		expect(bodies.map((body) => body.size)).toEqual([10_000, 10_000, 10_000, 10_000]);
		expect(bodies[0].from).toBeUndefined();
		expect(new Set(bodies.slice(1).map((body) => body.from)).size).toBe(3);
		expect(flare.fake.quotaUsed()).toBe(0);
	});

	it('a Limit larger than a page fills the pages evenly and stops at the Limit', async () => {
		flare.fake.reset({ credentials: 1_000, quirks: { emptyPageEvery: 0, shortPageEvery: 1 } });

		const result = await flare.harness.runNode(astp({ queryType: 'domain', fqdn: 'example.com', limit: 30 }));

		const expected = flare.fake.dataset.searchAll({ query: { type: 'domain', fqdn: 'example.com' } }).slice(0, 30);
		expect(result.output.map((item) => item.json.id)).toEqual(expected.map((record) => record.id));
		const bodies = apiRequests(flare.fake).map((request) => request.body as IDataObject);
		expect(bodies.map((body) => [body.size, typeof body.from])).toEqual([
			[30, 'undefined'],
			[30, 'string'],
		]);
	});

	it('without ASTP: the 403 names the feature', async () => {
		flare.harness.addFlareCredential({ apiKey: flare.fake.apiKeys.noAstp, baseUrl: flare.fake.url });

		const result = await flare.harness.runNode(astp({ queryType: 'domain', fqdn: 'acme.com', limit: 1 }));

		expect(result.error?.message).toBe(
			'Your Flare account has no access to the ASTP feature, needed to search leaked credentials with ASTP',
		);
		expect(apiRequests(flare.fake).map((request) => request.status)).toEqual([403]);
	});

	it('rejects bad input before any request, naming the field and the item', async () => {
		const result = await flare.harness.runNode(
			astp({ queryType: 'domain', fqdn: '={{ $json.domain }}', limit: 1 }),
			{ items: [{ domain: 'acme.com' }, { domain: 'https://acme.com/' }] },
		);

		expect(result.error?.message).toBe(`'Domain' is not a domain name: "https://acme.com/" [item 1]`);
		expect(apiRequests(flare.fake)).toHaveLength(1);
	});

	it('maps a 422 on the body to the field', async () => {
		flare.fake.faults.add({
			path: ASTP_PATH,
			fault: { status: 422, body: { detail: [{ loc: ['body', 'filters', 'imported_at', 'gte'], msg: 'bad date', type: 'value_error' }] } },
		});

		const result = await flare.harness.runNode(astp({ queryType: 'domain', fqdn: 'acme.com', options: { importedFrom: '2024-01-01T00:00:00Z' } }));

		expect(result.error?.message).toBe("Flare rejected the value of 'Imported From'");
	});
});

describe('Leaked Credential → Take Action', () => {
	const flare = useFakeFlare({ credentials: 1_000 });
	const hashes = (count: number, from = 0) =>
		Array.from({ length: count }, (_, k) => flare.fake.dataset.credentialHash(from + k));

	it('sends the hashes of the input items in one request and emits one confirmation per item, paired', async () => {
		const targets = hashes(3);

		const result = await flare.harness.runNode(
			act({ credentialHash: '={{ $json.hash }}', actionType: 'remediate' }),
			{ items: targets.map((hash) => ({ hash: ` ${hash.toUpperCase()} ` })) },
		);

		expect(result.status).toBe('success');
		const [request] = apiRequests(flare.fake);
		expect([request.method, request.path, request.status]).toEqual(['POST', ACTIONS_PATH, 200]);
		expect(request.body).toEqual({
			action: { type: 'remediate' },
			targets: targets.map((credential_hash) => ({ credential_hash })),
		});
		CredentialActionsBody.parse(request.body);
		expect(result.output).toEqual(
			targets.map((credential_hash, item) => ({
				json: { credential_hash, action: 'remediate', done: true },
				pairedItem: { item },
			})),
		);
		for (const hash of targets) {
			expect(flare.fake.feed.credentialState(TENANT, hash).remediated_at).toEqual(expect.any(String));
		}
		expect(flare.fake.state.writes).toHaveLength(1);
	});

	it('takes at most 100 credentials a request: 101 items are two requests, the outputs in input order', async () => {
		const targets = hashes(101);

		const result = await flare.harness.runNode(act({ credentialHash: '={{ $json.hash }}', actionType: 'ignore' }), {
			items: targets.map((hash) => ({ hash })),
		});

		expect(result.status).toBe('success');
		const bodies = apiRequests(flare.fake).map((request) => request.body as { targets: IDataObject[] });
		expect(bodies.map((body) => body.targets.length)).toEqual([100, 1]);
		expect(bodies.flatMap((body) => body.targets.map((target) => target.credential_hash))).toEqual(targets);
		expect(result.output.map((item) => [item.json.credential_hash, item.pairedItem])).toEqual(
			targets.map((hash, item) => [hash, { item }]),
		);
		expect(flare.fake.state.writes).toHaveLength(2);
		expect(flare.fake.feed.credentialState(TENANT, targets[100]).ignored_at).toEqual(expect.any(String));
	});

	it('a new action starts a new request, so that Flare applies the writes in input order; outputs stay in input order', async () => {
		const targets = hashes(4);
		const actions = ['ignore', 'remediate', 'ignore', 'unremediate'];

		const result = await flare.harness.runNode(
			act({ credentialHash: '={{ $json.hash }}', actionType: '={{ $json.action }}' }),
			{ items: targets.map((hash, k) => ({ hash, action: actions[k] })) },
		);

		expect(apiRequests(flare.fake).map((request) => request.body)).toEqual([
			{ action: { type: 'ignore' }, targets: [{ credential_hash: targets[0] }] },
			{ action: { type: 'remediate' }, targets: [{ credential_hash: targets[1] }] },
			{ action: { type: 'ignore' }, targets: [{ credential_hash: targets[2] }] },
			{ action: { type: 'unremediate' }, targets: [{ credential_hash: targets[3] }] },
		]);
		expect(jsonOf(result.output)).toEqual(
			targets.map((credential_hash, k) => ({ credential_hash, action: actions[k], done: true })),
		);
	});

	it('rejects a bad hash or action before any request, naming the field and the item', async () => {
		const [good] = hashes(1);
		const bad = await flare.harness.runNode(act({ credentialHash: '={{ $json.hash }}' }), {
			items: [{ hash: good }, { hash: 'not-a-hash!' }],
		});
		const unknownAction = await flare.harness.runNode(act({ credentialHash: good, actionType: '={{ "delete" }}' }));

		expect(bad.error?.message).toBe(`'Credential Hash' must be a hexadecimal digest [item 1]`);
		const short = await flare.harness.runNode(act({ credentialHash: 'a' }));
		const long = await flare.harness.runNode(act({ credentialHash: `={{ "${good}".repeat(3125) }}` }));
		expect(short.error?.message).toBe(`'Credential Hash' must be 32 hexadecimal digits, not 1 [item 0]`);
		expect(long.error?.message).toBe(`'Credential Hash' must be 32 hexadecimal digits, not 100000 [item 0]`);
		expect(unknownAction.error?.message).toBe(`'Action' has an unknown value: "delete" [item 0]`);
		expect(apiRequests(flare.fake)).toEqual([]);
	});

	it('continue on fail: a bad item fails alone; the others are sent and paired', async () => {
		const [first, second] = hashes(2);

		const result = await flare.harness.runNode(
			{ ...act({ credentialHash: '={{ $json.hash }}' }), onError: 'continueRegularOutput' },
			{ items: [{ hash: first }, { hash: '' }, { hash: second }] },
		);

		expect(result.output.map((item) => [item.json, item.pairedItem])).toEqual([
			[{ credential_hash: first, action: 'remediate', done: true }, { item: 0 }],
			[{ error: `'Credential Hash' is required [item 1]` }, { item: 1 }],
			[{ credential_hash: second, action: 'remediate', done: true }, { item: 2 }],
		]);
		expect(apiRequests(flare.fake)).toHaveLength(1);
	});

	it('an unknown hash fails every item of its request, each with its own error, and Flare changes nothing', async () => {
		const [known] = hashes(1);
		const unknown = 'f'.repeat(32);

		const result = await flare.harness.runNode(
			{ ...act({ credentialHash: '={{ $json.hash }}' }), onError: 'continueErrorOutput' },
			{ items: [{ hash: known }, { hash: unknown }] },
		);

		expect(result.output).toEqual([]);
		const flareSays = `Flare says: "credential ${unknown} not found".`;
		const wholeRequest = 'Flare refused the whole request of items 0–1: none of them was changed.';
		expect(result.errorOutput.map((item) => [item.json, item.pairedItem, item.error?.context.itemIndex, item.error?.description])).toEqual([
			[{ error: `Credential '${known}' was not changed: Flare refused its request because of item 1` }, { item: 0 }, 0, `Correct or remove item 1, then run the others again. ${flareSays} ${wholeRequest}`],
			[{ error: `Credential '${unknown}' was not found in Flare` }, { item: 1 }, 1, `Check the ID, and that it belongs to the tenant selected in the credential. ${flareSays} ${wholeRequest}`],
		]);
		expect(flare.fake.state.writes).toEqual([]);
		expect(flare.fake.feed.credentialState(TENANT, known)).toEqual({ remediated_at: null, ignored_at: null });
	});

	it('a write that may have been applied is never sent again', async () => {
		flare.fake.faults.add({ path: ACTIONS_PATH, phase: 'after', fault: { status: 502 } });

		const result = await flare.harness.runNode(act({ credentialHash: hashes(1)[0] }));

		expect(result.error?.message).toBe('Flare did not confirm the request to take an action on leaked credentials');
		expect(apiRequests(flare.fake)).toHaveLength(1);
		expect(flare.fake.state.writes).toHaveLength(1);
	});

	it('maps a 422 on the targets to Credential Hash', async () => {
		flare.fake.faults.add({
			path: ACTIONS_PATH,
			fault: { status: 422, body: { detail: [{ loc: ['body', 'targets', 0, 'credential_hash'], msg: 'bad hash', type: 'value_error' }] } },
		});

		const result = await flare.harness.runNode(act({ credentialHash: hashes(1)[0] }));

		expect(result.error?.message).toBe("Flare rejected the value of 'Credential Hash'");
	});
});

describe('Leaked Credential → Get Tenant Feed', () => {
	const flare = useFakeFlare({ credentials: 1_000 });

	it('sends one GET for a Limit and emits simplified, masked credentials of the tenant', async () => {
		const result = await flare.harness.runNode(feed({ limit: 5 }));

		expect(result.status).toBe('success');
		const requests = apiRequests(flare.fake);
		expect(requests.map((request) => [request.method, request.path, request.query, request.tier])).toEqual([
			['GET', FEED_PATH, { order_type: 'desc', size: '5' }, 'basic'],
		]);
		TenantCredentialsQuery.parse(requests[0].query);
		const expected = flare.fake.feed.tenantCredentialsAll(TENANT).slice(0, 5);
		expect(expected).toHaveLength(5);
		expect(jsonOf(result.output)).toEqual(expected.map((record) => simplifiedTenantCredential(record, masked(record.hash))));
		expect(flare.fake.quotaUsed()).toBe(0);
	});

	it('Return All walks pages of 100 to the end, through empty and short pages, oldest first, raw', async () => {
		flare.fake.reset({ credentials: 2_000, quirks: { emptyPageEvery: 2, shortPageEvery: 3 } });

		const result = await flare.harness.runNode(feed({ returnAll: true, simplify: false, options: { order: 'asc', leakedValueOutput: 'full' } }));

		expect(result.status).toBe('success');
		const expected = flare.fake.feed.tenantCredentialsAll(TENANT, 'asc');
		expect(expected).toHaveLength(400);
		expect(jsonOf(result.output)).toEqual(expected);
		for (const item of result.output) TenantCredential.parse(item.json);
		const queries = apiRequests(flare.fake).map((request) => request.query);
		// 400 credentials: 100, empty, 50 (short), empty, 100, empty, 100, and the last 50.
		expect(queries.length).toBe(8);
		expect(queries.every((query) => query.size === '100' && query.order_type === 'asc')).toBe(true);
		expect(queries[0].from).toBeUndefined();
		expect(new Set(queries.slice(1).map((query) => query.from)).size).toBe(queries.length - 1);
	});

	it('a Limit above 100 takes pages of equal size, no more than needed', async () => {
		flare.fake.reset({ credentials: 1_000, quirks: { emptyPageEvery: 0, shortPageEvery: 0 } });

		const result = await flare.harness.runNode(feed({ limit: 150 }));

		expect(result.output.map((item) => item.json.id)).toEqual(
			flare.fake.feed.tenantCredentialsAll(TENANT).slice(0, 150).map((record) => record.id),
		);
		expect(apiRequests(flare.fake).map((request) => request.query.size)).toEqual(['75', '75']);
	});

	it('shows the states set by Take Action', async () => {
		const [newest] = flare.fake.feed.tenantCredentialsAll(TENANT);
		await flare.harness.runNode(act({ credentialHash: newest.credential_hash, actionType: 'ignore' }));

		const result = await flare.harness.runNode(feed({ limit: 1 }));

		expect(result.output[0].json).toMatchObject({
			credential_hash: newest.credential_hash,
			ignored_at: expect.stringMatching(/\+00:00$/),
			remediated_at: null,
		});
	});

	it('rejects an unknown order before any request', async () => {
		const result = await flare.harness.runNode(feed({ options: { order: '={{ "newest" }}' } }));

		expect(result.error?.message).toBe(`'Order' has an unknown value: "newest" [item 0]`);
		expect(apiRequests(flare.fake)).toEqual([]);
	});
	/** A 422 that names the page size, as FastAPI words it. */
	const sizeRefused = { status: 422, body: { detail: [{ loc: ['query', 'size'], msg: 'ensure this value is less than or equal to 50', type: 'value_error' }] } };

	it('pages of 100 are a bet: refused for their size on the first page, the walk starts again with pages of 20', async () => {
		flare.fake.reset({ credentials: 1_000, quirks: { emptyPageEvery: 0, shortPageEvery: 0 } });
		flare.fake.faults.add({ path: FEED_PATH, fault: sizeRefused });

		const result = await flare.harness.runNode(feed({ returnAll: true }));

		expect([result.status, result.error?.message]).toEqual(['success', undefined]);
		const expected = flare.fake.feed.tenantCredentialsAll(TENANT);
		expect(result.output.map((item) => item.json.id)).toEqual(expected.map((record) => record.id));
		const queries = apiRequests(flare.fake).map((request) => [request.query.size, request.query.from === undefined, request.status]);
		expect(queries[0]).toEqual(['100', true, 422]);
		expect(queries[1]).toEqual(['20', true, 200]);
		expect(queries.slice(1).every(([size, , status]) => size === '20' && status === 200)).toBe(true);
		expect(queries).toHaveLength(1 + Math.ceil(expected.length / 20));
	});

	it('a page size Flare refuses under Return All is named as the page size, not the Limit', async () => {
		flare.fake.faults.add({ path: FEED_PATH, times: 2, fault: sizeRefused });

		const result = await flare.harness.runNode(feed({ returnAll: true }));

		expect([result.error?.name, result.error?.message, result.error?.description]).toEqual([
			'NodeApiError',
			'Flare rejected the page size of 20 results that the node asked for',
			'ensure this value is less than or equal to 50. With Return All the node chooses the page size: turn off Return All and set a Limit instead.',
		]);
		expect(apiRequests(flare.fake).map((request) => [request.query.size, request.status])).toEqual([
			['100', 422],
			['20', 422],
		]);
	});

	it('a 400 that is not about the page size is not taken for one: no second walk', async () => {
		flare.fake.faults.add({ path: FEED_PATH, fault: { status: 400, body: { message: 'Request header size too large' } } });

		const result = await flare.harness.runNode(feed({ limit: 60 }));

		expect(result.status).toBe('error');
		expect(apiRequests(flare.fake).map((request) => [request.query.size, request.status])).toEqual([['60', 400]]);
	});

	it('under a Limit, a refused page size is the Limit; a page already delivered is never walked again', async () => {
		flare.fake.faults.add({ path: FEED_PATH, fault: { ...sizeRefused, body: { detail: [{ loc: ['query', 'size'], msg: 'too large', type: 'value_error' }] } } });
		const limited = await flare.harness.runNode(feed({ limit: 10 }));
		expect(limited.error?.message).toBe("Flare rejected the value of 'Limit'");

		flare.fake.clearLog();
		flare.fake.faults.add({ path: FEED_PATH, skip: 1, fault: sizeRefused });
		const later = await flare.harness.runNode(feed({ returnAll: true }));
		expect(later.error?.message).toBe('Flare rejected the page size of 100 results that the node asked for');
		expect(apiRequests(flare.fake).map((request) => [request.query.size, request.status])).toEqual([
			['100', 200],
			['100', 422],
		]);
	});
});
