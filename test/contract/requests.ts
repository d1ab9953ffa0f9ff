/**
 * Request shapes (spec §4, defaults from contract-decisions.md). Bodies are strict: an unknown field is a
 * validation error, so tests catch a node sending something the API does not define.
 * Each schema's type is the parsed form (defaults applied); `...Input` types are what a client may send.
 */
import { z } from 'zod';

import { IdentifierType } from './identifiers';
import { DateTimeInput, dateTimeToMs, Uuid } from './primitives';
import { PolicyValue } from './resources';

const NonEmpty = z.string().min(1);

/** The five query shapes of the global credential search, discriminated on `type`. */
export const CredentialQuery = z.discriminatedUnion('type', [
	z.object({ type: z.literal('domain'), fqdn: NonEmpty }).strict(),
	z.object({ type: z.literal('auth_domain'), fqdn: NonEmpty }).strict(),
	z.object({ type: z.literal('secret'), secret: NonEmpty }).strict(),
	z.object({ type: z.literal('email'), email: NonEmpty }).strict(),
	z.object({ type: z.literal('keyword'), keyword: NonEmpty }).strict(),
]);
export type CredentialQuery = z.infer<typeof CredentialQuery>;

export const IncludeOption = z.enum(['known_password_id', 'auth_domains', 'urls']);
export type IncludeOption = z.infer<typeof IncludeOption>;

/** Body of POST /{segment}/v4/credentials/global/_search. */
export const GlobalSearchBody = z
	.object({
		query: CredentialQuery,
		filters: z
			.object({
				imported_at: z
					.object({
						gte: DateTimeInput.nullable().optional(),
						lte: DateTimeInput.nullable().optional(),
					})
					.strict()
					.optional(),
			})
			.strict()
			.optional(),
		from: z.string().nullable().optional(),
		size: z.number().int().min(1).max(10000).default(10),
		include: z.array(IncludeOption).optional(),
		order: z.enum(['asc', 'desc']).default('desc'),
	})
	.strict();
export type GlobalSearchBody = z.infer<typeof GlobalSearchBody>;
export type GlobalSearchBodyInput = z.input<typeof GlobalSearchBody>;

/** Body of POST /astp/urls/by_credential_hash. */
export const UrlsByHashBody = z
	.object({
		credential_hash: NonEmpty,
		size: z.number().int().min(1).max(5000).default(100),
		from: z.string().nullable().optional(),
	})
	.strict();
export type UrlsByHashBody = z.infer<typeof UrlsByHashBody>;
export type UrlsByHashBodyInput = z.input<typeof UrlsByHashBody>;

/** Body of POST /{segment}/v4/matching-policies/{policy_uuid}/assignments. */
export const PolicyAssignmentBody = z
	.object({
		identifier_ids: z.array(z.number().int()).min(1),
		clean_past_events: z.boolean().default(false),
	})
	.strict();
export type PolicyAssignmentBody = z.infer<typeof PolicyAssignmentBody>;
export type PolicyAssignmentBodyInput = z.input<typeof PolicyAssignmentBody>;

export const TimeRangeType = z.enum([
	'all',
	'last_24h',
	'last_2d',
	'last_7d',
	'last_1m',
	'last_3m',
	'last_6m',
	'range',
]);
export type TimeRangeType = z.infer<typeof TimeRangeType>;

/**
 * Body of POST /{segment}/v4/threat_flow/reports/requests, with our rule (contract-decisions.md):
 * `time_range_from`/`time_range_to` only with `range`, and then both are required and from < to.
 */
export const ReportRequestBody = z
	.object({
		report_title: NonEmpty,
		question: z.string().nullable().optional(),
		time_range_type: TimeRangeType.default('all'),
		time_range_from: DateTimeInput.nullable().optional(),
		time_range_to: DateTimeInput.nullable().optional(),
		included_keywords: z.array(z.string()).nullable().optional(),
		excluded_keywords: z.array(z.string()).nullable().optional(),
	})
	.strict()
	.superRefine((body, ctx) => {
		const bounds = ['time_range_from', 'time_range_to'] as const;
		if (body.time_range_type !== 'range') {
			for (const field of bounds) {
				if (body[field] !== undefined && body[field] !== null) {
					ctx.addIssue({
						code: z.ZodIssueCode.custom,
						path: [field],
						message: `${field} is only allowed when time_range_type is 'range'`,
					});
				}
			}
			return;
		}
		for (const field of bounds) {
			if (!body[field]) {
				ctx.addIssue({
					code: z.ZodIssueCode.custom,
					path: [field],
					message: `${field} is required when time_range_type is 'range'`,
				});
			}
		}
		if (body.time_range_from && body.time_range_to) {
			if (dateTimeToMs(body.time_range_from) >= dateTimeToMs(body.time_range_to)) {
				ctx.addIssue({
					code: z.ZodIssueCode.custom,
					path: ['time_range_to'],
					message: 'time_range_to must be later than time_range_from',
				});
			}
		}
	});
export type ReportRequestBody = z.infer<typeof ReportRequestBody>;
export type ReportRequestBodyInput = z.input<typeof ReportRequestBody>;

/** Optional body of POST /tokens/generate. */
export const TokenGenerateBody = z.object({ tenant_id: z.number().int().optional() }).strict();
export type TokenGenerateBody = z.infer<typeof TokenGenerateBody>;

/** Query of the identity lookups (by password, by keyword); query strings are coerced to numbers. */
export const IdentityLookupQuery = z.object({
	size: z.coerce.number().int().min(1).max(10000).optional(),
	from: z.coerce.number().int().min(0).optional(),
});
export type IdentityLookupQuery = z.infer<typeof IdentityLookupQuery>;

/** Query of GET /{segment}/v4/events/. */
export const EventQuery = z.object({ uid: NonEmpty });
export type EventQuery = z.infer<typeof EventQuery>;

/** Path parameter `identifier_id`: a decimal integer (error type `int_parsing`, as pydantic names it). */
export const IdentifierIdParam = z.string().transform((value, ctx) => {
	if (/^-?\d{1,15}$/.test(value)) return Number(value);
	ctx.addIssue({
		code: z.ZodIssueCode.custom,
		message: 'Input should be a valid integer, unable to parse string as an integer',
		params: { type: 'int_parsing' },
	});
	return z.NEVER;
});

/** Path parameter `policy_uuid`. */
export const PolicyUuidParam = Uuid;

/** Path parameter `keyword`: a `*` may stand only at the start or only at the end. */
export const KeywordParam = z
	.string()
	.min(1)
	.refine(
		(keyword) => /^\*?[^*]+$|^[^*]+\*$/.test(keyword),
		'A wildcard (*) may stand only at the start or only at the end of the keyword',
	);

/** Path parameter `password`. */
export const PasswordParam = NonEmpty;

// ---- list endpoints (api-facts.md Part H) and the report-request status (Part F3) ----
// Query strings arrive as text, so numbers are coerced; unknown query parameters are ignored, as
// FastAPI does.

/** A query-string boolean (`true`/`false`). */
const QueryBoolean = z.enum(['true', 'false']).transform((value) => value === 'true');

/** Query of GET /{segment}/v4/identifiers/ (H2); `types` may repeat (`types=ip&types=bin`). */
export const IdentifierListQuery = z.object({
	from: z.string().optional(),
	size: z.coerce.number().int().min(1).max(100).default(20),
	order_by: z.enum(['id', 'name', 'type']).default('id'),
	is_disabled: QueryBoolean.optional(),
	group_id: z.coerce.number().int().optional(),
	types: z.array(IdentifierType).optional(),
	authorization_status: z.enum(['pending', 'rejected', 'authorized']).optional(),
});
export type IdentifierListQuery = z.infer<typeof IdentifierListQuery>;

/** Query of GET /{segment}/v4/matching-policies (H2, beta). */
export const MatchingPolicyListQuery = z.object({
	from: z.string().optional(),
	size: z.coerce.number().int().min(1).max(25).default(25),
	order: z.enum(['asc', 'desc']).default('asc'),
});
export type MatchingPolicyListQuery = z.infer<typeof MatchingPolicyListQuery>;

/**
 * Query of GET /astp/v2/sources (H4). The docs give the maximum (10000) but no default: the fake
 * uses 100.
 */
export const SourceListQuery = z.object({
	from: z.string().optional(),
	size: z.coerce.number().int().min(1).max(10000).default(100),
});
export type SourceListQuery = z.infer<typeof SourceListQuery>;

/** Path parameter of GET /{segment}/v4/threat_flow/reports/requests/{request_info_id} (F3). */
export const ReportRequestIdParam = Uuid;

// ---- the operations of issue 26 (docs/api-contract.md) ----

const KeywordsValue = z.object({ keywords: z.array(z.string()) }).strict();

/** Body of POST /{segment}/v4/matching-policies (`Create…Body`, discriminated on `type`). */
export const MatchingPolicyCreateBody = z.discriminatedUnion('type', [
	z
		.object({ name: z.string().min(1), type: z.literal('INCLUDED_KEYWORDS'), value: KeywordsValue })
		.strict(),
	z
		.object({ name: z.string().min(1), type: z.literal('EXCLUDED_KEYWORDS'), value: KeywordsValue })
		.strict(),
	z
		.object({
			name: z.string().min(1),
			type: z.literal('LUCENE_QUERY'),
			value: z.object({ query: z.string() }).strict(),
		})
		.strict(),
	z
		.object({
			name: z.string().min(1),
			type: z.literal('ASTP_COOKIES'),
			value: z
				.object({ cookie_names: z.array(z.string()), match_subdomains: z.boolean().default(false) })
				.strict(),
		})
		.strict(),
	z
		.object({
			name: z.string().min(1),
			type: z.literal('ASTP_DOMAIN'),
			value: z
				.object({
					match_mode: z
						.enum(['email_domain_only', 'auth_domain_and_email_domain', 'auth_domain_only'])
						.optional(),
				})
				.strict(),
		})
		.strict(),
]);
export type MatchingPolicyCreateBody = z.infer<typeof MatchingPolicyCreateBody>;

/** Body of PUT /{segment}/v4/matching-policies/{policy_uuid} (`UpdateMatchingPolicyBody`). */
export const MatchingPolicyUpdateBody = z
	.object({ name: z.string().min(1), value: PolicyValue })
	.strict();
export type MatchingPolicyUpdateBody = z.infer<typeof MatchingPolicyUpdateBody>;

/** Query of GET /{segment}/v4/matching-policies/{policy_uuid}/assignments (no maximum documented). */
export const PolicyAssignmentListQuery = z.object({
	from: z.string().optional(),
	size: z.coerce.number().int().min(1).default(25),
	order: z.enum(['asc', 'desc']).default('asc'),
});
export type PolicyAssignmentListQuery = z.infer<typeof PolicyAssignmentListQuery>;

/** Body of POST /{segment}/v2/assets/groups/: the group's name (the fields Flare assigns are ignored). */
export const IdentifierGroupCreateBody = z.object({ name: z.string().min(1) });
export type IdentifierGroupCreateBody = z.infer<typeof IdentifierGroupCreateBody>;

/** Body of POST /astp/v2/cookies/_search (post-cookies-search.mdx). */
export const CookieSearchBody = z
	.object({
		domain: z.string().min(1).optional(),
		values: z.array(z.string()).max(1).optional(),
		names: z.array(z.string()).max(10).optional(),
		paths: z.array(z.string()).max(10).optional(),
		imported_after: DateTimeInput.optional(),
		expires_after: DateTimeInput.optional(),
		size: z.number().int().min(1).max(2000).default(100),
		from: z.string().nullable().optional(),
		order: z.enum(['asc', 'desc']).default('asc'),
	})
	.strict();
export type CookieSearchBody = z.infer<typeof CookieSearchBody>;
export type CookieSearchBodyInput = z.input<typeof CookieSearchBody>;

/** Body of POST /astp/identities/by_accounts: 1 to 100 accounts (post-by-accounts.mdx). */
export const ByAccountsBody = z
	.object({ accounts: z.array(z.string().min(1)).min(1).max(100) })
	.strict();
export type ByAccountsBody = z.infer<typeof ByAccountsBody>;
