/**
 * What playbooks reach for besides the feeds: alert channels and alert rules (v4 lists and channel
 * creation, v2 rules of an identifier or a group), identifier recommendations (list, accept, reject),
 * an event's AI explanation (v2) and the Threat Flow reports' read side (list, get, download as DOCX
 * or PDF). server.ts routes them here after authentication, entitlements and rate limits; every write
 * is recorded; every secret these answers can hold is planted (planted.ts). The fake's choices where
 * Flare's docs are silent are in README.md.
 */
import {
	AiAssistanceResponse,
	type AlertChannel,
	AlertListQuery,
	type AlertRule,
	CreateAlertChannelBody,
	type FeedAlert,
	FeedAlertBody,
	IdentifierIdParam,
	type PartialAlertChannel,
	type Recommendation,
	RecommendationActionsBody,
	RecommendationListQuery,
	ReportDownloadQuery,
	ReportIdParam,
	type ThreatFlowReport,
	ThreatFlowReportListQuery,
	type ApiReport,
	dateTimeToMs,
} from '../contract';
import type { Dataset } from './dataset';
import { docxOf, pdfOf } from './files';
import type { EventStore } from './events';
import { positionsPage, type Quirks } from './paging';
import { plantedSecret } from './planted';
import { isoWithOffset } from './random';
import {
	answer,
	errorReply,
	Halt,
	type HandlerRequest,
	jsonBody,
	jsonReply,
	parseWith,
	pathParam,
	type Reply,
} from './replies';

export type PlaybookRouteName =
	| 'listAlertRules'
	| 'listAlertChannels'
	| 'createAlertChannel'
	| 'listAssetAlerts'
	| 'createAssetAlert'
	| 'updateAssetAlert'
	| 'deleteAssetAlert'
	| 'listGroupAlerts'
	| 'createGroupAlert'
	| 'updateGroupAlert'
	| 'deleteGroupAlert'
	| 'listRecommendations'
	| 'recommendationActions'
	| 'aiAssistance'
	| 'listThreatReports'
	| 'getThreatReport'
	| 'downloadThreatReport';

export interface PlaybookRoute {
	name: PlaybookRouteName;
	method: string;
	/** Regular expression source of the path; groups are the path parameters. */
	path: string;
	needs?: 'threatIntel';
}

/** The routes of this module; `seg` is the product segment, already escaped for a RegExp. */
export function playbookRoutes(seg: string): PlaybookRoute[] {
	const param = '([^/]+)';
	const route = (name: PlaybookRouteName, method: string, path: string, needs?: 'threatIntel') => ({
		name,
		method,
		path,
		needs,
	});
	const asset = `/${seg}/v2/assets/${param}/alerts`;
	const group = `/${seg}/v2/assets/groups/${param}/alerts`;
	const reports = `/${seg}/v4/threat_flow/reports`;
	return [
		route('listAlertRules', 'GET', `/${seg}/v4/alerts/`),
		route('listAlertChannels', 'GET', `/${seg}/v4/alerts/channels`),
		route('createAlertChannel', 'POST', `/${seg}/v4/alerts/channels`),
		route('listGroupAlerts', 'GET', group),
		route('createGroupAlert', 'POST', group),
		route('updateGroupAlert', 'PUT', `${group}/${param}`),
		route('deleteGroupAlert', 'DELETE', `${group}/${param}`),
		route('listAssetAlerts', 'GET', asset),
		route('createAssetAlert', 'POST', asset),
		route('updateAssetAlert', 'PUT', `${asset}/${param}`),
		route('deleteAssetAlert', 'DELETE', `${asset}/${param}`),
		route('listRecommendations', 'GET', `/${seg}/v4/identifier-recommendations/`),
		route('recommendationActions', 'POST', `/${seg}/v4/identifier-recommendations/actions`),
		// Before the full event's path form, which would take it for a uid.
		route('aiAssistance', 'GET', `/${seg}/v2/activities/(.+)/ai_assistance`),
		route('listThreatReports', 'GET', `${reports}/`, 'threatIntel'),
		route('downloadThreatReport', 'GET', `${reports}/${param}/download`, 'threatIntel'),
		route('getThreatReport', 'GET', `${reports}/(?!requests$)${param}`, 'threatIntel'),
	];
}

export interface PlaybookSettings {
	tenants: number[];
	startTime: string;
	quirks: Quirks;
	now: () => number;
	/** Organization of the tenants' demo key, as /tokens/test reports it. */
	organizationId: number;
	/** How a v2 rule written is stored (server.ts `FakeFlareOptions.alertRuleStorage`). */
	alertRuleStorage: AlertRuleStorage;
}

/**
 * How the fake stores a v2 rule written: as sent (the package's reading of Flare's docs), with its
 * frequency read as minutes and kept in seconds, or without the channel it names (a v2 rule bound to
 * an Alert Central channel otherwise than the package assumes): the two bets the read-back checks.
 */
export type AlertRuleStorage = 'asSent' | 'frequencyInSeconds' | 'withoutChannel';

/** A channel as the fake keeps it: its params too (the list leaves them out). */
interface StoredChannel extends AlertChannel {
	tenantId: number;
}

/** A rule as the fake keeps it: the v2 record of its identifier (`assets`) or group (`assets/groups`). */
type StoredRule = FeedAlert & { updated_at: string };

/** Seeded channels per tenant: three kinds with secrets in their params, then e-mail ones. */
const SEEDED_CHANNELS = 12;
/** Seeded Threat Flow reports Flare publishes (standard): more than a page of 10. */
const STANDARD_REPORTS = 12;
/** Seeded recommendations per tenant: more than a page of 100. */
const RECOMMENDATIONS = 130;
const DAY_MS = 86_400_000;

/** The channel a seeded rule sends to, and the channel `k` of a tenant. */
const channelId = (tenantIndex: number, k: number) => 301 + tenantIndex * 100 + k;

/** The planted webhook URL of a seeded Slack channel, and of a legacy Slack rule. */
const slackUrl = (seed: string) =>
	`https://hooks.slack.com/services/T0FLARE/B0FLARE/${plantedSecret('', seed)}`;

/** What an event's AI explanation quotes of it: a credential line, planted (planted.ts). */
export function plantedInAiExplanation(uid: string): string {
	return plantedSecret('', `${uid}#ai`);
}

/** The planted values of standard report `k`: in its summary and a highlight. */
export function plantedInStandardReport(k: number): [string, string] {
	return [plantedSecret('', `standard-report-${k}-summary`), plantedSecret('', `standard-report-${k}-highlight`)];
}

export class PlaybookApi {
	private readonly channels: StoredChannel[] = [];
	private readonly rules: StoredRule[] = [];
	/** Recommendations by tenant, with where each stands. */
	private readonly recommendations = new Map<number, Array<Recommendation & { status: string }>>();
	/** Threat Flow reports each tenant deleted or published (`<tenant>:<id>`). */
	private readonly reportEdits = new Map<string, 'deleted' | { title?: string; published_at: string }>();
	private nextChannelId = 900;
	private nextRuleId = 6001;

	constructor(
		private readonly dataset: Dataset,
		private readonly events: EventStore,
		/** The reports of the tenant's completed report requests (custom). */
		private readonly requestedReports: (tenantId: number) => ApiReport[],
		private readonly settings: PlaybookSettings,
		private readonly recordWrite: (write: { method: string; path: string; body: unknown }) => void,
	) {
		const start = Date.parse(settings.startTime);
		settings.tenants.forEach((tenantId, t) => {
			for (let k = 0; k < SEEDED_CHANNELS; k++) this.channels.push(this.seededChannel(tenantId, t, k));
			this.seedRules(tenantId, t, start);
			this.recommendations.set(tenantId, this.seededRecommendations(tenantId, t));
		});
	}

	// ---- seeding ----

	private seededChannel(tenantId: number, t: number, k: number): StoredChannel {
		const id = channelId(t, k);
		const base = { id, tenantId, state: { status: 'success' as const, message: null } };
		if (k === 0) return { ...base, name: 'SOC e-mail', type: 'email', params: { type: 'email', email: 'soc@acme.com' } };
		if (k === 1)
			return {
				...base,
				name: 'Slack #security',
				type: 'slack',
				// A delivery error may quote the URL it posted to (undocumented): its planted path must not show.
				state: { status: 'error', message: `POST ${slackUrl(`channel-${id}`)} failed: 404 no_service` },
				params: { type: 'slack', webhook_url: slackUrl(`channel-${id}`) },
			};
		if (k === 2)
			return {
				...base,
				name: 'Jira SEC',
				type: 'jira',
				state: { status: 'untested', message: null },
				params: {
					type: 'jira',
					server_netloc: 'acme.atlassian.net',
					email: 'bot@acme.com',
					api_token: plantedSecret('', `channel-${id}-jira`),
					project_key: 'SEC',
					issue_type: 'Task',
					labels: ['flare'],
				},
			};
		return {
			...base,
			name: `Team ${k} e-mail`,
			type: 'email',
			params: { type: 'email', email: `team${k}@acme.com` },
		};
	}

	/** Three rules of the first identifiers and group, then rules of the next identifiers: more than a page of 10. */
	private seedRules(tenantId: number, t: number, start: number): void {
		const identifiers = this.dataset.identifierIds();
		const groups = this.dataset.identifierGroups(tenantId).map((group) => group.id);
		const at = (k: number) => isoWithOffset(start + k * DAY_MS);
		const rule = (k: number, owner: 'assets' | 'assets/groups', ownerId: number, extra: Partial<FeedAlert>): StoredRule => ({
			id: 5101 + t * 100 + k,
			name: `Rule ${k}`,
			type: 'channel',
			params: { type: 'channel', alert_channel_id: channelId(t, 0) },
			tenant_alert_channel_id: channelId(t, 0),
			frequency: 60,
			start_at: at(k),
			created_at: at(k),
			updated_at: at(k),
			feed_url: `/firework/v2/${owner}/${ownerId}/feed`,
			feed_target_type: owner,
			feed_target_id: ownerId,
			tenant_id: tenantId,
			organization_id: this.settings.organizationId,
			search_types: [],
			experimental_search_types: [],
			risks: [],
			...extra,
		});
		this.rules.push(
			rule(0, 'assets', identifiers[0], { name: 'Leaks of the main domain', risks: [4, 5], search_types: ['leak', 'stealer_log'] }),
			// A rule from before Alert Central: its destination inline, a Slack webhook URL.
			rule(1, 'assets', identifiers[0], {
				name: 'Legacy Slack alert',
				type: 'slack',
				params: { type: 'slack', webhook_url: slackUrl(`rule-${5102 + t * 100}`) },
				tenant_alert_channel_id: undefined,
				frequency: 1440,
			}),
			rule(2, 'assets/groups', groups[0], { name: 'Brands: critical only', risks: [5], tenant_alert_channel_id: channelId(t, 2), params: { type: 'channel', alert_channel_id: channelId(t, 2) } }),
		);
		for (let k = 3; k < 14; k++) this.rules.push(rule(k, 'assets', identifiers[k % identifiers.length], { name: `Watch ${k}` }));
		for (const stored of this.rules) if (stored.tenant_alert_channel_id === undefined) delete stored.tenant_alert_channel_id;
	}

	private seededRecommendations(tenantId: number, t: number): Array<Recommendation & { status: string }> {
		return Array.from({ length: RECOMMENDATIONS }, (_, k) => {
			const id = 9001 + t * 1000 + k;
			const kind = k % 4;
			const data: Recommendation['data'] =
				kind === 0
					? { type: 'domain', fqdn: `acme-${k}.com` }
					: kind === 1
						? { type: 'email', email: `user${k}@acme.com` }
						: kind === 2
							? { type: 'username', username: `acme_user${k}` }
							: { type: 'azure_tenant', tenant_id: `72f988bf-86f1-41af-91ab-${String(tenantId * 1000 + k).padStart(12, '0')}` };
			return { id, data, status: k % 10 === 9 ? 'accepted' : k % 10 === 8 ? 'rejected' : 'recommended' };
		});
	}

	// ---- oracles ----

	/** The tenant's channels as the list shows them, in id order. */
	channelsOf(tenantId: number): PartialAlertChannel[] {
		return this.channels
			.filter((channel) => channel.tenantId === tenantId)
			.map(({ id, name, type, state }) => ({
				id,
				name,
				type,
				state,
				alert_count: this.rules.filter((rule) => rule.tenant_id === tenantId && rule.tenant_alert_channel_id === id).length,
			}));
	}

	/** A channel with its params (as created), or undefined. */
	channel(id: number): AlertChannel | undefined {
		const found = this.channels.find((channel) => channel.id === id);
		if (!found) return undefined;
		const channel: Partial<StoredChannel> = structuredClone(found);
		delete channel.tenantId;
		return channel as AlertChannel;
	}

	/** Removes a channel, as an admin deleting it in Flare's Alert Central. */
	removeChannel(id: number): void {
		const index = this.channels.findIndex((channel) => channel.id === id);
		if (index < 0) throw new Error(`PlaybookApi.removeChannel: no channel ${id}`);
		this.channels.splice(index, 1);
	}

	/** The v2 rules of an identifier (`assets`) or a group (`assets/groups`). */
	rulesOf(tenantId: number, owner: 'assets' | 'assets/groups', ownerId: number): FeedAlert[] {
		return this.rules
			.filter((rule) => rule.tenant_id === tenantId && rule.feed_target_type === owner && rule.feed_target_id === ownerId)
			.map((rule) => withoutKey(structuredClone(rule), 'updated_at'));
	}

	/** Every rule of the tenant as the v4 list shows it, in id order. */
	alertRules(tenantId: number): AlertRule[] {
		return this.rules
			.filter((rule) => rule.tenant_id === tenantId)
			.sort((a, b) => a.id - b.id)
			.map((rule) => this.asAlert(rule));
	}

	/** The tenant's recommendations as the list shows them, with where each stands. */
	recommendationsOf(tenantId: number): Array<Recommendation & { status: string }> {
		return structuredClone(this.recommendations.get(tenantId) ?? []);
	}

	/** Every Threat Flow report the tenant can read: Flare's (standard), then its own (custom). */
	reportsOf(tenantId: number): Array<ThreatFlowReport & { kind: 'standard' | 'custom' }> {
		const start = Date.parse(this.settings.startTime);
		const standard = Array.from({ length: STANDARD_REPORTS }, (_, k) => ({
			...this.standardReport(k + 1, start + k * 7 * DAY_MS),
			kind: 'standard' as const,
		}));
		const custom = this.requestedReports(tenantId).map((report) => ({
			...report,
			intel_type: 'custom_intel' as const,
			prompt_preset_uid: null,
			published_at: null,
			updated_at: report.created_at,
			reading_time: 3,
			organization_id: this.settings.organizationId,
			kind: 'custom' as const,
		}));
		// What the tenant deleted is gone; what it published has its date and maybe a new title.
		return [...standard, ...custom]
			.filter((report) => this.reportEdits.get(`${tenantId}:${report.id}`) !== 'deleted')
			.map((report) => {
				const edit = this.reportEdits.get(`${tenantId}:${report.id}`);
				return typeof edit === 'object' ? { ...report, ...edit, updated_at: edit.published_at } : report;
			});
	}

	/**
	 * Deletes the tenant's report `id`, or publishes it (now, with a new title if given), as Threat
	 * Flow's delete and publish do (threat-flow.ts); false when the tenant has no such report.
	 */
	editReport(tenantId: number, id: number, edit: 'deleted' | { title?: string; published_at: string }): boolean {
		const report = this.reportsOf(tenantId).find((candidate) => candidate.id === id);
		if (!report) return false;
		const title = typeof edit === 'object' ? (edit.title ?? report.title) : undefined;
		this.reportEdits.set(`${tenantId}:${id}`, typeof edit === 'object' ? { title, published_at: edit.published_at } : edit);
		return true;
	}

	/** The report `id` of the tenant, as Get Report answers it. */
	report(tenantId: number, id: number): ThreatFlowReport | undefined {
		const found = this.reportsOf(tenantId).find((report) => report.id === id);
		if (!found) return undefined;
		return withoutKey(found, 'kind');
	}

	/** Every planted value of this module's answers. */
	plantedValues(): string[] {
		const channelSecrets = this.channels.flatMap((channel) =>
			Object.values(channel.params).filter((value): value is string => typeof value === 'string' && value.includes('PlAnTeD')),
		);
		const ruleSecrets = this.rules.flatMap((rule) =>
			Object.values(rule.params).filter((value): value is string => typeof value === 'string' && value.includes('PlAnTeD')),
		);
		return [
			...channelSecrets,
			...ruleSecrets,
			...Array.from({ length: STANDARD_REPORTS }, (_, k) => plantedInStandardReport(k + 1)).flat(),
			...this.events.allUids().map(plantedInAiExplanation),
		];
	}

	private standardReport(k: number, createdMs: number): ThreatFlowReport {
		const [inSummary, inHighlight] = plantedInStandardReport(k);
		const created = isoWithOffset(createdMs);
		return {
			id: 870000 + k,
			format_type: 'finished_intel_standard',
			intel_type: 'unit_summary_based',
			title: `Weekly threat landscape #${k}`,
			subtitle: 'Stealer logs, ransomware leak sites and access brokers',
			summary: `Initial access brokers sold ${k + 2} VPN accesses this week; one listing quotes vpn-admin@initech.com:${inSummary} as a working login.`,
			content: `# Weekly threat landscape #${k}\n\n- Stealer logs: up ${k}%\n- Ransomware leak sites: ${k + 4} new victims`,
			tags: ['weekly', 'access brokers'],
			highlights: [`${k + 2} VPN accesses sold`, `Credential for sale: ftp://backup:${inHighlight}@files.initech.com/`],
			related_activity_uids: [],
			prompt_preset_uid: null,
			created_at: created,
			published_at: created,
			updated_at: created,
			reading_time: 4,
			tenant_id: null,
			organization_id: null,
		};
	}

	// ---- handlers ----

	handle(name: PlaybookRouteName, request: HandlerRequest): Reply {
		return answer(() => {
			switch (name) {
				case 'listAlertRules':
					return this.listAlertRules(request);
				case 'listAlertChannels':
					return this.listAlertChannels(request);
				case 'createAlertChannel':
					return this.createAlertChannel(request);
				case 'listAssetAlerts':
				case 'listGroupAlerts':
					return this.listRules(request, name === 'listAssetAlerts' ? 'assets' : 'assets/groups');
				case 'createAssetAlert':
				case 'createGroupAlert':
					return this.writeRule(request, name === 'createAssetAlert' ? 'assets' : 'assets/groups', 'create');
				case 'updateAssetAlert':
				case 'updateGroupAlert':
					return this.writeRule(request, name === 'updateAssetAlert' ? 'assets' : 'assets/groups', 'update');
				case 'deleteAssetAlert':
				case 'deleteGroupAlert':
					return this.writeRule(request, name === 'deleteAssetAlert' ? 'assets' : 'assets/groups', 'delete');
				case 'listRecommendations':
					return this.listRecommendations(request);
				case 'recommendationActions':
					return this.recommendationActions(request);
				case 'aiAssistance':
					return this.aiAssistance(request);
				case 'listThreatReports':
					return this.listThreatReports(request);
				case 'getThreatReport':
					return this.getThreatReport(request);
				case 'downloadThreatReport':
					return this.downloadThreatReport(request);
			}
		});
	}

	private write(request: HandlerRequest, body: unknown): void {
		this.recordWrite({ method: request.method, path: request.rawPath, body });
	}

	/** A page of a list by position, its cursor bound to the other parameters. */
	private page<T>(request: HandlerRequest, scope: string, query: { from?: string; size: number }, records: T[]) {
		const { from, ...params } = query;
		const page = request.pages({ scope, params, from, location: 'query' }, (cursor) =>
			positionsPage(cursor, records.length, query.size, this.settings.quirks),
		);
		return { items: page.items.map((j) => records[j]), next: page.next };
	}

	private listAlertChannels(request: HandlerRequest): Reply {
		const query = parseWith(AlertListQuery, request.query, 'query');
		const needle = query.q?.toLowerCase() ?? '';
		const channels = this.channelsOf(request.tenantId).filter((channel) => channel.name.toLowerCase().includes(needle));
		if (query.order_type === 'desc') channels.reverse();
		return jsonReply(200, this.page(request, 'alertChannels', query, channels));
	}

	private createAlertChannel(request: HandlerRequest): Reply {
		const rawBody = jsonBody(request);
		const body = parseWith(CreateAlertChannelBody, rawBody, 'body');
		const channel: StoredChannel = {
			id: this.nextChannelId++,
			name: body.name,
			type: body.params.type,
			state: body.state ?? { status: 'untested', message: null },
			params: body.params,
			tenantId: request.tenantId,
		};
		this.channels.push(channel);
		this.write(request, rawBody);
		return jsonReply(200, this.channel(channel.id));
	}

	private listAlertRules(request: HandlerRequest): Reply {
		const query = parseWith(AlertListQuery, request.query, 'query');
		const needle = query.q?.toLowerCase() ?? '';
		const rules = this.alertRules(request.tenantId).filter(
			(rule) =>
				rule.name.toLowerCase().includes(needle) &&
				(query.feed_owner_id === undefined || rule.feed_definition.id === query.feed_owner_id),
		);
		if (query.order_type === 'desc') rules.reverse();
		return jsonReply(200, this.page(request, 'alertRules', query, rules));
	}

	private asAlert(rule: StoredRule): AlertRule {
		const channel = this.channels.find((candidate) => candidate.id === rule.tenant_alert_channel_id);
		const identifier =
			rule.feed_target_type === 'assets' && this.dataset.identifierExists(rule.feed_target_id)
				? this.dataset.identifier(rule.feed_target_id, rule.tenant_id)
				: undefined;
		return {
			feed_definition: {
				type: rule.feed_target_type === 'assets' ? 'identifier' : rule.feed_target_type === 'assets/groups' ? 'group' : 'tenant',
				id: rule.feed_target_type === 'home' ? null : rule.feed_target_id,
			},
			type: rule.type,
			created_at: rule.created_at,
			updated_at: rule.updated_at,
			id: rule.id,
			name: rule.name,
			tenant_id: rule.tenant_id,
			organization_id: rule.organization_id,
			search_types: rule.search_types,
			experimental_search_types: rule.experimental_search_types,
			risks: rule.risks,
			alert_channel_id: channel?.id ?? null,
			alert_channel: channel ? { id: channel.id, name: channel.name } : null,
			frequency: rule.frequency,
			start_at: rule.start_at,
			identifier_scope: identifier ? { name: identifier.name, is_disabled: identifier.is_disabled ?? false } : null,
		};
	}

	/** The owner of a v2 rules path: an identifier or a group of the tenant, or a 404 (v2 `{message, code}`). */
	private owner(request: HandlerRequest, owner: 'assets' | 'assets/groups'): number {
		const name = owner === 'assets' ? 'asset_id' : 'assets_group_id';
		const id = pathParam(name, request.params[0], IdentifierIdParam);
		const exists =
			owner === 'assets'
				? this.dataset.identifierExists(id)
				: this.dataset.identifierGroup(id, request.tenantId) !== undefined;
		if (!exists) {
			throw new Halt(
				jsonReply(404, { message: `${owner === 'assets' ? 'Asset' : 'Assets group'} ${id} not found`, code: 'NOT_FOUND' }),
			);
		}
		return id;
	}

	private listRules(request: HandlerRequest, owner: 'assets' | 'assets/groups'): Reply {
		const id = this.owner(request, owner);
		return jsonReply(200, { alerts: this.rulesOf(request.tenantId, owner, id) });
	}

	private writeRule(request: HandlerRequest, owner: 'assets' | 'assets/groups', what: 'create' | 'update' | 'delete'): Reply {
		const ownerId = this.owner(request, owner);
		const found = (): StoredRule => {
			const alertId = pathParam('alert_id', request.params[1], IdentifierIdParam);
			const rule = this.rules.find(
				(candidate) =>
					candidate.id === alertId &&
					candidate.tenant_id === request.tenantId &&
					candidate.feed_target_type === owner &&
					candidate.feed_target_id === ownerId,
			);
			if (!rule) throw new Halt(jsonReply(404, { message: `Alert ${alertId} not found`, code: 'NOT_FOUND' }));
			return rule;
		};
		if (what === 'delete') {
			const rule = found();
			this.rules.splice(this.rules.indexOf(rule), 1);
			this.write(request, undefined);
			return jsonReply(200, {});
		}
		const rawBody = jsonBody(request);
		const body = parseWith(FeedAlertBody, rawBody, 'body');
		const channelIdOf = body.tenant_alert_channel_id ?? (body.type === 'channel' ? Number(body.params.alert_channel_id) : undefined);
		if (body.type === 'channel' && !this.channels.some((channel) => channel.id === channelIdOf && channel.tenantId === request.tenantId)) {
			return jsonReply(404, { message: `Alert channel ${String(channelIdOf)} not found`, code: 'NOT_FOUND' });
		}
		const now = isoWithOffset(Math.floor(this.settings.now() / 1000) * 1000);
		const current = what === 'update' ? found() : undefined;
		const rule: StoredRule = {
			id: current?.id ?? this.nextRuleId++,
			name: body.name ?? current?.name ?? '',
			type: body.type,
			params: body.params,
			frequency: this.settings.alertRuleStorage === 'frequencyInSeconds' ? body.frequency * 60 : body.frequency,
			start_at: isoWithOffset(dateTimeToMs(body.start_at)),
			search_types: body.search_types ?? [],
			experimental_search_types: body.experimental_search_types ?? [],
			risks: body.risks ?? [],
			...(body.tenant_alert_channel_id !== undefined && this.settings.alertRuleStorage !== 'withoutChannel'
				? { tenant_alert_channel_id: body.tenant_alert_channel_id }
				: {}),
			created_at: current?.created_at ?? now,
			updated_at: now,
			feed_url: `/firework/v2/${owner}/${ownerId}/feed`,
			feed_target_type: owner,
			feed_target_id: ownerId,
			tenant_id: request.tenantId,
			organization_id: this.settings.organizationId,
		};
		if (current) this.rules[this.rules.indexOf(current)] = rule;
		else this.rules.push(rule);
		this.write(request, rawBody);
		return jsonReply(200, withoutKey(rule, 'updated_at'));
	}

	private listRecommendations(request: HandlerRequest): Reply {
		const types = new URLSearchParams(request.rawQuery).getAll('types');
		const query = parseWith(RecommendationListQuery, types.length ? { ...request.query, types } : request.query, 'query');
		const needle = query.query?.toLowerCase() ?? '';
		const valueOf = (data: Recommendation['data']) =>
			data.type === 'domain' ? data.fqdn : data.type === 'email' ? data.email : data.type === 'username' ? data.username : data.tenant_id;
		const records = this.recommendationsOf(request.tenantId)
			.filter(
				(recommendation) =>
					(!query.types?.length || query.types.includes(recommendation.data.type)) &&
					(query.status === undefined || recommendation.status === query.status) &&
					valueOf(recommendation.data).toLowerCase().includes(needle),
			)
			.map(({ id, data }) => ({ id, data }));
		return jsonReply(200, this.page(request, 'recommendations', query, records));
	}

	/** Every target must be a recommendation of the tenant, or nothing changes (404 naming them). */
	private recommendationActions(request: HandlerRequest): Reply {
		const rawBody = jsonBody(request);
		const body = parseWith(RecommendationActionsBody, rawBody, 'body');
		const list = this.recommendations.get(request.tenantId) ?? [];
		const ids = (body.targets ?? []).map((target) => target.id);
		const unknown = ids.filter((id) => !list.some((recommendation) => recommendation.id === id));
		if (unknown.length > 0) return errorReply(404, 'NOT_FOUND', `recommendation ${unknown.join(', ')} not found`);
		for (const recommendation of list) {
			if (ids.includes(recommendation.id)) recommendation.status = body.action.type === 'accept' ? 'accepted' : 'rejected';
		}
		this.write(request, rawBody);
		return jsonReply(200, {});
	}

	/** Flare's AI explanation of an event of the fake (any uid it knows); 404 as the full event's. */
	private aiAssistance(request: HandlerRequest): Reply {
		const uid = request.params[0]
			.split('/')
			.map((part) => decodeURIComponent(part))
			.join('/');
		const event = this.events.event(uid);
		if (!event) return jsonReply(404, { message: 'Activity not found', code: 'NOT_FOUND' });
		const quoted = plantedInAiExplanation(uid);
		const body: AiAssistanceResponse = {
			activity_ai_assistance: {
				uid,
				prompt: `Explain this ${event.type.replace(/_/g, ' ')} event to a security analyst.\nTitle: ${event.title}\nContent: ${event.content.slice(0, 200)}\nIt quotes: admin@initech.com:${quoted}`,
				// A language model's answer: the password repeated in prose, as no free-text rule finds it.
				response: `This ${event.type.replace(/_/g, ' ')} from ${event.sourceName} exposes a working login of your organization: the account admin@initech.com, with the password ${quoted}. Reset that password, revoke the account's sessions and check for reuse.`,
			},
		};
		return jsonReply(200, body);
	}

	private listThreatReports(request: HandlerRequest): Reply {
		const types = new URLSearchParams(request.rawQuery).getAll('report_types');
		const query = parseWith(ThreatFlowReportListQuery, types.length ? { ...request.query, report_types: types } : request.query, 'query');
		const reports = this.reportsOf(request.tenantId)
			.filter((report) => !query.report_types?.length || query.report_types.includes(report.kind))
			.sort((a, b) => (a.created_at === b.created_at ? a.id - b.id : a.created_at < b.created_at ? -1 : 1))
			.map((report) => withoutKey(report, 'kind'));
		if (query.order === 'desc') reports.reverse();
		return jsonReply(200, this.page(request, 'threatReports', query, reports));
	}

	private reportOf(request: HandlerRequest): ThreatFlowReport {
		const id = pathParam('report_id', request.params[0], ReportIdParam);
		const report = this.report(request.tenantId, id);
		if (!report) throw new Halt(errorReply(404, 'NOT_FOUND', `report ${id} not found`));
		return report;
	}

	private getThreatReport(request: HandlerRequest): Reply {
		return jsonReply(200, { report: this.reportOf(request) });
	}

	/** The report as a file: a PDF or a DOCX holding its title, summary, content and highlights. */
	private downloadThreatReport(request: HandlerRequest): Reply {
		const report = this.reportOf(request);
		const { format } = parseWith(ReportDownloadQuery, request.query, 'query');
		const lines = [report.title, report.summary, ...report.content.split('\n'), ...report.highlights];
		const file = format === 'pdf' ? pdfOf(lines) : docxOf(lines);
		return {
			status: 200,
			raw: file,
			headers: {
				'content-type':
					format === 'pdf' ? 'application/pdf' : 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
				'content-disposition': `attachment; filename="report-${report.id}.${format}"`,
			},
		};
	}
}

/** A copy of `record` without `key` (what the fake keeps beside Flare's shape). */
function withoutKey<T extends object, K extends keyof T>(record: T, key: K): Omit<T, K> {
	const copy = { ...record };
	delete copy[key];
	return copy;
}
