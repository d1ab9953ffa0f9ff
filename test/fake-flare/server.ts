/**
 * The fake Flare API: a real HTTP server on 127.0.0.1 that serves the 12 endpoints of the spec, plus the
 * list endpoints the pickers use and the report-request status (api-facts.md Parts H and F3), over a
 * seeded, generated dataset, with tokens, entitlements, rate limits, quota, paging quirks and fault
 * injection. Behaviour follows service-interface.md as refined by contract-decisions.md.
 */
import { randomBytes, randomUUID } from 'crypto';
import { sleep } from 'n8n-workflow';
import { z, type ZodTypeAny } from 'zod';

import {
	type ApiReport,
	type BlogPostEvent,
	dateTimeToMs,
	type ErrorLocation,
	EventQuery,
	GlobalSearchBody,
	IdentifierIdParam,
	IdentifierListQuery,
	IdentityLookupQuery,
	KeywordParam,
	MatchingPolicyListQuery,
	PasswordParam,
	PolicyAssignmentBody,
	PolicyUuidParam,
	ReportRequestBody,
	type ReportRequestBodyInput,
	ReportRequestIdParam,
	SourceListQuery,
	TokenGenerateBody,
	UrlsByHashBody,
	type ValidationErrorItem,
	validationDetail,
} from '../contract';
import { http, type net, performance } from '../support/node';
import { Dataset, SCAN_CAP, type StoredAssignment } from './dataset';
import type { AddEventsOptions, EventStore, FeedSortKey } from './events';
import { FeedApi, type FeedRouteName, feedRoutes } from './feed';
import { identifierFilter } from './identifiers';
import { Faults } from './faults';
import {
	type Cursor,
	decodeCursor,
	encodeCursor,
	fingerprint,
	type Quirks,
	shapePage,
} from './paging';
import { isoWithOffset } from './random';
import { scan } from './scan';
import { DEFAULT_DOMAINS } from './words';

export type KeyRole = 'full' | 'noAstp' | 'noThreatIntel';
export type Tier = 'search' | 'basic' | 'token';

export interface FakeFlareOptions {
	seed?: number;
	credentials?: number;
	domains?: string[];
	productSegment?: string;
	tokenLifetimeMs?: number;
	apiKeys?: Partial<Record<KeyRole, string>>;
	tokenPrefix?: string;
	tenants?: number[];
	rateLimits?: { search?: number; basic?: number };
	retryAfter?: 'integer' | 'precise' | 'none';
	quota?: number;
	quirks?: { emptyPageEvery?: number; shortPageEvery?: number };
	sameInstantGroup?: number;
	startTime?: string;
	/** Events per tenant in the event feeds (default 80). */
	eventsPerTenant?: number;
	/** What the event feeds are sorted by (default materialized_at; see docs/feed-endpoints.md). */
	eventSortKey?: FeedSortKey;
	/** Identifiers listed (ids 7001 on; at least 30, the default). */
	identifiers?: number;
	/** Matching policies listed (at least 8, the default). */
	policies?: number;
	/** Sources listed (at least 20, the default); credentials come from the first 20 only. */
	sources?: number;
	/** Status reads of a report request that answer `processing` before it completes (default 1). */
	reportProcessingPolls?: number;
}

export interface ResolvedFakeFlareOptions {
	seed: number;
	credentials: number;
	domains: string[];
	productSegment: string;
	tokenLifetimeMs: number;
	apiKeys: Record<KeyRole, string>;
	tokenPrefix: string;
	tenants: number[];
	rateLimits: { search: number; basic: number };
	retryAfter: 'integer' | 'precise' | 'none';
	quota: number;
	quirks: Quirks;
	sameInstantGroup: number;
	startTime: string;
	eventsPerTenant: number;
	eventSortKey: FeedSortKey;
	identifiers?: number;
	policies?: number;
	sources?: number;
	reportProcessingPolls: number;
}

export interface LoggedRequest {
	method: string;
	/** Raw request path, without the query. */
	path: string;
	query: Record<string, string>;
	/** Parsed JSON body, the raw text when it is not JSON, undefined when empty. */
	body: unknown;
	auth: 'none' | 'apiKey' | 'bearer' | 'other';
	/** For bearer requests: whether the token was valid on arrival. */
	tokenValid?: boolean;
	/** Final status; 0 when the connection was reset. */
	status: number;
	tier: Tier;
	/** Arrival time, ms since the epoch. */
	at: number;
}

/** A report request as the fake keeps it. */
export interface StoredReportRequest {
	request_id: string;
	/** The body the request was created with. */
	body: unknown;
	/** Tenant of the token that created it: other tenants get 404. */
	tenant_id: number;
	/** Status reads so far. */
	status_reads: number;
	/** The outcome once processing is over: the report, or `error` after {@link FakeFlare.failReport}. */
	outcome: 'completed' | 'error';
	/** The report the request completes with (deterministic: see {@link threatReportFor}). */
	report: ApiReport;
}

export interface FakeState {
	assignments: Map<number, StoredAssignment[]>;
	deletedIdentifiers: Set<number>;
	reportRequests: StoredReportRequest[];
	writes: Array<{ method: string; path: string; body: unknown }>;
}

export const DEFAULT_API_KEYS: Record<KeyRole, string> = {
	full: 'fk_full_demo_0001',
	noAstp: 'fk_noastp_demo_0002',
	noThreatIntel: 'fk_noti_demo_0003',
};

const DEFAULTS: ResolvedFakeFlareOptions = {
	seed: 1,
	credentials: 1000,
	domains: DEFAULT_DOMAINS,
	productSegment: 'firework',
	tokenLifetimeMs: 3_600_000,
	apiKeys: DEFAULT_API_KEYS,
	tokenPrefix: 'ftok_',
	tenants: [101, 202],
	rateLimits: { search: 0, basic: 0 },
	retryAfter: 'integer',
	quota: 1_000_000,
	quirks: { emptyPageEvery: 4, shortPageEvery: 3 },
	sameInstantGroup: 3,
	startTime: '2024-01-01T00:00:00+00:00',
	eventsPerTenant: 80,
	eventSortKey: 'materialized_at',
	reportProcessingPolls: 1,
};

/** Who each demo key belongs to, as /tokens/test reports it. */
const KEY_OWNERS: Record<
	KeyRole,
	{ api_key_id: number; user_id: number; user_email: string; scopes: string[] }
> = {
	full: {
		api_key_id: 9001,
		user_id: 501,
		user_email: 'analyst@acme.com',
		scopes: ['authenticated', 'apikey', 'firework', 'astp', 'threat_flow'],
	},
	noAstp: {
		api_key_id: 9002,
		user_id: 502,
		user_email: 'no-astp@acme.com',
		scopes: ['authenticated', 'apikey', 'firework', 'threat_flow'],
	},
	noThreatIntel: {
		api_key_id: 9003,
		user_id: 503,
		user_email: 'no-intel@acme.com',
		scopes: ['authenticated', 'apikey', 'firework', 'astp'],
	},
};
const ORGANIZATION_ID = 4242;

const MESSAGES = {
	astp: 'This endpoint requires access to Account & Session Takeover Prevention (ASTP)',
	threatIntel: 'This endpoint requires access to the threat intelligence product',
};

type RouteName =
	| 'tokenGenerate'
	| 'tokenTest'
	| 'search'
	| 'urlsByHash'
	| 'assignPolicy'
	| 'policiesByIdentifier'
	| 'identitiesByPassword'
	| 'identitiesByKeyword'
	| 'source'
	| 'deleteIdentifier'
	| 'event'
	| 'reportRequest'
	| 'listIdentifiers'
	| 'listPolicies'
	| 'listSources'
	| 'reportStatus'
	| FeedRouteName;

interface Route {
	name: RouteName;
	method: string;
	pattern: RegExp;
	tier: Tier;
	needs?: 'astp' | 'threatIntel';
}

interface Reply {
	status: number;
	body?: unknown;
	/** Sent as is instead of JSON of `body`. */
	raw?: string;
	headers?: Record<string, string>;
}

interface TokenRecord {
	role: KeyRole;
	tenantId: number;
	expiresAt: number;
}

interface RequestContext {
	method: string;
	rawPath: string;
	query: Record<string, string>;
	/** The query string as sent (for parameters that repeat). */
	rawQuery: string;
	rawBody: string;
	/** Raw (still percent-encoded) path parameters. */
	params: string[];
	authorization?: string;
	token?: TokenRecord;
	entry: LoggedRequest;
}

/** Thrown by handlers to answer early (errors). */
class Halt {
	constructor(readonly reply: Reply) {}
}

const jsonReply = (status: number, body: unknown, headers?: Record<string, string>): Reply => ({
	status,
	body,
	headers,
});
const errorReply = (
	status: number,
	code: string,
	message: string,
	headers?: Record<string, string>,
): Reply => jsonReply(status, { error: { code, message } }, headers);
const invalidReply = (detail: ValidationErrorItem[]): Reply => jsonReply(422, { detail });

function resolveOptions(...layers: FakeFlareOptions[]): ResolvedFakeFlareOptions {
	const resolved: ResolvedFakeFlareOptions = { ...DEFAULTS };
	for (const layer of layers) {
		const { apiKeys, rateLimits, quirks, ...plain } = layer;
		for (const [key, value] of Object.entries(plain)) {
			if (value !== undefined) (resolved as unknown as Record<string, unknown>)[key] = value;
		}
		resolved.apiKeys = { ...resolved.apiKeys, ...definedOnly(apiKeys) };
		resolved.rateLimits = { ...resolved.rateLimits, ...definedOnly(rateLimits) };
		resolved.quirks = { ...resolved.quirks, ...definedOnly(quirks) };
	}
	return resolved;
}

function definedOnly<T extends object>(value: T | undefined): Partial<T> {
	return Object.fromEntries(
		Object.entries(value ?? {}).filter(([, v]) => v !== undefined),
	) as Partial<T>;
}

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function buildRoutes(segment: string): Route[] {
	const seg = escapeRegExp(segment);
	const route = (
		name: RouteName,
		method: string,
		path: string,
		tier: Tier,
		needs?: Route['needs'],
	): Route => ({
		name,
		method,
		pattern: new RegExp(`^${path}$`),
		tier,
		needs,
	});
	const param = '([^/]+)';
	return [
		route('tokenGenerate', 'POST', '/tokens/generate', 'token'),
		route('tokenTest', 'GET', '/tokens/test', 'token'),
		route('search', 'POST', `/${seg}/v4/credentials/global/_search`, 'search'),
		route('urlsByHash', 'POST', '/astp/urls/by_credential_hash', 'basic', 'astp'),
		route('assignPolicy', 'POST', `/${seg}/v4/matching-policies/${param}/assignments`, 'basic'),
		route(
			'policiesByIdentifier',
			'GET',
			`/${seg}/v4/matching-policies/by_identifier_id/${param}`,
			'basic',
		),
		route(
			'identitiesByPassword',
			'GET',
			`/leaksdb/identities/by_password/${param}`,
			'basic',
			'astp',
		),
		route('identitiesByKeyword', 'GET', `/leaksdb/identities/by_keyword/${param}`, 'basic', 'astp'),
		route('source', 'GET', `/astp/sources/${param}`, 'basic', 'astp'),
		route('deleteIdentifier', 'DELETE', `/${seg}/v4/identifiers/${param}`, 'basic'),
		route('event', 'GET', `/${seg}/v4/events/`, 'basic'),
		route(
			'reportRequest',
			'POST',
			`/${seg}/v4/threat_flow/reports/requests`,
			'basic',
			'threatIntel',
		),
		route('listIdentifiers', 'GET', `/${seg}/v4/identifiers/`, 'basic'),
		route('listPolicies', 'GET', `/${seg}/v4/matching-policies`, 'basic'),
		route('listSources', 'GET', '/astp/v2/sources', 'basic', 'astp'),
		route(
			'reportStatus',
			'GET',
			`/${seg}/v4/threat_flow/reports/requests/${param}`,
			'basic',
			'threatIntel',
		),
		...feedRoutes(seg).map((r) => route(r.name, r.method, r.path, r.tier, r.needs)),
	];
}

/** How a request authenticates, for the log (never the secret itself). */
function authKind(header: string | undefined): LoggedRequest['auth'] {
	if (!header) return 'none';
	const scheme = /^(\S+)\s+\S/.exec(header.trim());
	if (!scheme) return 'apiKey';
	return scheme[1].toLowerCase() === 'bearer' ? 'bearer' : 'other';
}

function bearerToken(header: string | undefined): string | undefined {
	return header ? /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] : undefined;
}

function parseQuery(rawQuery: string): Record<string, string> {
	const query: Record<string, string> = {};
	for (const [key, value] of new URLSearchParams(rawQuery)) if (!(key in query)) query[key] = value;
	return query;
}

function parseWith<T extends ZodTypeAny>(
	schema: T,
	input: unknown,
	location: ErrorLocation,
): z.output<T> {
	const result = schema.safeParse(input);
	if (!result.success)
		throw new Halt(invalidReply(validationDetail(result.error, location, input)));
	return result.data as z.output<T>;
}

/** Percent-decodes a path parameter once and validates it; errors are located at ['path', name]. */
function pathParam<T extends ZodTypeAny>(name: string, raw: string, schema: T): z.output<T> {
	const value = tryDecode(raw);
	if (value === undefined) {
		throw new Halt(
			invalidReply([
				{ loc: ['path', name], msg: 'Invalid percent-encoding', type: 'value_error', input: raw },
			]),
		);
	}
	return parseWith(z.object({ [name]: schema }), { [name]: value }, 'path')[name] as z.output<T>;
}

function jsonBody(ctx: RequestContext): unknown {
	if (ctx.rawBody.trim() === '') return undefined;
	const parsed = tryJson(ctx.rawBody);
	if (!parsed.ok)
		throw new Halt(
			invalidReply([{ loc: ['body'], msg: 'JSON decode error', type: 'json_invalid' }]),
		);
	return parsed.value;
}

function tryDecode(raw: string): string | undefined {
	try {
		return decodeURIComponent(raw);
	} catch {
		return undefined;
	}
}

function tryJson(text: string): { ok: true; value: unknown } | { ok: false } {
	try {
		return { ok: true, value: JSON.parse(text) as unknown };
	} catch {
		return { ok: false };
	}
}

export class FakeFlare {
	readonly faults = new Faults();
	private readonly server: http.Server;
	private readonly startOptions: FakeFlareOptions;
	private currentOptions!: ResolvedFakeFlareOptions;
	private currentDataset!: Dataset;
	private feedApi!: FeedApi;
	private routes!: Route[];
	private tokens = new Map<string, TokenRecord>();
	private log: LoggedRequest[] = [];
	private reportRequests: FakeState['reportRequests'] = [];
	private writes: FakeState['writes'] = [];
	private quotaRemaining = 0;
	private lastAccepted: Partial<Record<Tier, number>> = {};
	private address = '';

	private constructor(options: FakeFlareOptions) {
		this.startOptions = options;
		this.reset();
		this.server = http.createServer((req, res) => void this.handle(req, res));
	}

	/** Starts a fake on 127.0.0.1 (`port` 0 = a free port). */
	static async start(options: FakeFlareOptions = {}, port = 0): Promise<FakeFlare> {
		const fake = new FakeFlare(options);
		await new Promise<void>((resolve, reject) => {
			fake.server.once('error', reject);
			fake.server.listen(port, '127.0.0.1', () => resolve());
		});
		fake.address = `http://127.0.0.1:${(fake.server.address() as net.AddressInfo).port}`;
		return fake;
	}

	/** Base URL, e.g. `http://127.0.0.1:PORT`. */
	get url(): string {
		return this.address;
	}

	get options(): ResolvedFakeFlareOptions {
		return this.currentOptions;
	}

	get apiKeys(): Record<KeyRole, string> {
		return this.currentOptions.apiKeys;
	}

	/** The oracle: the dataset the server answers from. */
	get dataset(): Dataset {
		return this.currentDataset;
	}

	/** The event feeds, actions, tenant credentials and identifier writes (the oracle of feed.ts). */
	get feed(): FeedApi {
		return this.feedApi;
	}

	/** The events of the feeds (the oracle of events.ts). */
	get events(): EventStore {
		return this.feedApi.events;
	}

	/** Every request, in arrival order. */
	get requests(): LoggedRequest[] {
		return this.log;
	}

	get state(): FakeState {
		return {
			assignments: this.currentDataset.assignments,
			deletedIdentifiers: this.currentDataset.deletedIdentifiers,
			reportRequests: this.reportRequests,
			writes: this.writes,
		};
	}

	/** Global searches left in the quota. */
	get quotaLeft(): number {
		return this.quotaRemaining;
	}

	async stop(): Promise<void> {
		await new Promise<void>((resolve) => {
			this.server.close(() => resolve());
			this.server.closeAllConnections();
		});
	}

	/**
	 * Fresh dataset and state: `options` over the options given to start() over the defaults. Clears tokens,
	 * the log, faults, state, quota and rate-limit windows.
	 */
	reset(options: FakeFlareOptions = {}): void {
		this.currentOptions = resolveOptions(this.startOptions, options);
		const { seed, credentials, domains, sameInstantGroup, startTime } = this.currentOptions;
		const { identifiers, policies, sources } = this.currentOptions;
		this.currentDataset = new Dataset({
			seed,
			credentials,
			domains,
			sameInstantGroup,
			startTime,
			identifiers,
			policies,
			sources,
		});
		this.feedApi = new FeedApi(this.currentDataset, this.currentOptions, (write) =>
			this.writes.push(write),
		);
		this.routes = buildRoutes(this.currentOptions.productSegment);
		this.tokens = new Map();
		this.log = [];
		this.faults.clear();
		this.reportRequests = [];
		this.writes = [];
		this.quotaRemaining = this.currentOptions.quota;
		this.lastAccepted = {};
	}

	clearLog(): void {
		this.log = [];
	}

	/** The report request `requestId` ends in status `error` (no report) once its processing polls are over. */
	failReport(requestId: string): void {
		const stored = this.reportRequests.find((entry) => entry.request_id === requestId);
		if (!stored) throw new Error(`FakeFlare.failReport: no report request ${requestId}`);
		stored.outcome = 'error';
	}

	/** Every token issued so far answers 401 from now on. */
	expireAllTokens(): void {
		for (const record of this.tokens.values()) record.expiresAt = 0;
	}

	/** Appends credentials imported at `importedAt` (default now); time must not go backwards. */
	addCredentials(count: number, importedAt?: string): void {
		const ms = importedAt ? dateTimeToMs(importedAt) : Math.floor(Date.now() / 1000) * 1000;
		if (Number.isNaN(ms))
			throw new Error(`FakeFlare.addCredentials: invalid date-time ${importedAt}`);
		this.currentDataset.append(count, ms);
	}

	/** Appends events to a tenant's feed (default: the first tenant, now); returns their feed items. */
	addEvents(count: number, options?: AddEventsOptions) {
		return this.feedApi.addEvents(count, options);
	}

	// ---- request pipeline ----

	private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
		const at = Date.now();
		const target = req.url ?? '/';
		const queryStart = target.indexOf('?');
		const rawPath = queryStart === -1 ? target : target.slice(0, queryStart);
		const method = (req.method ?? 'GET').toUpperCase();
		const authorization = req.headers.authorization;
		const found = this.findRoute(method, rawPath);
		const entry: LoggedRequest = {
			method,
			path: rawPath,
			query: parseQuery(queryStart === -1 ? '' : target.slice(queryStart + 1)),
			body: undefined,
			auth: authKind(authorization),
			status: 0,
			tier: found?.route.tier ?? 'basic',
			at,
		};
		if (entry.auth === 'bearer')
			entry.tokenValid = this.validToken(bearerToken(authorization)) !== undefined;
		this.log.push(entry);

		try {
			const rawBody = await readBody(req);
			entry.body = bodyForLog(rawBody);
			const ctx: RequestContext = {
				method,
				rawPath,
				query: entry.query,
				rawQuery: queryStart === -1 ? '' : target.slice(queryStart + 1),
				rawBody,
				params: found?.params ?? [],
				authorization,
				entry,
			};
			const rule = this.faults.take(method, rawPath);
			const phase = rule?.phase ?? 'before';
			const fault = rule?.fault;

			if (fault && phase === 'before') {
				if ('delayMs' in fault) await sleep(fault.delayMs);
				else if ('expireTokens' in fault) this.expireAllTokens();
				else if ('reset' in fault) return destroy(req, entry);
				else if ('status' in fault)
					return this.send(res, entry, faultReply(fault), found?.route.name);
				else if ('malformedJson' in fault) {
					return this.send(
						res,
						entry,
						{ status: 200, raw: '{"items": [{"id": 1, "identity_name": "trunc' },
						found?.route.name,
					);
				}
			}

			let reply = this.process(found?.route, ctx);

			if (fault && 'repeatCursor' in fault) reply = repeatCursor(reply, ctx);
			if (fault && phase === 'after') {
				if ('delayMs' in fault) await sleep(fault.delayMs);
				else if ('expireTokens' in fault) this.expireAllTokens();
				else if ('reset' in fault) return destroy(req, entry);
				else if ('status' in fault) reply = faultReply(fault);
				else if ('malformedJson' in fault) {
					const text = JSON.stringify(reply.body ?? {});
					reply = { ...reply, raw: text.slice(0, Math.max(1, Math.floor(text.length / 2))) };
				}
			}
			this.send(res, entry, reply, found?.route.name);
		} catch (error) {
			this.send(
				res,
				entry,
				errorReply(500, 'INTERNAL_ERROR', `fake server error: ${(error as Error).message}`),
			);
		}
	}

	private findRoute(
		method: string,
		rawPath: string,
	): { route: Route; params: string[] } | undefined {
		for (const route of this.routes) {
			const match = route.pattern.exec(rawPath);
			if (match && route.method === method) return { route, params: match.slice(1) };
		}
		return undefined;
	}

	private send(
		res: http.ServerResponse,
		entry: LoggedRequest,
		reply: Reply,
		routeName?: RouteName,
	): void {
		const headers: Record<string, string> = {};
		for (const [key, value] of Object.entries(reply.headers ?? {}))
			headers[key.toLowerCase()] = value;
		if (routeName === 'search')
			headers['x-flare-global-searches-remaining'] = String(this.quotaRemaining);
		let payload = '';
		if (reply.raw !== undefined) {
			payload = reply.raw;
			headers['content-type'] ??= 'application/json';
		} else if (reply.body !== undefined) {
			payload = JSON.stringify(reply.body);
			headers['content-type'] ??= 'application/json';
		}
		entry.status = reply.status;
		res.writeHead(reply.status, headers);
		res.end(payload);
	}

	/** Route → auth → entitlement → rate limit → validation → quota → handler. */
	private process(route: Route | undefined, ctx: RequestContext): Reply {
		try {
			if (!route) return errorReply(404, 'NOT_FOUND', `no route for ${ctx.method} ${ctx.rawPath}`);
			if (route.name === 'tokenGenerate') return this.generateToken(ctx);
			ctx.token = this.authenticate(ctx);
			if (route.needs === 'astp' && ctx.token.role === 'noAstp')
				return errorReply(403, 'FORBIDDEN', MESSAGES.astp);
			if (route.needs === 'threatIntel' && ctx.token.role === 'noThreatIntel') {
				return errorReply(403, 'FORBIDDEN', MESSAGES.threatIntel);
			}
			this.rateLimit(route.tier);
			return this.dispatch(route.name, ctx);
		} catch (error) {
			if (error instanceof Halt) return error.reply;
			return errorReply(500, 'INTERNAL_ERROR', `fake server error: ${(error as Error).message}`);
		}
	}

	private dispatch(name: RouteName, ctx: RequestContext): Reply {
		switch (name) {
			case 'tokenGenerate':
				return this.generateToken(ctx);
			case 'tokenTest':
				return this.tokenTest(ctx);
			case 'search':
				return this.search(ctx);
			case 'urlsByHash':
				return this.urlsByHash(ctx);
			case 'assignPolicy':
				return this.assignPolicy(ctx);
			case 'policiesByIdentifier':
				return this.policiesByIdentifier(ctx);
			case 'identitiesByPassword':
			case 'identitiesByKeyword':
				return this.identities(name, ctx);
			case 'source':
				return this.source(ctx);
			case 'deleteIdentifier':
				return this.deleteIdentifier(ctx);
			case 'event':
				return this.event(ctx);
			case 'reportRequest':
				return this.reportRequest(ctx);
			case 'listIdentifiers':
				return this.listIdentifiers(ctx);
			case 'listPolicies':
				return this.listPolicies(ctx);
			case 'listSources':
				return this.listSources(ctx);
			case 'reportStatus':
				return this.reportStatus(ctx);
			default:
				return this.feedApi.handle(name, { ...ctx, tenantId: ctx.token!.tenantId });
		}
	}

	// ---- auth, limits ----

	private validToken(token: string | undefined): TokenRecord | undefined {
		const record = token === undefined ? undefined : this.tokens.get(token);
		return record && Date.now() < record.expiresAt ? record : undefined;
	}

	private authenticate(ctx: RequestContext): TokenRecord {
		if (!ctx.authorization) throw new Halt(errorReply(401, 'UNAUTHORIZED', 'missing bearer token'));
		const token = bearerToken(ctx.authorization);
		if (token === undefined) {
			throw new Halt(
				errorReply(401, 'UNAUTHORIZED', 'the Authorization header must be "Bearer <token>"'),
			);
		}
		const record = this.tokens.get(token);
		if (!record) throw new Halt(errorReply(401, 'UNAUTHORIZED', 'invalid token'));
		if (Date.now() >= record.expiresAt)
			throw new Halt(errorReply(401, 'UNAUTHORIZED', 'token expired'));
		return record;
	}

	private rateLimit(tier: Tier): void {
		if (tier === 'token') return;
		const rate = this.currentOptions.rateLimits[tier];
		if (!rate || rate <= 0) return;
		const now = performance.now();
		const interval = 1000 / rate;
		const last = this.lastAccepted[tier];
		if (last !== undefined && now - last < interval) {
			const waitSeconds = (last + interval - now) / 1000;
			const headers: Record<string, string> = {};
			if (this.currentOptions.retryAfter === 'integer')
				headers['Retry-After'] = String(Math.max(1, Math.ceil(waitSeconds)));
			if (this.currentOptions.retryAfter === 'precise')
				headers['Retry-After'] = Math.max(0.001, waitSeconds).toFixed(3);
			throw new Halt(errorReply(429, 'RATELIMIT_REACHED', 'ratelimit reached', headers));
		}
		this.lastAccepted[tier] = now;
	}

	private takeQuota(): void {
		if (this.quotaRemaining <= 0) {
			throw new Halt(
				errorReply(
					429,
					'QUOTA_EXCEEDED',
					'global search quota exceeded: no global searches remaining',
				),
			);
		}
		this.quotaRemaining--;
	}

	// ---- handlers ----

	private generateToken(ctx: RequestContext): Reply {
		const key = ctx.authorization?.trim();
		const role = (Object.keys(this.apiKeys) as KeyRole[]).find(
			(candidate) => this.apiKeys[candidate] === key,
		);
		if (!role) return errorReply(401, 'UNAUTHORIZED', 'invalid api key');
		const body = parseWith(TokenGenerateBody, jsonBody(ctx) ?? {}, 'body');
		const tenantId = body.tenant_id ?? this.currentOptions.tenants[0];
		if (!this.currentOptions.tenants.includes(tenantId)) {
			return errorReply(403, 'FORBIDDEN', `the api key has no access to tenant ${tenantId}`);
		}
		const token = this.currentOptions.tokenPrefix + randomBytes(20).toString('hex');
		const expiresAt = Date.now() + this.currentOptions.tokenLifetimeMs;
		this.tokens.set(token, { role, tenantId, expiresAt });
		return jsonReply(200, { token, refresh_token_exp: Math.floor(expiresAt / 1000) });
	}

	private tokenTest(ctx: RequestContext): Reply {
		const { role, tenantId } = ctx.token!;
		return jsonReply(200, {
			...KEY_OWNERS[role],
			organization_id: ORGANIZATION_ID,
			tenant_id: tenantId,
		});
	}

	/** The cursor in `from`, checked against the other parameters of the request. */
	private cursorFor(from: string, expected: string, location: ErrorLocation = 'body'): Cursor {
		const cursor = decodeCursor(from);
		const fail = (msg: string) =>
			new Halt(invalidReply([{ loc: [location, 'from'], msg, type: 'value_error', input: from }]));
		if (!cursor) throw fail('Invalid cursor');
		if (cursor.f !== expected) {
			throw fail(
				'The cursor belongs to a request with other parameters: only from may change between pages',
			);
		}
		return cursor;
	}

	private search(ctx: RequestContext): Reply {
		const body = parseWith(GlobalSearchBody, jsonBody(ctx), 'body');
		const { from, ...params } = body;
		const print = fingerprint('search', params);
		const cursor = from ? this.cursorFor(from, print) : undefined;
		this.takeQuota();

		const data = this.currentDataset;
		const range = data.importedRange(
			body.filters?.imported_at?.gte,
			body.filters?.imported_at?.lte,
		);
		const dir = body.order === 'asc' ? 1 : -1;
		const start = cursor?.p ?? (dir === 1 ? range.lo : range.hi - 1);
		const pageNumber = cursor?.n ?? 1;
		const { found, resume } = scan(
			data.searchMatcher(body.query),
			range,
			start,
			dir,
			body.size + 1,
			SCAN_CAP,
		);
		const page = shapePage(
			{ start, pageNumber, found, resume, size: body.size },
			this.currentOptions.quirks,
		);
		return jsonReply(200, {
			items: page.positions.map((index) => data.credential(index, body.include)),
			next:
				page.nextPosition === null
					? null
					: encodeCursor({ p: page.nextPosition, n: pageNumber + 1, f: print }),
		});
	}

	private urlsByHash(ctx: RequestContext): Reply {
		const body = parseWith(UrlsByHashBody, jsonBody(ctx), 'body');
		const { from, ...params } = body;
		const print = fingerprint('urls', params);
		const cursor = from ? this.cursorFor(from, print) : undefined;

		const data = this.currentDataset;
		const index = data.indexOfCredentialHash(body.credential_hash);
		const count = index === -1 ? 0 : data.urlCount(index);
		const start = cursor?.p ?? 0;
		const pageNumber = cursor?.n ?? 1;
		const found: number[] = [];
		for (let j = start; j < count && found.length <= body.size; j++) found.push(j);
		const page = shapePage(
			{ start, pageNumber, found, resume: null, size: body.size },
			this.currentOptions.quirks,
		);
		return jsonReply(200, {
			items: page.positions.map((j) => data.urlRecord(index, j)),
			next:
				page.nextPosition === null
					? null
					: encodeCursor({ p: page.nextPosition, n: pageNumber + 1, f: print }),
		});
	}

	private assignPolicy(ctx: RequestContext): Reply {
		const policyUuid = pathParam('policy_uuid', ctx.params[0], PolicyUuidParam);
		const rawBody = jsonBody(ctx);
		const body = parseWith(PolicyAssignmentBody, rawBody, 'body');
		const data = this.currentDataset;
		const policy = data.policy(policyUuid);
		if (!policy) return errorReply(404, 'NOT_FOUND', `matching policy ${policyUuid} not found`);
		const missing = body.identifier_ids.filter((id) => !data.identifierExists(id));
		if (missing.length > 0)
			return errorReply(404, 'NOT_FOUND', `identifier ${missing.join(', ')} not found`);

		const assignedAt = isoWithOffset(Date.now());
		for (const id of new Set(body.identifier_ids)) {
			const list = data.assignments.get(id) ?? [];
			data.assignments.set(id, list);
			const existing = list.find((stored) => stored.policyUuid === policy.uuid);
			if (existing) {
				existing.assigned_at = assignedAt;
				existing.clean_past_events = body.clean_past_events;
			} else {
				list.push({
					policyUuid: policy.uuid,
					assigned_at: assignedAt,
					clean_past_events: body.clean_past_events,
				});
			}
		}
		this.writes.push({ method: ctx.method, path: ctx.rawPath, body: rawBody });
		return jsonReply(200, {});
	}

	private policiesByIdentifier(ctx: RequestContext): Reply {
		const id = pathParam('identifier_id', ctx.params[0], IdentifierIdParam);
		if (!this.currentDataset.identifierExists(id))
			return errorReply(404, 'NOT_FOUND', `identifier ${id} not found`);
		return jsonReply(200, this.currentDataset.assignmentsFor(id));
	}

	private identities(
		name: 'identitiesByPassword' | 'identitiesByKeyword',
		ctx: RequestContext,
	): Reply {
		const data = this.currentDataset;
		const matcher =
			name === 'identitiesByPassword'
				? data.passwordMatcher(pathParam('password', ctx.params[0], PasswordParam))
				: data.keywordMatcher(pathParam('keyword', ctx.params[0], KeywordParam));
		const query = parseWith(IdentityLookupQuery, ctx.query, 'query');
		return jsonReply(200, data.identityPage(matcher, query.from ?? 0, query.size ?? 100));
	}

	private source(ctx: RequestContext): Reply {
		const id = pathParam('source_id', ctx.params[0], z.string().min(1));
		const source = this.currentDataset.source(id);
		return source ? jsonReply(200, source) : errorReply(404, 'NOT_FOUND', `source ${id} not found`);
	}

	private deleteIdentifier(ctx: RequestContext): Reply {
		const id = pathParam('identifier_id', ctx.params[0], IdentifierIdParam);
		if (!this.currentDataset.identifierExists(id))
			return errorReply(404, 'NOT_FOUND', `identifier ${id} not found`);
		this.currentDataset.deletedIdentifiers.add(id);
		this.writes.push({ method: ctx.method, path: ctx.rawPath, body: undefined });
		return jsonReply(202, {});
	}

	private event(ctx: RequestContext): Reply {
		const { uid } = parseWith(EventQuery, ctx.query, 'query');
		const event = this.currentDataset.event(uid);
		return event ? jsonReply(200, event) : errorReply(404, 'NOT_FOUND', `event ${uid} not found`);
	}

	private reportRequest(ctx: RequestContext): Reply {
		const rawBody = jsonBody(ctx);
		const body = parseWith(ReportRequestBody, rawBody, 'body');
		const requestId = randomUUID();
		const tenantId = ctx.token!.tenantId;
		this.reportRequests.push({
			request_id: requestId,
			body: rawBody,
			tenant_id: tenantId,
			status_reads: 0,
			outcome: 'completed',
			report: threatReportFor(
				this.reportRequests.length + 1,
				body,
				tenantId,
				ctx.entry.at,
				this.currentDataset.events(),
			),
		});
		this.writes.push({ method: ctx.method, path: ctx.rawPath, body: rawBody });
		return jsonReply(200, { request_id: requestId });
	}

	/**
	 * Status of a report request: `processing` for its first `reportProcessingPolls` reads, then
	 * `completed` with its report (or `error` without one). Unknown ids, and requests of another
	 * tenant, are 404.
	 */
	private reportStatus(ctx: RequestContext): Reply {
		const id = pathParam('request_info_id', ctx.params[0], ReportRequestIdParam).toLowerCase();
		const stored = this.reportRequests.find(
			(entry) => entry.request_id === id && entry.tenant_id === ctx.token!.tenantId,
		);
		if (!stored) return errorReply(404, 'NOT_FOUND', `report request ${id} not found`);
		stored.status_reads++;
		if (stored.status_reads <= this.currentOptions.reportProcessingPolls) {
			return jsonReply(200, { status: 'processing', report: null });
		}
		if (stored.outcome === 'error') return jsonReply(200, { status: 'error', report: null });
		return jsonReply(200, { status: 'completed', report: stored.report });
	}

	/**
	 * One page of a list with the from/next cursor scheme and the paging quirks; the cursor is bound to
	 * every other query parameter (`scope` + `params`).
	 */
	private listPage<T>(
		scope: string,
		query: { from?: string; size: number },
		records: T[],
	): { items: T[]; next: string | null } {
		const { from, ...params } = query;
		const print = fingerprint(scope, params);
		const cursor = from ? this.cursorFor(from, print, 'query') : undefined;
		const start = Math.min(cursor?.p ?? 0, records.length);
		const pageNumber = cursor?.n ?? 1;
		const found: number[] = [];
		for (let j = start; j < records.length && found.length <= query.size; j++) found.push(j);
		const page = shapePage(
			{ start, pageNumber, found, resume: null, size: query.size },
			this.currentOptions.quirks,
		);
		return {
			items: page.positions.map((j) => records[j]),
			next:
				page.nextPosition === null
					? null
					: encodeCursor({ p: page.nextPosition, n: pageNumber + 1, f: print }),
		};
	}

	private listIdentifiers(ctx: RequestContext): Reply {
		const types = new URLSearchParams(ctx.rawQuery).getAll('types');
		const input = types.length > 0 ? { ...ctx.query, types } : ctx.query;
		const query = parseWith(IdentifierListQuery, input, 'query');
		const records = this.currentDataset
			.identifiers(ctx.token!.tenantId, query.order_by)
			.filter(identifierFilter(query));
		return jsonReply(200, this.listPage('identifiers', query, records));
	}

	private listPolicies(ctx: RequestContext): Reply {
		const query = parseWith(MatchingPolicyListQuery, ctx.query, 'query');
		const policies = this.currentDataset.policies();
		if (query.order === 'desc') policies.reverse();
		return jsonReply(200, this.listPage('policies', query, policies));
	}

	private listSources(ctx: RequestContext): Reply {
		const query = parseWith(SourceListQuery, ctx.query, 'query');
		const page = this.listPage('sources', query, this.currentDataset.sources());
		return jsonReply(200, { cursors: [], items: page.items, next: page.next, total_count: null });
	}
}

/**
 * The report a report request completes with: a deterministic function of its sequence number since
 * the last reset (1 = first), its body, its tenant, when it was created and the events of the dataset.
 * Related events are those whose content names an included keyword (none excluded), else the first 3.
 */
export function threatReportFor(
	sequence: number,
	body: ReportRequestBody | ReportRequestBodyInput,
	tenantId: number,
	createdAtMs: number,
	events: BlogPostEvent[],
): ApiReport {
	const included = (body.included_keywords ?? []).map((keyword) => keyword.toLowerCase());
	const excluded = (body.excluded_keywords ?? []).map((keyword) => keyword.toLowerCase());
	const mentions = (event: BlogPostEvent, keywords: string[]) =>
		keywords.some((keyword) => event.data.content.toLowerCase().includes(keyword));
	const matching = included.length
		? events.filter((event) => mentions(event, included) && !mentions(event, excluded))
		: [];
	const related = (matching.length ? matching : events.slice(0, 3)).map(
		(event) => event.metadata.uid,
	);
	const range = body.time_range_type ?? 'all';
	const topic = included.length ? included.join(', ') : 'your organization';
	return {
		id: 880000 + sequence,
		format_type: 'simple_summary',
		title: body.report_title,
		subtitle: body.question ?? null,
		summary: `Flare found ${related.length} related events about ${topic} (time range: ${range}).`,
		content: [`# ${body.report_title}`, '', ...related.map((uid) => `- Event ${uid}`)].join('\n'),
		tags: body.included_keywords ?? [],
		highlights: [
			`${related.length} related events`,
			excluded.length ? `Excluded: ${excluded.join(', ')}` : 'No exclusions',
		],
		related_activity_uids: related,
		created_at: isoWithOffset(Math.floor(createdAtMs / 1000) * 1000),
		tenant_id: tenantId,
	};
}

// ---- helpers of the pipeline ----

async function readBody(req: http.IncomingMessage): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks).toString('utf8');
}

function bodyForLog(rawBody: string): unknown {
	if (rawBody === '') return undefined;
	const parsed = tryJson(rawBody);
	return parsed.ok ? parsed.value : rawBody;
}

function destroy(req: http.IncomingMessage, entry: LoggedRequest): void {
	entry.status = 0;
	req.socket.destroy();
}

function faultReply(fault: {
	status: number;
	body?: unknown;
	rawBody?: string;
	headers?: Record<string, string>;
}): Reply {
	if (fault.rawBody !== undefined) {
		return {
			status: fault.status,
			raw: fault.rawBody,
			headers: { 'content-type': 'text/plain; charset=utf-8', ...fault.headers },
		};
	}
	return { status: fault.status, body: fault.body ?? {}, headers: fault.headers };
}

/** The normal reply, but with `next` equal to the request's `from` (a cursor that does not advance). */
function repeatCursor(reply: Reply, ctx: RequestContext): Reply {
	const body = reply.body as { next?: unknown } | undefined;
	if (reply.status !== 200 || !body || typeof body !== 'object' || !('next' in body)) return reply;
	const parsed = tryJson(ctx.rawBody);
	const from =
		ctx.method === 'GET'
			? (ctx.query.from ?? null)
			: parsed.ok
				? ((parsed.value as { from?: unknown } | null)?.from ?? null)
				: null;
	return { ...reply, body: { ...body, next: from } };
}
