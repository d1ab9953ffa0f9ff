/**
 * The vocabularies the events and identifiers share, as the v4 OpenAPI enumerates them
 * (`Severity`, `SearchType`, `ActivityModelName`); docs/feed-endpoints.md gives their sources.
 */
import { z } from 'zod';

/** Severities from the lowest to the highest: a single severity filter means "at least this one". */
export const SEVERITY_ORDER = ['info', 'low', 'medium', 'high', 'critical'] as const;
export const Severity = z.enum(SEVERITY_ORDER);
export type Severity = z.infer<typeof Severity>;

/** Values of the feeds' `filters.type` and of an identifier's `categories`: base types and categories. */
export const SearchType = z.enum([
	'attachment', 'listing', 'ransomleak', 'forum_post', 'forum_topic', 'forum_profile',
	'blog_post', 'seller', 'paste', 'leak', 'chat_message', 'domain', 'bot', 'stealer_log',
	'infected_devices', 'driller', 'driller_forum_topic', 'driller_forum_post', 'driller_profile',
	'cc', 'ccbin', 'financial_data', 'leaked_data', 'leaked_file', 'document', 'account', 'actor',
	'forum_content', 'blog_content', 'profile', 'leaked_credential', 'valid_credential',
	'invalid_credential', 'mitigated_credential', 'illicit_networks', 'open_web', 'domains',
	'intelligence_object', 'leaks', 'social_media_account', 'social_media', 'source_code',
	'source_code_secrets_np', 'source_code_secrets', 'source_code_files', 'docker',
	'stack_exchange', 'google', 'service', 'driller_host', 'buckets', 'bucket', 'bucket_object',
	'whois', 'ad', 'ads', 'cookie', 'pii', 'experimental',
]); // prettier-ignore
export type SearchType = z.infer<typeof SearchType>;

/** Values of a feed item's `metadata.type`. */
export const ActivityModelName = z.enum([
	'account', 'actor', 'actor_summary', 'ad', 'attachment', 'blog_post', 'bot', 'bucket',
	'bucket_object', 'cc', 'cc_bases', 'chat_channel_summary', 'chat_message', 'cookie',
	'docker_image', 'docker_repository', 'document', 'domain', 'domain_certificate',
	'domain_favicon', 'domain_dns_records', 'domain_ip_address', 'domain_screenshot',
	'domain_title', 'domain_whois_rdap', 'driller', 'driller_forum_post', 'driller_forum_topic',
	'driller_google', 'driller_profile', 'driller_source_code', 'entity_classification',
	'entity_summarization', 'event', 'experimental', 'forum_category', 'forum_post',
	'forum_profile', 'forum_thread_summary', 'forum_topic', 'host', 'intelligence_object',
	'invalid_credential', 'leak', 'leaked_credential', 'leaked_data', 'leaked_file', 'listing',
	'lookalike', 'mitigated_credential', 'paste', 'ransomleak', 'ransomleak_file_listing',
	'score_event', 'sdo_attack_pattern', 'sdo_campaign', 'sdo_identity', 'sdo_indicator',
	'sdo_infrastructure', 'sdo_location', 'sdo_malware', 'sdo_relationship', 'sdo_external_report',
	'sdo_threat_actor', 'sdo_threat_actor_group', 'sdo_tool', 'sdo_vulnerability', 'seller',
	'service', 'social_media_account', 'source_code_secret', 'stealer_log', 'attachment/telegram',
	'threat_flow_summary', 'valid_credential', 'whois',
]); // prettier-ignore
export type ActivityModelName = z.infer<typeof ActivityModelName>;
