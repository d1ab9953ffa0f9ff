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
	ByAccountsBody,
	dateTimeToMs,
	type ErrorLocation,
	EventQuery,
	GlobalEventSearchBody,
	GlobalSearchBody,
	IdentifierIdParam,
	IdentifierListQuery,
	type IdentityRecord,
	type LeakedCookie,
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
import { monotonicNow, whileParked } from '../support/clock';
import { http, type net } from '../support/node';
import { type AddedCredentialOptions, Dataset, SCAN_CAP, type StoredAssignment } from './dataset';
import { type Fault, Faults, isPagingFault, type PagingFault } from './faults';
import { drip, endlessBody, silent } from './hostile';
import {
	type AuthKind,
	authKind,
	bearerToken,
	bodyForLog,
	readBody,
	splitTarget,
	tryJson,
} from './incoming';
import { OtherOrigin } from './other-origin';
import { alertFor, type FlareAlert } from './push';
import { plantedSecret } from './planted';
import type { ActedOnDefault, AddEventsOptions, EventStore, FeedSortKey } from './events';
import { FeedApi, type FeedRouteName, feedRoutes } from './feed';
import {
	AdministrationApi,
	type AdministrationRouteName,
	administrationRoutes,
} from './administration';
import { ManagementApi, type ManagementRouteName, managementRoutes } from './management';
import { ReportingApi, type ReportingRouteName, reportingRoutes } from './reporting';
import { ThreatFlowApi, type ThreatFlowRouteName, threatFlowRoutes } from './threat-flow';
import { type AlertRuleStorage, PlaybookApi, type PlaybookRouteName, playbookRoutes } from './playbook';
import { identifierFilter } from './identifiers';
import {
	type Cursor,
	encodeCursor,
	expireCursors,
	fingerprint,
	positionsPage,
	type Quirks,
} from './paging';
import { isoWithOffset } from './random';
import { cursorFor, Halt, type HandlerRequest, type PageRead, type PageWalk } from './replies';
import type { EndCursor, SearchOrder, SortKey } from './search-after';
import { DEFAULT_DOMAINS } from './words';

export type KeyRole = 'full' | 'noAstp' | 'noThreatIntel';
export type Tier = 'search' | 'basic' | 'token';
export type QuotaReading = 'requested' | 'returned';
/**
 * `envelope`: 429 `QUOTA_EXCEEDED`. `remainingThen403`: 403 `FORBIDDEN` "global search quota
 * exceeded" (the answer that took the last unit already said Remaining 0).
 */
export type QuotaExhaustion = 'envelope' | 'remainingThen403';

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
	/** How early (ms) a request may arrive before its rate-limit turn (default 50). */
	rateLimitToleranceMs?: number;
	retryAfter?: 'integer' | 'precise' | 'none';
	/** Global-search quota units of each organization (default 1,000,000). */
	quota?: number;
	/** Whether a search session counts the results requested (`size`) or returned (default). */
	quotaReading?: QuotaReading;
	/** What a global search gets when it needs a unit and none is left (default `envelope`). */
	quotaExhaustion?: QuotaExhaustion;
	quirks?: { emptyPageEvery?: number; shortPageEvery?: number };
	/** What the global search sorts by: (imported_at, id), the default, or (reversed domain, id). */
	searchOrder?: SearchOrder;
	/** The global search's last page: `next: null` (the default, as documented) or a cursor to resume. */
	endCursor?: EndCursor;
	/** The fake's clock minus the host's, in ms (default 0; negative: behind the host). */
	clockOffsetMs?: number;
	sameInstantGroup?: number;
	startTime?: string;
	/** Events per tenant in the event feeds (default 80). */
	eventsPerTenant?: number;
	/** What the event feeds are sorted by (default materialized_at; see docs/feed-endpoints.md). */
	eventSortKey?: FeedSortKey;
	/**
	 * Whether a feed search that does not ask for ignored or remediated events leaves them out (the
	 * default, the OpenAPI's reading) or lists them too (the MCP page's): events.ts `ActedOnDefault`.
	 */
	actedOnDefault?: ActedOnDefault;
	/** Identifiers listed (ids 7001 on; at least 30, the default). */
	identifiers?: number;
	/** Matching policies listed (at least 8, the default). */
	policies?: number;
	/** Sources listed (at least 20, the default); credentials come from the first 20 only. */
	sources?: number;
	/** Status reads of a report request that answer `processing` before it completes (default 1). */
	reportProcessingPolls?: number;
	/**
	 * Tenants of the organization besides `tenants`, which no token may work in (their exchange is
	 * refused 403, as for any tenant the key cannot access): listed by
	 * `…/organizations/{id}/tenants` after `tenants`, with the flags given (default false). Default none.
	 */
	otherOrganizationTenants?: OtherOrganizationTenant[];
	/** How a v2 alert rule written is stored (playbook.ts `AlertRuleStorage`; default `asSent`). */
	alertRuleStorage?: AlertRuleStorage;
}

/** A tenant of `otherOrganizationTenants`. */
export interface OtherOrganizationTenant {
	id: number;
	name?: string;
	is_disabled?: boolean;
	is_archived?: boolean;
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
	rateLimitToleranceMs: number;
	retryAfter: 'integer' | 'precise' | 'none';
	quota: number;
	quotaReading: QuotaReading;
	quotaExhaustion: QuotaExhaustion;
	quirks: Quirks;
	searchOrder: SearchOrder;
	endCursor: EndCursor;
	clockOffsetMs: number;
	sameInstantGroup: number;
	startTime: string;
	eventsPerTenant: number;
	eventSortKey: FeedSortKey;
	actedOnDefault: ActedOnDefault;
	identifiers?: number;
	policies?: number;
	sources?: number;
	reportProcessingPolls: number;
	otherOrganizationTenants: OtherOrganizationTenant[];
	alertRuleStorage: AlertRuleStorage;
}

export interface LoggedRequest {
	method: string;
	/** Raw request path, without the query. */
	path: string;
	query: Record<string, string>;
	/** Parsed JSON body, the raw text when it is not JSON, undefined when empty. */
	body: unknown;
	auth: AuthKind;
	/** The User-Agent header as sent. */
	userAgent?: string;
	/** The demo key the request was made with (its role, never the key): see {@link FaultRule.key}. */
	key?: KeyRole;
	/** For bearer requests: whether the token was valid on arrival. */
	tokenValid?: boolean;
	/**
	 * For bearer requests with a token the fake issued: the tenant it was issued for. Flare's paths
	 * name no tenant: the token chooses it, and a token of another tenant sees that tenant's data.
	 */
	tenant?: number;
	/** Final status; 0 when the connection was reset or never answered. */
	status: number;
	tier: Tier;
	/** Arrival time, ms since the epoch, on the fake's clock. */
	at: number;
	/** Global search answered: the quota units it consumed. */
	quotaCharged?: number;
	/**
	 * Pages of the `from`/`next` routes (the event feeds and tenant credentials included): the items
	 * the page had (before any fault replaced it).
	 */
	results?: number;
	/** Drip and endless bodies: the body bytes the socket accepted. */
	bytesSent?: number;
	/** Held connections (drip, endless body, silent): when the client went away, on the fake's clock. */
	disconnectedAt?: number;
	/** An endless body the client kept reading to its limit: the fake cut the connection. */
	cutOffByFake?: boolean;
	/** An endless body waits for the socket to drain: the client is not reading. */
	waitingForDrain?: boolean;
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
	rateLimitToleranceMs: 50,
	retryAfter: 'integer',
	quota: 1_000_000,
	quotaReading: 'returned',
	quotaExhaustion: 'envelope',
	quirks: { emptyPageEvery: 4, shortPageEvery: 3 },
	searchOrder: 'importedAt',
	endCursor: 'null',
	clockOffsetMs: 0,
	sameInstantGroup: 3,
	startTime: '2024-01-01T00:00:00+00:00',
	eventsPerTenant: 80,
	eventSortKey: 'materialized_at',
	actedOnDefault: 'leftOut',
	reportProcessingPolls: 1,
	otherOrganizationTenants: [],
	alertRuleStorage: 'asSent',
};

/** The demo keys of an organization administrator (the others belong to members). */
const ORGANIZATION_ADMINS: KeyRole[] = ['full'];

/** Who each demo key belongs to, as /tokens/test reports it: each key in an organization of its own. */
const KEY_OWNERS: Record<
	KeyRole,
	{
		api_key_id: number;
		organization_id: number;
		user_id: number;
		user_email: string;
		scopes: string[];
	}
> = {
	full: {
		api_key_id: 9001,
		organization_id: 4242,
		user_id: 501,
		user_email: 'analyst@acme.com',
		scopes: ['authenticated', 'apikey', 'firework', 'astp', 'threat_flow'],
	},
	noAstp: {
		api_key_id: 9002,
		organization_id: 4343,
		user_id: 502,
		user_email: 'no-astp@acme.com',
		scopes: ['authenticated', 'apikey', 'firework', 'threat_flow'],
	},
	noThreatIntel: {
		api_key_id: 9003,
		organization_id: 4444,
		user_id: 503,
		user_email: 'no-intel@acme.com',
		scopes: ['authenticated', 'apikey', 'firework', 'astp'],
	},
};

/** Global searches in a stretch of the request log: see {@link FakeFlare.globalSearches}. */
export interface GlobalSearchTally {
	/** Requests to the global search (any answer, faults included). */
	requests: number;
	/** Of those, the ones answered 200 with a page. */
	pages: number;
	/** Items in those pages. */
	results: number;
	/** Quota units they took. */
	quotaCharged: number;
}

/** A search session of the quota lasts this long from its first search (Flare's 10-minute window). */
export const QUOTA_SESSION_MS = 10 * 60_000;
/** Results one quota unit covers. */
export const RESULTS_PER_UNIT = 100;
/** Passwords per account of by_accounts (post-by-accounts.mdx). */
const BY_ACCOUNTS_PASSWORDS = 100;

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
	| 'eventSearch'
	| 'byAccounts'
	| FeedRouteName
	| ManagementRouteName
	| PlaybookRouteName
	| AdministrationRouteName
	| ReportingRouteName
	| ThreatFlowRouteName;

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
	raw?: string | Buffer;
	headers?: Record<string, string>;
}

/** Global searches of one query by one organization, from the first until 10 minutes later. */
interface QuotaSession {
	startedAt: number;
	/** Results counted so far (requested or returned, as `quotaReading` says). */
	counted: number;
	/** Units charged so far: max(1, ceil(counted / 100)). */
	units: number;
}

interface TokenRecord {
	role: KeyRole;
	tenantId: number;
	expiresAt: number;
}

interface RequestContext {
	method: string;
	/** Path and query as requested. */
	target: string;
	rawPath: string;
	query: Record<string, string>;
	/** The query string as sent (for parameters that repeat). */
	rawQuery: string;
	rawBody: string;
	route?: Route;
	/** Raw (still percent-encoded) path parameters. */
	params: string[];
	authorization?: string;
	/** The demo key of the request (at the token exchange the key, else the key of the token). */
	key?: KeyRole;
	token?: TokenRecord;
	/** Arrival, on the monotonic clock of the rate limits. */
	arrival: number;
	pagingFault?: PagingFault;
	entry: LoggedRequest;
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
		route('eventSearch', 'POST', `/${seg}/v4/events/global/_search`, 'search'),
		route('byAccounts', 'POST', '/astp/identities/by_accounts', 'basic', 'astp'),
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
		// Before the feeds': the AI explanation's path is also the full event's path form.
		...playbookRoutes(seg).map((r) => route(r.name, r.method, r.path, 'basic', r.needs)),
		...threatFlowRoutes(seg).map((r) => route(r.name, r.method, r.path, 'basic', r.needs)),
		...administrationRoutes(seg).map((r) => route(r.name, r.method, r.path, 'basic')),
		...reportingRoutes(seg).map((r) => route(r.name, r.method, r.path, 'basic')),
		...feedRoutes(seg).map((r) => route(r.name, r.method, r.path, r.tier, r.needs)),
		...managementRoutes(seg).map((r) => route(r.name, r.method, r.path, 'basic')),
	];
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

export class FakeFlare {
	readonly faults = new Faults();
	/** A second server on another port, where redirects point; started and stopped with the fake. */
	readonly otherOrigin: OtherOrigin;
	private readonly server: http.Server;
	private readonly startOptions: FakeFlareOptions;
	private currentOptions!: ResolvedFakeFlareOptions;
	private currentDataset!: Dataset;
	private feedApi!: FeedApi;
	private managementApi!: ManagementApi;
	private playbookApi!: PlaybookApi;
	private administrationApi!: AdministrationApi;
	private reportingApi!: ReportingApi;
	private threatFlowApi!: ThreatFlowApi;
	private routes!: Route[];
	private tokens = new Map<string, TokenRecord>();
	private log: LoggedRequest[] = [];
	private reportRequests: FakeState['reportRequests'] = [];
	private writes: FakeState['writes'] = [];
	/** Quota units used, by organization. */
	private unitsUsed = new Map<number, number>();
	/** Search sessions of the quota, by organization and query. */
	private sessions = new Map<string, QuotaSession>();
	/** Arrival of the last accepted request, by organization and tier. */
	private nextDue = new Map<string, number>();
	/** Cursors handed out by paging faults: accepted, they fetch a walk's first page. */
	private syntheticCursors = new Set<string>();
	/** Answers that hold their connection (drip, endless body, silent), until they end. */
	private held = new Set<Promise<void>>();
	private clockOffset = 0;
	private address = '';

	private constructor(options: FakeFlareOptions) {
		this.startOptions = options;
		this.otherOrigin = new OtherOrigin(() => this.now());
		this.reset();
		this.server = http.createServer((req, res) => void this.handle(req, res));
		// Idle connections stay open until the client closes them: Node's server would close them after
		// 5 s of real time, which under virtual time (jest) a client cannot see coming, and a request
		// sent on such a connection fails with ECONNRESET. stop() closes every connection.
		this.server.keepAliveTimeout = 0;
	}

	/** Starts a fake on 127.0.0.1 (`port` 0 = a free port), and its other origin on a free port. */
	static async start(options: FakeFlareOptions = {}, port = 0): Promise<FakeFlare> {
		const fake = new FakeFlare(options);
		await new Promise<void>((resolve, reject) => {
			fake.server.once('error', reject);
			fake.server.listen(port, '127.0.0.1', () => resolve());
		});
		fake.address = `http://127.0.0.1:${(fake.server.address() as net.AddressInfo).port}`;
		await fake.otherOrigin.listen();
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

	/** Alert channels and rules, recommendations, AI explanations, Threat Flow reports (playbook.ts). */
	get playbook(): PlaybookApi {
		return this.playbookApi;
	}

	/** The organization's tenants, a tenant's users and its members (administration.ts). */
	get administration(): AdministrationApi {
		return this.administrationApi;
	}

	/** The platform reports (reporting.ts). */
	get reporting(): ReportingApi {
		return this.reportingApi;
	}

	/** Threat Flow report deletion and publication, and the conversations of chat events (threat-flow.ts). */
	get threatFlow(): ThreatFlowApi {
		return this.threatFlowApi;
	}

	/** The events of the feeds (the oracle of events.ts). */
	get events(): EventStore {
		return this.feedApi.events;
	}

	/**
	 * Every planted leaked value the fake serves now (test/fake-flare/planted.ts): of the dataset, of
	 * the events, and of the identifiers created through the API.
	 */
	plantedValues(): string[] {
		return [
			...new Set([
				...this.currentDataset.plantedValues(),
				...this.events.plantedValues(),
				...this.reportRequests.flatMap((_, index) => plantedInReport(index + 1)),
				...this.playbookApi.plantedValues(),
				...this.threatFlowApi.plantedValues(),
			]),
		];
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

	/** Global-search quota units left to the organization of the `full` key. */
	get quotaLeft(): number {
		return this.unitsLeft(this.organizationOf('full'));
	}

	/** Global-search quota units the organization of `key` has used since the last reset. */
	quotaUsed(key: KeyRole = 'full'): number {
		return this.unitsUsed.get(this.organizationOf(key)) ?? 0;
	}

	/** The organization a demo key belongs to (as /tokens/test reports it). */
	organizationOf(key: KeyRole): number {
		return KEY_OWNERS[key].organization_id;
	}

	/**
	 * The fake's clock, ms since the epoch: the host's time plus its offset (`clockOffsetMs`, then
	 * {@link advanceClock} and {@link setClockOffset}). It dates requests, quota sessions, token expiry,
	 * assignments and {@link addCredentials}; rate limits keep real time.
	 */
	now(): number {
		return Date.now() + this.clockOffset;
	}

	/** The fake's clock minus the host's, in ms. */
	get clockOffsetMs(): number {
		return this.clockOffset;
	}

	/** Moves the fake's clock forward (until the next reset). */
	/** Refuses every cursor handed out so far (422 `The cursor belongs to…` at `from`), as if expired. */
	expireCursors(): void {
		expireCursors();
	}

	advanceClock(ms: number): void {
		if (!(ms >= 0)) throw new Error(`FakeFlare.advanceClock: ${ms} is not a duration`);
		this.clockOffset += ms;
	}

	/** Sets the fake's clock `ms` ahead of the host's (negative: behind), until the next reset. */
	setClockOffset(ms: number): void {
		if (!Number.isFinite(ms)) throw new Error(`FakeFlare.setClockOffset: ${ms} is not a number`);
		this.clockOffset = ms;
	}

	/** Stops both servers; held answers end with their connections, and stop() waits for them. */
	async stop(): Promise<void> {
		await Promise.all([
			new Promise<void>((resolve) => {
				this.server.close(() => resolve());
				this.server.closeAllConnections();
			}),
			this.otherOrigin.stop(),
		]);
		await Promise.all(this.held);
	}

	/**
	 * Fresh dataset and state: `options` over the options given to start() over the defaults. Clears tokens,
	 * the log (and the other origin's), faults, state, quota and rate-limit windows; the clock's offset
	 * returns to `clockOffsetMs`.
	 */
	reset(options: FakeFlareOptions = {}): void {
		this.currentOptions = resolveOptions(this.startOptions, options);
		this.resetData();
		this.routes = buildRoutes(this.currentOptions.productSegment);
		this.tokens = new Map();
		this.log = [];
		this.otherOrigin.clear();
		this.faults.clear();
		this.reportRequests = [];
		this.unitsUsed = new Map();
		this.sessions = new Map();
		this.nextDue = new Map();
		this.syntheticCursors = new Set();
		this.setClockOffset(this.currentOptions.clockOffsetMs);
	}

	/**
	 * The dataset as it was at the start (identifiers, policies, events and their tenant state) and no
	 * writes, the rest kept: tokens, the log, report requests, quota and rate limits. For checks that
	 * must each start from the same records, whatever the writes of the checks before them did.
	 */
	resetData(): void {
		this.writes = [];
		const { seed, credentials, domains, sameInstantGroup, startTime } = this.currentOptions;
		const { identifiers, policies, sources, searchOrder } = this.currentOptions;
		this.currentDataset = new Dataset({
			seed,
			credentials,
			domains,
			sameInstantGroup,
			startTime,
			searchOrder,
			identifiers,
			policies,
			sources,
		});
		this.feedApi = new FeedApi(this.currentDataset, this.currentOptions, (write) =>
			this.writes.push(write),
		);
		this.managementApi = new ManagementApi(
			this.currentDataset,
			{ quirks: this.currentOptions.quirks, now: () => this.now() },
			(write) => this.writes.push(write),
		);
		this.playbookApi = new PlaybookApi(
			this.currentDataset,
			this.feedApi.events,
			(tenantId) =>
				this.reportRequests
					.filter((request) => request.tenant_id === tenantId && request.outcome === 'completed')
					.map((request) => request.report),
			{
				tenants: this.currentOptions.tenants,
				startTime: this.currentOptions.startTime,
				quirks: this.currentOptions.quirks,
				now: () => this.now(),
				organizationId: KEY_OWNERS.full.organization_id,
				alertRuleStorage: this.currentOptions.alertRuleStorage,
			},
			(write) => this.writes.push(write),
		);
		this.administrationApi = new AdministrationApi(
			{
				tenants: this.feedApi.tenants(),
				others: this.currentOptions.otherOrganizationTenants,
				organizationId: KEY_OWNERS.full.organization_id,
				startTime: this.currentOptions.startTime,
				quirks: this.currentOptions.quirks,
			},
			(write) => this.writes.push(write),
		);
		this.reportingApi = new ReportingApi(this.currentOptions);
		this.threatFlowApi = new ThreatFlowApi(
			this.playbookApi,
			this.feedApi.events,
			() => this.now(),
			(write) => this.writes.push(write),
		);
	}

	/** Empties the request log, and the other origin's. */
	clearLog(): void {
		this.log = [];
		this.otherOrigin.clear();
	}

	/** The report request `requestId` ends in status `error` (no report) once its processing polls are over. */
	failReport(requestId: string): void {
		const stored = this.reportRequests.find((entry) => entry.request_id === requestId);
		if (!stored) throw new Error(`FakeFlare.failReport: no report request ${requestId}`);
		stored.outcome = 'error';
	}

	/** Every token issued since the last reset, with its tenant (tests: each must stay out of outputs). */
	issuedTokens(): Array<{ token: string; tenantId: number }> {
		return [...this.tokens].map(([token, record]) => ({ token, tenantId: record.tenantId }));
	}

	/** Every token issued so far answers 401 from now on. */
	expireAllTokens(): void {
		for (const record of this.tokens.values()) record.expiresAt = 0;
	}

	/**
	 * Adds `count` credentials imported at `importedAt` (default: now on the fake's clock, in whole
	 * seconds), which may be any date: in the past (they become searchable late, with higher ids than
	 * every record before them) or far in the future. `options` choose their domain, username, a null id
	 * or a null credential hash. Returns the dataset index of the first (`dataset.credential(first + k)`).
	 */
	addCredentials(count: number, importedAt?: string, options?: AddedCredentialOptions): number {
		const ms = importedAt ? dateTimeToMs(importedAt) : Math.floor(this.now() / 1000) * 1000;
		if (Number.isNaN(ms))
			throw new Error(`FakeFlare.addCredentials: invalid date-time ${importedAt}`);
		return this.currentDataset.append(count, ms, options);
	}

	/**
	 * Tallies the global searches of the request log from entry `since` on (e.g. `fake.requests.length`
	 * taken before a poll): requests, pages answered, their results and the quota units taken.
	 */
	globalSearches(since = 0): GlobalSearchTally {
		const tally: GlobalSearchTally = { requests: 0, pages: 0, results: 0, quotaCharged: 0 };
		for (const entry of this.log.slice(since)) {
			if (entry.tier !== 'search') continue;
			tally.requests++;
			tally.quotaCharged += entry.quotaCharged ?? 0;
			if (entry.status !== 200 || entry.results === undefined) continue;
			tally.pages++;
			tally.results += entry.results;
		}
		return tally;
	}

	/**
	 * Adds `count` leaked cookies of `domain` imported at `importedAt` (default: now on the fake's
	 * clock, in whole seconds; a date in the past makes them searchable late), named `name` (default
	 * `session`), expiring at `expiresAt` (default none: a session cookie); returns them as served.
	 */
	addCookies(
		count: number,
		options: {
			domain: string;
			importedAt?: string;
			name?: string;
			path?: string;
			expiresAt?: string | null;
			eventUid?: string;
		},
	): LeakedCookie[] {
		const importedMs = options.importedAt
			? dateTimeToMs(options.importedAt)
			: Math.floor(this.now() / 1000) * 1000;
		if (Number.isNaN(importedMs))
			throw new Error(`FakeFlare.addCookies: invalid date-time ${options.importedAt}`);
		return this.events.addCookies(count, {
			importedMs,
			domain: options.domain,
			name: options.name,
			path: options.path,
			expiresMs: options.expiresAt ? dateTimeToMs(options.expiresAt) : null,
			eventUid: options.eventUid,
		});
	}

	/** Appends events to a tenant's feed (default: the first tenant, now); returns their feed items. */
	addEvents(count: number, options?: AddEventsOptions) {
		return this.feedApi.addEvents(count, options);
	}

	/**
	 * Files an event of a tenant's feed (default: the first tenant) again, as entering it now on the
	 * fake's clock (events.ts `refile`); returns its new feed item.
	 */
	refileEvent(uid: string, tenantId = this.currentOptions.tenants[0]) {
		return this.events.refile(tenantId, uid, Math.floor(this.now() / 1000) * 1000);
	}

	/**
	 * Appends `count` events to a tenant's feed (as {@link addEvents}) and returns the alerts Flare's
	 * alert channel pushes for them (push.ts).
	 */
	newAlerts(count: number, options: AddEventsOptions = {}): FlareAlert[] {
		const tenantId = options.tenantId ?? this.currentOptions.tenants[0];
		return this.addEvents(count, options).map((item) =>
			alertFor(this.events, item.metadata.uid, tenantId),
		);
	}

	// ---- request pipeline ----

	private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
		const arrival = monotonicNow();
		const target = req.url ?? '/';
		const { path: rawPath, query } = splitTarget(target);
		const method = (req.method ?? 'GET').toUpperCase();
		const authorization = req.headers.authorization;
		const found = this.findRoute(method, rawPath);
		const key = this.keyOf(authorization);
		const entry: LoggedRequest = {
			method,
			path: rawPath,
			query,
			body: undefined,
			auth: authKind(authorization),
			userAgent: req.headers['user-agent'],
			key,
			status: 0,
			tier: found?.route.tier ?? 'basic',
			at: this.now(),
		};
		if (entry.auth === 'bearer') {
			entry.tokenValid = this.validToken(bearerToken(authorization)) !== undefined;
			entry.tenant = this.tokens.get(bearerToken(authorization) ?? '')?.tenantId;
		}
		this.log.push(entry);
		const queryStart = target.indexOf('?');
		const ctx: RequestContext = {
			method,
			target,
			rawPath,
			query,
			rawQuery: queryStart === -1 ? '' : target.slice(queryStart + 1),
			rawBody: '',
			route: found?.route,
			params: found?.params ?? [],
			authorization,
			key,
			arrival,
			entry,
		};

		try {
			ctx.rawBody = await readBody(req);
			entry.body = bodyForLog(ctx.rawBody);
			const rule = this.faults.take({ method, rawPath, key });
			const phase = rule?.phase ?? 'before';
			const fault = rule?.fault;
			if (fault && isPagingFault(fault)) ctx.pagingFault = fault;

			if (fault && phase === 'before' && (await this.misbehave(fault, ctx, req, res))) return;
			let reply = this.process(ctx);
			if (fault && 'repeatCursor' in fault) reply = repeatCursor(reply, ctx);
			if (fault && phase === 'after' && (await this.misbehave(fault, ctx, req, res, reply))) return;
			this.send(res, ctx, reply);
		} catch (error) {
			this.send(
				res,
				ctx,
				errorReply(500, 'INTERNAL_ERROR', `fake server error: ${(error as Error).message}`),
			);
		}
	}

	/**
	 * Applies a fault that delays, expires tokens, or answers in place of the API (then true). `processed`
	 * is the normal reply, in phase 'after'. Paging faults and repeatCursor shape the normal reply instead.
	 */
	private async misbehave(
		fault: Fault,
		ctx: RequestContext,
		req: http.IncomingMessage,
		res: http.ServerResponse,
		processed?: Reply,
	): Promise<boolean> {
		const now = () => this.now();
		if ('delayMs' in fault) await whileParked(sleep(fault.delayMs), res);
		else if ('expireTokens' in fault) this.expireAllTokens();
		else if ('reset' in fault) {
			ctx.entry.status = 0;
			req.socket.destroy();
			return true;
		} else if ('status' in fault) {
			this.send(res, ctx, faultReply(fault));
			return true;
		} else if ('malformedJson' in fault) {
			this.send(res, ctx, processed ? truncated(processed) : MALFORMED_PAGE);
			return true;
		} else if ('redirect' in fault) {
			const location = fault.redirect.to ?? this.otherOrigin.url + ctx.target;
			this.send(res, ctx, {
				status: fault.redirect.status,
				raw: `Redirecting to ${location}`,
				headers: { location, 'content-type': 'text/plain; charset=utf-8' },
			});
			return true;
		} else if ('drip' in fault) {
			await this.hold(drip(res, ctx.entry, now, fault.drip), res);
			return true;
		} else if ('endlessBody' in fault) {
			// Sent as fast as the client reads: real work under way, so virtual time stands still
			// (a Timeout cannot end it; only the client's size cap does).
			await this.hold(endlessBody(res, ctx.entry, now, fault.limitBytes), res, { parked: false });
			return true;
		} else if ('silent' in fault) {
			await this.hold(silent(res, ctx.entry, now), res);
			return true;
		}
		return false;
	}

	/**
	 * Keeps a held answer until it ends, so that stop() can wait for it. A parked answer (one that
	 * waits on time: a drip, silence) lets virtual time move while it is open.
	 */
	private async hold(answer: Promise<void>, res: http.ServerResponse, { parked = true } = {}): Promise<void> {
		this.held.add(answer);
		try {
			await (parked ? whileParked(answer, res) : answer);
		} finally {
			this.held.delete(answer);
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

	/** Sends a reply; every answer of the global search says the quota left to the key's organization. */
	private send(res: http.ServerResponse, ctx: RequestContext, reply: Reply): void {
		const headers: Record<string, string> = {};
		for (const [key, value] of Object.entries(reply.headers ?? {}))
			headers[key.toLowerCase()] = value;
		if (ctx.route?.tier === 'search' && ctx.key) {
			headers['x-flare-global-searches-remaining'] ??= String(
				this.unitsLeft(this.organizationOf(ctx.key)),
			);
		}
		// Flare's clock, as any HTTP server sends it (Node's own would be the real time).
		headers.date ??= new Date(this.now()).toUTCString();
		let payload: string | Buffer = '';
		if (reply.raw !== undefined) {
			payload = reply.raw;
			headers['content-type'] ??= 'application/json';
		} else if (reply.body !== undefined) {
			payload = JSON.stringify(reply.body);
			headers['content-type'] ??= 'application/json';
		}
		ctx.entry.status = reply.status;
		res.writeHead(reply.status, headers);
		res.end(payload);
	}

	/** Route → auth → entitlement → rate limit → validation → quota → handler. */
	private process(ctx: RequestContext): Reply {
		const { route } = ctx;
		try {
			if (!route) return errorReply(404, 'NOT_FOUND', `no route for ${ctx.method} ${ctx.rawPath}`);
			if (route.name === 'tokenGenerate') return this.generateToken(ctx);
			ctx.token = this.authenticate(ctx);
			if (route.needs === 'astp' && ctx.token.role === 'noAstp')
				return errorReply(403, 'FORBIDDEN', MESSAGES.astp);
			if (route.needs === 'threatIntel' && ctx.token.role === 'noThreatIntel') {
				return errorReply(403, 'FORBIDDEN', MESSAGES.threatIntel);
			}
			this.rateLimit(route.tier, this.organizationOf(ctx.token.role), ctx.arrival);
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
			case 'eventSearch':
				return this.eventSearch(ctx);
			case 'byAccounts':
				return this.byAccounts(ctx);
			case 'listGroups':
			case 'createGroup':
			case 'getGroup':
			case 'deleteGroup':
			case 'renameGroup':
			case 'createPolicy':
			case 'getPolicy':
			case 'updatePolicy':
			case 'deletePolicy':
			case 'listAssignments':
			case 'unassignPolicy':
				return this.managementApi.handle(name, this.handlerRequest(ctx));
			case 'listAlertRules':
			case 'listAlertChannels':
			case 'createAlertChannel':
			case 'listAssetAlerts':
			case 'createAssetAlert':
			case 'updateAssetAlert':
			case 'deleteAssetAlert':
			case 'listGroupAlerts':
			case 'createGroupAlert':
			case 'updateGroupAlert':
			case 'deleteGroupAlert':
			case 'listRecommendations':
			case 'recommendationActions':
			case 'aiAssistance':
			case 'listThreatReports':
			case 'getThreatReport':
			case 'downloadThreatReport':
				return this.playbookApi.handle(name, this.handlerRequest(ctx));
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
			case 'organizationTenants':
			case 'createTenant':
			case 'getTenant':
			case 'updateTenant':
			case 'archiveTenant':
			case 'listTenantUsers':
			case 'addTenantUsers':
			case 'removeTenantUser':
			case 'listMembers':
			case 'getMember':
			case 'updateMember':
			case 'enableMember':
			case 'disableMember':
			case 'memberTenants': {
				const { role } = ctx.token!;
				const admin = ORGANIZATION_ADMINS.includes(role) ? KEY_OWNERS[role].organization_id : undefined;
				return this.administrationApi.handle(name, this.handlerRequest(ctx), admin);
			}
			case 'listReports':
			case 'getReport':
			case 'downloadReport':
				return this.reportingApi.handle(name, this.handlerRequest(ctx));
			case 'deleteThreatReport':
			case 'publishThreatReport':
			case 'relatedConversation':
				return this.threatFlowApi.handle(name, this.handlerRequest(ctx));
			case 'reportStatus':
				return this.reportStatus(ctx);
			default: {
				const reply = this.feedApi.handle(name, this.handlerRequest(ctx));
				// The feeds' pages: what each held once the tenant's filters had dropped their events.
				const items = (reply.body as { items?: unknown } | undefined)?.items;
				if (reply.status === 200 && Array.isArray(items)) ctx.entry.results ??= items.length;
				return reply;
			}
		}
	}

	/** What a module's handler gets: the request, its tenant, and the server's paging method. */
	private handlerRequest(ctx: RequestContext): HandlerRequest {
		return {
			...ctx,
			tenantId: ctx.token!.tenantId,
			pages: (walk, read) => this.cursorPage(ctx, walk, read),
		};
	}

	// ---- auth, limits, quota ----

	/** The demo key of a request: the key itself, or the key a token (even an expired one) was issued for. */
	private keyOf(authorization: string | undefined): KeyRole | undefined {
		const token = bearerToken(authorization);
		if (token !== undefined) return this.tokens.get(token)?.role;
		const key = authorization?.trim();
		return (Object.keys(this.apiKeys) as KeyRole[]).find((role) => this.apiKeys[role] === key);
	}

	private validToken(token: string | undefined): TokenRecord | undefined {
		const record = token === undefined ? undefined : this.tokens.get(token);
		return record && this.now() < record.expiresAt ? record : undefined;
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
		if (this.now() >= record.expiresAt)
			throw new Halt(errorReply(401, 'UNAUTHORIZED', 'token expired'));
		return record;
	}

	/**
	 * One request per 1/rate s per organization and tier, timed by arrival (monotonic time: virtual in jest), as a generic
	 * cell rate algorithm: each accepted request moves the tier's next due time one interval on, and a
	 * request may arrive at most `rateLimitToleranceMs` before it is due (the jitter of the way to the
	 * server), so the rate holds on average and no burst gets through.
	 */
	private rateLimit(tier: Tier, organization: number, arrival: number): void {
		if (tier === 'token') return;
		const rate = this.currentOptions.rateLimits[tier];
		if (!rate || rate <= 0) return;
		const interval = 1000 / rate;
		const window = `${organization}/${tier}`;
		const due = this.nextDue.get(window) ?? arrival;
		const earliest = due - this.currentOptions.rateLimitToleranceMs;
		if (arrival < earliest) {
			const waitSeconds = (earliest - arrival) / 1000;
			const headers: Record<string, string> = {};
			if (this.currentOptions.retryAfter === 'integer')
				headers['Retry-After'] = String(Math.max(1, Math.ceil(waitSeconds)));
			if (this.currentOptions.retryAfter === 'precise')
				headers['Retry-After'] = Math.max(0.001, waitSeconds).toFixed(3);
			throw new Halt(errorReply(429, 'RATELIMIT_REACHED', 'ratelimit reached', headers));
		}
		this.nextDue.set(window, Math.max(due, arrival) + interval);
	}

	private unitsLeft(organization: number): number {
		return this.currentOptions.quota - (this.unitsUsed.get(organization) ?? 0);
	}

	/**
	 * Charges a global search of `query` that counts `results` (see the README's quota model): the
	 * increase of its session's units. Refused when it needs a unit and none is left; when it needs more
	 * than are left, it takes those. Returns whether the session's batch is now full.
	 */
	private chargeQuota(ctx: RequestContext, query: unknown, results: number): boolean {
		const organization = this.organizationOf(ctx.token!.role);
		const key = `${organization}:${ctx.route!.name}:${JSON.stringify(query)}`;
		const now = ctx.entry.at;
		const open = this.sessions.get(key);
		const session =
			open && now - open.startedAt < QUOTA_SESSION_MS
				? open
				: { startedAt: now, counted: 0, units: 0 };
		const counted = session.counted + results;
		const units = Math.max(1, Math.ceil(counted / RESULTS_PER_UNIT));
		const left = this.unitsLeft(organization);
		if (units > session.units && left <= 0) throw new Halt(this.quotaExhausted());
		const charged = Math.min(units - session.units, left);
		this.sessions.set(key, { startedAt: session.startedAt, counted, units });
		this.unitsUsed.set(organization, (this.unitsUsed.get(organization) ?? 0) + charged);
		ctx.entry.quotaCharged = charged;
		return counted >= units * RESULTS_PER_UNIT;
	}

	private quotaExhausted(): Reply {
		return this.currentOptions.quotaExhaustion === 'remainingThen403'
			? errorReply(403, 'FORBIDDEN', 'global search quota exceeded')
			: errorReply(
					429,
					'QUOTA_EXCEEDED',
					'global search quota exceeded: no global searches remaining',
				);
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
		const expiresAt = this.now() + this.currentOptions.tokenLifetimeMs;
		this.tokens.set(token, { role, tenantId, expiresAt });
		return jsonReply(200, { token, refresh_token_exp: Math.floor(expiresAt / 1000) });
	}

	private tokenTest(ctx: RequestContext): Reply {
		const { role, tenantId } = ctx.token!;
		return jsonReply(200, { ...KEY_OWNERS[role], tenant_id: tenantId });
	}

	/**
	 * One page of a `from`/`next` walk: checks `from` against the other parameters (`scope` + `params`),
	 * lets `read` fetch the page at the cursor (undefined: the first page), encodes its `next`, and
	 * applies the request's paging fault. Every route that pages with `from`/`next` goes through here.
	 */
	private cursorPage<T, P = number>(
		ctx: RequestContext,
		walk: PageWalk<P>,
		read: PageRead<T, P>,
	): { items: T[]; next: string | null } {
		const { from } = walk;
		const print = fingerprint(walk.scope, walk.params);
		const synthetic = from ? this.syntheticCursors.has(from) : false;
		const cursor =
			from && !synthetic ? cursorFor(from, print, walk.location, walk.isPosition) : undefined;
		const page = read(cursor);
		const next = page.next && encodeCursor({ ...page.next, f: print });
		const answer = (items: T[], next: string | null) => {
			ctx.entry.results = items.length;
			return { items, next };
		};
		const fault = ctx.pagingFault;
		if (!fault) return answer(page.items, next);
		if ('cursorCycle' in fault) {
			const cycle = fault.cursorCycle;
			for (const entry of cycle) this.syntheticCursors.add(entry);
			const position = from ? cycle.indexOf(from) : -1;
			return answer(page.items, cycle[(position + 1) % cycle.length]);
		}
		const fresh = `fresh-${randomBytes(8).toString('hex')}`;
		this.syntheticCursors.add(fresh);
		if ('freshEmptyPages' in fault) return answer([], fresh);
		return answer(cursor ? read(undefined).items : page.items, fresh);
	}

	/** The global search: a search_after walk in the order `searchOrder` says (see search-after.ts). */
	private search(ctx: RequestContext): Reply {
		const body = parseWith(GlobalSearchBody, jsonBody(ctx), 'body');
		const { from, ...params } = body;
		const data = this.currentDataset;
		const { quirks, endCursor } = this.currentOptions;
		const page = this.cursorPage<number, SortKey | null>(
			ctx,
			{
				scope: 'search',
				params,
				from,
				location: 'body',
				isPosition: (p): p is SortKey | null => p === null || data.isSortKey(p),
			},
			(cursor) => data.searchPage(body, cursor, { quirks, endCursor, cap: SCAN_CAP }),
		);
		const results =
			this.currentOptions.quotaReading === 'requested' ? body.size : page.items.length;
		const batchReached = this.chargeQuota(ctx, body.query, results);
		return jsonReply(
			200,
			{ items: page.items.map((index) => data.credential(index, body.include)), next: page.next },
			batchReached ? { 'X-Flare-Global-Searches-Batch-Reached': 'true' } : undefined,
		);
	}

	/**
	 * The global event search: every event of the fake (EventStore.globalAll), paged by position with
	 * the paging quirks and faults, charged to the quota as the credential search is (its sessions
	 * apart: keyed by route and query).
	 */
	private eventSearch(ctx: RequestContext): Reply {
		const body = parseWith(GlobalEventSearchBody, jsonBody(ctx), 'body');
		const { from, ...params } = body;
		const tenantId = ctx.token!.tenantId;
		const events = this.feedApi.events.globalAll(tenantId, body);
		const page = this.cursorPage(
			ctx,
			{ scope: `event-search:${tenantId}`, params, from, location: 'body' },
			(cursor) => this.positionsPage(cursor, events.length, body.size),
		);
		const results =
			this.currentOptions.quotaReading === 'requested' ? body.size : page.items.length;
		const batchReached = this.chargeQuota(ctx, body.query, results);
		return jsonReply(
			200,
			{ items: page.items.map((j) => events[j]), next: page.next },
			batchReached ? { 'X-Flare-Global-Searches-Batch-Reached': 'true' } : undefined,
		);
	}

	/**
	 * The identities of 1 to 100 exact accounts, as an object keyed by the account sent: its first 100
	 * passwords, and `links.next` when it has more (an e-mail matches its identity; a username, the
	 * identity of that exact name, none in this dataset).
	 */
	private byAccounts(ctx: RequestContext): Reply {
		const body = parseWith(ByAccountsBody, jsonBody(ctx), 'body');
		const answer: Record<string, IdentityRecord> = {};
		for (const account of body.accounts) answer[account] = this.accountIdentity(account);
		return jsonReply(200, answer);
	}

	/** The oracle of one account of by_accounts. */
	accountIdentity(account: string): IdentityRecord {
		const data = this.currentDataset;
		const lower = account.toLowerCase();
		const found = lower.includes('@')
			? data
					.identityPage(data.keywordMatcher(lower), 0, BY_ACCOUNTS_PASSWORDS + 1)
					.find((identity) => identity.name.toLowerCase() === lower)
			: undefined;
		const passwords = found?.passwords ?? [];
		return {
			name: account,
			links:
				passwords.length > BY_ACCOUNTS_PASSWORDS
					? {
							next: `${this.url}/leaksdb/identities/by_keyword/${encodeURIComponent(lower)}?from=${passwords[BY_ACCOUNTS_PASSWORDS - 1].id}`,
						}
					: {},
			passwords: passwords.slice(0, BY_ACCOUNTS_PASSWORDS),
		};
	}

	private urlsByHash(ctx: RequestContext): Reply {
		const body = parseWith(UrlsByHashBody, jsonBody(ctx), 'body');
		const { from, ...params } = body;
		const data = this.currentDataset;
		const index = data.indexOfCredentialHash(body.credential_hash);
		const count = index === -1 ? 0 : data.urlCount(index);
		const page = this.cursorPage(ctx, { scope: 'urls', params, from, location: 'body' }, (cursor) =>
			this.positionsPage(cursor, count, body.size),
		);
		return jsonReply(200, {
			items: page.items.map((j) => data.urlRecord(index, j)),
			next: page.next,
		});
	}

	/** The positions of one page over `count` records, with the paging quirks. */
	private positionsPage(
		cursor: Cursor | undefined,
		count: number,
		size: number,
	): { items: number[]; next: Omit<Cursor, 'f'> | null } {
		return positionsPage(cursor, count, size, this.currentOptions.quirks);
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

		const assignedAt = isoWithOffset(this.now());
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

	/** One page of a list endpoint: a `from`/`next` walk over `records`, bound to the other query parameters. */
	private listPage<T>(
		ctx: RequestContext,
		scope: string,
		query: { from?: string; size: number },
		records: T[],
	): { items: T[]; next: string | null } {
		const { from, ...params } = query;
		const page = this.cursorPage(ctx, { scope, params, from, location: 'query' }, (cursor) =>
			this.positionsPage(cursor, records.length, query.size),
		);
		return { items: page.items.map((j) => records[j]), next: page.next };
	}

	private listIdentifiers(ctx: RequestContext): Reply {
		const types = new URLSearchParams(ctx.rawQuery).getAll('types');
		const input = types.length > 0 ? { ...ctx.query, types } : ctx.query;
		const query = parseWith(IdentifierListQuery, input, 'query');
		const records = this.currentDataset
			.identifiers(ctx.token!.tenantId, query.order_by)
			.filter(identifierFilter(query));
		return jsonReply(200, this.listPage(ctx, 'identifiers', query, records));
	}

	private listPolicies(ctx: RequestContext): Reply {
		const query = parseWith(MatchingPolicyListQuery, ctx.query, 'query');
		const policies = this.currentDataset.policies();
		if (query.order === 'desc') policies.reverse();
		return jsonReply(200, this.listPage(ctx, 'policies', query, policies));
	}

	/**
	 * Every tenant of the organization, for its administrator's key only (the `full` key: the others
	 * are members, refused 403, as is any other organization); paged by `from`/`next`.
	 */
	private listSources(ctx: RequestContext): Reply {
		const query = parseWith(SourceListQuery, ctx.query, 'query');
		const page = this.listPage(ctx, 'sources', query, this.currentDataset.sources());
		return jsonReply(200, { cursors: [], items: page.items, next: page.next, total_count: null });
	}
}

/**
 * The report a report request completes with: a deterministic function of its sequence number since
 * the last reset (1 = first), its body, its tenant, when it was created and the events of the dataset.
 * Related events are those whose content names an included keyword (none excluded), else the first 3.
 */
/** The planted values of report number `sequence`: in its summary, its content and a highlight. */
export function plantedInReport(sequence: number): [string, string, string] {
	const [summary, content, highlight] = ['summary', 'content', 'highlight'].map((part) =>
		plantedSecret('', `report-${sequence}-${part}`),
	);
	return [summary, content, highlight];
}

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
	// A report quotes what the events say, leaked credentials included (planted.ts).
	const [inSummary, inContent, inHighlight] = plantedInReport(sequence);
	return {
		id: 880000 + sequence,
		format_type: 'simple_summary',
		title: body.report_title,
		subtitle: body.question ?? null,
		summary: `Flare found ${related.length} related events about ${topic} (time range: ${range}); one quotes admin@initech.com:${inSummary} as a working login.`,
		content: [
			`# ${body.report_title}`,
			'',
			...related.map((uid) => `- Event ${uid}`),
			'',
			`Sample of the dump: https://vpn.initech.com/login:jdoe:${inContent}`,
		].join('\n'),
		tags: body.included_keywords ?? [],
		highlights: [
			`${related.length} related events`,
			excluded.length ? `Excluded: ${excluded.join(', ')}` : 'No exclusions',
			`Credential for sale: ftp://backup:${inHighlight}@files.initech.com/`,
		],
		related_activity_uids: related,
		created_at: isoWithOffset(Math.floor(createdAtMs / 1000) * 1000),
		tenant_id: tenantId,
	};
}

// ---- helpers of the pipeline ----

const MALFORMED_PAGE: Reply = {
	status: 200,
	raw: '{"items": [{"id": 1, "identity_name": "trunc',
};

/** The reply with its JSON cut in half. */
function truncated(reply: Reply): Reply {
	const text = JSON.stringify(reply.body ?? {});
	return { ...reply, raw: text.slice(0, Math.max(1, Math.floor(text.length / 2))) };
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
