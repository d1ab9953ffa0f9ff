/**
 * Issue 40: tenant and member administration (v2 OpenAPI `NewTenantInfo`, `TenantData`, `Tenant`,
 * `TenantUsers`, `UserTenantAccessRequest`, `OrganizationMemberPage`, `OrganizationMember`,
 * `EnableState`, `UpdateGroupData`), platform reports (v4 `PublicReport`, `ReportDownloadFormat`),
 * Threat Flow report publication (v4 `PublishReportPayload`) and an event's conversation (v4
 * `RelatedConversationRequest`, `RelatedConversationResponse`), with the fake's choices where they
 * say nothing (fake-flare/README.md).
 */
import { z } from 'zod';

import { DateTimeWithOffset } from './primitives';
import { OrganizationTenant } from './feed';
import { pageOf } from './resources';

/** The coerced boolean of a query (`true` / `false`). */
const QueryBoolean = z.enum(['true', 'false']).transform((value) => value === 'true');

// ---- identifier groups ----

/** Body of PUT /{segment}/v2/assets/groups/{assets_group_id} (`UpdateGroupData`). */
export const UpdateGroupDataBody = z.object({ name: z.string().min(1) }).strict();

// ---- tenants ----

export const INDUSTRIES = [
	'global',
	'transport',
	'education',
	'energy',
	'finance',
	'healthcare',
	'manufacturing',
	'retail',
	'software',
	'telecommunication',
] as const;

/** Body of POST …/v2/organizations/{organization_id}/tenants (`NewTenantInfo`, nothing required). */
export const NewTenantInfoBody = z
	.object({
		name: z.string().min(1),
		description: z.string().optional(),
		industry: z.enum(INDUSTRIES).optional(),
	})
	.strict();
export type NewTenantInfoBody = z.infer<typeof NewTenantInfoBody>;

/** Body of PUT /{segment}/v2/tenants/{tenant_id} (`TenantData`: its four required fields). */
export const TenantDataBody = z
	.object({
		name: z.string().min(1),
		description: z.string(),
		industry: z.enum(INDUSTRIES),
		number_of_employees: z.number().int().min(0),
		global_search_calls_limit: z.number().int().min(0).optional(),
		prevent_global_search: z.boolean().optional(),
	})
	.strict();
export type TenantDataBody = z.infer<typeof TenantDataBody>;

/** `Tenant` as the fake answers one (the organization list's fields and `number_of_employees`). */
export const AdministeredTenant = OrganizationTenant.extend({ number_of_employees: z.number().int() });
export type AdministeredTenant = z.infer<typeof AdministeredTenant>;

/** `TenantUser`: a user of a tenant. */
export const TenantUser = z.object({
	id: z.number().int(),
	name: z.string(),
	surname: z.string(),
	email: z.string(),
	is_readonly: z.boolean(),
	role: z.enum(['viewer', 'editor', 'admin']),
	is_disabled: z.boolean(),
});
export type TenantUser = z.infer<typeof TenantUser>;

/** `TenantUsers`: `{items, next}`, `next` a number (the fake: a position) or null. */
export const TenantUsersPage = z.object({ items: z.array(TenantUser), next: z.number().int().nullable() });

/** The query of a tenant's users: none documented; the fake takes `size` and `from` as its siblings. */
export const TenantUsersQuery = z.object({
	size: z.coerce.number().int().min(1).max(100).default(20),
	from: z.coerce.number().int().min(0).optional(),
});

/** Body of POST /{segment}/v2/tenants/{tenant_id}/users (`UserTenantAccessRequest`). */
export const UserTenantAccessBody = z
	.object({
		users: z
			.array(
				z
					.object({
						user_id: z.number().int(),
						is_readonly: z.boolean().optional(),
						role: z.enum(['viewer', 'editor', 'admin']).optional(),
					})
					.strict(),
			)
			.min(1),
	})
	.strict();

// ---- organization members ----

/** `OrganizationMember`. */
export const OrganizationMember = z.object({
	id: z.number().int(),
	name: z.string(),
	surname: z.string(),
	email: z.string(),
	organization_member_permissions: z.record(z.record(z.boolean())),
	is_disabled: z.boolean(),
	registered_at: DateTimeWithOffset,
	urn: z.string(),
});
export type OrganizationMember = z.infer<typeof OrganizationMember>;

/** `OrganizationMemberWithMetadata`. */
export const MemberWithMetadata = z.object({ user: OrganizationMember, tenant_count: z.number().int() });
export type MemberWithMetadata = z.infer<typeof MemberWithMetadata>;

/** `OrganizationMemberPage`: `{members}`, and the fake's `next` (the schema has none). */
export const MemberPage = z.object({ members: z.array(MemberWithMetadata), next: z.string().nullable() });

export const MemberListQuery = z.object({
	size: z.coerce.number().int().min(1).max(100).default(20),
	from: z.string().optional(),
	q: z.string().optional(),
});

/** Body of PUT …/members/{user_id}: an `OrganizationMember`, of which the fake takes these. */
export const MemberUpdateBody = z
	.object({ name: z.string().min(1), surname: z.string(), email: z.string().email() })
	.partial()
	.strict();

/** `EnableState`. */
export const EnableState = z.object({ is_disabled: z.boolean() });

/** The query of a member's tenants (`size` 20 by default, `from`). */
export const MemberTenantsQuery = z.object({
	size: z.coerce.number().int().min(1).max(100).default(20),
	from: z.string().optional(),
});

// ---- platform reports (v4) ----

/** `PublicReport`. */
export const PublicReport = z.object({
	id: z.number().int(),
	title: z.string(),
	author: z.string(),
	tenant_id: z.number().int(),
	report_group_id: z.number().int(),
	report_type: z.enum(['v1', 'event_based', 'feed_based']),
	status: z.enum(['draft', 'processing', 'completed', 'scheduled', 'paused']),
	created_at: DateTimeWithOffset,
	updated_at: DateTimeWithOffset,
	is_archived: z.boolean(),
});
export type PublicReport = z.infer<typeof PublicReport>;
export const PublicReportPage = pageOf(PublicReport);

export const REPORT_ORDER_BY = ['id', 'title', 'author', 'created_at', 'updated_at', 'status'] as const;

/** Query of GET /{segment}/v4/reports: `size` at most 100 (default 20). */
export const ReportListQuery = z.object({
	from: z.string().optional(),
	size: z.coerce.number().int().min(1).max(100).default(20),
	order_type: z.enum(['asc', 'desc']).default('asc'),
	order_by: z.enum(REPORT_ORDER_BY).default('id'),
	include_archived: QueryBoolean.default('false'),
});
export type ReportListQuery = z.infer<typeof ReportListQuery>;

/** Query of …/reports/{report_id}/download (`ReportDownloadFormat`; the fake's default: pdf). */
export const PlatformReportDownloadQuery = z.object({
	format: z.enum(['docx', 'pdf', 'csv', 'zip']).default('pdf'),
});

// ---- Threat Flow: publication, conversations ----

/** Body of PATCH …/threat_flow/reports/{report_id}/publish (`PublishReportPayload`). */
export const PublishReportBody = z.object({ title: z.string().min(1).nullable().optional() }).strict();

/** Body of POST …/threat_flow/unit_summary/related_conversation (`RelatedConversationRequest`). */
export const RelatedConversationBody = z
	.object({
		uid: z.string().min(1),
		direction: z.enum(['next', 'previous']).default('next'),
		size: z.number().int().min(1).max(100).default(10),
		search_after: z.string().nullable().optional(),
		should_translate: z.boolean().default(false),
	})
	.strict();

/** `ConversationMessage`. */
export const ConversationMessage = z.object({
	uid: z.string(),
	message: z.string(),
	message_en: z.string().nullable(),
	author_name: z.string(),
	date_time: DateTimeWithOffset.nullable(),
});
export type ConversationMessage = z.infer<typeof ConversationMessage>;

/** `RelatedConversationResponse`. */
export const RelatedConversation = z.object({
	conversation_messages: z.array(ConversationMessage),
	conversation_name: z.string(),
	conversation_name_en: z.string().nullable(),
	next: z.string().nullable(),
	previous: z.string().nullable(),
});
export type RelatedConversation = z.infer<typeof RelatedConversation>;
