/**
 * Leaked Credential → Get Identifier Feed, Leaked Cookie → Search (ASTP) and Identity → Check Accounts
 * (ASTP, a read batched 100 accounts to a request), through the real engine against the fake Flare
 * API: exact requests, exact items, masking, paging, batching and pairing, exact errors.
 */
import type { IDataObject } from 'n8n-workflow';

import { ByAccountsBody, CookieSearchBody, type CookieSearchBodyInput, TenantCredential } from '../contract';
import { PLANTED_MARKER } from '../fake-flare/planted';
import { apiRequests, jsonOf, masked, maskedView, sha256, simplifiedIdentities, useFakeFlare } from './support';

const TENANT = 101;
const identifierFeed = (id: number | string) => `/firework/v3/identifiers/${id}/feed/credentials`;
const COOKIES = '/astp/v2/cookies/_search';
const BY_ACCOUNTS = '/astp/identities/by_accounts';

const rl = (mode: 'list' | 'id', value: string): IDataObject => ({ __rl: true, mode, value });

describe('Leaked Credential → Get Identifier Feed', () => {
	const flare = useFakeFlare({ credentials: 2_000 });
	const feed = (extra: IDataObject) => ({ parameters: { resource: 'leakedCredential', operation: 'getIdentifierFeed', ...extra } });

	it('Return All walks the identifier\'s credentials in pages of 100 (empty and short ones too), simplified and masked', async () => {
		const result = await flare.harness.runNode(feed({ identifierId: rl('list', '7001'), returnAll: true }));

		const expected = flare.fake.feed.identifierCredentialsAll(TENANT, 7001);
		expect(expected.length).toBeGreaterThan(200);
		const requests = apiRequests(flare.fake);
		expect(requests.map((request) => [request.method, request.path, request.query.size])).toEqual(requests.map(() => ['GET', identifierFeed(7001), '100']));
		expect(requests[0].query.from).toBeUndefined();
		expect(requests.length).toBeGreaterThan(Math.ceil(expected.length / 100));
		expect(jsonOf(result.output)).toEqual(
			expected.map((record) => ({
				id: record.id,
				identity_name: record.identity_name,
				domain: record.domain,
				hash: masked(record.hash),
				imported_at: record.imported_at,
				source_id: record.source_id,
				source_name: record.source.name,
				credential_hash: record.credential_hash,
				remediated_at: record.remediated_at ?? null,
				ignored_at: record.ignored_at ?? null,
			})),
		);
		expect(expected.every((record) => record.domain === 'example.com' || record.domain.endsWith('.example.com'))).toBe(true);
	});

	it('raw output keeps Flare\'s record, leaked value masked; Limit asks for just that many', async () => {
		const result = await flare.harness.runNode(feed({ identifierId: rl('id', '7001'), limit: 7, simplify: false }));

		expect(apiRequests(flare.fake).map((request) => request.query)).toEqual([{ size: '7' }]);
		const expected = flare.fake.feed.identifierCredentialsAll(TENANT, 7001).slice(0, 7);
		for (const item of result.output) TenantCredential.parse(item.json);
		expect(jsonOf(result.output)).toEqual(expected.map((record) => ({ ...record, hash: masked(record.hash) })));
	});

	it('says which identifier Flare does not know; continue on fail pairs each item', async () => {
		const result = await flare.harness.runNode(
			{ ...feed({ identifierId: '={{ $json.id }}', limit: 1 }), onError: 'continueRegularOutput' },
			{ items: [{ id: 7999 }, { id: 'x' }, { id: 7001 }] },
		);

		expect(result.output.map((item) => [item.json.error ?? item.json.id, item.pairedItem])).toEqual([
			['Identifier 7999 was not found in Flare', { item: 0 }],
			[`'Identifier' must be a positive whole number, not "x" [item 1]`, { item: 1 }],
			[flare.fake.feed.identifierCredentialsAll(TENANT, 7001)[0].id, { item: 2 }],
		]);
	});
});

describe('Leaked Cookie → Search', () => {
	const flare = useFakeFlare({ credentials: 100, eventsPerTenant: 120 });
	const search = (extra: IDataObject) => ({ parameters: { resource: 'leakedCookie', operation: 'search', domain: 'globex.io', ...extra } });
	const oracle = (body: CookieSearchBodyInput) => flare.fake.feed.cookiesFor(body);

	it('Return All walks the cookies of the exact domain, oldest first, values masked', async () => {
		const result = await flare.harness.runNode(search({ returnAll: true }));

		const expected = oracle({ domain: 'globex.io' });
		expect(expected.length).toBeGreaterThan(20);
		expect(expected.every((cookie) => cookie.domain === 'globex.io')).toBe(true);
		// Some cookies come without event_uid: each is masked as a cookie all the same.
		expect(expected.some((cookie) => cookie.event_uid === undefined)).toBe(true);
		const requests = apiRequests(flare.fake);
		expect(requests.map((request) => [request.method, request.path, request.tier, { ...(request.body as IDataObject), from: undefined }])).toEqual(
			requests.map(() => ['POST', COOKIES, 'basic', { domain: 'globex.io', order: 'asc', size: 2000, from: undefined }]),
		);
		for (const request of requests) CookieSearchBody.parse(request.body);
		expect(jsonOf(result.output)).toEqual(expected.map((cookie) => ({ ...cookie, value: masked(cookie.value) })));
		expect(JSON.stringify(jsonOf(result.output))).not.toContain(PLANTED_MARKER);
		expect(flare.fake.quotaUsed()).toBe(0);
	});

	it('masks every record\'s value as a cookie\'s, whatever its other fields (no event_uid), in each Leaked Value Output', async () => {
		const SESSION = 'sess-5f0c2a9e4b7d1c83a1b2';
		const cookie = { uuid: '44672461-aca4-4b3b-b192-6bd5429c4c6d', domain: 'globex.io', expires_at: null, imported_at: '2024-01-01T00:00:00+00:00', name: 'session', path: '/', value: SESSION };
		const outputs: IDataObject[] = [];
		for (const leakedValueOutput of ['masked', 'sha256', 'omit', 'full']) {
			flare.fake.faults.add({ path: COOKIES, fault: { status: 200, body: { items: [cookie], next: null } } });
			const result = await flare.harness.runNode(search({ limit: 10, options: { leakedValueOutput } }));
			outputs.push(...jsonOf(result.output));
		}

		const omitted: IDataObject = { ...cookie };
		delete omitted.value;
		expect(outputs).toEqual([
			{ ...cookie, value: masked(SESSION) },
			{ ...cookie, value: sha256(SESSION) },
			omitted,
			cookie,
		]);
	});

	it('sends every filter as Flare documents it', async () => {
		const wanted = oracle({ domain: 'globex.io' }).find(
			(cookie) => ['session', 'PHPSESSID'].includes(cookie.name) && ['/', '/login'].includes(cookie.path) && cookie.expires_at !== null && cookie.expires_at > '2021',
		);
		const value = wanted!.value;

		const result = await flare.harness.runNode(
			search({
				domain: 'GLOBEX.io.',
				limit: 5,
				filters: {
					names: 'session, PHPSESSID, session',
					paths: '={{ ["/", "/login"] }}',
					value,
					importedAfter: '2020-01-01T00:00:00Z',
					expiresAfter: '2021-01-01T00:00:00+01:00',
				},
				options: { order: 'desc', leakedValueOutput: 'omit' },
			}),
		);

		const body = {
			domain: 'globex.io',
			names: ['session', 'PHPSESSID'],
			paths: ['/', '/login'],
			values: [value],
			imported_after: '2020-01-01T00:00:00.000Z',
			expires_after: '2020-12-31T23:00:00.000Z',
			order: 'desc',
		};
		expect(apiRequests(flare.fake).map((request) => request.body)).toEqual([{ ...body, size: 5 }]);
		const expected = oracle(body as CookieSearchBodyInput);
		expect(expected).toEqual([wanted]);
		expect(jsonOf(result.output)).toEqual(
			expected.slice(0, 5).map((cookie) => {
				const copy: IDataObject = { ...cookie };
				delete copy.value;
				return copy;
			}),
		);
	});

	it.each([
		[{ domain: 'https://globex.io/' }, `'Domain' is not a domain name: "https://globex.io/" [item 0]`],
		[{ filters: { names: 'a,b,c,d,e,f,g,h,i,j,k' } }, `'Names' has 11 entries, at most 10 [item 0]`],
		[{ filters: { expiresAfter: 'soon' } }, `'Expires After' is not a date and time: "soon" [item 0]`],
	])('rejects %j before anything is sent', async (parameters, message) => {
		const result = await flare.harness.runNode(search(parameters));

		expect([result.error?.name, result.error?.message]).toEqual(['NodeOperationError', message]);
		expect(flare.fake.requests).toEqual([]);
	});

	it('survives the faults of a busy Flare: a 429 is waited out, a dropped connection tried again', async () => {
		flare.fake.faults.add({ path: COOKIES, fault: { status: 429, body: { error: { code: 'RATELIMIT_REACHED', message: 'ratelimit reached' } }, headers: { 'Retry-After': '0' } } });
		flare.fake.faults.add({ path: COOKIES, fault: { reset: true } });

		const result = await flare.harness.runNode(search({ limit: 3 }));

		expect(apiRequests(flare.fake).map((request) => request.status)).toEqual([429, 0, 200]);
		expect(jsonOf(result.output)).toEqual(oracle({ domain: 'globex.io' }).slice(0, 3).map((cookie) => ({ ...cookie, value: masked(cookie.value) })));
	});

	it('says the account lacks ASTP', async () => {
		flare.harness.addFlareCredential({ apiKey: flare.fake.apiKeys.noAstp, baseUrl: flare.fake.url }, 'cred-no-astp');

		const result = await flare.harness.runNode(search({}), { credentialId: 'cred-no-astp' });

		expect(result.error?.message).toBe('Your Flare account has no access to the ASTP feature, needed to search leaked cookies');
	});
});

describe('Identity → Check Accounts', () => {
	const flare = useFakeFlare({ credentials: 2_000 });
	const check = (extra: IDataObject = {}) => ({ parameters: { resource: 'identity', operation: 'checkAccounts', account: '={{ $json.account }}', ...extra } });
	/** Accounts of the dataset with leaked passwords. */
	const leakedAccounts = (count: number) => {
		const names = new Set<string>();
		for (let index = 0; names.size < count; index++) names.add(flare.fake.dataset.credential(index).identity_name);
		return [...names];
	};

	it('sends the accounts 100 to a request, in input order, and gives each its own item, passwords masked', async () => {
		const accounts = [...leakedAccounts(150), 'nobody@example.com', 'jdoe'];

		const result = await flare.harness.runNode(check(), { items: accounts.map((account) => ({ account })) });

		const requests = apiRequests(flare.fake);
		expect(requests.map((request) => [request.method, request.path, request.tier, request.body])).toEqual([
			['POST', BY_ACCOUNTS, 'basic', { accounts: accounts.slice(0, 100) }],
			['POST', BY_ACCOUNTS, 'basic', { accounts: accounts.slice(100) }],
		]);
		for (const request of requests) ByAccountsBody.parse(request.body);
		expect(result.output.map((item) => item.pairedItem)).toEqual(accounts.map((_account, index) => ({ item: index })));
		expect(jsonOf(result.output)).toEqual(
			accounts.map((account) => {
				const identity = flare.fake.accountIdentity(account);
				return {
					account,
					leaked: identity.passwords.length > 0,
					passwords: simplifiedIdentities([identity]),
					morePasswords: false,
				};
			}),
		);
		expect(result.output.slice(0, 150).every((item) => item.json.leaked === true)).toBe(true);
		expect(jsonOf(result.output.slice(150))).toEqual([
			{ account: 'nobody@example.com', leaked: false, passwords: [], morePasswords: false },
			{ account: 'jdoe', leaked: false, passwords: [], morePasswords: false },
		]);
	});

	it('raw output is Flare\'s identity with the account, its passwords masked', async () => {
		const [account] = leakedAccounts(1);

		const result = await flare.harness.runNode(check({ simplify: false }), { items: [{ account }] });

		const identity = flare.fake.accountIdentity(account);
		// The hashes masked, and the planted values that source descriptions quote (mask2's free text).
		expect(jsonOf(result.output)).toEqual([maskedView({ account, leaked: true, ...identity }, flare.fake.plantedValues())]);
	});

	it('never reads an answer without the account as "not leaked": that item fails, saying what came', async () => {
		const accounts = leakedAccounts(2);
		flare.fake.faults.add({ path: BY_ACCOUNTS, fault: { status: 200, body: { [accounts[0]]: flare.fake.accountIdentity(accounts[0]) } } });

		const result = await flare.harness.runNode({ ...check(), onError: 'continueRegularOutput' }, { items: accounts.map((account) => ({ account })) });

		expect(result.output.map((item) => [item.json.error ?? item.json.leaked, item.pairedItem])).toEqual([
			[true, { item: 0 }],
			["Flare's answer could not be used while trying to check accounts for leaked passwords", { item: 1 }],
		]);
		expect(result.output[1].error?.description).toMatch(/^Flare's answer holds nothing for the account, not its identity/);
	});

	it('never reads an identity without its list of passwords as "not leaked": that item fails, saying what came', async () => {
		flare.fake.faults.add({ path: BY_ACCOUNTS, fault: { status: 200, body: { 'jane.doe@example.com': { name: 'jane.doe@example.com', links: {} } } } });

		const result = await flare.harness.runNode({ ...check(), onError: 'continueRegularOutput' }, { items: [{ account: 'jane.doe@example.com' }] });

		expect(result.output.map((item) => [item.json.error ?? item.json.leaked, item.pairedItem])).toEqual([
			["Flare's answer could not be used while trying to check accounts for leaked passwords", { item: 0 }],
		]);
		expect(result.output[0].error?.description).toMatch(/^Flare's answer holds the account's identity without its list of passwords/);
	});

	it.each(['__proto__', 'constructor', 'toString'])('looks an account named %s up among the answer\'s own keys: missing, it fails', async (account) => {
		flare.fake.faults.add({ path: BY_ACCOUNTS, fault: { status: 200, body: {} } });

		const result = await flare.harness.runNode({ ...check(), onError: 'continueRegularOutput' }, { items: [{ account }] });

		expect(apiRequests(flare.fake).map((request) => request.body)).toEqual([{ accounts: [account] }]);
		expect(result.output.map((item) => [item.json.error ?? item.json.leaked, item.pairedItem])).toEqual([
			["Flare's answer could not be used while trying to check accounts for leaked passwords", { item: 0 }],
		]);
		expect(result.output[0].error?.description).toMatch(/^Flare's answer holds nothing for the account, not its identity/);
	});

	it('continue on fail: an invalid Leaked Value Output is its own item\'s error; the other items are checked, each with its own output', async () => {
		const [account] = leakedAccounts(1);
		const items = [
			{ account, mode: 'sha256' },
			{ account: 'jdoe', mode: 'plain' },
			{ account, mode: 'masked' },
		];

		const result = await flare.harness.runNode(
			{ ...check({ simplify: false, options: { leakedValueOutput: '={{ $json.mode }}' } }), onError: 'continueRegularOutput' },
			{ items },
		);

		expect([result.status, result.error?.message]).toEqual(['success', undefined]);
		expect(apiRequests(flare.fake).map((request) => request.body)).toEqual([{ accounts: [account] }]);
		const identity = flare.fake.accountIdentity(account);
		const raw = { account, leaked: true, ...identity };
		const digests = maskedView(raw, flare.fake.plantedValues());
		digests.passwords = identity.passwords.map((password, index) => ({ ...digests.passwords[index], hash: sha256(password.hash) }));
		expect(result.output.map((item) => [item.json, item.pairedItem])).toEqual([
			[digests, { item: 0 }],
			[{ error: `'Leaked Value Output' has an unknown value: "plain" [item 1]` }, { item: 1 }],
			[maskedView(raw, flare.fake.plantedValues()), { item: 2 }],
		]);
	});

	it('is a read: a 503 is tried again, the batch sent whole once more', async () => {
		const accounts = leakedAccounts(3);
		flare.fake.faults.add({ path: BY_ACCOUNTS, fault: { status: 503 } });

		const result = await flare.harness.runNode(check(), { items: accounts.map((account) => ({ account })) });

		expect(apiRequests(flare.fake).map((request) => [request.status, request.body])).toEqual([
			[503, { accounts }],
			[200, { accounts }],
		]);
		expect(result.output).toHaveLength(3);
	});

	it('continue on fail: an empty account is its own error; a batch Flare refuses fails each of its items', async () => {
		const accounts = leakedAccounts(3);
		flare.fake.faults.add({ path: BY_ACCOUNTS, fault: { status: 422, body: { detail: [{ loc: ['body', 'accounts', 1], msg: 'invalid account', type: 'value_error' }] } } });

		const result = await flare.harness.runNode(check(), { items: [{ account: accounts[0] }, { account: '' }, { account: accounts[1] }] }).then(async (first) => {
			expect(first.error?.message).toBe(`'Account' is required [item 1]`);
			expect(flare.fake.requests).toEqual([]);
			return await flare.harness.runNode(
				{ ...check(), onError: 'continueRegularOutput' },
				{ items: [{ account: accounts[0] }, { account: '' }, { account: accounts[1] }] },
			);
		});

		expect(result.output.map((item) => [item.json, item.pairedItem])).toEqual([
			[{ error: "Flare rejected the value of 'Account'" }, { item: 0 }],
			[{ error: `'Account' is required [item 1]` }, { item: 1 }],
			[{ error: "Flare rejected the value of 'Account'" }, { item: 2 }],
		]);
		expect(apiRequests(flare.fake).map((request) => request.body)).toEqual([{ accounts: [accounts[0], accounts[1]] }]);
	});
});
