/**
 * The fake Flare API's own contract: every endpoint, every error shape, the query semantics against the
 * dataset oracle (and against brute force over the records), paging quirks, limits and fault injection.
 */
import { sleep } from 'n8n-workflow';
import { z } from 'zod';

import {
	ApiReport,
	BlogPostEvent,
	CredentialRecord,
	CredentialUrlRecord,
	ErrorEnvelope,
	type GlobalSearchBodyInput,
	IdentifierPage,
	IdentityRecord,
	LegacySource,
	MatchingPolicyAssignment,
	MatchingPolicyPage,
	pageOf,
	ReportRequestResponse,
	ReportRequestStatus,
	SourcePage,
	TokenResponse,
	TokenTestResponse,
	ValidationErrorEnvelope,
} from '../contract';
import { FakeFlare, type KeyRole, planted, threatReportFor } from './index';

let fake: FakeFlare;

beforeAll(async () => {
	fake = await FakeFlare.start();
});
afterAll(async () => fake.stop());
beforeEach(() => fake.reset());

// ---- helpers ----

interface Result {
	status: number;
	headers: Headers;
	text: string;
	json: unknown;
}

interface CallOptions {
	token?: string;
	/** Raw Authorization header (overrides token). */
	authorization?: string;
	body?: unknown;
	rawBody?: string;
}

async function call(
	method: string,
	path: string,
	options: CallOptions = {},
	target = fake,
): Promise<Result> {
	const headers: Record<string, string> = {};
	if (options.authorization !== undefined) headers.authorization = options.authorization;
	else if (options.token) headers.authorization = `Bearer ${options.token}`;
	let body: string | undefined;
	if (options.rawBody !== undefined) body = options.rawBody;
	else if (options.body !== undefined) {
		body = JSON.stringify(options.body);
		headers['content-type'] = 'application/json';
	}
	const response = await fetch(target.url + path, { method, headers, body });
	const text = await response.text();
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined; // not JSON: tests look at `text`
	}
	return { status: response.status, headers: response.headers, text, json };
}

async function tokenFor(role: KeyRole = 'full', tenantId?: number, target = fake): Promise<string> {
	const body = tenantId === undefined ? undefined : { tenant_id: tenantId };
	const result = await call(
		'POST',
		'/tokens/generate',
		{ authorization: target.apiKeys[role], body },
		target,
	);
	expect(result.status).toBe(200);
	return TokenResponse.parse(result.json).token;
}

const seg = () => fake.options.productSegment;
const searchPath = () => `/${seg()}/v4/credentials/global/_search`;
const CredentialPage = pageOf(CredentialRecord);
const UrlPage = pageOf(CredentialUrlRecord);
const Identities = z.array(IdentityRecord);

function expectError(
	result: Result,
	status: number,
	code: string,
	message?: string | RegExp,
): void {
	expect(result.status).toBe(status);
	const envelope = ErrorEnvelope.parse(result.json);
	expect(envelope.error.code).toBe(code);
	if (message !== undefined) expect(envelope.error.message).toMatch(message);
}

function expectInvalid(result: Result, loc: Array<string | number>, type?: string): void {
	expect(result.status).toBe(422);
	const { detail } = ValidationErrorEnvelope.parse(result.json);
	const item = detail.find((entry) => JSON.stringify(entry.loc) === JSON.stringify(loc));
	expect(item).toBeDefined();
	if (type) expect(item!.type).toBe(type);
}

async function search(token: string, body: unknown, target = fake): Promise<Result> {
	return call(
		'POST',
		`/${target.options.productSegment}/v4/credentials/global/_search`,
		{ token, body },
		target,
	);
}

/** Walks a search to the end, returning every page. */
async function walkSearch(token: string, body: GlobalSearchBodyInput) {
	const pages: Array<z.infer<typeof CredentialPage>> = [];
	let from: string | null = null;
	do {
		const result = await search(token, { ...body, from });
		expect(result.status).toBe(200);
		const page = CredentialPage.parse(result.json);
		pages.push(page);
		from = page.next;
	} while (from !== null && pages.length < 500);
	expect(from).toBeNull();
	return pages;
}

const ids = (records: Array<{ id: number }>) => records.map((record) => record.id);

/** Brute force over every record: ids (descending) of credentials satisfying `predicate`. */
function bruteForce(predicate: (record: CredentialRecord) => boolean): number[] {
	const matching: number[] = [];
	for (let i = fake.dataset.size - 1; i >= 0; i--) {
		const record = fake.dataset.credential(i, ['auth_domains']);
		if (predicate(record)) matching.push(record.id);
	}
	return matching;
}

// ---- tests ----

describe('tokens', () => {
	it('issues a token per key and tenant, and /tokens/test describes it', async () => {
		const result = await call('POST', '/tokens/generate', { authorization: fake.apiKeys.full });
		expect(result.status).toBe(200);
		const { token, refresh_token_exp } = TokenResponse.parse(result.json);
		expect(token.startsWith('ftok_')).toBe(true);
		expect(refresh_token_exp).toBeGreaterThan(Date.now() / 1000);

		const test = await call('GET', '/tokens/test', { token });
		expect(test.status).toBe(200);
		expect(TokenTestResponse.parse(test.json)).toEqual({
			api_key_id: 9001,
			organization_id: 4242,
			scopes: ['authenticated', 'apikey', 'firework', 'astp', 'threat_flow'],
			tenant_id: 101,
			user_email: 'analyst@acme.com',
			user_id: 501,
		});
		const other = await tokenFor('noAstp', 202);
		const otherTest = TokenTestResponse.parse(
			(await call('GET', '/tokens/test', { token: other })).json,
		);
		expect(otherTest.tenant_id).toBe(202);
		expect(otherTest.api_key_id).toBe(9002);
	});

	it('accepts an empty JSON object body (as the Go SDK sends it)', async () => {
		const result = await call('POST', '/tokens/generate', {
			authorization: fake.apiKeys.full,
			rawBody: '{}',
		});
		expect(result.status).toBe(200);
	});

	it('rejects unknown keys, Bearer-prefixed keys and a missing header with the exact envelope', async () => {
		const expected = { error: { code: 'UNAUTHORIZED', message: 'invalid api key' } };
		for (const authorization of ['fk_wrong', `Bearer ${fake.apiKeys.full}`, '']) {
			const result = await call('POST', '/tokens/generate', { authorization });
			expect(result.status).toBe(401);
			expect(result.json).toEqual(expected);
		}
	});

	it('rejects an unknown tenant with 403 and invalid bodies with 422', async () => {
		const unknownTenant = await call('POST', '/tokens/generate', {
			authorization: fake.apiKeys.full,
			body: { tenant_id: 999 },
		});
		expectError(unknownTenant, 403, 'FORBIDDEN', /tenant 999/);
		expectInvalid(
			await call('POST', '/tokens/generate', {
				authorization: fake.apiKeys.full,
				body: { tenant_id: 'x' },
			}),
			['body', 'tenant_id'],
			'number_type',
		);
		expectInvalid(
			await call('POST', '/tokens/generate', {
				authorization: fake.apiKeys.full,
				rawBody: '{"tenant_id":',
			}),
			['body'],
			'json_invalid',
		);
	});

	it('answers 401 without a token, with an unknown token, with a raw key and after expireAllTokens()', async () => {
		const token = await tokenFor();
		expectError(await call('GET', '/tokens/test'), 401, 'UNAUTHORIZED');
		expectError(await call('GET', '/tokens/test', { token: 'ftok_unknown' }), 401, 'UNAUTHORIZED');
		expectError(
			await call('GET', '/tokens/test', { authorization: fake.apiKeys.full }),
			401,
			'UNAUTHORIZED',
		);
		expectError(
			await search('nope', { query: { type: 'domain', fqdn: 'acme.com' } }),
			401,
			'UNAUTHORIZED',
		);
		expect((await call('GET', '/tokens/test', { token })).status).toBe(200);
		fake.expireAllTokens();
		expectError(await call('GET', '/tokens/test', { token }), 401, 'UNAUTHORIZED', /expired/);
		const fresh = await tokenFor();
		expect((await call('GET', '/tokens/test', { token: fresh })).status).toBe(200);
	});

	it('expires tokens after tokenLifetimeMs', async () => {
		fake.reset({ tokenLifetimeMs: 300 });
		const token = await tokenFor();
		expect((await call('GET', '/tokens/test', { token })).status).toBe(200);
		await sleep(400);
		expectError(await call('GET', '/tokens/test', { token }), 401, 'UNAUTHORIZED', 'token expired');
	});

	it('never logs or echoes the API key or the token', async () => {
		const token = await tokenFor();
		await call('GET', '/tokens/test', { token });
		const unauthorised = await call('GET', '/tokens/test', { token: `${token}x` });
		const badKey = await call('POST', '/tokens/generate', {
			authorization: `${fake.apiKeys.full}x`,
		});
		await search(token, { query: { type: 'domain', fqdn: 'acme.com' }, size: 0 });
		const log = JSON.stringify(fake.requests);
		for (const secret of [token, fake.apiKeys.full]) {
			expect(log).not.toContain(secret);
			expect(unauthorised.text).not.toContain(secret);
			expect(badKey.text).not.toContain(secret);
		}
		expect(
			fake.requests.map((entry) => [entry.auth, entry.tokenValid, entry.tier, entry.status]),
		).toEqual([
			['apiKey', undefined, 'token', 200],
			['bearer', true, 'token', 200],
			['bearer', false, 'token', 401],
			['apiKey', undefined, 'token', 401],
			['bearer', true, 'search', 422],
		]);
	});
});

describe('endpoints: happy paths validated by the contract', () => {
	let token: string;
	beforeEach(async () => {
		token = await tokenFor();
	});

	it('global search returns credential records and the quota header', async () => {
		const result = await search(token, { query: { type: 'domain', fqdn: 'acme.com' }, size: 5 });
		expect(result.status).toBe(200);
		const page = CredentialPage.parse(result.json);
		expect(page.items).toEqual(
			fake.dataset.searchAll({ query: { type: 'domain', fqdn: 'acme.com' } }).slice(0, 5),
		);
		expect(page.next).not.toBeNull();
		expect(result.headers.get('x-flare-global-searches-remaining')).toBe('999999');
		expect(Object.keys(page.items[0]).sort()).toEqual(
			[
				'id',
				'identity_name',
				'domain',
				'hash',
				'hash_type',
				'imported_at',
				'source_id',
				'source',
				'credential_hash',
			].sort(),
		);
	});

	it('URLs by credential hash walk to exactly the oracle, 237 URLs in pages', async () => {
		const hash = fake.dataset.credentialHash(49); // id 50: every 50th credential has 237 URLs
		const collected: unknown[] = [];
		const sizes: number[] = [];
		let from: string | null = null;
		do {
			const result = await call('POST', '/astp/urls/by_credential_hash', {
				token,
				body: { credential_hash: hash, size: 50, from },
			});
			expect(result.status).toBe(200);
			const page = UrlPage.parse(result.json);
			sizes.push(page.items.length);
			collected.push(...page.items);
			from = page.next;
		} while (from !== null);
		expect(collected).toEqual(fake.dataset.urlsFor(hash));
		expect(collected).toHaveLength(237);
		expect(new Set(collected.map((record) => (record as { url: string }).url)).size).toBe(237);
		// pages: 50, 50, short 25, empty, 50, short 25, 37
		expect(sizes).toEqual([50, 50, 25, 0, 50, 25, 37]);
	});

	it('URLs: default size 100, unknown hash gives an empty last page', async () => {
		const hash = fake.dataset.credentialHash(99);
		const page = UrlPage.parse(
			(
				await call('POST', '/astp/urls/by_credential_hash', {
					token,
					body: { credential_hash: hash },
				})
			).json,
		);
		expect(page.items).toEqual(fake.dataset.urlsFor(hash).slice(0, 100));
		const unknown = await call('POST', '/astp/urls/by_credential_hash', {
			token,
			body: { credential_hash: '0'.repeat(32) },
		});
		expect(unknown.json).toEqual({ items: [], next: null });
		expect(fake.dataset.indexOfCredentialHash(hash)).toBe(99);
		expectInvalid(
			await call('POST', '/astp/urls/by_credential_hash', {
				token,
				body: { credential_hash: hash, size: 5001 },
			}),
			['body', 'size'],
			'less_than_equal',
		);
	});

	it('assigns a policy, lists assignments, refreshes on re-assignment and records the write', async () => {
		const [policy] = fake.dataset.policies();
		const id = fake.dataset
			.identifierIds()
			.find((candidate) => fake.dataset.assignmentsFor(candidate).length === 0)!;
		const path = `/${seg()}/v4/matching-policies/${policy.uuid}/assignments`;
		const first = await call('POST', path, { token, body: { identifier_ids: [id] } });
		expect(first.status).toBe(200);
		expect(first.json).toEqual({});

		const listed = await call('GET', `/${seg()}/v4/matching-policies/by_identifier_id/${id}`, {
			token,
		});
		expect(listed.status).toBe(200);
		const assignments = z.array(MatchingPolicyAssignment).parse(listed.json);
		expect(assignments).toEqual(fake.dataset.assignmentsFor(id));
		expect(assignments).toHaveLength(1);
		expect(assignments[0].matching_policy).toEqual(policy);
		expect(assignments[0].clean_past_events).toBe(false);

		await call('POST', path, { token, body: { identifier_ids: [id], clean_past_events: true } });
		const again = z
			.array(MatchingPolicyAssignment)
			.parse(
				(await call('GET', `/${seg()}/v4/matching-policies/by_identifier_id/${id}`, { token }))
					.json,
			);
		expect(again).toHaveLength(1);
		expect(again[0].clean_past_events).toBe(true);
		expect(fake.state.writes).toEqual([
			{ method: 'POST', path, body: { identifier_ids: [id] } },
			{ method: 'POST', path, body: { identifier_ids: [id], clean_past_events: true } },
		]);
	});

	it('seeded assignments: some identifiers have none, some 1 to 3', () => {
		const counts = fake.dataset.identifierIds().map((id) => fake.dataset.assignmentsFor(id).length);
		expect(counts).toHaveLength(30);
		expect(counts).toContain(0);
		expect(Math.max(...counts)).toBeLessThanOrEqual(3);
		expect(counts.some((count) => count > 0)).toBe(true);
	});

	it('assignment errors: bad uuid 422, unknown policy 404, unknown identifier 404 naming it, bad body 422', async () => {
		const [policy] = fake.dataset.policies();
		const base = `/${seg()}/v4/matching-policies`;
		expectInvalid(
			await call('POST', `${base}/not-a-uuid/assignments`, {
				token,
				body: { identifier_ids: [7001] },
			}),
			['path', 'policy_uuid'],
		);
		expectError(
			await call('POST', `${base}/00000000-0000-4000-8000-000000000000/assignments`, {
				token,
				body: { identifier_ids: [7001] },
			}),
			404,
			'NOT_FOUND',
		);
		expectError(
			await call('POST', `${base}/${policy.uuid}/assignments`, {
				token,
				body: { identifier_ids: [7001, 123456] },
			}),
			404,
			'NOT_FOUND',
			/123456/,
		);
		expectInvalid(
			await call('POST', `${base}/${policy.uuid}/assignments`, {
				token,
				body: { identifier_ids: [] },
			}),
			['body', 'identifier_ids'],
			'too_short',
		);
		expectInvalid(
			await call('POST', `${base}/${policy.uuid}/assignments`, {
				token,
				body: { identifier_ids: ['a'] },
			}),
			['body', 'identifier_ids', 0],
			'number_type',
		);
		expect(fake.state.writes).toEqual([]);
	});

	it('deletes an identifier with 202 {}; afterwards it is 404 everywhere', async () => {
		const id = 7005;
		const path = `/${seg()}/v4/identifiers/${id}`;
		const deleted = await call('DELETE', path, { token });
		expect(deleted.status).toBe(202);
		expect(deleted.json).toEqual({});
		expect(fake.state.deletedIdentifiers.has(id)).toBe(true);
		expect(fake.dataset.identifierIds()).not.toContain(id);
		expectError(await call('DELETE', path, { token }), 404, 'NOT_FOUND', /7005/);
		expectError(
			await call('GET', `/${seg()}/v4/matching-policies/by_identifier_id/${id}`, { token }),
			404,
			'NOT_FOUND',
		);
		const [policy] = fake.dataset.policies();
		expectError(
			await call('POST', `/${seg()}/v4/matching-policies/${policy.uuid}/assignments`, {
				token,
				body: { identifier_ids: [id] },
			}),
			404,
			'NOT_FOUND',
		);
		expect(fake.state.writes).toEqual([{ method: 'DELETE', path, body: undefined }]);
		expectInvalid(
			await call('DELETE', `/${seg()}/v4/identifiers/abc`, { token }),
			['path', 'identifier_id'],
			'int_parsing',
		);
		expectError(await call('DELETE', `/${seg()}/v4/identifiers/1`, { token }), 404, 'NOT_FOUND');
		expectInvalid(
			await call('GET', `/${seg()}/v4/matching-policies/by_identifier_id/1.5`, { token }),
			['path', 'identifier_id'],
		);
	});

	it('returns sources in the legacy shape, 404 for unknown ones', async () => {
		for (const source of fake.dataset.sources()) {
			const result = await call('GET', `/astp/sources/${encodeURIComponent(source.id)}`, { token });
			expect(result.status).toBe(200);
			expect(LegacySource.parse(result.json)).toEqual(source);
		}
		expect(fake.dataset.sources()).toHaveLength(20);
		expectError(await call('GET', '/astp/sources/no-such-source', { token }), 404, 'NOT_FOUND');
	});

	it('returns every event by uid (encoded as a query value), 404/422 otherwise', async () => {
		const events = fake.dataset.events();
		expect(events.length).toBeGreaterThanOrEqual(25);
		expect(events.some((event) => /[ ?%+#&]/.test(event.metadata.uid))).toBe(true);
		for (const event of events) {
			const result = await call(
				'GET',
				`/${seg()}/v4/events/?uid=${encodeURIComponent(event.metadata.uid)}`,
				{ token },
			);
			expect(result.status).toBe(200);
			expect(BlogPostEvent.parse(result.json)).toEqual(event);
			expect(result.json).toEqual(event);
		}
		const uid = encodeURIComponent(events[0].metadata.uid);
		expectError(await call('GET', `/${seg()}/v4/events?uid=${uid}`, { token }), 404, 'NOT_FOUND');
		expectError(
			await call('GET', `/${seg()}/v4/events/?uid=blog_post%2Fnowhere%2F1`, { token }),
			404,
			'NOT_FOUND',
		);
		expectInvalid(
			await call('GET', `/${seg()}/v4/events/`, { token }),
			['query', 'uid'],
			'missing',
		);
	});

	it('creates report requests and enforces the time-range rules', async () => {
		const path = `/${seg()}/v4/threat_flow/reports/requests`;
		const body = {
			report_title: 'XSS',
			question: 'xss in banks',
			time_range_type: 'last_1m',
			included_keywords: ['xss'],
		};
		const created = await call('POST', path, { token, body });
		expect(created.status).toBe(200);
		const { request_id } = ReportRequestResponse.parse(created.json);
		const ranged = {
			report_title: 'R',
			time_range_type: 'range',
			time_range_from: '2025-01-01T00:00:00Z',
			time_range_to: '2025-02-01T00:00:00+00:00',
		};
		expect((await call('POST', path, { token, body: ranged })).status).toBe(200);
		expect(fake.state.reportRequests.map((entry) => entry.body)).toEqual([body, ranged]);
		expect(fake.state.reportRequests[0].request_id).toBe(request_id);

		expectInvalid(
			await call('POST', path, { token, body: {} }),
			['body', 'report_title'],
			'missing',
		);
		expectInvalid(
			await call('POST', path, { token, body: { report_title: '' } }),
			['body', 'report_title'],
			'too_short',
		);
		expectInvalid(
			await call('POST', path, { token, body: { ...ranged, time_range_to: null } }),
			['body', 'time_range_to'],
			'value_error',
		);
		expectInvalid(
			await call('POST', path, {
				token,
				body: { ...ranged, time_range_to: ranged.time_range_from },
			}),
			['body', 'time_range_to'],
			'value_error',
		);
		expectInvalid(
			await call('POST', path, { token, body: { ...ranged, time_range_type: 'last_7d' } }),
			['body', 'time_range_from'],
			'value_error',
		);
		expectInvalid(
			await call('POST', path, {
				token,
				body: { report_title: 'x', time_range_type: 'yesterday' },
			}),
			['body', 'time_range_type'],
			'enum',
		);
		expect(fake.state.reportRequests).toHaveLength(2);
	});
});

describe('entitlements and routing', () => {
	it('noAstp gets 403 naming ASTP on the four ASTP endpoints, and may search', async () => {
		const token = await tokenFor('noAstp');
		const hash = fake.dataset.credentialHash(0);
		const results = [
			await call('POST', '/astp/urls/by_credential_hash', {
				token,
				body: { credential_hash: hash },
			}),
			await call('GET', '/leaksdb/identities/by_password/123456', { token }),
			await call('GET', '/leaksdb/identities/by_keyword/alice', { token }),
			await call('GET', '/astp/sources/collection-1', { token }),
		];
		for (const result of results) expectError(result, 403, 'FORBIDDEN', /ASTP/);
		expect((await search(token, { query: { type: 'domain', fqdn: 'acme.com' } })).status).toBe(200);
		expect(
			(
				await call('POST', `/${seg()}/v4/threat_flow/reports/requests`, {
					token,
					body: { report_title: 'x' },
				})
			).status,
		).toBe(200);
	});

	it('noThreatIntel gets 403 naming threat intelligence on report requests only', async () => {
		const token = await tokenFor('noThreatIntel');
		const result = await call('POST', `/${seg()}/v4/threat_flow/reports/requests`, {
			token,
			body: { report_title: 'x' },
		});
		expectError(result, 403, 'FORBIDDEN', /threat intelligence/);
		expect(fake.state.reportRequests).toEqual([]);
		expect((await call('GET', '/astp/sources/collection-1', { token })).status).toBe(200);
	});

	it('unknown routes, methods and segments are 404 NOT_FOUND', async () => {
		const token = await tokenFor();
		expectError(await call('GET', '/nope', { token }), 404, 'NOT_FOUND');
		expectError(await call('GET', searchPath(), { token }), 404, 'NOT_FOUND');
		expectError(
			await call('POST', '/core/v4/credentials/global/_search', { token, body: {} }),
			404,
			'NOT_FOUND',
		);
		fake.reset({ productSegment: 'core' });
		const coreToken = await tokenFor();
		expect((await search(coreToken, { query: { type: 'domain', fqdn: 'acme.com' } })).status).toBe(
			200,
		);
		expect(fake.requests[fake.requests.length - 1].path).toBe(
			'/core/v4/credentials/global/_search',
		);
		fake.reset();
		expect(fake.options.productSegment).toBe('firework');
	});
});

describe('validation errors (422 shape with loc)', () => {
	let token: string;
	beforeEach(async () => {
		token = await tokenFor();
	});

	it('rejects bad search bodies field by field', async () => {
		const query = { type: 'domain', fqdn: 'acme.com' };
		expectInvalid(await search(token, { query, size: 0 }), ['body', 'size'], 'greater_than_equal');
		expectInvalid(await search(token, { query, size: 10001 }), ['body', 'size'], 'less_than_equal');
		expectInvalid(await search(token, { query, size: 2.5 }), ['body', 'size']);
		expectInvalid(
			await search(token, { query, bogus: true }),
			['body', 'bogus'],
			'extra_forbidden',
		);
		expectInvalid(
			await search(token, { query: { type: 'phone', fqdn: 'x' } }),
			['body', 'query', 'type'],
			'union_tag_invalid',
		);
		expectInvalid(
			await search(token, { query: { type: 'secret', fqdn: 'x' } }),
			['body', 'query', 'secret'],
			'missing',
		);
		expectInvalid(
			await search(token, { query, include: ['password'] }),
			['body', 'include', 0],
			'enum',
		);
		expectInvalid(await search(token, { query, order: 'up' }), ['body', 'order'], 'enum');
		expectInvalid(await search(token, { query, filters: { imported_at: { gte: 'yesterday' } } }), [
			'body',
			'filters',
			'imported_at',
			'gte',
		]);
		expectInvalid(await search(token, {}), ['body', 'query'], 'missing');
		expectInvalid(await call('POST', searchPath(), { token }), ['body'], 'missing');
		expectInvalid(
			await call('POST', searchPath(), { token, rawBody: '{"query": ' }),
			['body'],
			'json_invalid',
		);
		const { detail } = ValidationErrorEnvelope.parse(
			(await search(token, { query, size: 0 })).json,
		);
		expect(detail).toEqual([
			{
				loc: ['body', 'size'],
				msg: 'Number must be greater than or equal to 1',
				type: 'greater_than_equal',
				input: 0,
			},
		]);
		expect(fake.quotaLeft).toBe(1_000_000);
	});

	it('rejects bad cursors: garbage, changed size, changed query, another endpoint', async () => {
		const body = { query: { type: 'domain', fqdn: 'acme.com' }, size: 10 };
		const first = CredentialPage.parse((await search(token, body)).json);
		expect((await search(token, { ...body, from: first.next })).status).toBe(200);
		expectInvalid(
			await search(token, { ...body, from: 'garbage' }),
			['body', 'from'],
			'value_error',
		);
		expectInvalid(
			await search(token, { ...body, size: 20, from: first.next }),
			['body', 'from'],
			'value_error',
		);
		expectInvalid(await search(token, { ...body, order: 'asc', from: first.next }), [
			'body',
			'from',
		]);
		expectInvalid(
			await search(token, {
				query: { type: 'domain', fqdn: 'globex.io' },
				size: 10,
				from: first.next,
			}),
			['body', 'from'],
		);
		expectInvalid(
			await call('POST', '/astp/urls/by_credential_hash', {
				token,
				body: { credential_hash: fake.dataset.credentialHash(49), from: first.next },
			}),
			['body', 'from'],
		);
		// Explicit defaults are the same parameters as omitted ones.
		expect((await search(token, { ...body, order: 'desc', from: first.next })).status).toBe(200);
	});
});

describe('global search semantics', () => {
	let token: string;
	beforeEach(async () => {
		token = await tokenFor();
	});

	async function collect(body: GlobalSearchBodyInput) {
		return (await walkSearch(token, { size: 100, ...body })).flatMap((page) => page.items);
	}

	it('domain: case-insensitive equality on the domain', async () => {
		const items = await collect({ query: { type: 'domain', fqdn: 'ACME.com' } });
		expect(ids(items)).toEqual(bruteForce((record) => record.domain === 'acme.com'));
		expect(items).toHaveLength(200);
		expect(items).toEqual(fake.dataset.searchAll({ query: { type: 'domain', fqdn: 'acme.com' } }));
	});

	it('auth_domain: the fqdn is among the hosts where the credential was used', async () => {
		const items = await collect({ query: { type: 'auth_domain', fqdn: 'github.com' } });
		const expected = bruteForce((record) => record.auth_domains!.includes('github.com'));
		expect(expected.length).toBeGreaterThan(10);
		expect(ids(items)).toEqual(expected);
	});

	it('secret: exact password equality; secrets repeat across identities', async () => {
		const secret = fake.dataset.credential(5).hash;
		const items = await collect({ query: { type: 'secret', secret } });
		const expected = bruteForce((record) => record.hash === secret);
		expect(ids(items)).toEqual(expected);
		expect(new Set(items.map((item) => item.identity_name)).size).toBeGreaterThan(1);
		expect(
			await collect({ query: { type: 'secret', secret: secret.toUpperCase() + 'x' } }),
		).toEqual([]);
	});

	it('email: case-insensitive identity equality; identities repeat', async () => {
		const email = fake.dataset.credential(7).identity_name;
		const items = await collect({ query: { type: 'email', email: email.toUpperCase() } });
		expect(ids(items)).toEqual(bruteForce((record) => record.identity_name === email));
		expect(items.length).toBeGreaterThan(1);
	});

	it('keyword: the username part, on every domain', async () => {
		const username = fake.dataset.credential(3).identity_name.split('@')[0];
		const items = await collect({ query: { type: 'keyword', keyword: username.toUpperCase() } });
		expect(ids(items)).toEqual(
			bruteForce((record) => record.identity_name.split('@')[0] === username),
		);
		expect(new Set(items.map((item) => item.domain)).size).toBe(5);
		expect(await collect({ query: { type: 'keyword', keyword: `${username}@acme.com` } })).toEqual(
			[],
		);
	});

	it('imported_at bounds are inclusive; order asc is the reverse of desc', async () => {
		const gte = fake.dataset.credential(30).imported_at;
		const lte = fake.dataset.credential(60).imported_at;
		const filters = { imported_at: { gte, lte } };
		const desc = await collect({ query: { type: 'domain', fqdn: 'example.com' }, filters });
		const inRange = (record: CredentialRecord) =>
			Date.parse(record.imported_at) >= Date.parse(gte) &&
			Date.parse(record.imported_at) <= Date.parse(lte);
		expect(ids(desc)).toEqual(
			bruteForce((record) => record.domain === 'example.com' && inRange(record)),
		);
		// groups of 3 share an instant: indices 30..62 are inside (62 shares 60's instant), 63 is not
		expect(ids(desc)).toEqual([61, 56, 51, 46, 41, 36, 31]);
		const asc = await collect({
			query: { type: 'domain', fqdn: 'example.com' },
			filters,
			order: 'asc',
		});
		expect(ids(asc)).toEqual(ids(desc).reverse());
		const open = await collect({
			query: { type: 'domain', fqdn: 'example.com' },
			filters: { imported_at: { gte } },
		});
		expect(Math.min(...ids(open))).toBe(31);
		expect(Math.max(...ids(open))).toBe(996);
	});

	it('include adds known_password_id, auth_domains and urls only when asked', async () => {
		const body = {
			query: { type: 'email' as const, email: fake.dataset.credential(49).identity_name },
			size: 100,
		};
		const plain = CredentialPage.parse((await search(token, body)).json).items;
		for (const item of plain) {
			expect(item).not.toHaveProperty('known_password_id');
			expect(item).not.toHaveProperty('auth_domains');
			expect(item).not.toHaveProperty('urls');
		}
		const include = ['known_password_id', 'auth_domains', 'urls'] as const;
		const full = CredentialPage.parse((await search(token, { ...body, include })).json).items;
		const big = full.find((item) => item.id === 50)!;
		expect(big.urls).toHaveLength(100);
		expect(big.urls!.slice(0, 3)).toEqual(
			fake.dataset
				.urlsFor(big.credential_hash)
				.slice(0, 3)
				.map((record) => record.url),
		);
		expect(big.auth_domains).toEqual([
			...new Set(fake.dataset.urlsFor(big.credential_hash).map((record) => record.domain)),
		]);
		for (const item of full) {
			expect(item.known_password_id === null || /^kp_\d+$/.test(item.known_password_id!)).toBe(
				true,
			);
			expect(item).toEqual(fake.dataset.credential(item.id - 1, include));
		}
	});

	it('walks pages with empty and short pages mid-walk to exactly the oracle', async () => {
		const body = { query: { type: 'domain' as const, fqdn: 'acme.com' }, size: 10 };
		const pages = await walkSearch(token, body);
		const sizes = pages.map((page) => page.items.length);
		// page n: n % 4 == 0 → empty, n % 3 == 0 → half, else full; the last page is normal
		const expected: number[] = [];
		for (let n = 1, left = 200; left > 0; n++) {
			const size = left <= 10 ? left : n % 4 === 0 ? 0 : n % 3 === 0 ? 5 : 10;
			expected.push(size);
			left -= size;
		}
		expect(sizes).toEqual(expected);
		expect(sizes).toContain(0);
		expect(sizes.slice(0, -1)).toContain(5);
		expect(pages.flatMap((page) => page.items)).toEqual(fake.dataset.searchAll(body));
		for (const page of pages.slice(0, -1)) expect(page.next).not.toBeNull();
	});

	it('quirks can be disabled; from: null is a first page', async () => {
		fake.reset({ quirks: { emptyPageEvery: 0, shortPageEvery: 0 } });
		token = await tokenFor();
		const pages = await walkSearch(token, {
			query: { type: 'domain', fqdn: 'acme.com' },
			size: 30,
		});
		expect(pages.map((page) => page.items.length)).toEqual([30, 30, 30, 30, 30, 30, 20]);
	});

	it('the search oracle and the records are deterministic per seed', async () => {
		const again = await FakeFlare.start();
		const other = await FakeFlare.start({ seed: 2 });
		try {
			expect(again.dataset.credential(123, ['urls'])).toEqual(
				fake.dataset.credential(123, ['urls']),
			);
			expect(again.dataset.policies()).toEqual(fake.dataset.policies());
			expect(
				other.dataset.credential(123).hash === fake.dataset.credential(123).hash &&
					other.dataset.credential(124).hash === fake.dataset.credential(124).hash,
			).toBe(false);
			expect(other.dataset.policies()[0].uuid).not.toBe(fake.dataset.policies()[0].uuid);
		} finally {
			await again.stop();
			await other.stop();
		}
	});

	it('addCredentials appends newer records that searches see first', async () => {
		fake.addCredentials(5, '2025-06-01T00:00:00+00:00');
		expect(fake.dataset.size).toBe(1005);
		const items = CredentialPage.parse(
			(await search(token, { query: { type: 'domain', fqdn: 'example.com' }, size: 3 })).json,
		).items;
		expect(ids(items)).toEqual([1001, 996, 991]);
		expect(items[0].imported_at).toBe('2025-06-01T00:00:00+00:00');
		fake.addCredentials(2); // imported now
		expect(fake.dataset.size).toBe(1007);
		const recent = await collect({
			query: { type: 'domain', fqdn: 'example.com' },
			filters: { imported_at: { gte: '2025-06-01T00:00:00Z' } },
		});
		expect(ids(recent)).toEqual([1006, 1001]);
	});
});

describe('identity lookups (id cursor)', () => {
	let token: string;
	beforeEach(async () => {
		token = await tokenFor();
	});

	async function walkIdentities(path: string, size: number) {
		const pages: Array<z.infer<typeof Identities>> = [];
		let from = 0;
		for (;;) {
			const result = await call('GET', `${path}?size=${size}&from=${from}`, { token });
			expect(result.status).toBe(200);
			const page = Identities.parse(result.json);
			pages.push(page);
			if (page.length === 0) return pages;
			const last = page[page.length - 1];
			const next = Math.max(...last.passwords.map((entry) => entry.id));
			expect(next).toBeGreaterThan(from);
			from = next;
		}
	}

	function checkWalk(pages: Array<z.infer<typeof Identities>>, expectedIds: number[]) {
		const entries = pages.flat().flatMap((identity) => identity.passwords);
		expect(entries.map((entry) => entry.id).sort((a, b) => a - b)).toEqual(expectedIds);
		for (const page of pages) {
			// groups are ordered by their largest id; the cursor is the largest id of the page
			const maxima = page.map((identity) =>
				Math.max(...identity.passwords.map((entry) => entry.id)),
			);
			expect(maxima).toEqual([...maxima].sort((a, b) => a - b));
			for (const identity of page) {
				expect(new Set(identity.passwords.map((entry) => entry.id)).size).toBe(
					identity.passwords.length,
				);
				for (const entry of identity.passwords) {
					expect(fake.dataset.credential(entry.id - 1).identity_name).toBe(identity.name);
				}
			}
		}
	}

	it('by_password walks every credential with that password, ascending, grouped by identity', async () => {
		const password = fake.dataset.credential(5).hash;
		const pages = await walkIdentities(
			`/leaksdb/identities/by_password/${encodeURIComponent(password)}`,
			2,
		);
		const expectedIds = bruteForce((record) => record.hash === password).reverse();
		expect(expectedIds.length).toBeGreaterThan(2);
		checkWalk(pages, expectedIds);
		expect(pages.flat()).toEqual(fake.dataset.identitiesByPassword(password, 2));
		expect(pages[pages.length - 1]).toEqual([]);
		const entry = pages[0][0].passwords[0];
		expect(entry).toEqual(fake.dataset.passwordEntry(entry.id - 1));
		expect(entry.source).toEqual(fake.dataset.source(entry.source_id));
	});

	it('by_password decodes awkward passwords once', async () => {
		fake.reset({ credentials: 20_000 });
		token = await tokenFor();
		const hashes = Array.from(
			{ length: fake.dataset.size },
			(_, i) => fake.dataset.credential(i).hash,
		);
		for (const password of [
			planted('p@ss/w0rd?#1'),
			planted('100% secure+'),
			planted('пароль2024'),
			planted('correct horse battery staple'),
		]) {
			const pages = await walkIdentities(
				`/leaksdb/identities/by_password/${encodeURIComponent(password)}`,
				10000,
			);
			const expected = hashes.flatMap((hash, i) => (hash === password ? [i + 1] : []));
			expect(expected.length).toBeGreaterThan(0);
			checkWalk(pages, expected);
		}
	});

	it('by_keyword: exact username or identity, prefix and suffix wildcards, case-insensitive', async () => {
		const data = fake.dataset;
		const identity = data.credential(12).identity_name;
		const username = identity.split('@')[0];
		const prefix = username.slice(0, 3);
		const cases: Array<[string, (name: string) => boolean]> = [
			[username.toUpperCase(), (name) => name.split('@')[0] === username],
			[identity.toUpperCase(), (name) => name === identity],
			[`${prefix.toUpperCase()}*`, (name) => name.startsWith(prefix)],
			['*ACME.COM', (name) => name.endsWith('acme.com')],
			['*.io', (name) => name.endsWith('.io')],
			[
				`*${username.slice(-4)}@globex.io`,
				(name) => name.endsWith(`${username.slice(-4)}@globex.io`),
			],
			[`${username}@ini*`, (name) => name.startsWith(`${username}@ini`)],
		];
		for (const [keyword, predicate] of cases) {
			const pages = await walkIdentities(
				`/leaksdb/identities/by_keyword/${encodeURIComponent(keyword)}`,
				100,
			);
			const expected = bruteForce((record) => predicate(record.identity_name)).reverse();
			expect(expected.length).toBeGreaterThan(0);
			checkWalk(pages, expected);
			expect(pages.flat()).toEqual(data.identitiesByKeyword(keyword, 100));
		}
		expect(await walkIdentities('/leaksdb/identities/by_keyword/nobody.here', 10)).toEqual([[]]);
	});

	it('by_keyword: a wildcard only at the start or only at the end', async () => {
		for (const keyword of ['a*b', '*abc*', '*', '**', 'a**']) {
			const result = await call(
				'GET',
				`/leaksdb/identities/by_keyword/${encodeURIComponent(keyword)}`,
				{ token },
			);
			expectInvalid(result, ['path', 'keyword'], 'value_error');
		}
	});

	it('size and from: defaults, bounds, exclusive from', async () => {
		const path = '/leaksdb/identities/by_keyword/*acme.com';
		const first = Identities.parse((await call('GET', path, { token })).json);
		expect(first.flatMap((identity) => identity.passwords)).toHaveLength(100);
		const after = Identities.parse((await call('GET', `${path}?from=500&size=3`, { token })).json);
		expect(
			after
				.flatMap((identity) => identity.passwords.map((entry) => entry.id))
				.sort((a, b) => a - b),
		).toEqual([502, 507, 512]);
		expectInvalid(
			await call('GET', `${path}?size=0`, { token }),
			['query', 'size'],
			'greater_than_equal',
		);
		expectInvalid(
			await call('GET', `${path}?size=10001`, { token }),
			['query', 'size'],
			'less_than_equal',
		);
		expectInvalid(await call('GET', `${path}?from=abc`, { token }), ['query', 'from']);
		expect(Identities.parse((await call('GET', `${path}?from=1000`, { token })).json)).toEqual([]);
	});
});

describe('rate limits and quota', () => {
	const body = { query: { type: 'domain', fqdn: 'acme.com' }, size: 1 };

	it('search tier: 429 RATELIMIT_REACHED with an integer Retry-After, then accepted again', async () => {
		fake.reset({ rateLimits: { search: 2 } });
		const token = await tokenFor();
		expect((await search(token, body)).status).toBe(200);
		const limited = await search(token, body);
		expect(limited.status).toBe(429);
		expect(limited.json).toEqual({
			error: { code: 'RATELIMIT_REACHED', message: 'ratelimit reached' },
		});
		expect(limited.headers.get('retry-after')).toBe('1');
		// other tiers are independent and tokens are never limited
		expect((await call('GET', '/astp/sources/collection-1', { token })).status).toBe(200);
		expect((await call('GET', '/tokens/test', { token })).status).toBe(200);
		await sleep(550);
		expect((await search(token, body)).status).toBe(200);
		// One search session (same query within 10 minutes): one unit; the 429 took none.
		expect(fake.quotaLeft).toBe(1_000_000 - 1);
	});

	it('tolerates a request up to 50 ms early, but holds the rate on average: no burst gets through', async () => {
		fake.reset({ rateLimits: { basic: 4 }, retryAfter: 'none' });
		const token = await tokenFor();
		const read = async () => (await call('GET', '/astp/sources/collection-1', { token })).status;
		expect(await read()).toBe(200);
		expect(await read()).toBe(429); // about 250 ms early
		await sleep(205); // at most 45 ms early for its turn (at 250 ms): within the tolerance
		expect(await read()).toBe(200);
		await sleep(300);
		// A client that does not pace: the first goes through, the rest of the burst does not.
		await sleep(300);
		const burst = await Promise.all(Array.from({ length: 5 }, read));
		expect(burst.filter((status) => status === 200)).toHaveLength(1);
	});

	it('Retry-After modes: precise seconds, or absent', async () => {
		fake.reset({ rateLimits: { basic: 2 }, retryAfter: 'precise' });
		let token = await tokenFor();
		await call('GET', '/astp/sources/collection-1', { token });
		const precise = await call('GET', '/astp/sources/collection-1', { token });
		expect(precise.status).toBe(429);
		const seconds = precise.headers.get('retry-after')!;
		expect(seconds).toMatch(/^\d+\.\d{3}$/);
		expect(Number(seconds)).toBeGreaterThan(0);
		expect(Number(seconds)).toBeLessThanOrEqual(0.5);
		await sleep(Number(seconds) * 1000 + 20);
		expect((await call('GET', '/astp/sources/collection-1', { token })).status).toBe(200);

		fake.reset({ rateLimits: { basic: 2 }, retryAfter: 'none' });
		token = await tokenFor();
		await call('GET', '/astp/sources/collection-1', { token });
		const none = await call('GET', '/astp/sources/collection-1', { token });
		expectError(none, 429, 'RATELIMIT_REACHED', 'ratelimit reached');
		expect(none.headers.get('retry-after')).toBeNull();
	});

	it('rate limiting comes after auth: unauthenticated requests neither pass nor consume', async () => {
		fake.reset({ rateLimits: { search: 1 } });
		const token = await tokenFor();
		expect((await search('bad', body)).status).toBe(401);
		expect((await search(token, body)).status).toBe(200);
		expect((await search('bad', body)).status).toBe(401);
		expect((await search(token, body)).status).toBe(429);
	});

	it('quota: header after each search, then 429 QUOTA_EXCEEDED', async () => {
		// Three queries, three search sessions of one unit each (quota.test.ts covers the model).
		fake.reset({ quota: 2 });
		const token = await tokenFor();
		const first = await search(token, body);
		expect(first.headers.get('x-flare-global-searches-remaining')).toBe('1');
		expectInvalid(await search(token, { ...body, size: 0 }), ['body', 'size']);
		const second = await search(token, { ...body, query: { type: 'domain', fqdn: 'globex.io' } });
		expect(second.status).toBe(200);
		expect(second.headers.get('x-flare-global-searches-remaining')).toBe('0');
		const exhausted = await search(token, {
			...body,
			query: { type: 'domain', fqdn: 'initech.net' },
		});
		expectError(exhausted, 429, 'QUOTA_EXCEEDED', /quota/);
		expect(exhausted.headers.get('x-flare-global-searches-remaining')).toBe('0');
		expect(exhausted.headers.get('retry-after')).toBeNull();
		// other endpoints do not use the quota
		expect(
			(
				await call('POST', '/astp/urls/by_credential_hash', {
					token,
					body: { credential_hash: fake.dataset.credentialHash(1) },
				})
			).status,
		).toBe(200);
	});
});

describe('faults', () => {
	let token: string;
	beforeEach(async () => {
		token = await tokenFor();
	});
	const sourcePath = '/astp/sources/collection-1';

	it('status faults honour skip and times, then pending() is empty', async () => {
		fake.faults.add({
			path: sourcePath,
			skip: 1,
			times: 2,
			fault: { status: 503, body: { error: { code: 'UNAVAILABLE', message: 'try later' } } },
		});
		expect(fake.faults.pending()).toHaveLength(1);
		const statuses: number[] = [];
		for (let k = 0; k < 4; k++) statuses.push((await call('GET', sourcePath, { token })).status);
		expect(statuses).toEqual([200, 503, 503, 200]);
		expect(fake.faults.pending()).toEqual([]);
		expect(fake.requests.slice(-4).map((entry) => entry.status)).toEqual(statuses);
	});

	it('raw bodies, custom headers, method and RegExp filters', async () => {
		fake.faults.add({
			path: /^\/astp\//,
			method: 'get',
			fault: {
				status: 502,
				rawBody: '<html>Bad gateway</html>',
				headers: { 'Content-Type': 'text/html' },
			},
		});
		fake.faults.add({
			path: searchPath(),
			fault: {
				status: 429,
				body: { error: { code: 'RATELIMIT_REACHED', message: 'ratelimit reached' } },
				headers: { 'Retry-After': '2' },
			},
		});
		expect(
			(
				await call('POST', '/astp/urls/by_credential_hash', {
					token,
					body: { credential_hash: 'x' },
				})
			).status,
		).toBe(200);
		const html = await call('GET', sourcePath, { token });
		expect(html.status).toBe(502);
		expect(html.text).toBe('<html>Bad gateway</html>');
		expect(html.headers.get('content-type')).toBe('text/html');
		const limited = await search(token, { query: { type: 'domain', fqdn: 'acme.com' } });
		expect(limited.status).toBe(429);
		expect(limited.headers.get('retry-after')).toBe('2');
		expect((await call('GET', sourcePath, { token })).status).toBe(200);
	});

	it('reset destroys the socket; the request is logged with status 0', async () => {
		fake.faults.add({ path: sourcePath, fault: { reset: true } });
		await expect(call('GET', sourcePath, { token })).rejects.toThrow();
		expect(fake.requests[fake.requests.length - 1]).toMatchObject({ path: sourcePath, status: 0 });
		expect((await call('GET', sourcePath, { token })).status).toBe(200);
	});

	it('delayMs answers normally after the delay', async () => {
		fake.faults.add({ path: sourcePath, fault: { delayMs: 300 } });
		const started = Date.now();
		const result = await call('GET', sourcePath, { token });
		expect(Date.now() - started).toBeGreaterThanOrEqual(280);
		expect(result.json).toEqual(fake.dataset.source('collection-1'));
	});

	it('malformedJson answers 200 with a truncated body', async () => {
		fake.faults.add({ path: searchPath(), fault: { malformedJson: true } });
		const result = await search(token, { query: { type: 'domain', fqdn: 'acme.com' } });
		expect(result.status).toBe(200);
		expect(result.json).toBeUndefined();
		expect(() => JSON.parse(result.text)).toThrow();
		expect(fake.quotaLeft).toBe(1_000_000);
	});

	it('repeatCursor answers the page with next equal to the from sent', async () => {
		fake.faults.add({ path: searchPath(), skip: 1, fault: { repeatCursor: true } });
		const body = { query: { type: 'domain', fqdn: 'acme.com' }, size: 10 };
		const first = CredentialPage.parse((await search(token, body)).json);
		const second = CredentialPage.parse((await search(token, { ...body, from: first.next })).json);
		expect(second.next).toBe(first.next);
		expect(second.items).toHaveLength(10);
	});

	it("phase 'after': the write happens, then the fault replaces the response", async () => {
		const [policy] = fake.dataset.policies();
		const path = `/${seg()}/v4/matching-policies/${policy.uuid}/assignments`;
		fake.faults.add({ path, phase: 'after', fault: { status: 500, rawBody: 'boom' } });
		fake.faults.add({ method: 'DELETE', fault: { status: 500 } });
		const assigned = await call('POST', path, { token, body: { identifier_ids: [7002] } });
		expect(assigned.status).toBe(500);
		expect(fake.dataset.assignmentsFor(7002).map((entry) => entry.matching_policy.uuid)).toContain(
			policy.uuid,
		);
		const deleted = await call('DELETE', `/${seg()}/v4/identifiers/7003`, { token });
		expect(deleted.status).toBe(500);
		expect(fake.dataset.identifierExists(7003)).toBe(true);
		expect(fake.state.writes).toEqual([{ method: 'POST', path, body: { identifier_ids: [7002] } }]);

		fake.faults.add({
			path: `/${seg()}/v4/identifiers/7003`,
			phase: 'after',
			fault: { reset: true },
		});
		await expect(call('DELETE', `/${seg()}/v4/identifiers/7003`, { token })).rejects.toThrow();
		expect(fake.dataset.identifierExists(7003)).toBe(false);
		expect(fake.state.writes).toHaveLength(2);
	});

	it('expireTokens expires every token before the matching request is handled', async () => {
		fake.faults.add({ path: sourcePath, skip: 1, fault: { expireTokens: true } });
		expect((await call('GET', sourcePath, { token })).status).toBe(200);
		expectError(await call('GET', sourcePath, { token }), 401, 'UNAUTHORIZED', 'token expired');
		expect(fake.requests[fake.requests.length - 1]).toMatchObject({
			tokenValid: true,
			status: 401,
		});
		const fresh = await tokenFor();
		expect((await call('GET', sourcePath, { token: fresh })).status).toBe(200);
	});

	it('clear() drops every rule', async () => {
		fake.faults.add({ fault: { status: 500 }, times: 10 });
		fake.faults.clear();
		expect(fake.faults.pending()).toEqual([]);
		expect((await call('GET', sourcePath, { token })).status).toBe(200);
	});
});

describe('a million credentials', () => {
	let big: FakeFlare;
	beforeAll(async () => {
		big = await FakeFlare.start({ credentials: 1_000_000, domains: ['example.com'] });
	});
	afterAll(async () => big.stop());

	it('serves a 10000-item page of one domain, and the next page continues', async () => {
		const token = await tokenFor('full', undefined, big);
		const body = { query: { type: 'domain', fqdn: 'example.com' }, size: 10000 };
		const first = CredentialPage.parse((await search(token, body, big)).json);
		expect(first.items).toHaveLength(10000);
		expect(first.items[0]).toEqual(big.dataset.credential(999_999));
		expect(first.items[9999]).toEqual(big.dataset.credential(990_000));
		expect(ids(first.items)).toEqual(Array.from({ length: 10000 }, (_, k) => 1_000_000 - k));
		const second = CredentialPage.parse(
			(await search(token, { ...body, from: first.next }, big)).json,
		);
		expect(second.items[0].id).toBe(990_000);
		expect(second.items).toHaveLength(10000);
	});

	it('caps the scan of a sparse query: short page, next resumes where the scan stopped', async () => {
		const token = await tokenFor('full', undefined, big);
		const secret = big.dataset.credential(999_999).hash;
		const result = await search(token, { query: { type: 'secret', secret }, size: 10000 }, big);
		const page = CredentialPage.parse(result.json);
		const passwords = big.dataset.passwords();
		const expected: number[] = [];
		for (let i = 999_999; i >= 800_000; i--) {
			if (passwords[big.dataset.passwordOf(i)] === secret) expected.push(i + 1);
		}
		expect(page.items).toEqual(page.items.map((item) => big.dataset.credential(item.id - 1)));
		expect(ids(page.items)).toEqual(expected);
		expect(page.next).not.toBeNull();
		const next = CredentialPage.parse(
			(
				await search(
					token,
					{ query: { type: 'secret', secret }, size: 10000, from: page.next },
					big,
				)
			).json,
		);
		expect(next.items.every((item) => item.id <= 800_000 && item.hash === secret)).toBe(true);
	});
});

// ---- list endpoints (the pickers) and the report-request status ----

/** Walks a GET list endpoint to the end with `query`; returns the pages (items and next). */
async function walkList<P extends { items: unknown[]; next: string | null }>(
	token: string,
	path: string,
	query: Record<string, string | number>,
	schema: z.ZodType<P, z.ZodTypeDef, unknown>,
): Promise<P[]> {
	const pages: P[] = [];
	let from: string | null = null;
	do {
		const entries: Array<[string, string]> = Object.entries({
			...query,
			...(from ? { from } : {}),
		}).map(([key, value]) => [key, String(value)]);
		const result = await call('GET', `${path}?${new URLSearchParams(entries)}`, { token });
		expect(result.status).toBe(200);
		const page = schema.parse(result.json);
		pages.push(page);
		from = page.next;
	} while (from !== null && pages.length < 200);
	expect(from).toBeNull();
	return pages;
}

describe('list identifiers', () => {
	const path = () => `/${seg()}/v4/identifiers/`;

	it('default page of 20 identifiers in id order, with the token tenant and the contract shape', async () => {
		const token = await tokenFor('full', 202);
		const result = await call('GET', path(), { token });
		expect(result.status).toBe(200);
		const page = IdentifierPage.parse(result.json);
		expect(page.items).toEqual(fake.dataset.identifiers(202).slice(0, 20));
		expect(page.items.map((item) => item.id)).toEqual(
			Array.from({ length: 20 }, (_, k) => 7001 + k),
		);
		expect(page.items.every((item) => item.tenant_id === 202)).toBe(true);
		expect(page.next).not.toBeNull();
		expect(new Set(page.items.map((item) => item.data.type))).toEqual(
			new Set(['domain', 'keyword', 'identity', 'ip', 'bin']),
		);
		expect(page.items[0]).toMatchObject({
			id: 7001,
			name: 'example.com',
			data: { type: 'domain', fqdn: 'example.com' },
		});
	});

	it('walks every identifier with empty and short pages, by name when asked, without deleted ones', async () => {
		const token = await tokenFor();
		const byId = await walkList(token, path(), { size: 7 }, IdentifierPage);
		expect(byId.flatMap((page) => page.items)).toEqual(fake.dataset.identifiers(101));
		const sizes = byId.map((page) => page.items.length);
		expect(sizes).toContain(0);
		expect(sizes.some((size) => size > 0 && size < 7)).toBe(true);

		expect((await call('DELETE', `/${seg()}/v4/identifiers/7003`, { token })).status).toBe(202);
		const byName = (
			await walkList(token, path(), { size: 100, order_by: 'name' }, IdentifierPage)
		).flatMap((page) => page.items);
		expect(byName).toEqual(fake.dataset.identifiers(101, 'name'));
		expect(byName).toHaveLength(29);
		expect(byName.map((item) => item.id)).not.toContain(7003);
		const names = byName.map((item) => item.name.toLowerCase());
		expect(names).toEqual([...names].sort());
	});

	it('filters on is_disabled, lists more identifiers on request, and validates size, order_by and the cursor', async () => {
		const token = await tokenFor();
		const disabled = IdentifierPage.parse(
			(await call('GET', `${path()}?is_disabled=true&size=100`, { token })).json,
		);
		expect(disabled.items.map((item) => item.id)).toEqual([7009, 7018, 7027]);
		expect(disabled.items.every((item) => item.is_disabled)).toBe(true);

		expectInvalid(
			await call('GET', `${path()}?size=101`, { token }),
			['query', 'size'],
			'less_than_equal',
		);
		expectInvalid(
			await call('GET', `${path()}?size=0`, { token }),
			['query', 'size'],
			'greater_than_equal',
		);
		expectInvalid(
			await call('GET', `${path()}?order_by=created`, { token }),
			['query', 'order_by'],
			'enum',
		);
		const first = IdentifierPage.parse((await call('GET', `${path()}?size=5`, { token })).json);
		expectInvalid(
			await call('GET', `${path()}?size=6&from=${first.next}`, { token }),
			['query', 'from'],
			'value_error',
		);
		expectInvalid(
			await call('GET', `${path()}?from=garbage`, { token }),
			['query', 'from'],
			'value_error',
		);
		expectError(await call('GET', `/${seg()}/v4/identifiers`, { token }), 404, 'NOT_FOUND');

		fake.reset({ identifiers: 250 });
		const more = await walkList(await tokenFor(), path(), { size: 100 }, IdentifierPage);
		expect(more.flatMap((page) => page.items).map((item) => item.id)).toEqual(
			Array.from({ length: 250 }, (_, k) => 7001 + k),
		);
		expect(fake.dataset.identifierExists(7250)).toBe(true);
		expect(() => fake.reset({ identifiers: 10 })).toThrow(/at least 30/);
	});
});

describe('list matching policies', () => {
	const path = () => `/${seg()}/v4/matching-policies`;

	it('answers every policy in one default page of up to 25, and walks small pages to the same list', async () => {
		const token = await tokenFor();
		const page = MatchingPolicyPage.parse((await call('GET', path(), { token })).json);
		expect(page).toEqual({ items: fake.dataset.policies(), next: null });
		expect(page.items).toHaveLength(8);
		const walked = await walkList(token, path(), { size: 3 }, MatchingPolicyPage);
		expect(walked.flatMap((p) => p.items)).toEqual(fake.dataset.policies());
		const desc = MatchingPolicyPage.parse(
			(await call('GET', `${path()}?order=desc`, { token })).json,
		);
		expect(desc.items).toEqual(fake.dataset.policies().reverse());
	});

	it('caps size at 25 and lists more policies on request', async () => {
		const token = await tokenFor();
		expectInvalid(
			await call('GET', `${path()}?size=26`, { token }),
			['query', 'size'],
			'less_than_equal',
		);
		expectInvalid(await call('GET', `${path()}?order=up`, { token }), ['query', 'order'], 'enum');
		const defaults = fake.dataset.policies();
		fake.reset({ policies: 60 });
		expect(fake.dataset.policies().slice(0, 8)).toEqual(defaults);
		const walked = await walkList(await tokenFor(), path(), { size: 25 }, MatchingPolicyPage);
		expect(walked.flatMap((p) => p.items)).toEqual(fake.dataset.policies());
		expect(walked[0].items.map((policy) => policy.name).slice(7, 10)).toEqual([
			'Exclude noise',
			'Watchlist 9',
			'Watchlist 10',
		]);
		// 60 policies: 25, 25, then the last 10 (quirks apply only while more pages follow).
		expect(walked.map((p) => p.items.length)).toEqual([25, 25, 10]);
	});
});

describe('list sources', () => {
	const path = '/astp/v2/sources';

	it('answers legacy sources in order of addition, in the v2 envelope, 100 by default', async () => {
		const token = await tokenFor();
		const result = await call('GET', path, { token });
		expect(result.status).toBe(200);
		const page = SourcePage.parse(result.json);
		expect(result.json).toEqual({
			cursors: [],
			items: fake.dataset.sources(),
			next: null,
			total_count: null,
		});
		expect(page.items.map((source) => source.id).slice(0, 3)).toEqual([
			'collection-1',
			'collection-2',
			'combolist-acme',
		]);
		const walked = await walkList(token, path, { size: 6 }, SourcePage);
		expect(walked.flatMap((p) => p.items)).toEqual(fake.dataset.sources());
		expect(walked.every((p) => SourcePage.safeParse(p).success)).toBe(true);
	});

	it('needs ASTP, caps size at 10000, and lists extra sources on request without changing credentials', async () => {
		expectError(
			await call('GET', path, { token: await tokenFor('noAstp') }),
			403,
			'FORBIDDEN',
			/ASTP/,
		);
		const token = await tokenFor();
		expectInvalid(
			await call('GET', `${path}?size=10001`, { token }),
			['query', 'size'],
			'less_than_equal',
		);
		expectInvalid(await call('GET', `${path}?size=abc`, { token }), ['query', 'size']);
		const credentials = fake.dataset.searchAll({ query: { type: 'domain', fqdn: 'acme.com' } });
		fake.reset({ sources: 1200 });
		expect(fake.dataset.searchAll({ query: { type: 'domain', fqdn: 'acme.com' } })).toEqual(
			credentials,
		);
		const walked = await walkList(await tokenFor(), path, { size: 1000 }, SourcePage);
		const listed = walked.flatMap((p) => p.items);
		expect(listed).toHaveLength(1200);
		expect(listed).toEqual(fake.dataset.sources());
		expect(listed[1199]).toMatchObject({ id: 'extra-source-1200' });
		const extra = await call('GET', `/astp/sources/extra-source-21`, { token: await tokenFor() });
		expect(LegacySource.parse(extra.json)).toEqual(listed[20]);
	});
});

describe('report request status', () => {
	const create = (
		token: string,
		body: unknown = { report_title: 'XSS in banks', included_keywords: ['ransomware'] },
	) => call('POST', `/${seg()}/v4/threat_flow/reports/requests`, { token, body });
	const status = (token: string, id: string) =>
		call('GET', `/${seg()}/v4/threat_flow/reports/requests/${id}`, { token });

	it('is processing for the first read, then completed with the deterministic report', async () => {
		const token = await tokenFor();
		const { request_id } = ReportRequestResponse.parse((await create(token)).json);
		const first = await status(token, request_id);
		expect(first.status).toBe(200);
		expect(ReportRequestStatus.parse(first.json)).toEqual({ status: 'processing', report: null });
		const second = await status(token, request_id);
		const stored = fake.state.reportRequests[0];
		expect(second.json).toEqual({ status: 'completed', report: stored.report });
		expect(ReportRequestStatus.parse(second.json).report).toEqual(stored.report);
		expect((await status(token, request_id.toUpperCase())).json).toEqual(second.json);
		expect(stored.status_reads).toBe(3);

		const created = fake.requests.find(
			(entry) => entry.method === 'POST' && entry.path.endsWith('/requests'),
		)!;
		const report = ApiReport.parse(stored.report);
		expect(report).toEqual(
			threatReportFor(
				1,
				{ report_title: 'XSS in banks', included_keywords: ['ransomware'] },
				101,
				created.at,
				fake.dataset.events(),
			),
		);
		expect(report).toMatchObject({
			id: 880001,
			title: 'XSS in banks',
			subtitle: null,
			tags: ['ransomware'],
			tenant_id: 101,
		});
		const mentioning = fake.dataset
			.events()
			.filter((event) => event.data.content.includes('ransomware'));
		expect(report.related_activity_uids).toEqual(
			(mentioning.length ? mentioning : fake.dataset.events().slice(0, 3)).map(
				(event) => event.metadata.uid,
			),
		);
	});

	it('honours reportProcessingPolls, and failReport ends in error without a report', async () => {
		fake.reset({ reportProcessingPolls: 3 });
		const token = await tokenFor();
		const { request_id } = ReportRequestResponse.parse(
			(await create(token, { report_title: 'R' })).json,
		);
		const failed = ReportRequestResponse.parse(
			(await create(token, { report_title: 'F' })).json,
		).request_id;
		fake.failReport(failed);
		const statuses: string[] = [];
		for (let k = 0; k < 4; k++)
			statuses.push(ReportRequestStatus.parse((await status(token, request_id)).json).status);
		expect(statuses).toEqual(['processing', 'processing', 'processing', 'completed']);
		for (let k = 0; k < 3; k++) await status(token, failed);
		expect((await status(token, failed)).json).toEqual({ status: 'error', report: null });
		expect(fake.state.reportRequests[1].report.id).toBe(880002);

		fake.reset({ reportProcessingPolls: 0 });
		const token2 = await tokenFor();
		const { request_id: now } = ReportRequestResponse.parse((await create(token2)).json);
		expect(ReportRequestStatus.parse((await status(token2, now)).json).status).toBe('completed');
		expect(() => fake.failReport('nope')).toThrow(/no report request/);
	});

	it('unknown, malformed and other-tenant ids; the threat intelligence entitlement', async () => {
		const token = await tokenFor();
		const { request_id } = ReportRequestResponse.parse((await create(token)).json);
		expectError(
			await status(token, '00000000-0000-4000-8000-000000000000'),
			404,
			'NOT_FOUND',
			/not found/,
		);
		expectInvalid(await status(token, 'not-a-uuid'), ['path', 'request_info_id'], 'uuid_parsing');
		expectError(await status(await tokenFor('full', 202), request_id), 404, 'NOT_FOUND');
		expectError(
			await status(await tokenFor('noThreatIntel'), request_id),
			403,
			'FORBIDDEN',
			/threat intelligence/,
		);
		expect(fake.state.reportRequests[0].status_reads).toBe(0);
		expect((await status(await tokenFor('noAstp'), request_id)).status).toBe(200);
	});
});
