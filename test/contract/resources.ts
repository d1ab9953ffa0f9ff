/**
 * Response shapes (spec §2, refined by contract-decisions.md and api-facts.md).
 * Objects are not strict: clients must tolerate extra fields, so the schemas do too.
 */
import { z } from 'zod';

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

/** The policy inside an assignment (§2.6). */
export const MatchingPolicy = z.object({
	uuid: Uuid,
	name: z.string(),
	value: z.object({ keywords: z.array(z.string()) }),
	created_at: DateTimeWithOffset,
	last_updated_at: DateTimeWithOffset,
});
export type MatchingPolicy = z.infer<typeof MatchingPolicy>;

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
