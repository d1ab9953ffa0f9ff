/**
 * The fake's feed endpoints over real HTTP (docs/feed-endpoints.md): tenant and identifier event
 * feeds, event and credential actions, full events, filter values, the ASTP credential search, the
 * tenant credentials feed, tenants and identifier create/get/update. Shapes are checked with the
 * contract; results against brute force over the stored events and the dataset.
 */
import { sleep } from 'n8n-workflow';
import { z } from 'zod';

import {
	CredentialRecord,
	ErrorEnvelope,
	type FeedItem,
	FeedPage,
	type FeedRequestBodyInput,
	FilterSeverities,
	FilterSourceTypes,
	FullEvent,
	IdentifierPage,
	LegacyHttpError,
	OrganizationTenantPage,
	pageOf,
	PublicIdentifier,
	SEVERITY_ORDER,
	type Severity,
	TenantCredentialPage,
	TenantList,
	TokenResponse,
	ValidationErrorEnvelope,
} from '../contract';
import { EVENT_TYPES, FakeFlare, type KeyRole, type StoredEvent } from './index';

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
	json: unknown;
}

async function call(
	method: string,
	path: string,
	options: { token?: string; body?: unknown; authorization?: string } = {},
): Promise<Result> {
	const headers: Record<string, string> = {};
	if (options.authorization !== undefined) headers.authorization = options.authorization;
	else if (options.token) headers.authorization = `Bearer ${options.token}`;
	let body: string | undefined;
	if (options.body !== undefined) {
		body = JSON.stringify(options.body);
		headers['content-type'] = 'application/json';
	}
	const response = await fetch(fake.url + path, { method, headers, body });
	const text = await response.text();
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		json = text;
	}
	return { status: response.status, headers: response.headers, json };
}

async function tokenFor(role: KeyRole = 'full', tenantId?: number): Promise<string> {
	const result = await call('POST', '/tokens/generate', {
		authorization: fake.apiKeys[role],
		body: tenantId === undefined ? undefined : { tenant_id: tenantId },
	});
	expect(result.status).toBe(200);
	return TokenResponse.parse(result.json).token;
}

const seg = () => fake.options.productSegment;
const tenantFeedPath = () => `/${seg()}/v4/events/tenant/_search`;
const identifierFeedPath = (id: number | string) => `/${seg()}/v4/events/identifiers/${id}/_search`;
const actionsPath = () => `/${seg()}/v4/events/actions`;
const activityPath = (uid: string) => `/${seg()}/v2/activities/?uid=${encodeURIComponent(uid)}`;

function expectError(result: Result, status: number, code: string, message?: string | RegExp) {
	expect(result.status).toBe(status);
	const { error } = ErrorEnvelope.parse(result.json);
	expect(error.code).toBe(code);
	if (message !== undefined) expect(error.message).toMatch(message);
}

function expectInvalid(result: Result, loc: Array<string | number>, type?: string) {
	expect(result.status).toBe(422);
	const { detail } = ValidationErrorEnvelope.parse(result.json);
	const item = detail.find((entry) => JSON.stringify(entry.loc) === JSON.stringify(loc));
	expect(item).toBeDefined();
	if (type) expect(item!.type).toBe(type);
}

/** Walks a feed to the end (`from` in the body), returning every page. */
async function walkFeed(token: string, path: string, body: FeedRequestBodyInput = {}) {
	const pages: FeedPage[] = [];
	let from: string | null = null;
	do {
		const result = await call('POST', path, { token, body: { ...body, from } });
		expect(result.status).toBe(200);
		const page = FeedPage.parse(result.json);
		expect(page.items.length).toBeLessThanOrEqual(body.size ?? 10);
		pages.push(page);
		from = page.next;
	} while (from !== null && pages.length < 500);
	expect(from).toBeNull();
	return pages;
}

const itemsOf = (pages: FeedPage[]) => pages.flatMap((page) => page.items);
const uidsOf = (items: FeedItem[]) => items.map((item) => item.metadata.uid);

/** Brute force over the stored events of a tenant's feed, newest first (the default order). */
function bruteForce(
	tenantId: number,
	predicate: (event: StoredEvent, severity: Severity, tags: string[]) => boolean,
	{ ignored = false, remediated = false } = {},
): string[] {
	return fake.events
		.feed(tenantId)
		.filter((event) => {
			const state = fake.events.state(tenantId, event.uid)!;
			return (
				(state.ignoredMs !== null) === ignored &&
				(state.remediatedMs !== null) === remediated &&
				predicate(event, state.override ?? event.severity, state.tags)
			);
		})
		.reverse()
		.map((event) => event.uid);
}

// ---- tests ----

describe('tenant event feed', () => {
	it('walks every event of the tenant, newest first, with empty and short pages, in the documented shape', async () => {
		const token = await tokenFor();
		const pages = await walkFeed(token, tenantFeedPath());
		const items = itemsOf(pages);
		expect(items).toEqual(fake.feed.feedAll(101, {}));
		expect(uidsOf(items)).toEqual(bruteForce(101, () => true));
		expect(items.length).toBeGreaterThan(40);
		const sizes = pages.map((page) => page.items.length);
		expect(sizes).toContain(0);
		expect(sizes.some((size) => size > 0 && size < 10)).toBe(true);
		expect(new Set(items.map((item) => item.metadata.type))).toEqual(new Set(EVENT_TYPES));
		expect(new Set(items.map((item) => item.metadata.severity))).toEqual(new Set(SEVERITY_ORDER));
		// default filters leave ignored and remediated events out
		expect(items.every((item) => !item.tenant_metadata!.ignored_at)).toBe(true);
		expect(items.every((item) => !item.tenant_metadata!.remediated_at)).toBe(true);
		const matched = items.map((item) => Date.parse(item.metadata.matched_at!));
		expect(matched).toEqual([...matched].sort((a, b) => b - a));
		for (const item of items) {
			expect(item.metadata.flare_url).toBe(
				`https://app.flare.io/#/${item.metadata.uid.split('/').map(encodeURIComponent).join('/')}`,
			);
			expect(item.identifiers!.length).toBeGreaterThanOrEqual(1);
			for (const { id, name } of item.identifiers!)
				expect(name).toBe(fake.dataset.identifier(id, 101).name);
		}
		const overridden = items.find((item) => item.tenant_metadata!.severity);
		expect(overridden!.metadata.severity).toBe(overridden!.tenant_metadata!.severity!.override);
	});

	it('asc is the reverse of desc; size 1 to 10 walks to the same events', async () => {
		const token = await tokenFor();
		const desc = uidsOf(itemsOf(await walkFeed(token, tenantFeedPath(), { size: 10 })));
		const asc = uidsOf(itemsOf(await walkFeed(token, tenantFeedPath(), { order: 'asc', size: 3 })));
		expect(asc).toEqual([...desc].reverse());
		const small = await walkFeed(token, tenantFeedPath(), { size: 1, order: 'desc' });
		expect(uidsOf(itemsOf(small))).toEqual(desc);
	});

	it('severity: one value is a minimum, a list is exact; types expand categories', async () => {
		const token = await tokenFor();
		const atLeastHigh = uidsOf(
			itemsOf(await walkFeed(token, tenantFeedPath(), { filters: { severity: 'high' } })),
		);
		expect(atLeastHigh).toEqual(bruteForce(101, (_, s) => s === 'high' || s === 'critical'));
		expect(atLeastHigh.length).toBeGreaterThan(0);
		const exact = uidsOf(
			itemsOf(
				await walkFeed(token, tenantFeedPath(), { filters: { severity: ['info', 'critical'] } }),
			),
		);
		expect(exact).toEqual(bruteForce(101, (_, s) => s === 'info' || s === 'critical'));

		const infected = uidsOf(
			itemsOf(await walkFeed(token, tenantFeedPath(), { filters: { type: ['infected_devices'] } })),
		);
		expect(infected).toEqual(bruteForce(101, (e) => e.type === 'bot' || e.type === 'stealer_log'));
		expect(infected.length).toBeGreaterThan(0);
		const illicit = uidsOf(
			itemsOf(
				await walkFeed(token, tenantFeedPath(), {
					filters: { type: ['illicit_networks', 'paste'] },
				}),
			),
		);
		const illicitTypes = [
			'forum_post',
			'blog_post',
			'chat_message',
			'ransomleak',
			'bot',
			'stealer_log',
			'listing',
			'paste',
		];
		expect(illicit).toEqual(bruteForce(101, (e) => illicitTypes.includes(e.type)));
		const leaks = uidsOf(
			itemsOf(await walkFeed(token, tenantFeedPath(), { filters: { type: ['leaks'] } })),
		);
		expect(leaks).toEqual(
			bruteForce(101, (e) => e.type === 'leak' || e.type === 'leaked_credential'),
		);
	});

	it('date ranges: estimated_created_at and materialized_at with gt, gte, lt, lte', async () => {
		const token = await tokenFor();
		const events = fake.events.feed(101);
		const pivot = events[30];
		const iso = (ms: number) => new Date(ms).toISOString();
		const walk = async (filters: object) =>
			uidsOf(itemsOf(await walkFeed(token, tenantFeedPath(), { filters })));

		expect(await walk({ materialized_at: { gte: iso(pivot.materializedMs) } })).toEqual(
			bruteForce(101, (e) => e.materializedMs >= pivot.materializedMs),
		);
		expect(await walk({ materialized_at: { gt: iso(pivot.materializedMs) } })).toEqual(
			bruteForce(101, (e) => e.materializedMs > pivot.materializedMs),
		);
		const created = pivot.estimatedCreatedMs;
		const upper = created + 10 * 86_400_000;
		// naive date-times are UTC, offsets are honoured
		expect(
			await walk({
				estimated_created_at: {
					gte: iso(created).slice(0, 23),
					lt: new Date(upper).toISOString().replace('Z', '+00:00'),
				},
			}),
		).toEqual(
			bruteForce(101, (e) => e.estimatedCreatedMs >= created && e.estimatedCreatedMs < upper),
		);
		expect(
			await walk({
				estimated_created_at: { lte: iso(created) },
				materialized_at: { lt: iso(upper) },
			}),
		).toEqual(bruteForce(101, (e) => e.estimatedCreatedMs <= created && e.materializedMs < upper));
	});

	it('tags (any of them), is_ignored and is_remediated select the tenant states', async () => {
		const token = await tokenFor();
		const walk = async (filters: object) =>
			uidsOf(itemsOf(await walkFeed(token, tenantFeedPath(), { filters })));
		const tagged = await walk({ tags: ['vip', 'phishing'] });
		expect(tagged).toEqual(
			bruteForce(101, (_, __, tags) => tags.includes('vip') || tags.includes('phishing')),
		);
		expect(tagged.length).toBeGreaterThan(0);
		const ignored = await walk({ is_ignored: true });
		expect(ignored).toEqual(bruteForce(101, () => true, { ignored: true }));
		expect(ignored.length).toBeGreaterThan(0);
		const remediated = await walk({ is_remediated: true });
		expect(remediated).toEqual(bruteForce(101, () => true, { remediated: true }));
		expect(remediated.length).toBeGreaterThan(0);
	});

	it("actedOnDefault 'listed' (the MCP page's reading): without the flags, ignored and remediated events are listed too; true still keeps only those", async () => {
		fake.reset({ actedOnDefault: 'listed' });
		const token = await tokenFor();
		const walk = async (filters: object) =>
			uidsOf(itemsOf(await walkFeed(token, tenantFeedPath(), { filters })));
		expect(await walk({})).toEqual(fake.events.feed(101).map((event) => event.uid).reverse());
		expect(await walk({ is_ignored: false, is_remediated: false })).toEqual(await walk({}));
		expect(await walk({ is_ignored: true })).toEqual(
			fake.events.feed(101).filter((event) => fake.events.state(101, event.uid)!.ignoredMs !== null).map((event) => event.uid).reverse(),
		);
	});

	it('an event filed again: listed once, at its new place with its new matched_at and its tenant state; a cursor saved before still walks on', async () => {
		const token = await tokenFor();
		const body = { order: 'asc' as const, size: 10 };
		const minuteAgo = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000).toISOString();
		const [first, second] = fake.addEvents(2, { severity: 'high', tags: ['vip'], materializedAt: minuteAgo });
		const pages = await walkFeed(token, tenantFeedPath(), body);
		const saved = pages.at(-2)?.next ?? null;
		fake.events.setMetadata(101, first.metadata.uid, { severity: 'critical' });
		const again = fake.refileEvent(first.metadata.uid);

		const all = uidsOf(itemsOf(await walkFeed(token, tenantFeedPath(), body)));
		expect(all.filter((uid) => uid === first.metadata.uid)).toHaveLength(1);
		expect(all.slice(-2)).toEqual([second.metadata.uid, first.metadata.uid]);
		expect(again.metadata.matched_at).not.toBe(first.metadata.matched_at);
		expect(again.metadata.severity).toBe('critical');
		expect(again.tenant_metadata?.tags).toEqual(['vip']);
		expect(fake.feed.feedAll(101, body).slice(-1)).toEqual([again]);
		let from = saved;
		const resumed: string[] = [];
		do {
			const page = FeedPage.parse((await call('POST', tenantFeedPath(), { token, body: { ...body, from } })).json);
			resumed.push(...uidsOf(page.items));
			from = page.next;
		} while (from);
		expect(resumed.slice(-2)).toEqual([second.metadata.uid, first.metadata.uid]);
	});

	it('a selective filter makes empty pages common mid-walk; the walk still ends', async () => {
		const token = await tokenFor();
		const pages = await walkFeed(token, tenantFeedPath(), {
			filters: { is_ignored: true },
			order: 'asc',
		});
		const empty = pages.slice(0, -1).filter((page) => page.items.length === 0).length;
		expect(empty).toBeGreaterThanOrEqual(3);
		expect(uidsOf(itemsOf(pages))).toEqual(
			bruteForce(101, () => true, { ignored: true }).reverse(),
		);
	});

	it('every query kind finds the events that mention what it looks for, with highlights', async () => {
		const token = await tokenFor();
		const visible = new Set(bruteForce(101, () => true));
		const events = fake.events.feed(101).filter((event) => visible.has(event.uid));
		const withEmail = events.find((e) => e.type === 'leaked_credential')!;
		const credential = withEmail.credentials[0];
		const withIp = events.find((e) => e.features.ips.length > 0)!;
		const withBin = events.find((e) => e.features.bins.length > 0)!;
		const withDomain = events.find((e) => e.features.domains.length > 0)!;
		const fqdn = withDomain.features.domains[0];
		const brand = fqdn.split('.').slice(-2)[0];
		const identity = fake.dataset.identifier(7003, 101).data;
		const name = fake.dataset.identifier(7003, 101).name.split(' ');
		expect(identity.type).toBe('identity');

		const contains = (e: StoredEvent, needle: string) =>
			[
				e.title,
				e.content,
				e.actor ?? '',
				...e.features.domains,
				...e.features.emails,
				...e.features.usernames,
			]
				.join('\n')
				.toLowerCase()
				.includes(needle.toLowerCase());
		const cases: Array<[object, (e: StoredEvent) => boolean]> = [
			[{ type: 'query_string', query_string: '*' }, () => true],
			[
				{ type: 'query_string', query_string: 'Infected AND device' },
				(e) => contains(e, 'infected') && contains(e, 'device'),
			],
			[{ type: 'keyword', keyword: 'vpn' }, (e) => contains(e, 'vpn')],
			[
				{ type: 'domain', fqdn },
				(e) => e.features.domains.some((d) => d === fqdn || d.endsWith(`.${fqdn}`)),
			],
			[
				{ type: 'email', email: credential.username.toUpperCase() },
				(e) => e.features.emails.includes(credential.username),
			],
			[
				{ type: 'username', username: credential.username.split('@')[0] },
				(e) => e.features.usernames.includes(credential.username.split('@')[0]),
			],
			[
				{ type: 'secret', secret: credential.password },
				(e) => e.features.secrets.includes(credential.password),
			],
			[
				{ type: 'credentials', username: credential.username, password: credential.password },
				(e) =>
					e.credentials.some(
						(c) => c.username === credential.username && c.password === credential.password,
					),
			],
			[
				{ type: 'ip', ip: withIp.features.ips[0] },
				(e) => e.features.ips.includes(withIp.features.ips[0]),
			],
			[
				{ type: 'bin', bin: withBin.features.bins[0] },
				(e) => e.features.bins.includes(withBin.features.bins[0]),
			],
			[{ type: 'brand', name: brand }, (e) => contains(e, brand)],
			[
				{ type: 'name', first_name: name[0], last_name: name[1], is_strict: false },
				(e) => contains(e, name[0]) && contains(e, name[1]),
			],
			[
				{ type: 'github_repository', repo_owner: 'acme', repo_name: 'vpn' },
				(e) => contains(e, 'acme/vpn'),
			],
			[{ type: 'azure_tenant', tenant_id: 'nowhere-tenant' }, () => false],
		];
		for (const [query, predicate] of cases) {
			const items = itemsOf(
				await walkFeed(token, tenantFeedPath(), { query } as FeedRequestBodyInput),
			);
			expect(uidsOf(items)).toEqual(bruteForce(101, (e) => predicate(e)));
			const kind = (query as { type: string }).type;
			if (!['query_string', 'github_repository', 'azure_tenant', 'name'].includes(kind))
				expect([kind, items.length > 0]).toEqual([kind, true]);
			const marked = items.flatMap((item) => item.highlights?.content ?? []);
			for (const text of marked) expect(text).toMatch(/<mark>.+<\/mark>/);
		}
		const keyword = itemsOf(
			await walkFeed(token, tenantFeedPath(), { query: { type: 'keyword', keyword: 'vpn' } }),
		);
		expect(
			keyword.some((item) => /<mark>vpn<\/mark>/i.test(item.highlights!.content?.[0] ?? '')),
		).toBe(true);
		const plain = itemsOf(await walkFeed(token, tenantFeedPath()));
		expect(plain.every((item) => JSON.stringify(item.highlights) === '{}')).toBe(true);
	});

	it('a saved cursor sees events appended later, as the persisted-next pattern needs', async () => {
		const token = await tokenFor();
		const body = { order: 'asc' as const, size: 10 };
		let saved: string | null = null;
		let from: string | null = null;
		const seen: string[] = [];
		do {
			const page = FeedPage.parse(
				(await call('POST', tenantFeedPath(), { token, body: { ...body, from } })).json,
			);
			seen.push(...uidsOf(page.items));
			saved = page.next ?? saved;
			from = page.next;
		} while (from);
		const added = fake.addEvents(3, { severity: 'critical', tags: ['new'] });
		expect(added).toHaveLength(3);
		expect(added.every((item) => item.metadata.severity === 'critical')).toBe(true);
		const resumed: string[] = [];
		from = saved;
		do {
			const page = FeedPage.parse(
				(await call('POST', tenantFeedPath(), { token, body: { ...body, from } })).json,
			);
			resumed.push(...uidsOf(page.items));
			from = page.next;
		} while (from);
		expect(resumed.slice(-3)).toEqual(uidsOf(added));
		expect(resumed.slice(0, -3).every((uid) => seen.includes(uid))).toBe(true);
		expect(fake.feed.feedAll(101, { order: 'asc' }).slice(-3)).toEqual(added);
		// the other tenant's feed does not change
		expect(fake.events.feed(202).some((event) => uidsOf(added).includes(event.uid))).toBe(false);
		expect(() => fake.addEvents(1, { materializedAt: '2020-01-01T00:00:00Z' })).toThrow(
			/backwards/,
		);
		expect(() => fake.addEvents(1, { tenantId: 999 })).toThrow(/unknown tenant/);
	});

	it('sorted by estimated_created_at on request: a late event with an old date escapes a saved cursor', async () => {
		/** Walks asc to the end, then appends a late old event and a new one, and resumes. */
		const resumeAfterLateEvents = async () => {
			const token = await tokenFor();
			let saved: string | null = null;
			let from: string | null = null;
			const seen: FeedItem[] = [];
			do {
				const page = FeedPage.parse(
					(await call('POST', tenantFeedPath(), { token, body: { order: 'asc', from } })).json,
				);
				seen.push(...page.items);
				saved = page.next ?? saved;
				from = page.next;
			} while (from);
			const [late] = fake.addEvents(1, { estimatedCreatedAt: '2020-01-01T00:00:00Z' });
			const [fresh] = fake.addEvents(1);
			const resumed = uidsOf(itemsOf(await walkFeedFrom(token, saved)));
			return { seen, late: late.metadata.uid, fresh: fresh.metadata.uid, resumed };
		};
		const walkFeedFrom = async (token: string, from: string | null) => {
			const pages: FeedPage[] = [];
			do {
				const page = FeedPage.parse(
					(await call('POST', tenantFeedPath(), { token, body: { order: 'asc', from } })).json,
				);
				pages.push(page);
				from = page.next;
			} while (from);
			return pages;
		};

		const byMaterialization = await resumeAfterLateEvents();
		expect(byMaterialization.resumed.slice(-2)).toEqual([
			byMaterialization.late,
			byMaterialization.fresh,
		]);

		fake.reset({ eventSortKey: 'estimated_created_at' });
		const byCreation = await resumeAfterLateEvents();
		const created = byCreation.seen.map((item) => Date.parse(item.metadata.estimated_created_at));
		expect(created).toEqual([...created].sort((a, b) => a - b));
		expect(byCreation.seen).toEqual(
			fake.feed
				.feedAll(101, { order: 'asc' })
				.filter(
					(item) => item.metadata.uid !== byCreation.late && item.metadata.uid !== byCreation.fresh,
				),
		);
		expect(byCreation.resumed).toContain(byCreation.fresh);
		expect(byCreation.resumed).not.toContain(byCreation.late);
		expect(uidsOf(fake.feed.feedAll(101, { order: 'asc' }))[0]).toBe(byCreation.late);
	});

	it('addEvents options: tenant, type, identifiers, dates, states', async () => {
		const [item] = fake.addEvents(1, {
			tenantId: 202,
			type: 'paste',
			identifierIds: [7001],
			materializedAt: '2030-01-01T00:00:00Z',
			estimatedCreatedAt: '2029-12-31T00:00:00Z',
			notes: 'seen',
			ignored: true,
		});
		expect(item.metadata).toMatchObject({
			type: 'paste',
			estimated_created_at: '2029-12-31T00:00:00.000000Z',
			matched_at: '2030-01-01T00:00:00.000000Z',
		});
		expect(item.identifiers).toEqual([{ id: 7001, name: 'example.com' }]);
		expect(item.tenant_metadata).toMatchObject({
			notes: 'seen',
			ignored_at: '2030-01-01T00:00:00.000000Z',
		});
		const token = await tokenFor('full', 202);
		const ignored = itemsOf(
			await walkFeed(token, tenantFeedPath(), { filters: { is_ignored: true } }),
		);
		expect(ignored[0]).toEqual(item);
	});

	it('the cursor is bound to every other parameter and to the tenant; from: null is a first page', async () => {
		const token = await tokenFor();
		const first = FeedPage.parse(
			(await call('POST', tenantFeedPath(), { token, body: { size: 5, from: null } })).json,
		);
		expect(first.next).not.toBeNull();
		// the same parameters, spelled with their defaults, keep the cursor valid
		const same = await call('POST', tenantFeedPath(), {
			token,
			body: { size: 5, order: 'desc', filters: { is_ignored: false }, from: first.next },
		});
		expect(same.status).toBe(200);
		expectInvalid(
			await call('POST', tenantFeedPath(), { token, body: { size: 6, from: first.next } }),
			['body', 'from'],
			'value_error',
		);
		expectInvalid(
			await call('POST', tenantFeedPath(), {
				token,
				body: { size: 5, filters: { severity: 'high' }, from: first.next },
			}),
			['body', 'from'],
		);
		expectInvalid(
			await call('POST', tenantFeedPath(), {
				token: await tokenFor('full', 202),
				body: { size: 5, from: first.next },
			}),
			['body', 'from'],
		);
		expectInvalid(
			await call('POST', identifierFeedPath(7001), { token, body: { size: 5, from: first.next } }),
			['body', 'from'],
		);
		expectInvalid(await call('POST', tenantFeedPath(), { token, body: { from: 'garbage' } }), [
			'body',
			'from',
		]);
	});

	it('validates the body field by field (422 detail with loc)', async () => {
		const token = await tokenFor();
		const post = (body: unknown) => call('POST', tenantFeedPath(), { token, body });
		expectInvalid(await post({ size: 11 }), ['body', 'size'], 'less_than_equal');
		expectInvalid(await post({ size: 0 }), ['body', 'size'], 'greater_than_equal');
		expectInvalid(await post({ order: 'newest' }), ['body', 'order'], 'enum');
		// the Splunk app sends severity and type at the top level: not part of the body
		expectInvalid(await post({ severity: ['high'] }), ['body', 'severity'], 'extra_forbidden');
		expectInvalid(await post({ filters: { severity: 'urgent' } }), ['body', 'filters', 'severity']);
		expectInvalid(
			await post({ filters: { type: ['nope'] } }),
			['body', 'filters', 'type', 0],
			'enum',
		);
		expectInvalid(await post({ filters: { estimated_created_at: { gte: 'yesterday' } } }), [
			'body',
			'filters',
			'estimated_created_at',
			'gte',
		]);
		expectInvalid(await post({ filters: { is_ignored: 'yes' } }), [
			'body',
			'filters',
			'is_ignored',
		]);
		expectInvalid(await post({ filters: null }), ['body', 'filters']);
		expectInvalid(
			await post({ query: { type: 'everything' } }),
			['body', 'query', 'type'],
			'union_tag_invalid',
		);
		expectInvalid(await post({ query: { type: 'domain' } }), ['body', 'query', 'fqdn'], 'missing');
		expectInvalid(
			await post({ query: { type: 'query_string', query_string: 'x'.repeat(10001) } }),
			['body', 'query', 'query_string'],
			'too_long',
		);
		expectInvalid(await post({ query: { type: 'name', first_name: 'a', last_name: 'b' } }), [
			'body',
			'query',
			'is_strict',
		]);
		expect((await post({ query: null })).status).toBe(200);
		expect((await call('POST', tenantFeedPath(), { token })).status).toBe(200);
	});

	it('each tenant has its own events; both can read any full event', async () => {
		const acme = uidsOf(itemsOf(await walkFeed(await tokenFor('full', 101), tenantFeedPath())));
		const europe = uidsOf(itemsOf(await walkFeed(await tokenFor('full', 202), tenantFeedPath())));
		expect(europe.length).toBeGreaterThan(40);
		expect(europe.some((uid) => acme.includes(uid))).toBe(false);
		const result = await call('GET', activityPath(europe[0]), {
			token: await tokenFor('full', 101),
		});
		expect(result.status).toBe(200);
	});

	it('Basic tier: rate limited with 429 RATELIMIT_REACHED; faults apply as on other routes', async () => {
		fake.reset({ rateLimits: { basic: 2 } });
		const token = await tokenFor();
		expect((await call('POST', tenantFeedPath(), { token })).status).toBe(200);
		expectError(await call('POST', tenantFeedPath(), { token }), 429, 'RATELIMIT_REACHED');
		await sleep(550);
		fake.faults.add({ path: tenantFeedPath(), fault: { status: 503 } });
		expect((await call('POST', tenantFeedPath(), { token })).status).toBe(503);
		await sleep(550);
		const first = FeedPage.parse(
			(await call('POST', tenantFeedPath(), { token, body: { size: 2 } })).json,
		);
		fake.faults.add({ path: tenantFeedPath(), fault: { repeatCursor: true } });
		await sleep(550);
		const repeated = FeedPage.parse(
			(await call('POST', tenantFeedPath(), { token, body: { size: 2, from: first.next } })).json,
		);
		expect(repeated.next).toBe(first.next);
		expect(fake.quotaLeft).toBe(fake.options.quota);
	});
});

describe('identifier event feed', () => {
	it('answers only the events that matched the identifier, with the same body and paging', async () => {
		const token = await tokenFor();
		const counts = new Map<number, number>();
		for (const event of fake.events.feed(101))
			for (const id of event.identifierIds) counts.set(id, (counts.get(id) ?? 0) + 1);
		const [busiest] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0];
		const items = itemsOf(
			await walkFeed(token, identifierFeedPath(busiest), { size: 2, order: 'asc' }),
		);
		expect(uidsOf(items)).toEqual(
			bruteForce(101, (e) => e.identifierIds.includes(busiest)).reverse(),
		);
		expect(items.length).toBeGreaterThan(1);
		expect(items.every((item) => item.identifiers!.some((entry) => entry.id === busiest))).toBe(
			true,
		);
		expect(items).toEqual(fake.feed.feedAll(101, { order: 'asc' }, busiest));
		const critical = itemsOf(
			await walkFeed(token, identifierFeedPath(busiest), { filters: { severity: ['critical'] } }),
		);
		expect(uidsOf(critical)).toEqual(
			bruteForce(101, (e, s) => e.identifierIds.includes(busiest) && s === 'critical'),
		);
	});

	it('unknown and deleted identifiers are 404; a non-integer id is 422', async () => {
		const token = await tokenFor();
		expectError(
			await call('POST', identifierFeedPath(99999), { token }),
			404,
			'NOT_FOUND',
			/99999/,
		);
		expect((await call('DELETE', `/${seg()}/v4/identifiers/7002`, { token })).status).toBe(202);
		expectError(await call('POST', identifierFeedPath(7002), { token }), 404, 'NOT_FOUND');
		expectInvalid(
			await call('POST', identifierFeedPath('abc'), { token }),
			['path', 'identifier_id'],
			'int_parsing',
		);
	});
});

describe('event actions', () => {
	it('remediate and ignore set the states and the default feed leaves the events out; the un- actions restore them', async () => {
		const token = await tokenFor();
		const before = itemsOf(await walkFeed(token, tenantFeedPath()));
		const [a, b] = uidsOf(before);
		const act = (type: string, uids: string[]) =>
			call('POST', actionsPath(), {
				token,
				body: { targets: uids.map((uid) => ({ uid })), action: { type } },
			});

		const remediated = await act('remediate', [a, b]);
		expect(remediated.status).toBe(200);
		expect(remediated.json).toEqual({});
		const at = fake.events.state(101, a)!.remediatedMs;
		expect(at).toBeGreaterThan(Date.now() - 60_000);
		expect(uidsOf(itemsOf(await walkFeed(token, tenantFeedPath())))).toEqual(
			uidsOf(before).slice(2),
		);
		const onlyRemediated = itemsOf(
			await walkFeed(token, tenantFeedPath(), { filters: { is_remediated: true } }),
		);
		expect(uidsOf(onlyRemediated)).toEqual(bruteForce(101, () => true, { remediated: true }));
		const itemA = onlyRemediated.find((item) => item.metadata.uid === a)!;
		expect(Date.parse(itemA.tenant_metadata!.remediated_at!)).toBe(at);
		expect(itemA.tenant_metadata!.remediated_at).toMatch(/\.\d{6}Z$/);

		await sleep(5);
		await act('remediate', [a]);
		expect(fake.events.state(101, a)!.remediatedMs).toBe(at);
		await act('ignore', [a]);
		expect(fake.events.state(101, a)!.ignoredMs).not.toBeNull();
		const full = FullEvent.parse((await call('GET', activityPath(a), { token })).json);
		expect(full.activity.header.ignored_at).not.toBeNull();
		expect(full.activity.header.remediated_at).not.toBeNull();

		await act('unremediate', [a, b]);
		await act('unignore', [a]);
		expect(uidsOf(itemsOf(await walkFeed(token, tenantFeedPath())))).toEqual(uidsOf(before));
		expect(
			fake.state.writes.map((write) => (write.body as { action: { type: string } }).action.type),
		).toEqual(['remediate', 'remediate', 'ignore', 'unremediate', 'unignore']);
		expect(fake.state.writes[0]).toEqual({
			method: 'POST',
			path: actionsPath(),
			body: { targets: [{ uid: a }, { uid: b }], action: { type: 'remediate' } },
		});
	});

	it('at most 10 targets; unknown or other-tenant uids are 404 and change nothing; bad bodies 422', async () => {
		const token = await tokenFor();
		const uids = fake.events.feed(101).map((event) => event.uid);
		const post = (body: unknown) => call('POST', actionsPath(), { token, body });
		const targets = (list: string[]) => list.map((uid) => ({ uid }));
		expectInvalid(
			await post({ targets: targets(uids.slice(0, 11)), action: { type: 'ignore' } }),
			['body', 'targets'],
			'too_long',
		);
		expect(
			(await post({ targets: targets(uids.slice(0, 10)), action: { type: 'ignore' } })).status,
		).toBe(200);
		expectInvalid(
			await post({ targets: targets([uids[0]]), action: { type: 'delete' } }),
			['body', 'action', 'type'],
			'enum',
		);
		expectInvalid(await post({ action: { type: 'ignore' } }), ['body', 'targets'], 'missing');
		expectInvalid(await post({ targets: [{ id: uids[0] }], action: { type: 'ignore' } }), [
			'body',
			'targets',
			0,
			'uid',
		]);

		const mine = fake.events
			.feed(101)
			.find((event) => !fake.events.state(101, event.uid)!.ignoredMs)!;
		const theirs = fake.events
			.feed(202)
			.find((event) => !fake.events.state(202, event.uid)!.ignoredMs)!;
		const missing = await post({
			targets: targets([mine.uid, 'leak/nowhere/1', theirs.uid]),
			action: { type: 'ignore' },
		});
		expectError(missing, 404, 'NOT_FOUND');
		const { message } = ErrorEnvelope.parse(missing.json).error;
		expect(message).toContain('leak/nowhere/1');
		expect(message).toContain(theirs.uid);
		expect(message).not.toContain(mine.uid);
		expect(fake.events.state(101, mine.uid)!.ignoredMs).toBeNull();
		expect(fake.events.state(202, theirs.uid)!.ignoredMs).toBeNull();
		expect(fake.state.writes).toHaveLength(1);
	});
});

describe('full event (GET /{segment}/v2/activities/)', () => {
	it('returns the full event of every feed uid, awkward ones encoded, by query and by path', async () => {
		const token = await tokenFor();
		const events = fake.events.feed(101);
		expect(events.some((event) => /[ ?%+#&]/.test(event.uid))).toBe(true);
		expect(events.some((event) => event.uid.split('/').length > 3)).toBe(true);
		for (const event of events) {
			const result = await call('GET', activityPath(event.uid), { token });
			expect(result.status).toBe(200);
			const full = FullEvent.parse(result.json);
			expect(result.json).toEqual(fake.events.fullEvent(event.uid, 101));
			const { header, data, metadata } = full.activity;
			expect(header).toMatchObject({ uid: event.uid, type: event.type, source: event.source });
			expect(data).toMatchObject({ uid: event.uid, index: event.type, id: event.id });
			expect(metadata.estimated_created_at).toBe(
				new Date(event.estimatedCreatedMs).toISOString().replace('Z', '000+00:00'),
			);
			const state = fake.events.state(101, event.uid)!;
			expect(header.tags).toEqual(state.tags);
			expect(header.notes).toBe(state.notes);
			expect(header.risk.score).toBe(SEVERITY_ORDER.indexOf(event.severity) + 1);
			expect(header.user_risk_score).toBe(
				state.override ? SEVERITY_ORDER.indexOf(state.override) + 1 : null,
			);
		}
		const slashed = events.find((event) => event.uid.split('/').length > 3)!;
		const byPath = await call(
			'GET',
			`/${seg()}/v2/activities/${slashed.uid.split('/').map(encodeURIComponent).join('/')}`,
			{ token },
		);
		expect(byPath.status).toBe(200);
		expect(byPath.json).toEqual(fake.events.fullEvent(slashed.uid, 101));
		const credential = events.find((event) => event.type === 'leaked_credential')!;
		const data = FullEvent.parse((await call('GET', activityPath(credential.uid), { token })).json)
			.activity.data;
		expect(data).toMatchObject({
			identity_name: credential.credentials[0].username,
			password: credential.credentials[0].password,
		});
	});

	it('404 in the legacy {message, code} shape for an unknown uid; 422 without one', async () => {
		const token = await tokenFor();
		const missing = await call('GET', activityPath('leak/nowhere/1'), { token });
		expect(missing.status).toBe(404);
		expect(LegacyHttpError.strict().parse(missing.json)).toEqual({
			message: 'Activity not found',
			code: 'NOT_FOUND',
		});
		expect((await call('GET', `/${seg()}/v2/activities/leak/nowhere/1`, { token })).status).toBe(
			404,
		);
		expectInvalid(
			await call('GET', `/${seg()}/v2/activities/`, { token }),
			['query', 'uid'],
			'missing',
		);
		expect((await call('GET', `/${seg()}/v2/activities/`)).status).toBe(401);
	});
});

describe('event filter values', () => {
	it('types: the categories of the docs with their base types, each accepted as a filter', async () => {
		const token = await tokenFor();
		const result = await call('GET', `/${seg()}/v4/events/filters/types`, { token });
		expect(result.status).toBe(200);
		const { categories } = FilterSourceTypes.parse(result.json);
		expect(categories.map((category) => category.value)).toEqual([
			'illicit_networks',
			'open_web',
			'leaks',
			'domains',
		]);
		const values = categories.flatMap((category) => [
			category.value,
			...category.types!.map((type) => type.value),
		]);
		for (const type of EVENT_TYPES) expect(values).toContain(type);
		for (const value of values) {
			const page = await call('POST', tenantFeedPath(), {
				token,
				body: { filters: { type: [value] } },
			});
			expect(page.status).toBe(200);
		}
		const domains = categories.find((category) => category.value === 'domains')!;
		expect(domains).toEqual({
			value: 'domains',
			label: 'Domains',
			types: [{ value: 'domain', label: 'Domain' }],
		});
	});

	it('severities: info to critical with labels and colours', async () => {
		const token = await tokenFor();
		const { severities } = FilterSeverities.parse(
			(await call('GET', `/${seg()}/v4/events/filters/severities`, { token })).json,
		);
		expect(severities.map((entry) => entry.value)).toEqual([...SEVERITY_ORDER]);
		expect(severities[4]).toMatchObject({ value: 'critical', label: 'Critical' });
	});
});

describe('ASTP credential search', () => {
	const path = '/astp/v2/credentials/_search';
	const CredentialPage = pageOf(CredentialRecord);

	it('walks like the global search, to exactly the oracle, without quota or quota header', async () => {
		fake.reset({ quota: 1 });
		const token = await tokenFor();
		const body = {
			query: { type: 'domain', fqdn: 'acme.com' },
			size: 25,
			include: ['auth_domains'],
		};
		const items: CredentialRecord[] = [];
		let from: string | null = null;
		let pages = 0;
		do {
			const result = await call('POST', path, { token, body: { ...body, from } });
			expect(result.status).toBe(200);
			expect(result.headers.get('x-flare-global-searches-remaining')).toBeNull();
			const page = CredentialPage.parse(result.json);
			items.push(...page.items);
			from = page.next;
			pages++;
		} while (from);
		expect(items).toEqual(fake.dataset.searchAll(body as never));
		expect(items).toHaveLength(200);
		expect(pages).toBeGreaterThan(8);
		expect(fake.quotaLeft).toBe(1);

		const asc = CredentialPage.parse(
			(
				await call('POST', path, {
					token,
					body: {
						query: { type: 'email', email: items[0].identity_name },
						order: 'asc',
						filters: { imported_at: { gte: '2024-01-01T00:00:00' } },
					},
				})
			).json,
		);
		expect(asc.items).toEqual(
			fake.dataset
				.searchAll({ query: { type: 'email', email: items[0].identity_name }, order: 'asc' })
				.slice(0, 10),
		);
	});

	it('needs ASTP (403 naming it), validates like the global search, keeps its own cursors', async () => {
		const noAstp = await tokenFor('noAstp');
		expectError(
			await call('POST', path, {
				token: noAstp,
				body: { query: { type: 'domain', fqdn: 'acme.com' } },
			}),
			403,
			'FORBIDDEN',
			/ASTP/,
		);
		const token = await tokenFor();
		expectInvalid(await call('POST', path, { token, body: {} }), ['body', 'query'], 'missing');
		expectInvalid(
			await call('POST', path, {
				token,
				body: { query: { type: 'domain', fqdn: 'acme.com' }, size: 10001 },
			}),
			['body', 'size'],
			'less_than_equal',
		);
		const body = { query: { type: 'domain', fqdn: 'acme.com' }, size: 5 };
		const global = await call('POST', `/${seg()}/v4/credentials/global/_search`, { token, body });
		const next = (global.json as { next: string }).next;
		expectInvalid(await call('POST', path, { token, body: { ...body, from: next } }), [
			'body',
			'from',
		]);
	});
});

describe('tenant credentials feed (GET /{segment}/v2/me/feed/credentials)', () => {
	const path = () => `/${seg()}/v2/me/feed/credentials`;

	async function walk(token: string, query: Record<string, string | number>) {
		const pages: TenantCredentialPage[] = [];
		let from: string | null = null;
		do {
			const params = new URLSearchParams(
				Object.entries({ ...query, ...(from ? { from } : {}) }).map(([k, v]): [string, string] => [
					k,
					String(v),
				]),
			);
			const result = await call('GET', `${path()}?${params}`, { token });
			expect(result.status).toBe(200);
			const page = TenantCredentialPage.parse(result.json);
			pages.push(page);
			from = page.next;
		} while (from && pages.length < 300);
		expect(from).toBeNull();
		return pages;
	}

	it('credentials of the monitored domains, 20 a page newest first by default, with paging quirks', async () => {
		const token = await tokenFor();
		const first = TenantCredentialPage.parse((await call('GET', path(), { token })).json);
		expect(first.items).toHaveLength(20);
		const pages = await walk(token, { size: 50 });
		const items = pages.flatMap((page) => page.items);
		expect(items).toEqual(fake.feed.tenantCredentialsAll(101));
		expect(items).toHaveLength(200);
		expect(first.items).toEqual(items.slice(0, 20));
		expect(fake.feed.monitoredDomains(101)).toContain('example.com');
		expect(items.every((item) => item.domain === 'example.com')).toBe(true);
		expect(items.map((item) => item.id)).toEqual(
			[...items.map((item) => item.id)].sort((a, b) => b - a),
		);
		expect(pages.some((page) => page.items.length === 0) && pages.length > 4).toBe(true);
		const asc = (await walk(token, { size: 100, order_type: 'asc', limit: 100 })).flatMap(
			(page) => page.items,
		);
		expect(asc).toEqual([...items].reverse());
		const plaintext = items.find((item) => item.known_password_id !== undefined)!;
		expect(fake.dataset.credential(plaintext.id - 1).hash_type).toBeNull();
	});

	it('follows the domain identifiers: a new one adds its credentials, a disabled one removes them', async () => {
		const token = await tokenFor();
		const created = await call('POST', `/${seg()}/v4/identifiers/`, {
			token,
			body: {
				data: { type: 'domain', fqdn: 'acme.com' },
				categories: ['leak'],
				emerging_categories: [],
				severities: ['high'],
			},
		});
		expect(created.status).toBe(200);
		const items = (await walk(token, { size: 100 })).flatMap((page) => page.items);
		expect(new Set(items.map((item) => item.domain))).toEqual(new Set(['example.com', 'acme.com']));
		expect(items).toHaveLength(400);
		const example = fake.dataset.identifier(7001, 101);
		const disabled = await call('PUT', `/${seg()}/v4/identifiers/7001`, {
			token,
			body: { ...pick(example), is_disabled: true },
		});
		expect(disabled.status).toBe(200);
		const after = (await walk(token, { size: 100 })).flatMap((page) => page.items);
		expect(new Set(after.map((item) => item.domain))).toEqual(new Set(['acme.com']));
	});

	it('lists credentials added with a chosen domain by that domain, whatever their place in the dataset', async () => {
		const token = await tokenFor();
		const before = (await walk(token, { size: 100 })).flatMap((page) => page.items);
		// Five in a row take every place of the dataset's domain cycle: each is on example.com.
		const first = fake.addCredentials(5, undefined, { domain: 'example.com', username: 'alice.martin' });
		fake.addCredentials(5, undefined, { domain: 'other.example', username: 'bob.keller' });
		const after = (await walk(token, { size: 7 })).flatMap((page) => page.items);
		const added = Array.from({ length: 5 }, (_, k) => fake.dataset.credential(first + 4 - k).id);
		expect(after.slice(0, 5).map((item) => [item.id, item.identity_name])).toEqual(
			added.map((id) => [id, 'alice.martin@example.com']),
		);
		expect(after.slice(5)).toEqual(before);
		expect(after).toEqual(fake.feed.tenantCredentialsAll(101));
	});

	it('validates size (1 to 100), order_type and the cursor', async () => {
		const token = await tokenFor();
		expectInvalid(
			await call('GET', `${path()}?size=101`, { token }),
			['query', 'size'],
			'less_than_equal',
		);
		expectInvalid(await call('GET', `${path()}?size=0`, { token }), ['query', 'size']);
		expectInvalid(
			await call('GET', `${path()}?order_type=newest`, { token }),
			['query', 'order_type'],
			'enum',
		);
		const first = TenantCredentialPage.parse(
			(await call('GET', `${path()}?size=5`, { token })).json,
		);
		expectInvalid(await call('GET', `${path()}?size=6&from=${first.next}`, { token }), [
			'query',
			'from',
		]);
		const other = await tokenFor('full', 202);
		expectInvalid(await call('GET', `${path()}?size=5&from=${first.next}`, { token: other }), [
			'query',
			'from',
		]);
	});

	it('credential actions set remediated_at and ignored_at per tenant; at most 100 targets; unknown hashes 404', async () => {
		const token = await tokenFor();
		const actions = `/${seg()}/v4/credentials/actions`;
		const [a, b] = TenantCredentialPage.parse(
			(await call('GET', `${path()}?size=2`, { token })).json,
		).items;
		const act = (type: string, hashes: string[], as = token) =>
			call('POST', actions, {
				token: as,
				body: { targets: hashes.map((credential_hash) => ({ credential_hash })), action: { type } },
			});
		const done = await act('remediate', [a.credential_hash, b.credential_hash]);
		expect(done.status).toBe(200);
		expect(done.json).toEqual({});
		await act('ignore', [b.credential_hash]);
		const page = TenantCredentialPage.parse(
			(await call('GET', `${path()}?size=2`, { token })).json,
		).items;
		expect(page[0].remediated_at).toMatch(/\+00:00$/);
		expect(page[0].ignored_at).toBeNull();
		expect(page[1].remediated_at).not.toBeNull();
		expect(page[1].ignored_at).not.toBeNull();
		const europe = await tokenFor('full', 202);
		const theirs = TenantCredentialPage.parse(
			(await call('GET', `${path()}?size=2`, { token: europe })).json,
		);
		expect(theirs.items[0].remediated_at).toBeNull();
		await act('unremediate', [a.credential_hash, b.credential_hash]);
		await act('unignore', [b.credential_hash]);
		expect(fake.feed.credentialState(101, b.credential_hash)).toEqual({
			remediated_at: null,
			ignored_at: null,
		});
		expect(fake.state.writes.map((write) => write.path)).toEqual(Array(4).fill(actions));

		const hashes = Array.from({ length: 101 }, (_, i) => fake.dataset.credentialHash(i));
		expectInvalid(await act('ignore', hashes), ['body', 'targets'], 'too_long');
		expect((await act('ignore', hashes.slice(0, 100))).status).toBe(200);
		expectError(
			await act('ignore', [a.credential_hash, 'f'.repeat(32)]),
			404,
			'NOT_FOUND',
			/f{32}/,
		);
		expectInvalid(
			await call('POST', actions, { token, body: { targets: [], action: { type: 'hide' } } }),
			['body', 'action', 'type'],
			'enum',
		);
		expectInvalid(await call('POST', actions, { token, body: { action: { type: 'ignore' } } }), [
			'body',
			'targets',
		]);
	});
});

describe('tenants (GET /{segment}/v2/me/tenants)', () => {
	it('lists the demo tenants with their names, whichever tenant the token is for', async () => {
		for (const tenantId of [101, 202]) {
			const result = await call('GET', `/${seg()}/v2/me/tenants`, {
				token: await tokenFor('full', tenantId),
			});
			expect(result.status).toBe(200);
			expect(TenantList.parse(result.json)).toEqual({
				tenants: [
					{ id: 101, name: 'Acme Corporation' },
					{ id: 202, name: 'Acme Europe' },
				],
			});
		}
		fake.reset({ tenants: [5, 101] });
		const result = await call('GET', `/${seg()}/v2/me/tenants`, { token: await tokenFor() });
		expect(result.json).toEqual({
			tenants: [
				{ id: 5, name: 'Tenant 5' },
				{ id: 101, name: 'Acme Corporation' },
			],
		});
	});
});

describe('the organization\'s tenants (GET /{segment}/v2/organizations/{organization_id}/tenants)', () => {
	const path = (organization: number) => `/${seg()}/v2/organizations/${organization}/tenants`;

	it("lists every tenant of the organization to its administrator's key, paged by from/next", async () => {
		fake.reset({ tenants: [101, 202, 303] });
		const token = await tokenFor('full', 303);
		const organization = fake.organizationOf('full');

		const first = await call('GET', `${path(organization)}?size=2`, { token });
		const page = OrganizationTenantPage.parse(first.json);
		const second = OrganizationTenantPage.parse((await call('GET', `${path(organization)}?size=2&from=${encodeURIComponent(page.next!)}`, { token })).json);

		expect([...page.items, ...second.items].map((tenant) => [tenant.id, tenant.name, tenant.organization_id])).toEqual([
			[101, 'Acme Corporation', organization],
			[202, 'Acme Europe', organization],
			[303, 'Globex Industries', organization],
		]);
		expect(second.next).toBeNull();
		expectInvalid(await call('GET', `${path(organization)}?size=101`, { token }), ['query', 'size']);
	});

	it('lists the other tenants of the organization after them, with their flags; no token works in those', async () => {
		fake.reset({
			tenants: [101],
			otherOrganizationTenants: [{ id: 404, name: 'Initech', is_archived: true }, { id: 505, is_disabled: true }, { id: 606 }],
		});
		const token = await tokenFor('full');

		const listed = OrganizationTenantPage.parse((await call('GET', path(fake.organizationOf('full')), { token })).json);

		expect(listed.items.map((tenant) => [tenant.id, tenant.name, tenant.is_disabled, tenant.is_archived])).toEqual([
			[101, 'Acme Corporation', false, false],
			[404, 'Initech', false, true],
			[505, 'Tenant 505', true, false],
			[606, 'Tenant 606', false, false],
		]);
		for (const tenant_id of [404, 505, 606]) {
			const refused = await call('POST', '/tokens/generate', { authorization: fake.apiKeys.full, body: { tenant_id } });
			expectError(refused, 403, 'FORBIDDEN', `the api key has no access to tenant ${tenant_id}`);
		}
	});

	it("refuses a member's key, and another organization, with 403", async () => {
		expectError(await call('GET', path(fake.organizationOf('noAstp')), { token: await tokenFor('noAstp') }), 403, 'FORBIDDEN', /not an administrator of organization/);
		expectError(await call('GET', path(1), { token: await tokenFor('full') }), 403, 'FORBIDDEN', 'you are not an administrator of organization 1');
	});
});

describe('tenants: a token works in its tenant only', () => {
	it("a token of another tenant finds none of this tenant's events, and the log says whose token each request carried", async () => {
		const [event] = fake.feed.feedAll(202, {});
		const body = { action: { type: 'ignore' }, targets: [{ uid: event.metadata.uid }] };
		fake.clearLog();

		const other = await call('POST', `/${seg()}/v4/events/actions`, { token: await tokenFor('full', 101), body });
		const own = await call('POST', `/${seg()}/v4/events/actions`, { token: await tokenFor('full', 202), body });

		expectError(other, 404, 'NOT_FOUND');
		expect(own.status).toBe(200);
		expect(fake.requests.filter((request) => request.auth === 'bearer').map((request) => [request.tenant, request.status])).toEqual([
			[101, 404],
			[202, 200],
		]);
		expect(fake.issuedTokens().map((issued) => issued.tenantId)).toEqual([101, 202]);
	});
});

/** The writable fields of an identifier, as an update body. */
function pick(record: PublicIdentifier) {
	const { data, name, categories, emerging_categories, severities, group_id } = record;
	return { data, name, categories, emerging_categories, severities, group_id };
}

describe('identifiers v4: create, get, update', () => {
	const path = () => `/${seg()}/v4/identifiers/`;
	const base = {
		categories: ['leak', 'illicit_networks'],
		emerging_categories: [],
		severities: ['high', 'critical'],
	};

	it('creates an identifier of every kind; get and list return it; the write is recorded', async () => {
		const token = await tokenFor('full', 202);
		const kinds = [
			{ type: 'domain', fqdn: 'shop.acme.com' },
			{ type: 'keyword', keyword: 'acme-secret-project' },
			{
				type: 'identity',
				attributes: [
					{ type: 'email', email: 'ceo@acme.com' },
					{ type: 'username', username: 'acme_ceo' },
					{ type: 'name', first_name: 'Ada', last_name: 'Lovelace', is_strict: true },
				],
			},
			{ type: 'ip', ip: '198.51.100.0/24' },
			{ type: 'ip', ip: '2001:db8::1' },
			{ type: 'bin', bin: '414720' },
			{ type: 'azure_tenant', tenant_id: '00000000-0000-0000-0000-000000000001' },
			{ type: 'search_query', search_query: 'acme AND leak' },
			{ type: 'github_repository', repo_owner: 'acme', repo_name: 'vpn' },
			{ type: 'secret', secret: 'AKIAEXAMPLE' },
		];
		const created: PublicIdentifier[] = [];
		for (const data of kinds) {
			const result = await call('POST', path(), { token, body: { ...base, data } });
			expect(result.status).toBe(200);
			created.push(PublicIdentifier.parse(result.json));
		}
		expect(created.map((record) => record.id)).toEqual(kinds.map((_, k) => 7031 + k));
		expect(created.map((record) => record.name)).toEqual([
			'shop.acme.com',
			'acme-secret-project',
			'ceo@acme.com',
			'198.51.100.0/24',
			'2001:db8::1',
			'414720',
			'00000000-0000-0000-0000-000000000001',
			'acme AND leak',
			'acme/vpn',
			// Flare documents no default name; the fake names a secret by it (docs/api-contract.md, "Masking").
			'AKIAEXAMPLE',
		]);
		expect(created[0]).toMatchObject({
			tenant_id: 202,
			data: kinds[0],
			categories: base.categories,
			severities: base.severities,
			emerging_categories: [],
			group_id: null,
			is_disabled: false,
			enrichments: { authorization_status: 'pending', usage_count: 0 },
		});
		expect(created[1].enrichments).toBeNull();
		const got = await call('GET', `${path()}${created[2].id}`, { token });
		expect(got.json).toEqual(created[2]);
		const listed = IdentifierPage.parse((await call('GET', `${path()}?size=100`, { token })).json);
		expect(listed.items.slice(-10)).toEqual(created);
		expect(fake.state.writes).toHaveLength(10);
		expect(fake.state.writes[0]).toEqual({
			method: 'POST',
			path: path(),
			body: { ...base, data: kinds[0] },
		});

		const named = await call('POST', path(), {
			token,
			body: { ...base, data: { type: 'keyword', keyword: 'x' }, name: 'My watch', group_id: 101 },
		});
		expect(PublicIdentifier.parse(named.json)).toMatchObject({ name: 'My watch', group_id: 101 });
	});

	it('validates data per kind: shape 422, values the API refuses 400 INVALID_IDENTIFIER_DATA', async () => {
		const token = await tokenFor();
		const post = (body: unknown) => call('POST', path(), { token, body });
		expectInvalid(
			await post({ ...base, data: { type: 'domain' } }),
			['body', 'data', 'fqdn'],
			'missing',
		);
		expectInvalid(
			await post({ ...base, data: { type: 'domain', fqdn: '' } }),
			['body', 'data', 'fqdn'],
			'too_short',
		);
		expectInvalid(
			await post({ ...base, data: { type: 'url', url: 'x' } }),
			['body', 'data', 'type'],
			'union_tag_invalid',
		);
		expectInvalid(
			await post({ ...base, data: { type: 'domain', fqdn: 'acme.com', keyword: 'x' } }),
			['body', 'data', 'keyword'],
			'extra_forbidden',
		);
		expectInvalid(
			await post({ ...base, data: { type: 'identity', attributes: [] } }),
			['body', 'data', 'attributes'],
			'too_short',
		);
		const sixteen = Array.from({ length: 16 }, (_, k) => ({ type: 'username', username: `u${k}` }));
		expectInvalid(
			await post({ ...base, data: { type: 'identity', attributes: sixteen } }),
			['body', 'data', 'attributes'],
			'too_long',
		);
		expectInvalid(
			await post({
				...base,
				data: { type: 'identity', attributes: [{ type: 'email', email: 'not-an-email' }] },
			}),
			['body', 'data', 'attributes', 0, 'email'],
		);
		expectInvalid(
			await post({ ...base, categories: ['everything'], data: { type: 'keyword', keyword: 'x' } }),
			['body', 'categories', 0],
		);
		expectInvalid(
			await post({ ...base, severities: ['urgent'], data: { type: 'keyword', keyword: 'x' } }),
			['body', 'severities', 0],
		);
		expectInvalid(
			await post({ data: { type: 'keyword', keyword: 'x' } }),
			['body', 'categories'],
			'missing',
		);
		for (const [data, message] of [
			[{ type: 'domain', fqdn: 'not a domain' }, 'fqdn is invalid'],
			[{ type: 'domain', fqdn: 'localhost' }, 'fqdn is invalid'],
			[{ type: 'ip', ip: '300.1.1.1' }, 'ip is invalid'],
			[{ type: 'ip', ip: '10.0.0.0/33' }, 'ip is invalid'],
			[{ type: 'bin', bin: '12ab' }, 'bin is invalid'],
		] as const) {
			const result = await post({ ...base, data });
			expect(result.status).toBe(400);
			expect(result.json).toEqual({
				error: { code: 'INVALID_IDENTIFIER_DATA', message, data: null },
			});
		}
		expect(fake.state.writes).toEqual([]);
		expect(fake.dataset.identifierIds()).toHaveLength(30);
	});

	it('update replaces data, categories and severities, keeps what is left out; 404 for unknown or deleted ids', async () => {
		const token = await tokenFor();
		const original = PublicIdentifier.parse((await call('GET', `${path()}7001`, { token })).json);
		expect(original).toEqual(fake.dataset.identifier(7001, 101));
		const updated = await call('PUT', `${path()}7001`, {
			token,
			body: { ...base, data: { type: 'domain', fqdn: 'example.org' } },
		});
		expect(updated.status).toBe(200);
		const record = PublicIdentifier.parse(updated.json);
		expect(record).toMatchObject({
			id: 7001,
			name: original.name,
			data: { type: 'domain', fqdn: 'example.org' },
			categories: base.categories,
			severities: base.severities,
			group_id: original.group_id,
			is_disabled: false,
			enrichments: { authorization_status: 'pending' },
		});
		expect(record.updated_at).not.toBe(original.updated_at);
		expect((await call('GET', `${path()}7001`, { token })).json).toEqual(record);
		const renamed = PublicIdentifier.parse(
			(
				await call('PUT', `${path()}7001`, {
					token,
					body: { ...pick(record), name: 'Example', group_id: null, is_disabled: true },
				})
			).json,
		);
		expect(renamed).toMatchObject({ name: 'Example', group_id: null, is_disabled: true });
		expect(renamed.enrichments).toEqual(record.enrichments);
		// events name their identifiers as they are now
		const items = fake.feed.feedAll(101, { filters: { is_ignored: false } }, 7001);
		expect(items.length).toBeGreaterThan(0);
		expect(items.every((item) => item.identifiers!.some((entry) => entry.name === 'Example'))).toBe(
			true,
		);

		expectError(await call('GET', `${path()}99999`, { token }), 404, 'NOT_FOUND');
		expectError(
			await call('PUT', `${path()}99999`, { token, body: { ...pick(record) } }),
			404,
			'NOT_FOUND',
		);
		expect((await call('DELETE', `${path()}7002`, { token })).status).toBe(202);
		expectError(await call('GET', `${path()}7002`, { token }), 404, 'NOT_FOUND');
		expectInvalid(
			await call('GET', `${path()}abc`, { token }),
			['path', 'identifier_id'],
			'int_parsing',
		);
		expectInvalid(
			await call('PUT', `${path()}7003`, { token, body: { ...pick(record), is_disabled: 'no' } }),
			['body', 'is_disabled'],
		);
		expect(fake.state.writes.map((write) => write.method)).toEqual(['PUT', 'PUT', 'DELETE']);
	});
});

describe('identifiers v4: list filters', () => {
	const path = () => `/${seg()}/v4/identifiers/`;

	it('filters on types (repeated), group_id and authorization_status; validates them', async () => {
		const token = await tokenFor();
		const all = fake.dataset.identifiers(101);
		const list = async (query: string) =>
			IdentifierPage.parse((await call('GET', `${path()}?size=100&${query}`, { token })).json)
				.items;
		expect(await list('types=ip&types=bin')).toEqual(
			all.filter((record) => record.data.type === 'ip' || record.data.type === 'bin'),
		);
		expect(await list('types=domain')).toEqual(
			all.filter((record) => record.data.type === 'domain'),
		);
		expect(await list('group_id=101')).toEqual(all.filter((record) => record.group_id === 101));
		expect((await list('group_id=101')).length).toBeGreaterThan(0);
		expect(await list('authorization_status=authorized&types=domain&is_disabled=false')).toEqual(
			all.filter((record) => record.data.type === 'domain' && !record.is_disabled),
		);
		expect(await list('authorization_status=pending')).toEqual([]);
		expectInvalid(
			await call('GET', `${path()}?types=url`, { token }),
			['query', 'types', 0],
			'enum',
		);
		expectInvalid(await call('GET', `${path()}?group_id=x`, { token }), ['query', 'group_id']);
		expectInvalid(
			await call('GET', `${path()}?authorization_status=maybe`, { token }),
			['query', 'authorization_status'],
			'enum',
		);
		const first = IdentifierPage.parse(
			(await call('GET', `${path()}?size=2&types=ip`, { token })).json,
		);
		expectInvalid(await call('GET', `${path()}?size=2&types=bin&from=${first.next}`, { token }), [
			'query',
			'from',
		]);
	});
});

describe('the events dataset', () => {
	it('is deterministic per seed and sized by eventsPerTenant', async () => {
		const events = fake.events.feed(101);
		fake.reset();
		expect(fake.events.feed(101)).toEqual(events);
		fake.reset({ seed: 2 });
		const other = fake.events.feed(101);
		expect(other.map((event) => event.severity)).not.toEqual(events.map((event) => event.severity));
		expect(other.map((event) => event.materializedMs)).not.toEqual(
			events.map((event) => event.materializedMs),
		);
		fake.reset({ eventsPerTenant: 300 });
		expect(fake.events.feed(202)).toHaveLength(300);
		const token = await tokenFor();
		const items = itemsOf(await walkFeed(token, tenantFeedPath()));
		expect(items).toEqual(fake.feed.feedAll(101, {}));
		expect(z.array(z.string()).parse(uidsOf(items)).length).toBeGreaterThan(150);
	});
});
