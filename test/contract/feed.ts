/**
 * The event feeds and what goes with them (docs/feed-endpoints.md): the tenant and identifier feeds,
 * event and credential actions, the full event of GET /{segment}/v2/activities/, the tenant credentials
 * feed, the user's tenants and the event filter values. Requests are strict; responses tolerate extras.
 */
import { z } from 'zod';

import { DateTimeInput, DateTimeWithOffset } from './primitives';
import { pageOf } from './resources';
import { ActivityModelName, SearchType, Severity } from './taxonomy';

// ---- feeds: POST /{segment}/v4/events/tenant/_search and …/identifiers/{identifier_id}/_search ----

/** The thirteen query kinds of `FeedRequestBody.query`, discriminated on `type`. */
export const FeedQuery = z.discriminatedUnion('type', [
	z
		.object({ type: z.literal('github_repository'), repo_owner: z.string(), repo_name: z.string() })
		.strict(),
	z.object({ type: z.literal('username'), username: z.string() }).strict(),
	z.object({ type: z.literal('domain'), fqdn: z.string() }).strict(),
	z.object({ type: z.literal('brand'), name: z.string() }).strict(),
	z
		.object({
			type: z.literal('name'),
			first_name: z.string(),
			last_name: z.string(),
			is_strict: z.boolean(),
		})
		.strict(),
	z.object({ type: z.literal('keyword'), keyword: z.string() }).strict(),
	z.object({ type: z.literal('query_string'), query_string: z.string().max(10000) }).strict(),
	z.object({ type: z.literal('bin'), bin: z.string() }).strict(),
	z.object({ type: z.literal('ip'), ip: z.string() }).strict(),
	z.object({ type: z.literal('email'), email: z.string() }).strict(),
	z.object({ type: z.literal('secret'), secret: z.string() }).strict(),
	z.object({ type: z.literal('credentials'), username: z.string(), password: z.string() }).strict(),
	z.object({ type: z.literal('azure_tenant'), tenant_id: z.string() }).strict(),
]);
export type FeedQuery = z.infer<typeof FeedQuery>;
export type FeedQueryType = FeedQuery['type'];

/** `FeedDateFilter`: every bound optional, each a date-time (no offset = UTC). */
export const FeedDateFilter = z
	.object({
		gt: DateTimeInput.nullable().optional(),
		gte: DateTimeInput.nullable().optional(),
		lt: DateTimeInput.nullable().optional(),
		lte: DateTimeInput.nullable().optional(),
	})
	.strict();
export type FeedDateFilter = z.infer<typeof FeedDateFilter>;

/**
 * `FeedFilters`. `severity`: one value means that severity or higher, an array means exactly those.
 * `is_ignored`/`is_remediated` default to false: ignored or remediated events are left out unless asked.
 */
export const FeedFilters = z
	.object({
		severity: z.union([Severity, z.array(Severity)]).optional(),
		type: z.array(SearchType).optional(),
		estimated_created_at: FeedDateFilter.optional(),
		materialized_at: FeedDateFilter.optional(),
		tags: z.array(z.string()).optional(),
		is_ignored: z.boolean().default(false),
		is_remediated: z.boolean().default(false),
	})
	.strict();
export type FeedFilters = z.infer<typeof FeedFilters>;

/** `FeedRequestBody`: every field optional; pages of at most 10. */
export const FeedRequestBody = z
	.object({
		query: FeedQuery.nullable().optional(),
		filters: FeedFilters.optional(),
		order: z.enum(['asc', 'desc']).default('desc'),
		from: z.string().nullable().optional(),
		size: z.number().int().min(1).max(10).default(10),
	})
	.strict();
export type FeedRequestBody = z.infer<typeof FeedRequestBody>;
export type FeedRequestBodyInput = z.input<typeof FeedRequestBody>;

export const FeedItemMetadata = z.object({
	uid: z.string(),
	estimated_created_at: DateTimeWithOffset,
	matched_at: DateTimeWithOffset.nullable(),
	type: ActivityModelName,
	severity: Severity,
	flare_url: z.string().url(),
});

/** The tenant's own view of an event; `severity` is set when the tenant overrode it. */
export const FeedItemTenantMetadata = z.object({
	severity: z.object({ original: Severity, override: Severity }).nullable().optional(),
	notes: z.string().nullable().optional(),
	tags: z.array(z.string()).optional(),
	remediated_at: DateTimeWithOffset.nullable().optional(),
	ignored_at: DateTimeWithOffset.nullable().optional(),
});

/** `FeedItem`: only `metadata` is required. */
export const FeedItem = z.object({
	metadata: FeedItemMetadata,
	tenant_metadata: FeedItemTenantMetadata.optional(),
	identifiers: z.array(z.object({ id: z.number().int(), name: z.string() })).optional(),
	highlights: z.record(z.array(z.string())).optional(),
});
export type FeedItem = z.infer<typeof FeedItem>;

/** `PaginatedResults[FeedItem, str]`. */
export const FeedPage = pageOf(FeedItem);
export type FeedPage = z.infer<typeof FeedPage>;

// ---- actions: POST /{segment}/v4/events/actions and /{segment}/v4/credentials/actions ----

export const ActionType = z.enum(['remediate', 'unremediate', 'ignore', 'unignore']);
export type ActionType = z.infer<typeof ActionType>;

/** `EventActionsBody`: at most 10 targets. */
export const EventActionsBody = z
	.object({
		targets: z.array(z.object({ uid: z.string() }).strict()).max(10),
		action: z.object({ type: ActionType }).strict(),
	})
	.strict();
export type EventActionsBody = z.infer<typeof EventActionsBody>;

/** `CredentialActionRequestBody`: at most 100 targets, by `credential_hash`. */
export const CredentialActionsBody = z
	.object({
		targets: z.array(z.object({ credential_hash: z.string() }).strict()).max(100),
		action: z.object({ type: ActionType }).strict(),
	})
	.strict();
export type CredentialActionsBody = z.infer<typeof CredentialActionsBody>;

// ---- full event: GET /{segment}/v2/activities/?uid= ----

/** Query of GET /{segment}/v2/activities/. */
export const ActivityQuery = z.object({ uid: z.string().min(1) });

/** The crawl metadata of a full event. */
export const ActivityMetadata = z.object({
	estimated_created_at: DateTimeWithOffset,
	first_crawled_at: DateTimeWithOffset.nullable(),
	last_crawled_at: DateTimeWithOffset.nullable(),
	scraped_at: DateTimeWithOffset.nullable(),
	source: z.string(),
	flare_url: z.string().url(),
});

/** The part of a full event every type shares; `tags`, `notes`, the risk override and the states are the tenant's. */
export const ActivityHeader = z.object({
	uid: z.string(),
	type: z.string(),
	id: z.string().nullable(),
	title: z.string(),
	source: z.string(),
	source_name: z.string(),
	actor: z.string().nullable(),
	content_preview: z.string(),
	timestamp: DateTimeWithOffset,
	risk: z.object({ score: z.number().int().min(1).max(5) }),
	user_risk_score: z.number().int().min(1).max(5).nullable(),
	tags: z.array(z.string()),
	notes: z.string().nullable(),
	ignored_at: DateTimeWithOffset.nullable(),
	remediated_at: DateTimeWithOffset.nullable(),
});

/**
 * Response of GET /{segment}/v2/activities/: `{activity: {data, header, metadata, …}}`. `data` changes
 * with the event type (docs/event-types/*), so only its common fields are checked.
 */
export const FullEvent = z.object({
	activity: z.object({
		data: z
			.object({ uid: z.string(), index: z.string(), metadata: ActivityMetadata })
			.passthrough(),
		header: ActivityHeader.passthrough(),
		metadata: ActivityMetadata,
		duplicates: z.array(z.unknown()),
		similar_items: z.array(z.unknown()),
		history_logs: z.unknown(),
	}),
});
export type FullEvent = z.infer<typeof FullEvent>;

/** The legacy v2 error body (`HttpError`), e.g. 404 "Activity not found". */
export const LegacyHttpError = z.object({ message: z.string(), code: z.string() });
export type LegacyHttpError = z.infer<typeof LegacyHttpError>;

// ---- filter values: GET /{segment}/v4/events/filters/types and …/severities ----

const FilterOption = z.object({ value: z.string(), label: z.string() });

/** `FilterSourceTypes`: categories, each with the base types it contains. */
export const FilterSourceTypes = z.object({
	categories: z.array(FilterOption.extend({ types: z.array(FilterOption).optional() })),
});
export type FilterSourceTypes = z.infer<typeof FilterSourceTypes>;

/** `FilterSeverities`. */
export const FilterSeverities = z.object({
	severities: z.array(FilterOption.extend({ color: z.string() })),
});
export type FilterSeverities = z.infer<typeof FilterSeverities>;

// ---- tenants: GET /{segment}/v2/me/tenants ----

export const Tenant = z.object({ id: z.number().int(), name: z.string() });
export type Tenant = z.infer<typeof Tenant>;

/** `{tenants: [{id, name}]}`, as the Splunk app reads it (the docs give no schema). */
export const TenantList = z.object({ tenants: z.array(Tenant) });
export type TenantList = z.infer<typeof TenantList>;

// ---- the organization's tenants: GET /{segment}/v2/organizations/{organization_id}/tenants ----

/**
 * Query: documented with none; the sibling organization lists (members, a member's tenants) take
 * `size` (default 20) and `from`, which the node bets on (docs/api-contract.md). The fake's maximum
 * page is 100.
 */
export const OrganizationTenantsQuery = z.object({
	size: z.coerce.number().int().min(1).max(100).default(20),
	from: z.string().optional(),
});
export type OrganizationTenantsQuery = z.infer<typeof OrganizationTenantsQuery>;

/** `Tenant` of the v2 OpenAPI (a subset of its fields; all documented, none required). */
export const OrganizationTenant = Tenant.extend({
	type: z.string(),
	description: z.string(),
	organization_id: z.number().int(),
	industry: z.string(),
	is_disabled: z.boolean(),
	is_archived: z.boolean(),
	prevent_global_search: z.boolean(),
});
export type OrganizationTenant = z.infer<typeof OrganizationTenant>;

/** `TenantWithCounts`: `{items, next}` (the OpenAPI's `items` is itself `TenantWithCounts`: a list is meant). */
export const OrganizationTenantPage = z.object({
	items: z.array(OrganizationTenant),
	next: z.string().nullable(),
});
export type OrganizationTenantPage = z.infer<typeof OrganizationTenantPage>;

// ---- tenant credentials feed: GET /{segment}/v2/me/feed/credentials ----

/** Query: `size` (default 20; the fake's maximum is 100), `from`, `order_type` (default desc). */
export const TenantCredentialsQuery = z.object({
	size: z.coerce.number().int().min(1).max(100).default(20),
	from: z.string().optional(),
	order_type: z.enum(['asc', 'desc']).default('desc'),
});
export type TenantCredentialsQuery = z.infer<typeof TenantCredentialsQuery>;

/** The v2 `source` of a tenant credential. */
export const TenantCredentialSource = z.object({
	id: z.string(),
	name: z.string(),
	description_en: z.string(),
	description_fr: z.string(),
	breached_at: DateTimeWithOffset.nullable(),
	leaked_at: DateTimeWithOffset.nullable(),
	pii_tags: z.array(z.string()),
});

/** `LeakActivityCredential`, with the tenant's remediated/ignored states. */
export const TenantCredential = z.object({
	id: z.number().int(),
	source_id: z.string(),
	imported_at: DateTimeWithOffset,
	identity_name: z.string(),
	hash: z.string(),
	domain: z.string(),
	source: TenantCredentialSource,
	remediated_at: DateTimeWithOffset.nullable().optional(),
	ignored_at: DateTimeWithOffset.nullable().optional(),
	known_password_id: z.number().int().optional(),
	credential_hash: z.string().regex(/^[0-9a-f]{32}$/),
});
export type TenantCredential = z.infer<typeof TenantCredential>;

/** `PaginatedCredentials` (`items` is an array; the v2 OpenAPI's single object is a conversion slip). */
export const TenantCredentialPage = pageOf(TenantCredential);
export type TenantCredentialPage = z.infer<typeof TenantCredentialPage>;

// ---- the global event search: POST /{segment}/v4/events/global/_search ----

/** `GlobalSearchRequestBody`: the feeds' body with a required query (pages of at most 10). */
export const GlobalEventSearchBody = FeedRequestBody.extend({ query: FeedQuery });
export type GlobalEventSearchBody = z.infer<typeof GlobalEventSearchBody>;
export type GlobalEventSearchBodyInput = z.input<typeof GlobalEventSearchBody>;

/** `GlobalFeedItem`: a feed item without `identifiers`. */
export const GlobalFeedItem = FeedItem.omit({ identifiers: true });
export type GlobalFeedItem = z.infer<typeof GlobalFeedItem>;

// ---- tenant metadata: PATCH /{segment}/v4/events/tenant/metadata?uid= ----

export const TenantMetadataQuery = z.object({ uid: z.string().min(1) });

/** `UpdateTenantMetadataBody`: every field optional, each nullable. */
export const TenantMetadataBody = z
	.object({
		tags: z.array(z.string()).nullable().optional(),
		severity: Severity.nullable().optional(),
		notes: z.string().nullable().optional(),
	})
	.strict();
export type TenantMetadataBody = z.infer<typeof TenantMetadataBody>;

/** `TenantMetadataResponse`. */
export const TenantMetadataResponse = z.object({
	uid: z.string(),
	notes: z.string().nullable(),
	tags: z.array(z.string()),
	severity: z.string().nullable(),
});
export type TenantMetadataResponse = z.infer<typeof TenantMetadataResponse>;

// ---- a stealer log's cookies or credentials: GET /{segment}/v4/events/_expand (beta) ----

/** Query: `field` (credentials or cookies), `uid`, `from`, `size` (1 to 20, default 20). */
export const ExpandQuery = z.object({
	field: z.enum(['credentials', 'cookies']),
	uid: z.string().min(1),
	from: z.string().optional(),
	size: z.coerce.number().int().min(1).max(20).default(20),
});
export type ExpandQuery = z.infer<typeof ExpandQuery>;

/** `StealerLogCredential`. */
export const StealerLogCredential = z.object({
	url: z.string(),
	username: z.string(),
	password: z.string(),
	application: z.string(),
});
export type StealerLogCredential = z.infer<typeof StealerLogCredential>;

/** `StealerLogCookie`. */
export const StealerLogCookie = z.object({
	host_key: z.string(),
	path: z.string(),
	expires_utc: z.string().nullable(),
	name: z.string(),
	value: z.string(),
});
export type StealerLogCookie = z.infer<typeof StealerLogCookie>;

// ---- one identifier's credentials: GET /{segment}/v3/identifiers/{identifier_id}/feed/credentials ----

/** Query: `size` (default 20; the fake's maximum is 100), `from`. */
export const IdentifierCredentialsQuery = z.object({
	size: z.coerce.number().int().min(1).max(100).default(20),
	from: z.string().optional(),
});
export type IdentifierCredentialsQuery = z.infer<typeof IdentifierCredentialsQuery>;
