/**
 * The fake's hostile answers, over real HTTP: the other origin and redirects to it, bodies that drip or
 * never end, silence, paging faults that never end a walk, and rate limits per organization.
 */
import { sleep } from 'n8n-workflow';

import { CredentialRecord, IdentifierPage, pageOf, TokenTestResponse } from '../contract';
import { realSleep } from '../support/clock';
import { processRef } from '../support/node';
import { call, open, readBody, search, searchPath, tokenFor } from './client';
import { FakeFlare, STOLEN_TOKEN } from './index';

let fake: FakeFlare;

beforeAll(async () => {
	fake = await FakeFlare.start();
});
afterAll(async () => fake.stop());
beforeEach(() => fake.reset());

const CredentialPage = pageOf(CredentialRecord);
const QUERY = { type: 'domain', fqdn: 'acme.com' };
const sourcePath = '/astp/sources/collection-1';
const last = () => fake.requests[fake.requests.length - 1];

/** Waits until `condition` holds, checking every 20 ms, for at most `ms`. */
async function until(condition: () => boolean, ms = 5_000, wait = sleep): Promise<void> {
	for (let waited = 0; !condition(); waited += 20) {
		if (waited >= ms) throw new Error('condition not met in time');
		await wait(20);
	}
}

/**
 * {@link until} on real time, while an endless body is open: it is real work, so virtual time
 * stands still until the client goes away.
 */
const untilReal = async (condition: () => boolean) => await until(condition, 5_000, realSleep);

describe('the other origin', () => {
	it('runs on another port, answers every request with a plausible success and logs it', async () => {
		const other = fake.otherOrigin;
		expect(other.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
		expect(other.url).not.toBe(fake.url);

		const token = await call(
			fake,
			'POST',
			'/tokens/generate?x=1',
			{
				authorization: fake.apiKeys.full,
				body: { tenant_id: 101 },
			},
			other.url,
		);
		expect(token.status).toBe(200);
		expect(token.json).toEqual({ token: STOLEN_TOKEN, refresh_token_exp: expect.any(Number) });
		const page = await call(
			fake,
			'POST',
			searchPath(fake),
			{
				token: 'ftok_secret',
				body: { query: QUERY },
			},
			other.url,
		);
		expect(page.status).toBe(200);
		expect(page.json).toEqual({ items: [], next: null });
		expect((await call(fake, 'DELETE', '/anything', {}, other.url)).json).toEqual({
			items: [],
			next: null,
		});

		expect(other.requests).toEqual([
			{
				method: 'POST',
				path: '/tokens/generate',
				query: { x: '1' },
				body: { tenant_id: 101 },
				auth: 'apiKey',
				at: expect.any(Number),
			},
			{
				method: 'POST',
				path: searchPath(fake),
				query: {},
				body: { query: QUERY },
				auth: 'bearer',
				at: expect.any(Number),
			},
			{
				method: 'DELETE',
				path: '/anything',
				query: {},
				body: undefined,
				auth: 'none',
				at: expect.any(Number),
			},
		]);
		// The raw header is there for assertions, but never serialised.
		expect(other.requests.map((request) => request.authorization)).toEqual([
			fake.apiKeys.full,
			'Bearer ftok_secret',
			undefined,
		]);
		const serialised = JSON.stringify(other.requests);
		expect(serialised).not.toContain(fake.apiKeys.full);
		expect(serialised).not.toContain('ftok_secret');
		expect(fake.requests).toEqual([]);

		fake.reset();
		expect(other.requests).toEqual([]);
	});

	it('starts and stops with the fake', async () => {
		const own = await FakeFlare.start();
		const url = own.otherOrigin.url;
		expect((await call(own, 'GET', '/', {}, url)).status).toBe(200);
		await own.stop();
		await expect(fetch(url)).rejects.toThrow();
	});
});

describe('redirect', () => {
	it.each([301, 302, 303, 307, 308] as const)(
		'%i points to the same path and query on the other origin',
		async (status) => {
			const token = await tokenFor(fake);
			fake.faults.add({
				path: `/${fake.options.productSegment}/v4/identifiers/`,
				fault: { redirect: { status } },
			});
			const path = `/${fake.options.productSegment}/v4/identifiers/?size=5&order_by=name`;
			const result = await call(fake, 'GET', path, { token });
			expect(result.status).toBe(status);
			expect(result.headers.get('location')).toBe(fake.otherOrigin.url + path);
			expect(result.text).toBe(`Redirecting to ${fake.otherOrigin.url + path}`);
			expect(last()).toMatchObject({ path: path.split('?')[0], status });
			expect(fake.otherOrigin.requests).toEqual([]);
		},
	);

	it('`to` is sent as given, absolute or relative; a client that follows lands on the other origin', async () => {
		fake.faults.add({
			path: '/tokens/generate',
			fault: { redirect: { status: 307, to: '/elsewhere?a=b' } },
		});
		fake.faults.add({
			path: sourcePath,
			fault: { redirect: { status: 302, to: 'https://flare.invalid/x' } },
		});
		fake.faults.add({ path: /^\/astp\/sources\//, skip: 1, fault: { redirect: { status: 301 } } });

		const exchange = await call(fake, 'POST', '/tokens/generate', {
			authorization: fake.apiKeys.full,
		});
		expect(exchange.status).toBe(307);
		expect(exchange.headers.get('location')).toBe('/elsewhere?a=b');
		const token = await tokenFor(fake);
		const absolute = await call(fake, 'GET', sourcePath, { token });
		expect(absolute.headers.get('location')).toBe('https://flare.invalid/x');

		const followed = await fetch(`${fake.url}/astp/sources/collection-2?q=1`);
		expect(followed.status).toBe(200);
		expect(followed.url).toBe(`${fake.otherOrigin.url}/astp/sources/collection-2?q=1`);
		expect(await followed.json()).toEqual({ items: [], next: null });
		expect(fake.otherOrigin.requests).toMatchObject([
			{ method: 'GET', path: '/astp/sources/collection-2', query: { q: '1' } },
		]);
	});

	it("in phase 'after' the request is processed first", async () => {
		const token = await tokenFor(fake);
		fake.faults.add({
			method: 'DELETE',
			phase: 'after',
			fault: { redirect: { status: 303 } },
		});
		const result = await call(
			fake,
			'DELETE',
			`/${fake.options.productSegment}/v4/identifiers/7003`,
			{ token },
		);
		expect(result.status).toBe(303);
		expect(fake.dataset.identifierExists(7003)).toBe(false);
	});
});

describe('drip', () => {
	it('sends the headers at once, then one byte per interval until the client goes away', async () => {
		const token = await tokenFor(fake);
		fake.faults.add({ path: searchPath(fake), fault: { drip: { intervalMs: 40 } } });
		const started = Date.now();
		const held = open(fake.url + searchPath(fake), 'POST', {
			authorization: `Bearer ${token}`,
			body: JSON.stringify({ query: QUERY }),
		});
		const response = await held.response;
		expect(Date.now() - started).toBeLessThan(1_000);
		expect(response.statusCode).toBe(200);
		expect(response.headers['content-type']).toBe('application/json');

		const received: Buffer[] = [];
		response.on('data', (chunk: Buffer) => received.push(chunk));
		await until(() => Buffer.concat(received).length >= 12);
		const text = Buffer.concat(received).toString();
		expect('{"items":[{"id":1,"identity_name":"x@example.com"},'.startsWith(text)).toBe(true);
		expect(received.every((chunk) => chunk.length === 1)).toBe(true);

		held.abort();
		const entry = fake.requests.find((request) => request.path === searchPath(fake))!;
		await until(() => entry.disconnectedAt !== undefined);
		expect(entry.status).toBe(200);
		expect(entry.disconnectedAt).toBeGreaterThanOrEqual(entry.at);
		const sent = entry.bytesSent!;
		expect(sent).toBeGreaterThanOrEqual(12);
		await sleep(200);
		expect(entry.bytesSent).toBe(sent);
		expect(fake.quotaLeft).toBe(fake.options.quota);
	});

	it('ends the answer after `bytes` bytes when given: JSON cut short', async () => {
		fake.faults.add({ path: sourcePath, fault: { drip: { intervalMs: 5, bytes: 30 } } });
		const token = await tokenFor(fake);
		const result = await call(fake, 'GET', sourcePath, { token });
		expect(result.status).toBe(200);
		expect(result.text).toBe('{"items":[{"id":1,"identity_name":"x@example.com"},'.slice(0, 30));
		expect(result.json).toBeUndefined();
		await until(() => last().bytesSent === 30);
		expect(last().disconnectedAt).toBeUndefined();
	});
});

describe('endless body', () => {
	it('streams a JSON page without end, honouring backpressure, until the client goes away', async () => {
		const token = await tokenFor(fake);
		fake.faults.add({ path: sourcePath, fault: { endlessBody: true } });
		const held = open(fake.url + sourcePath, 'GET', { authorization: `Bearer ${token}` });
		const response = await held.response;
		expect(response.statusCode).toBe(200);
		expect(response.headers['content-type']).toBe('application/json');
		const entry = last();

		// Not read: the socket fills and the fake waits for it to drain, writing nothing more.
		response.pause();
		await untilReal(() => entry.waitingForDrain === true);
		await realSleep(300); // what was queued before reaches the socket's buffers
		const stalled = entry.bytesSent!;
		await realSleep(300);
		expect([entry.waitingForDrain, entry.bytesSent]).toEqual([true, stalled]);
		expect(stalled).toBeLessThan(16 * 1024 * 1024);

		const body = await readBody(response, 4 * 1024 * 1024);
		expect(body.length).toBeGreaterThanOrEqual(4 * 1024 * 1024);
		const record = '{"id":1,"identity_name":"x@example.com"},';
		expect(body.subarray(0, 1000).toString()).toBe(`{"items":[${record.repeat(30)}`.slice(0, 1000));
		await untilReal(() => entry.disconnectedAt !== undefined);
		const sent = entry.bytesSent!;
		expect(sent).toBeGreaterThanOrEqual(stalled);
		await realSleep(200);
		expect(entry.bytesSent).toBe(sent);
	});
	it('cuts the connection at its limit when the client never stops reading (a client that lost its cap)', async () => {
		const token = await tokenFor(fake);
		const limitBytes = 8 * 1024 * 1024;
		fake.faults.add({ path: sourcePath, fault: { endlessBody: true, limitBytes } });
		const held = open(fake.url + sourcePath, 'GET', { authorization: `Bearer ${token}` });
		const response = await held.response;
		let read = 0;
		response.on('data', (chunk: Buffer) => (read += chunk.length));
		response.on('error', () => undefined);
		const closed = new Promise<'closed'>((resolve) =>
			response.once('close', () => resolve('closed')),
		);

		// No Timeout ends it (virtual time stands still while it is read): the fake does, at once.
		expect(await Promise.race([closed, realSleep(5_000).then(() => 'still open')])).toBe('closed');
		const entry = last();
		expect(entry).toMatchObject({ status: 200, cutOffByFake: true });
		expect(entry.disconnectedAt).toEqual(expect.any(Number));
		expect(entry.bytesSent).toBeLessThanOrEqual(limitBytes + 128 * 1024);
		expect(read).toBeLessThanOrEqual(entry.bytesSent!);
		expect(read).toBeGreaterThan(limitBytes / 2);
	});
});

describe('silent', () => {
	it('never answers, on the token exchange too, until the client goes away', async () => {
		fake.faults.add({ path: '/tokens/generate', fault: { silent: true } });
		const held = open(`${fake.url}/tokens/generate`, 'POST', {
			authorization: fake.apiKeys.full,
			body: '{}',
		});
		let answered = false;
		held.response.then(
			() => (answered = true),
			() => undefined,
		);
		await sleep(500);
		expect(answered).toBe(false);
		const entry = last();
		expect(entry).toMatchObject({ path: '/tokens/generate', status: 0, body: {} });
		expect(entry.disconnectedAt).toBeUndefined();

		held.abort();
		await until(() => entry.disconnectedAt !== undefined);
		expect(entry.status).toBe(0);
		// The next exchange is answered.
		expect(await tokenFor(fake)).toMatch(/^ftok_/);
	});

	it('stop() ends held connections and leaves no timer behind', async () => {
		const resources = () =>
			processRef.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
		// Only plain http requests without an agent here: fetch keeps timers of its own.
		const before = resources();
		const own = await FakeFlare.start();
		const exchange = open(`${own.url}/tokens/generate`, 'POST', {
			authorization: own.apiKeys.full,
		});
		const { token } = JSON.parse((await readBody(await exchange.response)).toString()) as {
			token: string;
		};
		own.faults.add({ path: sourcePath, fault: { silent: true } });
		own.faults.add({ path: sourcePath, fault: { drip: { intervalMs: 60_000 } } });
		own.faults.add({ path: sourcePath, fault: { endlessBody: true } });
		const held = [0, 1, 2].map(() =>
			open(own.url + sourcePath, 'GET', { authorization: `Bearer ${token}` }),
		);
		const entries = () => own.requests.filter((request) => request.path === sourcePath);
		await untilReal(() => entries().filter((entry) => entry.status === 200).length === 2);

		const stopping = Date.now();
		await own.stop();
		expect(Date.now() - stopping).toBeLessThan(2_000);
		for (const request of held) request.abort();
		expect(
			entries()
				.map((entry) => entry.status)
				.sort(),
		).toEqual([0, 200, 200]);
		expect(entries().every((entry) => entry.disconnectedAt !== undefined)).toBe(true);
		await sleep(50);
		expect(resources()).toBeLessThanOrEqual(before);
	});
});

describe('paging faults', () => {
	const body = { query: QUERY, size: 10 };
	const page = async (token: string, from?: string | null) => {
		const result = await search(fake, token, from === undefined ? body : { ...body, from });
		expect(result.status).toBe(200);
		return CredentialPage.parse(result.json);
	};

	it('cursorCycle: next walks the cycle, and its cursors fetch the first page', async () => {
		const token = await tokenFor(fake);
		const first = await page(token);
		const second = await page(token, first.next);
		fake.faults.add({
			path: searchPath(fake),
			times: Infinity,
			fault: { cursorCycle: ['A', 'B'] },
		});

		expect(await page(token)).toEqual({ items: first.items, next: 'A' });
		expect(await page(token, 'A')).toEqual({ items: first.items, next: 'B' });
		expect(await page(token, 'B')).toEqual({ items: first.items, next: 'A' });
		expect(await page(token, first.next)).toEqual({ items: second.items, next: 'A' });
		// Without the fault the cursors it handed out still fetch the first page.
		fake.faults.clear();
		expect(await page(token, 'B')).toEqual(first);
		expect((await search(fake, token, { ...body, from: 'C' })).status).toBe(422);
		expect(() => fake.faults.add({ fault: { cursorCycle: [] } })).toThrow(/at least one/);
	});

	it('freshEmptyPages: empty pages, each with a new cursor that is accepted', async () => {
		const token = await tokenFor(fake);
		fake.faults.add({ path: searchPath(fake), times: Infinity, fault: { freshEmptyPages: true } });
		const cursors: string[] = [];
		let from: string | null | undefined;
		for (let k = 0; k < 5; k++) {
			const result = await page(token, from);
			expect(result.items).toEqual([]);
			cursors.push(result.next!);
			from = result.next;
		}
		expect(new Set(cursors).size).toBe(5);
		expect(cursors.every((cursor) => typeof cursor === 'string' && cursor.length > 0)).toBe(true);
	});

	it('freshDuplicatePages: the first page again and again, each with a new cursor', async () => {
		const token = await tokenFor(fake);
		const first = await page(token);
		const real = first.next;
		fake.faults.add({
			path: searchPath(fake),
			times: Infinity,
			fault: { freshDuplicatePages: true },
		});
		const cursors: string[] = [];
		let from = real;
		for (let k = 0; k < 4; k++) {
			const result = await page(token, from);
			expect(result.items).toEqual(first.items);
			cursors.push(result.next!);
			from = result.next;
		}
		expect(new Set([real, ...cursors]).size).toBe(5);
	});

	it('apply to every from/next route: URLs by hash and the lists; other routes answer normally', async () => {
		const token = await tokenFor(fake);
		const seg = fake.options.productSegment;
		fake.faults.add({ times: Infinity, fault: { cursorCycle: ['X'] } });

		const listPath = `/${seg}/v4/identifiers/?size=5`;
		const list = IdentifierPage.parse((await call(fake, 'GET', listPath, { token })).json);
		expect(list.next).toBe('X');
		const again = IdentifierPage.parse(
			(await call(fake, 'GET', `${listPath}&from=X`, { token })).json,
		);
		expect(again).toEqual(list);
		for (const path of [`/${seg}/v4/matching-policies?size=3`, '/astp/v2/sources?size=3']) {
			const result = await call(fake, 'GET', path, { token });
			expect((result.json as { next: unknown }).next).toBe('X');
		}
		const urls = await call(fake, 'POST', '/astp/urls/by_credential_hash', {
			token,
			body: { credential_hash: fake.dataset.credentialHash(49), size: 5, from: 'X' },
		});
		expect(urls.status).toBe(200);
		expect(urls.json).toEqual({
			items: fake.dataset.urlsFor(fake.dataset.credentialHash(49)).slice(0, 5),
			next: 'X',
		});
		expect((await call(fake, 'GET', sourcePath, { token })).json).toEqual(
			fake.dataset.source('collection-1'),
		);
	});
});

describe('organizations', () => {
	it('each demo key belongs to an organization of its own', async () => {
		const organizations: number[] = [];
		for (const role of ['full', 'noAstp', 'noThreatIntel'] as const) {
			const token = await tokenFor(fake, role);
			const test = TokenTestResponse.parse(
				(await call(fake, 'GET', '/tokens/test', { token })).json,
			);
			expect(test.organization_id).toBe(fake.organizationOf(role));
			organizations.push(test.organization_id);
		}
		expect(organizations).toEqual([4242, 4343, 4444]);
	});

	it('rate limits are kept per organization and tier', async () => {
		fake.reset({ rateLimits: { search: 1, basic: 1 } });
		const full = await tokenFor(fake, 'full');
		const other = await tokenFor(fake, 'noThreatIntel');
		const body = { query: QUERY, size: 1 };
		expect((await search(fake, full, body)).status).toBe(200);
		expect((await search(fake, other, body)).status).toBe(200);
		expect((await call(fake, 'GET', sourcePath, { token: full })).status).toBe(200);
		expect((await search(fake, full, body)).status).toBe(429);
		expect((await search(fake, other, body)).status).toBe(429);
		// A second token of the same key is the same organization.
		expect((await search(fake, await tokenFor(fake, 'full'), body)).status).toBe(429);
		expect((await call(fake, 'GET', sourcePath, { token: other })).status).toBe(200);
	});

	it('a request is rate limited by its arrival, not by when its body was read', async () => {
		fake.reset({ rateLimits: { search: 2 } });
		const token = await tokenFor(fake);
		const body = JSON.stringify({ query: QUERY, size: 1 });
		expect((await search(fake, token, JSON.parse(body))).status).toBe(200);
		// Arrives at once, but its body takes longer than the interval (500 ms) to arrive.
		const slow = open(fake.url + searchPath(fake), 'POST', {
			authorization: `Bearer ${token}`,
			body,
			holdBody: true,
		});
		await sleep(700);
		slow.finish();
		const response = await slow.response;
		expect(response.statusCode).toBe(429);
		expect(JSON.parse((await readBody(response)).toString())).toEqual({
			error: { code: 'RATELIMIT_REACHED', message: 'ratelimit reached' },
		});
	});

	it('the key matcher: a fault for one organization leaves the others alone', async () => {
		const limited = {
			status: 429,
			body: { error: { code: 'RATELIMIT_REACHED', message: 'ratelimit reached' } },
			headers: { 'Retry-After': '1' },
		};
		fake.faults.add({ key: 'noAstp', times: Infinity, fault: limited });
		const full = await tokenFor(fake, 'full');
		const exchange = await call(fake, 'POST', '/tokens/generate', {
			authorization: fake.apiKeys.noAstp,
		});
		expect(exchange.status).toBe(429);
		expect((await call(fake, 'GET', sourcePath, { token: full })).status).toBe(200);

		fake.faults.clear();
		const noAstp = await tokenFor(fake, 'noAstp');
		fake.faults.add({ key: 'noAstp', path: '/tokens/test', times: 2, fault: limited });
		expect((await call(fake, 'GET', '/tokens/test', { token: full })).status).toBe(200);
		expect((await call(fake, 'GET', '/tokens/test', { token: noAstp })).status).toBe(429);
		// Still the key's, once the token expired; unknown tokens and keys match no key.
		fake.expireAllTokens();
		expect((await call(fake, 'GET', '/tokens/test', { token: noAstp })).status).toBe(429);
		fake.faults.add({ key: 'full', times: Infinity, fault: limited });
		expect((await call(fake, 'GET', '/tokens/test', { token: 'ftok_unknown' })).status).toBe(401);
		expect(
			(await call(fake, 'POST', '/tokens/generate', { authorization: 'fk_unknown' })).status,
		).toBe(401);
		expect(fake.requests.map((request) => request.key)).toEqual([
			'full',
			'noAstp',
			'full',
			'noAstp',
			'full',
			'noAstp',
			'noAstp',
			undefined,
			undefined,
		]);
	});
});
