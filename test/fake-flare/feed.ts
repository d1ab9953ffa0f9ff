/**
 * The endpoints Flare's own clients are built around (docs/feed-endpoints.md): the tenant and
 * identifier event feeds, the full event, event and credential actions, the ASTP credential search,
 * the tenant credentials feed, the user's tenants, the event filter values, and identifier create,
 * get and update. server.ts routes them here after authentication, entitlements and rate limits.
 */
import {
	CredentialActionsBody,
	dateTimeToMs,
	type CredentialRecord,
	EventActionsBody,
	type FeedItem,
	FeedFilters,
	FeedRequestBody,
	GlobalSearchBody,
	IdentifierIdParam,
	type LegacyHttpError,
	SEVERITY_ORDER,
	type TenantCredential,
	TenantCredentialsQuery,
	ActivityQuery,
	CookieSearchBody,
	type CookieSearchBodyInput,
	ExpandQuery,
	type FilterSourceTypes,
	type FilterSeverities,
	GlobalEventSearchBody,
	type GlobalFeedItem,
	IdentifierCredentialsQuery,
	type LeakedCookie,
	TenantMetadataBody,
	TenantMetadataQuery,
} from '../contract';
import { type Dataset, SCAN_CAP } from './dataset';
import {
	type ActedOnDefault,
	type AddEventsOptions,
	EventStore,
	expandType,
	type FeedScope,
	type FeedSortKey,
} from './events';
import { IdentifierApi } from './identifiers';
import { encodeCursor, fingerprint, positionsPage, type Quirks, shapeAfterPage, shapePage } from './paging';
import { isoWithOffset } from './random';
import {
	answer,
	cursorFor,
	errorReply,
	type HandlerRequest,
	invalidReply,
	jsonBody,
	jsonReply,
	parseWith,
	pathParam,
	type Reply,
} from './replies';
import type { Matcher } from './scan';
import type { EndCursor, SortKey } from './search-after';

export type FeedRouteName =
	| 'tenantFeed'
	| 'identifierFeed'
	| 'groupFeed'
	| 'tenantMetadata'
	| 'expandEvent'
	| 'identifierCredentials'
	| 'cookieSearch'
	| 'eventActions'
	| 'fullEvent'
	| 'fullEventByPath'
	| 'eventFilterTypes'
	| 'eventFilterSeverities'
	| 'astpSearch'
	| 'credentialActions'
	| 'tenantCredentials'
	| 'tenants'
	| 'createIdentifier'
	| 'getIdentifier'
	| 'updateIdentifier';

export interface FeedRoute {
	name: FeedRouteName;
	method: string;
	/** Regular expression source of the path; groups are the path parameters. */
	path: string;
	tier: 'basic';
	needs?: 'astp';
}

/** The routes of this module; `seg` is the product segment, already escaped for a RegExp. */
export function feedRoutes(seg: string): FeedRoute[] {
	const param = '([^/]+)';
	const route = (name: FeedRouteName, method: string, path: string, needs?: 'astp'): FeedRoute => ({
		name,
		method,
		path,
		tier: 'basic',
		needs,
	});
	return [
		route('tenantFeed', 'POST', `/${seg}/v4/events/tenant/_search`),
		route('identifierFeed', 'POST', `/${seg}/v4/events/identifiers/${param}/_search`),
		route('groupFeed', 'POST', `/${seg}/v4/events/identifier_groups/${param}/_search`),
		route('tenantMetadata', 'PATCH', `/${seg}/v4/events/tenant/metadata`),
		route('expandEvent', 'GET', `/${seg}/v4/events/_expand`),
		route('identifierCredentials', 'GET', `/${seg}/v3/identifiers/${param}/feed/credentials`),
		route('cookieSearch', 'POST', '/astp/v2/cookies/_search', 'astp'),
		route('eventActions', 'POST', `/${seg}/v4/events/actions`),
		route('eventFilterTypes', 'GET', `/${seg}/v4/events/filters/types`),
		route('eventFilterSeverities', 'GET', `/${seg}/v4/events/filters/severities`),
		route('fullEvent', 'GET', `/${seg}/v2/activities/`),
		route('fullEventByPath', 'GET', `/${seg}/v2/activities/(.+)`),
		route('astpSearch', 'POST', '/astp/v2/credentials/_search', 'astp'),
		route('credentialActions', 'POST', `/${seg}/v4/credentials/actions`),
		route('tenantCredentials', 'GET', `/${seg}/v2/me/feed/credentials`),
		route('tenants', 'GET', `/${seg}/v2/me/tenants`),
		route('createIdentifier', 'POST', `/${seg}/v4/identifiers/`),
		route('getIdentifier', 'GET', `/${seg}/v4/identifiers/${param}`),
		route('updateIdentifier', 'PUT', `/${seg}/v4/identifiers/${param}`),
	];
}

/** Where a cookie search page starts after: a cookie's (imported_at, uuid). */
type CookieKey = [string, string];

const isCookieKey = (p: unknown): p is CookieKey | null =>
	p === null || (Array.isArray(p) && p.length === 2 && p.every((part) => typeof part === 'string'));

export interface FeedSettings {
	seed: number;
	tenants: number[];
	eventsPerTenant: number;
	eventSortKey: FeedSortKey;
	actedOnDefault: ActedOnDefault;
	startTime: string;
	quirks: Quirks;
	endCursor: EndCursor;
}

export type WriteRecord = { method: string; path: string; body: unknown };

/** Names of the demo tenants (others are "Tenant <id>"). */
const TENANT_NAMES: Record<number, string> = {
	101: 'Acme Corporation',
	202: 'Acme Europe',
	303: 'Globex Industries',
};

/** The tenant's own states of a credential (by credential hash). */
export interface CredentialState {
	remediated_at: string | null;
	ignored_at: string | null;
}

export class FeedApi {
	readonly events: EventStore;
	private readonly identifierApi: IdentifierApi;
	private readonly credentialStates = new Map<number, Map<string, CredentialState>>();

	constructor(
		private readonly dataset: Dataset,
		private readonly settings: FeedSettings,
		private readonly recordWrite: (write: WriteRecord) => void,
	) {
		this.events = new EventStore(
			{
				seed: settings.seed,
				tenants: settings.tenants,
				eventsPerTenant: settings.eventsPerTenant,
				startMs: dateTimeToMs(settings.startTime),
				sortBy: settings.eventSortKey,
				actedOnDefault: settings.actedOnDefault,
			},
			dataset,
		);
		this.identifierApi = new IdentifierApi(dataset, recordWrite);
	}

	handle(name: FeedRouteName, request: HandlerRequest): Reply {
		return answer(() => {
			switch (name) {
				case 'tenantFeed':
					return this.feed(request);
				case 'identifierFeed':
					return this.feed(request, {
						identifierId: pathParam('identifier_id', request.params[0], IdentifierIdParam),
					});
				case 'groupFeed':
					return this.feed(request, {
						groupId: pathParam('identifier_group_id', request.params[0], IdentifierIdParam),
					});
				case 'tenantMetadata':
					return this.tenantMetadata(request);
				case 'expandEvent':
					return this.expandEvent(request);
				case 'identifierCredentials':
					return this.identifierCredentials(request);
				case 'cookieSearch':
					return this.cookieSearch(request);
				case 'eventActions':
					return this.eventActions(request);
				case 'fullEvent':
					return this.fullEvent(request, parseWith(ActivityQuery, request.query, 'query').uid);
				case 'fullEventByPath':
					return this.fullEvent(
						request,
						pathParam('uid', request.params[0], ActivityQuery.shape.uid),
					);
				case 'eventFilterTypes':
					return jsonReply(200, filterSourceTypes());
				case 'eventFilterSeverities':
					return jsonReply(200, filterSeverities());
				case 'astpSearch':
					return this.astpSearch(request);
				case 'credentialActions':
					return this.credentialActions(request);
				case 'tenantCredentials':
					return this.tenantCredentials(request);
				case 'tenants':
					return jsonReply(200, { tenants: this.tenants() });
				case 'createIdentifier':
					return this.identifierApi.create(request);
				case 'getIdentifier':
					return this.identifierApi.get(request);
				case 'updateIdentifier':
					return this.identifierApi.update(request);
			}
		});
	}

	/** Appends events to a tenant's feed (see {@link EventStore.append}). */
	addEvents(count: number, options?: AddEventsOptions): FeedItem[] {
		return this.events.append(count, options);
	}

	tenants(): Array<{ id: number; name: string }> {
		return this.settings.tenants.map((id) => ({ id, name: TENANT_NAMES[id] ?? `Tenant ${id}` }));
	}

	// ---- events ----

	/**
	 * A page of the tenant feed, of one identifier's feed, or of an identifier group's (the events of
	 * any of its identifiers); the cursor is bound to the feed.
	 */
	private feed(
		request: HandlerRequest,
		{ identifierId, groupId }: { identifierId?: number; groupId?: number } = {},
	): Reply {
		const body = parseWith(FeedRequestBody, jsonBody(request) ?? {}, 'body');
		const { tenantId } = request;
		if (identifierId !== undefined && !this.dataset.identifierExists(identifierId))
			return errorReply(404, 'NOT_FOUND', `identifier ${identifierId} not found`);
		if (groupId !== undefined && !this.dataset.identifierGroup(groupId, tenantId))
			return errorReply(404, 'NOT_FOUND', `identifier group ${groupId} not found`);
		const feedScope: FeedScope =
			groupId === undefined ? identifierId : this.dataset.groupIdentifierIds(groupId, tenantId);
		const { from, ...params } = body;
		const scope = `events:${tenantId}:${groupId === undefined ? (identifierId ?? 'tenant') : `group-${groupId}`}`;
		const print = fingerprint(scope, {
			query: params.query ?? null,
			filters: params.filters ?? FeedFilters.parse({}),
			order: params.order,
			size: params.size,
		});
		const cursor = from ? cursorFor(from, print, 'body') : undefined;
		const start = cursor
			? this.events.positionOf(tenantId, cursor.p)
			: this.events.firstPosition(tenantId, body.order);
		if (start === -1 && cursor)
			return invalidReply([
				{ loc: ['body', 'from'], msg: 'Invalid cursor', type: 'value_error', input: from },
			]);
		const pageNumber = cursor?.n ?? 1;
		const { found, resume } = this.events.page(tenantId, body, feedScope, start);
		const page = shapePage(
			{ start, pageNumber, found, resume, size: body.size },
			this.settings.quirks,
		);
		const feed = this.events.feed(tenantId);
		return jsonReply(200, {
			items: page.positions.map((position) =>
				this.events.item(tenantId, feed[position], body.query),
			),
			next:
				page.nextPosition === null
					? null
					: encodeCursor({
							p: this.events.seqAt(tenantId, page.nextPosition),
							n: pageNumber + 1,
							f: print,
						}),
		});
	}

	/** The oracle of a feed walk (tenant feed, or one identifier's). */
	feedAll(tenantId: number, body: unknown, identifierId?: number): FeedItem[] {
		return this.events.all(tenantId, FeedRequestBody.parse(body ?? {}), identifierId);
	}

	/** The oracle of an identifier group's feed walk. */
	groupFeedAll(tenantId: number, body: unknown, groupId: number): FeedItem[] {
		const ids = this.dataset.groupIdentifierIds(groupId, tenantId);
		return this.events.all(tenantId, FeedRequestBody.parse(body ?? {}), ids);
	}

	/** The oracle of a global event search walk. */
	globalSearchAll(tenantId: number, body: unknown): GlobalFeedItem[] {
		return this.events.globalAll(tenantId, GlobalEventSearchBody.parse(body));
	}

	/** Tags, severity override and notes of an event of the tenant's feed (404 for any other). */
	private tenantMetadata(request: HandlerRequest): Reply {
		const { uid } = parseWith(TenantMetadataQuery, request.query, 'query');
		const rawBody = jsonBody(request);
		const body = parseWith(TenantMetadataBody, rawBody ?? {}, 'body');
		if (!this.events.inFeed(request.tenantId, uid))
			return errorReply(404, 'NOT_FOUND', `event ${uid} not found`);
		const answer = this.events.setMetadata(request.tenantId, uid, body);
		this.recordWrite({ method: request.method, path: request.rawPath, body: rawBody });
		return jsonReply(200, answer);
	}

	/**
	 * A page of a stealer log's cookies or credentials: 404 for an unknown event, 422 on `field` for
	 * an event that is not a stealer log.
	 */
	private expandEvent(request: HandlerRequest): Reply {
		const query = parseWith(ExpandQuery, request.query, 'query');
		if (!this.events.event(query.uid))
			return errorReply(404, 'NOT_FOUND', `event ${query.uid} not found`);
		const records = this.events.expand(query.uid, query.field);
		if (!records) {
			return invalidReply([
				{
					loc: ['query', 'field'],
					msg: `${query.field} cannot be expanded for this event type`,
					type: 'value_error',
				},
			]);
		}
		const { from, ...params } = query;
		const page = request.pages({ scope: 'expand', params, from, location: 'query' }, (cursor) =>
			positionsPage(cursor, records.length, query.size, this.settings.quirks),
		);
		return jsonReply(200, { items: page.items.map((j) => records[j]), next: page.next });
	}

	/** The oracle of a complete Expand walk. */
	expandAll(uid: string, field: 'cookies' | 'credentials') {
		return this.events.expand(uid, field) ?? [];
	}

	/**
	 * Leaked cookies (ASTP): the exact domain, then names, paths and the one value, imported and
	 * expiring after the dates given, by import time (then uuid) in the order asked. A search_after
	 * walk, as Flare's example cursor (`WzFd`, `[1]`) suggests: a cursor holds the sort key of the last
	 * cookie returned, and the next page returns what sorts after it now (a cookie imported later is
	 * found; one dated before the cursor, searchable late, is not).
	 */
	private cookieSearch(request: HandlerRequest): Reply {
		const body = parseWith(CookieSearchBody, jsonBody(request) ?? {}, 'body');
		const cookies = this.cookiesFor(body);
		const { from, ...params } = body;
		const keyOf = (cookie: LeakedCookie): CookieKey => [cookie.imported_at, cookie.uuid];
		const sign = body.order === 'desc' ? -1 : 1;
		const compare = (a: CookieKey, b: CookieKey) =>
			sign * (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0);
		const page = request.pages<number, CookieKey | null>(
			{ scope: 'cookies', params, from, location: 'body', isPosition: isCookieKey },
			(cursor) => {
				const after = cursor?.p ?? null;
				const start = after === null ? 0 : cookies.findIndex((cookie) => compare(keyOf(cookie), after) > 0);
				const first = start < 0 ? cookies.length : start;
				const found: number[] = [];
				for (let j = first; j < cookies.length && found.length <= body.size; j++) found.push(j);
				const shaped = shapeAfterPage(
					{ after, pageNumber: cursor?.n ?? 1, found, cut: null, size: body.size, keyOf: (j) => keyOf(cookies[j]) },
					this.settings.quirks,
					this.settings.endCursor,
				);
				return { items: shaped.positions, next: shaped.next };
			},
		);
		return jsonReply(200, { items: page.items.map((j) => cookies[j]), next: page.next });
	}

	/** The oracle of a cookie search walk. */
	cookiesFor(input: CookieSearchBodyInput): LeakedCookie[] {
		const body = CookieSearchBody.parse(input);
		const after = (date: string | undefined) =>
			date === undefined
				? () => true
				: (at: string | null) => at !== null && dateTimeToMs(at) > dateTimeToMs(date);
		const imported = after(body.imported_after);
		const expires = after(body.expires_after);
		const cookies = this.events
			.leakedCookies()
			.filter(
				(cookie) =>
					(body.domain === undefined || cookie.domain === body.domain.toLowerCase()) &&
					(!body.names?.length || body.names.includes(cookie.name)) &&
					(!body.paths?.length || body.paths.includes(cookie.path)) &&
					(!body.values?.length || body.values.includes(cookie.value)) &&
					imported(cookie.imported_at) &&
					expires(cookie.expires_at),
			);
		return body.order === 'desc' ? cookies.reverse() : cookies;
	}

	private fullEvent(request: HandlerRequest, uid: string): Reply {
		const event = this.events.fullEvent(uid, request.tenantId);
		if (event) return jsonReply(200, event);
		const notFound: LegacyHttpError = { message: 'Activity not found', code: 'NOT_FOUND' };
		return jsonReply(404, notFound);
	}

	/** Every target must be an event of the tenant's feed, or nothing changes (404 naming them). */
	private eventActions(request: HandlerRequest): Reply {
		const rawBody = jsonBody(request);
		const body = parseWith(EventActionsBody, rawBody, 'body');
		const uids = body.targets.map((target) => target.uid);
		const unknown = uids.filter((uid) => !this.events.inFeed(request.tenantId, uid));
		if (unknown.length > 0)
			return errorReply(404, 'NOT_FOUND', `event ${unknown.join(', ')} not found`);
		this.events.act(request.tenantId, uids, body.action.type, Date.now());
		this.recordWrite({ method: request.method, path: request.rawPath, body: rawBody });
		return jsonReply(200, {});
	}

	// ---- credentials ----

	/** The global search's body, order and search_after paging, without quota (ASTP). */
	private astpSearch(request: HandlerRequest): Reply {
		const body = parseWith(GlobalSearchBody, jsonBody(request), 'body');
		const { from, ...params } = body;
		const data = this.dataset;
		const print = fingerprint('astp-search', params);
		const isKey = (p: unknown): p is SortKey | null => p === null || data.isSortKey(p);
		const cursor = from ? cursorFor(from, print, 'body', isKey) : undefined;
		const { quirks, endCursor } = this.settings;
		const page = data.searchPage(body, cursor, { quirks, endCursor, cap: SCAN_CAP });
		return jsonReply(200, {
			items: page.items.map((index) => data.credential(index, body.include)),
			next: page.next && encodeCursor({ ...page.next, f: print }),
		});
	}

	/**
	 * Credentials of the tenant's monitored domains (its enabled domain identifiers and their
	 * subdomains), by imported_at, with the tenant's remediated/ignored states.
	 */
	private tenantCredentials(request: HandlerRequest): Reply {
		const query = parseWith(TenantCredentialsQuery, request.query, 'query');
		const { tenantId } = request;
		const { from, ...params } = query;
		const print = fingerprint(`tenant-credentials:${tenantId}`, params);
		const cursor = from ? cursorFor(from, print, 'query') : undefined;
		const range = { lo: 0, hi: this.dataset.size };
		const dir = query.order_type === 'asc' ? 1 : -1;
		const start = cursor?.p ?? (dir === 1 ? range.lo : range.hi - 1);
		const pageNumber = cursor?.n ?? 1;
		const matcher = this.tenantCredentialMatcher(tenantId);
		const { found, resume } = this.dataset.scanBlocks(matcher, range, start, dir, query.size + 1, SCAN_CAP);
		return jsonReply(
			200,
			this.pageOf(found, resume, { start, pageNumber, size: query.size, print }, (index) =>
				this.tenantCredential(index, tenantId),
			),
		);
	}

	/**
	 * The credentials of one identifier (`GET …/v3/identifiers/{id}/feed/credentials`): those of its
	 * domain and subdomains for a domain identifier, none for the other kinds; newest first, with the
	 * tenant's states. Unknown identifier: 404.
	 */
	private identifierCredentials(request: HandlerRequest): Reply {
		const id = pathParam('identifier_id', request.params[0], IdentifierIdParam);
		const query = parseWith(IdentifierCredentialsQuery, request.query, 'query');
		const { tenantId } = request;
		if (!this.dataset.identifierExists(id)) {
			const notFound: LegacyHttpError = {
				message: `Identifier ${id} not found`,
				code: 'NOT_FOUND',
			};
			return jsonReply(404, notFound);
		}
		const { from, ...params } = query;
		const print = fingerprint(`identifier-credentials:${tenantId}:${id}`, params);
		const cursor = from ? cursorFor(from, print, 'query') : undefined;
		const range = { lo: 0, hi: this.dataset.size };
		const start = cursor?.p ?? range.hi - 1;
		const pageNumber = cursor?.n ?? 1;
		const matcher = this.domainMatcher(this.identifierDomains(id, tenantId));
		const { found, resume } = this.dataset.scanBlocks(matcher, range, start, -1, query.size + 1, SCAN_CAP);
		return jsonReply(
			200,
			this.pageOf(found, resume, { start, pageNumber, size: query.size, print }, (index) =>
				this.tenantCredential(index, tenantId),
			),
		);
	}

	/** The oracle of an identifier credentials walk. */
	identifierCredentialsAll(tenantId: number, identifierId: number): TenantCredential[] {
		const matcher = this.domainMatcher(this.identifierDomains(identifierId, tenantId));
		const range = { lo: 0, hi: this.dataset.size };
		const { found } = this.dataset.scanBlocks(matcher, range, range.hi - 1, -1, Infinity, Infinity);
		return found.map((index) => this.tenantCredential(index, tenantId));
	}

	/** The domain a domain identifier watches (none for the other kinds). */
	private identifierDomains(id: number, tenantId: number): string[] {
		const { data } = this.dataset.identifier(id, tenantId);
		return data.type === 'domain' ? [data.fqdn.toLowerCase()] : [];
	}

	/** The oracle of a tenant credentials walk. */
	tenantCredentialsAll(tenantId: number, order: 'asc' | 'desc' = 'desc'): TenantCredential[] {
		const range = { lo: 0, hi: this.dataset.size };
		const dir = order === 'asc' ? 1 : -1;
		const start = dir === 1 ? range.lo : range.hi - 1;
		const { found } = this.dataset.scanBlocks(
			this.tenantCredentialMatcher(tenantId),
			range,
			start,
			dir,
			Infinity,
			Infinity,
		);
		return found.map((index) => this.tenantCredential(index, tenantId));
	}

	/** The tenant's states of a credential (both null when it never acted on it). */
	credentialState(tenantId: number, credentialHash: string): CredentialState {
		return (
			this.credentialStates.get(tenantId)?.get(credentialHash) ?? {
				remediated_at: null,
				ignored_at: null,
			}
		);
	}

	/** Domains the tenant monitors: the fqdns of its enabled domain identifiers. */
	monitoredDomains(tenantId: number): string[] {
		return this.dataset
			.identifiers(tenantId)
			.flatMap((record) =>
				record.data.type === 'domain' && !record.is_disabled
					? [record.data.fqdn.toLowerCase()]
					: [],
			);
	}

	private tenantCredentialMatcher(tenantId: number): Matcher {
		return this.domainMatcher(this.monitoredDomains(tenantId));
	}

	/**
	 * Credentials of the dataset's domains that are one of `monitored` or their subdomains; those added
	 * with a chosen domain by that domain (Dataset.scanBlocks).
	 */
	private domainMatcher(monitored: string[]): Matcher {
		const watched = (domain: string) => monitored.some((fqdn) => domain === fqdn || domain.endsWith(`.${fqdn}`));
		const domains = this.dataset.domains();
		const residues = domains.flatMap((domain, k) => (watched(domain) ? [k] : []));
		return { period: domains.length, residues, recordTest: (index) => watched(this.dataset.domainOf(index)) };
	}

	/** A credential as the tenant feed shows it (`LeakActivityCredential`). */
	private tenantCredential(index: number, tenantId: number): TenantCredential {
		const record: CredentialRecord = this.dataset.credential(index);
		const { source } = record;
		const credential: TenantCredential = {
			id: record.id,
			source_id: record.source_id,
			imported_at: record.imported_at,
			identity_name: record.identity_name,
			hash: record.hash,
			domain: record.domain,
			source: {
				id: source.id,
				name: source.name,
				description_en: source.description_en,
				description_fr: source.description_fr,
				breached_at: source.breached_at,
				leaked_at: source.leaked_at,
				pii_tags: [],
			},
			...this.credentialState(tenantId, record.credential_hash),
			credential_hash: record.credential_hash,
		};
		if (record.hash_type === null)
			credential.known_password_id = 1000 + this.dataset.passwordOf(index);
		return credential;
	}

	/** Every target must be a known credential hash, or nothing changes (404 naming them). */
	private credentialActions(request: HandlerRequest): Reply {
		const rawBody = jsonBody(request);
		const body = parseWith(CredentialActionsBody, rawBody, 'body');
		const hashes = body.targets.map((target) => target.credential_hash);
		const unknown = hashes.filter((hash) => this.dataset.indexOfCredentialHash(hash) === -1);
		if (unknown.length > 0)
			return errorReply(404, 'NOT_FOUND', `credential ${unknown.join(', ')} not found`);
		const states =
			this.credentialStates.get(request.tenantId) ?? new Map<string, CredentialState>();
		this.credentialStates.set(request.tenantId, states);
		const now = isoWithOffset(Math.floor(Date.now() / 1000) * 1000);
		for (const hash of hashes) {
			const state = states.get(hash) ?? { remediated_at: null, ignored_at: null };
			states.set(hash, state);
			const action = body.action.type;
			if (action === 'remediate') state.remediated_at ??= now;
			if (action === 'unremediate') state.remediated_at = null;
			if (action === 'ignore') state.ignored_at ??= now;
			if (action === 'unignore') state.ignored_at = null;
		}
		this.recordWrite({ method: request.method, path: request.rawPath, body: rawBody });
		return jsonReply(200, {});
	}

	/** `{items, next}` of a scan, with the paging quirks. */
	private pageOf<T>(
		found: number[],
		resume: number | null,
		walk: { start: number; pageNumber: number; size: number; print: string },
		record: (index: number) => T,
	): { items: T[]; next: string | null } {
		const { start, pageNumber, size, print } = walk;
		const page = shapePage({ start, pageNumber, found, resume, size }, this.settings.quirks);
		return {
			items: page.positions.map(record),
			next:
				page.nextPosition === null
					? null
					: encodeCursor({ p: page.nextPosition, n: pageNumber + 1, f: print }),
		};
	}
}

// ---- filter values ----

const LABELS: Record<string, string> = {
	illicit_networks: 'Illicit Networks',
	open_web: 'Open Web',
	leaks: 'Leaks',
	domains: 'Domains',
};

const label = (value: string) =>
	LABELS[value] ??
	value
		.split('_')
		.map((word) => word[0].toUpperCase() + word.slice(1))
		.join(' ');

/** The top categories of the event source filters, each with the base types it contains. */
export function filterSourceTypes(): FilterSourceTypes {
	return {
		categories: Object.keys(LABELS).map((value) => ({
			value,
			label: label(value),
			types: expandType(value).map((type) => ({ value: type, label: label(type) })),
		})),
	};
}

const SEVERITY_COLORS = ['#8b8b8b', '#2f80ed', '#f2c94c', '#f2994a', '#eb5757'];

export function filterSeverities(): FilterSeverities {
	return {
		severities: SEVERITY_ORDER.map((value, k) => ({
			value,
			label: label(value),
			color: SEVERITY_COLORS[k],
		})),
	};
}
