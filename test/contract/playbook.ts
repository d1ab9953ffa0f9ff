/**
 * Alert rules and channels, identifier recommendations, an event's AI explanation and Threat Flow
 * reports: requests and answers as Flared/docs-api documents them (OpenAPI v2 `FeedAlert`,
 * `ActivityAiAssistance`; OpenAPI v4 `Alert`, `PartialAlertChannel`, `CreateAlertChannel`,
 * `AlertChannel`, `Recommendation`, `IdentifierRecommendationActionsBody`,
 * `PydanticThreatFlowReport`), with the fake's choices where they say nothing (README).
 */
import { z } from 'zod';

import { DateTimeInput, DateTimeWithOffset } from './primitives';
import { ApiReport, pageOf } from './resources';
import { SearchType } from './taxonomy';

// ---- alert channels (v4) ----

export const ALERT_TYPES = [
	'email',
	'channel',
	'azure_sentinel',
	'azure_sentinel_v2',
	'slack',
	'discord',
	'splunk',
	'jira',
	'teams',
	'servicenow',
	'webhook',
] as const;

export const AlertChannelState = z.object({
	status: z.enum(['untested', 'error', 'success']),
	message: z.string().nullable().optional(),
});

/** `PartialAlertChannel`: what the list shows of a channel (no `params`). */
export const PartialAlertChannel = z.object({
	id: z.number().int(),
	name: z.string(),
	type: z.enum(ALERT_TYPES),
	state: AlertChannelState,
	alert_count: z.number().int(),
});
export type PartialAlertChannel = z.infer<typeof PartialAlertChannel>;
export const AlertChannelPage = pageOf(PartialAlertChannel);

/** `AlertChannelWebhookParams`; the other types' params are taken as objects with their `type`. */
export const WebhookChannelParams = z.object({
	type: z.literal('webhook'),
	webhook_url: z.string().url(),
	secret: z.string().min(1),
	basic_auth: z.object({ username: z.string(), password: z.string() }).nullable().optional(),
	custom_headers: z.record(z.string()).nullable().optional(),
});

export const ChannelParams = z.union([
	WebhookChannelParams,
	z.object({ type: z.enum(ALERT_TYPES) }).passthrough(),
]);

/** Body of POST /{segment}/v4/alerts/channels (`CreateAlertChannel`). */
export const CreateAlertChannelBody = z
	.object({ name: z.string().min(1), params: ChannelParams, state: AlertChannelState.nullish() })
	.strict();
export type CreateAlertChannelBody = z.infer<typeof CreateAlertChannelBody>;

/** `AlertChannel`: a channel with its `params`. */
export const AlertChannel = PartialAlertChannel.omit({ alert_count: true }).extend({
	params: ChannelParams,
});
export type AlertChannel = z.infer<typeof AlertChannel>;

/** Query of the v4 lists of channels and rules (`size` at most 10). */
export const AlertListQuery = z.object({
	from: z.string().optional(),
	size: z.coerce.number().int().min(1).max(10).default(10),
	order_type: z.enum(['asc', 'desc']).default('asc'),
	q: z.string().optional(),
	feed_owner_id: z.coerce.number().int().optional(),
});
export type AlertListQuery = z.infer<typeof AlertListQuery>;

// ---- alert rules ----

/** v4 `Alert`: a rule as the tenant-wide list shows it. */
export const AlertRule = z.object({
	feed_definition: z.object({
		type: z.enum(['tenant', 'identifier', 'group']),
		id: z.number().int().nullable(),
	}),
	type: z.string(),
	created_at: z.string(),
	updated_at: z.string(),
	id: z.number().int(),
	name: z.string(),
	tenant_id: z.number().int(),
	organization_id: z.number().int(),
	search_types: z.array(z.string()),
	experimental_search_types: z.array(z.string()),
	risks: z.array(z.number().int().min(1).max(5)),
	alert_channel_id: z.number().int().nullable(),
	alert_channel: z.object({ id: z.number().int(), name: z.string() }).nullable(),
	frequency: z.number(),
	start_at: z.string(),
	identifier_scope: z.object({ name: z.string(), is_disabled: z.boolean() }).nullable().optional(),
});
export type AlertRule = z.infer<typeof AlertRule>;
export const AlertRulePage = pageOf(AlertRule);

/**
 * Body of POST and PUT …/v2/assets/{asset_id}/alerts (and the groups'): a `FeedAlert`, with `type`,
 * `params`, `frequency` and `start_at` required; the fields Flare assigns are ignored.
 */
export const FeedAlertBody = z.object({
	name: z.string().optional(),
	type: z.enum(ALERT_TYPES),
	params: z.record(z.unknown()),
	frequency: z.number().int().min(1),
	start_at: DateTimeInput,
	search_types: z.array(SearchType).optional(),
	experimental_search_types: z.array(z.string()).optional(),
	risks: z.array(z.number().int().min(1).max(5)).optional(),
	tenant_alert_channel_id: z.number().int().optional(),
	id: z.number().int().optional(),
	feed_url: z.string().optional(),
	feed_target_type: z.enum(['assets/groups', 'assets', 'home']).optional(),
	feed_target_id: z.number().int().optional(),
	created_at: z.string().optional(),
	tenant_id: z.number().int().optional(),
	organization_id: z.number().int().optional(),
});
export type FeedAlertBody = z.infer<typeof FeedAlertBody>;

/** v2 `FeedAlert` as Flare answers it. */
export const FeedAlert = FeedAlertBody.extend({
	id: z.number().int(),
	name: z.string(),
	feed_url: z.string(),
	feed_target_type: z.enum(['assets/groups', 'assets', 'home']),
	feed_target_id: z.number().int(),
	created_at: DateTimeWithOffset,
	tenant_id: z.number().int(),
	organization_id: z.number().int(),
	search_types: z.array(z.string()),
	experimental_search_types: z.array(z.string()),
	risks: z.array(z.number().int()),
});
export type FeedAlert = z.infer<typeof FeedAlert>;

// ---- identifier recommendations (v4) ----

export const RECOMMENDATION_TYPES = ['domain', 'azure_tenant', 'email', 'username'] as const;

export const Recommendation = z.object({
	id: z.number().int(),
	data: z.discriminatedUnion('type', [
		z.object({ type: z.literal('domain'), fqdn: z.string().min(1) }),
		z.object({ type: z.literal('azure_tenant'), tenant_id: z.string().min(1) }),
		z.object({ type: z.literal('email'), email: z.string().email() }),
		z.object({ type: z.literal('username'), username: z.string().min(1) }),
	]),
});
export type Recommendation = z.infer<typeof Recommendation>;
export const RecommendationPage = pageOf(Recommendation);

export const RecommendationListQuery = z.object({
	types: z.array(z.enum(RECOMMENDATION_TYPES)).optional(),
	query: z.string().optional(),
	status: z.enum(['recommended', 'accepted', 'rejected']).optional(),
	from: z.string().optional(),
	size: z.coerce.number().int().min(1).max(100).default(100),
});
export type RecommendationListQuery = z.infer<typeof RecommendationListQuery>;

/** Body of POST /{segment}/v4/identifier-recommendations/actions: at most 100 targets. */
export const RecommendationActionsBody = z
	.object({
		targets: z.array(z.object({ id: z.number().int() }).strict()).max(100).optional(),
		action: z.object({ type: z.enum(['accept', 'reject']) }).strict(),
	})
	.strict();
export type RecommendationActionsBody = z.infer<typeof RecommendationActionsBody>;

// ---- an event's AI explanation (v2) ----

export const AiAssistanceResponse = z.object({
	activity_ai_assistance: z.object({ uid: z.string(), prompt: z.string(), response: z.string() }),
});
export type AiAssistanceResponse = z.infer<typeof AiAssistanceResponse>;

// ---- Threat Flow reports (v4) ----

/** `PydanticThreatFlowReport`: the report of the list and of Get Report. */
export const ThreatFlowReport = ApiReport.extend({
	intel_type: z.enum(['unit_summary_based', 'custom_intel']),
	prompt_preset_uid: z.string().nullable(),
	published_at: DateTimeWithOffset.nullable(),
	updated_at: DateTimeWithOffset,
	reading_time: z.number().int(),
	organization_id: z.number().int().nullable(),
});
export type ThreatFlowReport = z.infer<typeof ThreatFlowReport>;
export const ThreatFlowReportPage = pageOf(ThreatFlowReport);

export const ThreatFlowReportListQuery = z.object({
	from: z.string().optional(),
	size: z.coerce.number().int().min(1).max(100).default(10),
	order: z.enum(['asc', 'desc']).default('desc'),
	report_types: z.array(z.enum(['custom', 'standard'])).optional(),
});
export type ThreatFlowReportListQuery = z.infer<typeof ThreatFlowReportListQuery>;

export const ReportIdParam = z.coerce.number().int().min(1);

export const ReportDownloadQuery = z.object({ format: z.enum(['docx', 'pdf']).default('docx') });
