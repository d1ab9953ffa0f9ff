/**
 * Response shapes (spec §2, refined by contract-decisions.md and api-facts.md).
 * Objects are not strict: clients must tolerate extra fields, so the schemas do too.
 */
import { z } from 'zod';

import { IdentifierData } from './identifiers';
import { DateTimeWithOffset, NaiveDateTime, Uuid } from './primitives';

/** §2.2 Source object, global-search variant. */
export const GlobalSource = z.object({
	id: z.string(),
	name: z.string(),
	description_en: z.string(),
	description_fr: z.string(),
	breached_at: DateTimeWithOffset.nullable(),
	leaked_at: DateTimeWithOffset.nullable(),
	is_alert_enabled: z.boolean(),
});
export type GlobalSource = z.infer<typeof GlobalSource>;

/** §2.3 Source object, leaked-identity and source-retrieval variant. */
export const LegacySource = z.object({
	id: z.string(),
	name: z.string(),
	description: z.string(),
	description_fr: z.string(),
	hash_description: z.string(),
	hash_type: z.string(),
	breached_at: DateTimeWithOffset.nullable(),
	leaked_at: DateTimeWithOffset.nullable(),
	is_alerts_enabled: z.boolean(),
	related_urls: z.array(z.string().url()),
	url: z.string().url().nullable(),
});
export type LegacySource = z.infer<typeof LegacySource>;

/** §2.1 Credential record; `credential_hash` per api-facts A3 (chains into the ASTP URL lookup). */
export const CredentialRecord = z.object({
	id: z.number().int(),
	identity_name: z.string(),
	domain: z.string(),
	hash: z.string(),
	hash_type: z.string().nullable(),
	imported_at: DateTimeWithOffset,
	known_password_id: z.string().nullable().optional(),
	auth_domains: z.array(z.string()).max(100).optional(),
	urls: z.array(z.string().url()).max(100).optional(),
	source_id: z.string(),
	source: GlobalSource,
	credential_hash: z.string().regex(/^[0-9a-f]{32}$/),
});
export type CredentialRecord = z.infer<typeof CredentialRecord>;

/** §2.4 Password entry of an identity record. */
export const PasswordEntry = z.object({
	id: z.number().int(),
	credential_hash: z.string().regex(/^[0-9a-f]{32}$/),
	domain: z.string(),
	extra: z.record(z.unknown()),
	hash: z.string(),
	hash_type: z.string(),
	imported_at: DateTimeWithOffset,
	source: LegacySource,
	source_id: z.string(),
	source_params: z.null(),
});
export type PasswordEntry = z.infer<typeof PasswordEntry>;

/** §2.4 Identity record (leaked-identity lookups). Identities carry no `id`. */
export const IdentityRecord = z.object({
	name: z.string(),
	links: z.record(z.unknown()),
	passwords: z.array(PasswordEntry),
});
export type IdentityRecord = z.infer<typeof IdentityRecord>;

/** §2.5 Credential URL record. */
export const CredentialUrlRecord = z.object({
	url: z.string().url(),
	domain: z.string(),
	credential_hash: z.string(),
});
export type CredentialUrlRecord = z.infer<typeof CredentialUrlRecord>;

/** `MatchingPolicyType` (v4 OpenAPI). */
export const MatchingPolicyType = z.enum([
	'INCLUDED_KEYWORDS',
	'EXCLUDED_KEYWORDS',
	'LUCENE_QUERY',
	'ASTP_COOKIES',
	'ASTP_DOMAIN',
]);
export type MatchingPolicyType = z.infer<typeof MatchingPolicyType>;

/** `PolicyValue`: keywords, a Lucene query, cookie names, or a domain match mode (v4 OpenAPI). */
export const PolicyValue = z.union([
	z.object({ keywords: z.array(z.string()) }).strict(),
	z.object({ query: z.string() }).strict(),
	z
		.object({ cookie_names: z.array(z.string()), match_subdomains: z.boolean().default(false) })
		.strict(),
	z
		.object({
			match_mode: z
				.enum(['email_domain_only', 'auth_domain_and_email_domain', 'auth_domain_only'])
				.optional(),
		})
		.strict(),
]);
export type PolicyValue = z.infer<typeof PolicyValue>;

/** `MatchingPolicyPayload` (v4 OpenAPI): a policy, also inside an assignment (§2.6). */
export const MatchingPolicy = z.object({
	uuid: Uuid,
	name: z.string(),
	policy_type: MatchingPolicyType,
	value: PolicyValue,
	created_at: DateTimeWithOffset,
	last_updated_at: DateTimeWithOffset,
});
export type MatchingPolicy = z.infer<typeof MatchingPolicy>;

/** `PolicyAssignedIdentifierPayload` (v4 OpenAPI): an item of List Policy Assignments. */
export const PolicyAssignedIdentifier = z.object({
	identifier_id: z.number().int(),
	identifier_name: z.string(),
	clean_past_events: z.boolean(),
	assigned_at: DateTimeWithOffset,
});
export type PolicyAssignedIdentifier = z.infer<typeof PolicyAssignedIdentifier>;

/** `IdentifierGroup` (v2 OpenAPI), as GET/POST …/v2/assets/groups/ wrap it. */
export const IdentifierGroup = z.object({
	id: z.number().int(),
	tenant_id: z.number().int(),
	feed_id: z.number().int(),
	feed_owner_id: z.number().int(),
	name: z.string(),
	urn: z.string(),
});
export type IdentifierGroup = z.infer<typeof IdentifierGroup>;

/** A leaked cookie of POST /astp/v2/cookies/_search (post-cookies-search.mdx). */
export const LeakedCookie = z.object({
	uuid: Uuid,
	domain: z.string(),
	expires_at: DateTimeWithOffset.nullable(),
	imported_at: DateTimeWithOffset,
	name: z.string(),
	path: z.string(),
	/** The MDX example's field; the fake leaves it out of some cookies (none documented). */
	event_uid: z.string().optional(),
	value: z.string(),
});
export type LeakedCookie = z.infer<typeof LeakedCookie>;

/** §2.6 Matching policy assignment. */
export const MatchingPolicyAssignment = z.object({
	matching_policy: MatchingPolicy,
	assigned_at: DateTimeWithOffset,
	clean_past_events: z.boolean(),
});
export type MatchingPolicyAssignment = z.infer<typeof MatchingPolicyAssignment>;

/**
 * §2.7 Event of type blog_post. The spec names `metadata.platform_url` (the fake sends it); the public
 * docs name it `flare_url`, accepted here as an optional extra.
 */
export const BlogPostEvent = z.object({
	event_type: z.literal('blog_post').default('blog_post'),
	metadata: z.object({
		estimated_created_at: NaiveDateTime,
		platform_url: z.string().url(),
		flare_url: z.string().url().optional(),
		matched_at: DateTimeWithOffset.nullable(),
		severity: z.string(),
		uid: z.string().regex(/^[^/]+\/[^/]+\/.+$/, 'uid should look like <index>/<source>/<id>'),
	}),
	data: z.object({
		url: z.string(),
		content: z.string(),
		description: z.string(),
		posted_at: NaiveDateTime,
	}),
});
export type BlogPostEvent = z.infer<typeof BlogPostEvent>;

/** Response of the report-request call (§4.12). */
export const ReportRequestResponse = z.object({ request_id: Uuid });
export type ReportRequestResponse = z.infer<typeof ReportRequestResponse>;

/** Response of POST /tokens/generate; `refresh_token_exp` is a unix timestamp in seconds. */
export const TokenResponse = z.object({ token: z.string().min(1), refresh_token_exp: z.number() });
export type TokenResponse = z.infer<typeof TokenResponse>;

/** Response of GET /tokens/test. */
export const TokenTestResponse = z.object({
	api_key_id: z.number().int(),
	organization_id: z.number().int(),
	scopes: z.array(z.string()),
	tenant_id: z.number().int(),
	user_email: z.string(),
	user_id: z.number().int(),
});
export type TokenTestResponse = z.infer<typeof TokenTestResponse>;

/** A `{items, next}` page of the from/next paging pattern. */
export function pageOf<T extends z.ZodTypeAny>(item: T) {
	return z.object({ items: z.array(item), next: z.string().nullable() });
}
export type Page<T> = { items: T[]; next: string | null };

// ---- list endpoints (api-facts.md Part H) and the report-request status (Part F3) ----

/** `PublicIdentifierResponse` (H2): an item of List Identifiers. */
export const PublicIdentifier = z.object({
	id: z.number().int(),
	name: z.string(),
	tenant_id: z.number().int(),
	data: IdentifierData,
	categories: z.array(z.string()),
	emerging_categories: z.array(z.string()),
	severities: z.array(z.string()),
	group_id: z.number().int().nullable(),
	enrichments: z
		.object({
			domain_reachable_at: DateTimeWithOffset.nullable(),
			domain_resolves_at: DateTimeWithOffset.nullable(),
			usage_count: z.number().int().nullable(),
			event_count: z.number().int().nullable(),
			authorization_status: z.enum(['pending', 'rejected', 'authorized']).nullable(),
		})
		.nullable(),
	is_disabled: z.boolean(),
	updated_at: DateTimeWithOffset,
});
export type PublicIdentifier = z.infer<typeof PublicIdentifier>;

/** `{items, next}` page of List Identifiers. */
export const IdentifierPage = pageOf(PublicIdentifier);

/** `{items, next}` page of List Matching Policies; items are `MatchingPolicyPayload`, with `uuid`. */
export const MatchingPolicyPage = pageOf(MatchingPolicy);

/** Page of GET /astp/v2/sources (H4): legacy sources in order of addition, plus two unused fields. */
export const SourcePage = z.object({
	cursors: z.array(z.unknown()),
	items: z.array(LegacySource),
	next: z.string().nullable(),
	total_count: z.null(),
});
export type SourcePage = z.infer<typeof SourcePage>;

/** `ApiReport` (F3): the report of a completed request. */
export const ApiReport = z.object({
	id: z.number().int(),
	format_type: z.enum(['simple_summary', 'expanded_summary', 'finished_intel_standard']).optional(),
	title: z.string(),
	subtitle: z.string().nullable(),
	summary: z.string(),
	content: z.string(),
	tags: z.array(z.string()),
	highlights: z.array(z.string()),
	related_activity_uids: z.array(z.string()),
	created_at: DateTimeWithOffset,
	tenant_id: z.number().int().nullable(),
});
export type ApiReport = z.infer<typeof ApiReport>;

/**
 * `ReportRequestInfoResponse` (F3): the status of a report request. Our rule: `report` is the report
 * exactly when the status is `completed`, and null otherwise.
 */
export const ReportRequestStatus = z
	.object({
		status: z.enum(['processing', 'completed', 'error']),
		report: ApiReport.nullable().optional(),
	})
	.superRefine((value, ctx) => {
		if ((value.status === 'completed') !== Boolean(value.report)) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['report'],
				message: 'report is set exactly when the status is completed',
			});
		}
	});
export type ReportRequestStatus = z.infer<typeof ReportRequestStatus>;
