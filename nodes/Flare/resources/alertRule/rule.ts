import type { IDataObject, INodeProperties } from 'n8n-workflow';

import {
	alertChannelLocator,
	identifierGroupLocator,
	identifierLocator,
} from '../../shared/descriptions';
import { parameterError } from '../../shared/errors';
import type { FlareItem } from '../../shared/item';
import type { FlareRequestParts } from '../../shared/operation';
import { dateTime, locatorInteger, locatorLabel, optionValue } from '../../shared/validation';
import { EVENT_TYPES, textList } from '../event/feed';

/**
 * Alert rules of an identifier or of an identifier group: Flare's v2 `FeedAlert` (docs/api-contract.md,
 * "Alert rules and channels"). The v2 endpoints live under the identifier (`assets/{asset_id}`) or
 * the group (`assets/groups/{assets_group_id}`): each operation has both, and the item's Rule Of
 * picks one.
 */
export const IDENTIFIER_RULES = '/{segment}/v2/assets/{asset_id}/alerts';
export const GROUP_RULES = '/{segment}/v2/assets/groups/{assets_group_id}/alerts';
export const IDENTIFIER_RULE = `${IDENTIFIER_RULES}/{alert_id}`;
export const GROUP_RULE = `${GROUP_RULES}/{alert_id}`;

const OWNERS = ['identifier', 'identifierGroup'] as const;
type Owner = (typeof OWNERS)[number];

/** Rule Of, and the identifier or group it names. */
export const ownerFields: INodeProperties[] = [
	{
		displayName: 'Rule Of',
		name: 'ruleOf',
		type: 'options',
		default: 'identifier',
		description: 'Whose events the rule alerts on',
		options: [
			{ name: 'Identifier', value: 'identifier', description: 'The events of one identifier' },
			{
				name: 'Identifier Group',
				value: 'identifierGroup',
				description: 'The events of the identifiers of one group',
			},
		],
	},
	{
		...identifierLocator('Identifier whose rule it is: pick it by name, or enter its numeric ID'),
		displayOptions: { show: { ruleOf: ['identifier'] } },
	},
	{
		...identifierGroupLocator(
			'Identifier group whose rule it is: pick it by name, or enter its numeric ID',
		),
		displayOptions: { show: { ruleOf: ['identifierGroup'] } },
	},
];

const ownerOf = (item: FlareItem): Owner => optionValue(item, 'ruleOf', OWNERS, 'identifier');

/** The identifier or group of the item, as the output names it: `{identifierId}` or `{groupId}`. */
export function ownerOutput(item: FlareItem): IDataObject {
	return ownerOf(item) === 'identifier'
		? { identifierId: locatorInteger(item, 'identifierId') }
		: { groupId: locatorInteger(item, 'groupId') };
}

/** What a 404 is about, e.g. "Identifier 7001" or "Alert rule 5101 of identifier group 101". */
export function ownerLabel(item: FlareItem): string {
	try {
		return ownerOf(item) === 'identifier'
			? `identifier ${locatorLabel(item, 'identifierId')}`
			: `identifier group ${locatorLabel(item, 'groupId')}`;
	} catch {
		return 'its identifier';
	}
}

/**
 * Fills in the endpoint of the item's owner: `rules` (its list) or `rule` (one of its rules, with
 * `{alert_id}`), and the owner's path parameter.
 */
export function ownerPath(
	item: FlareItem,
	request: FlareRequestParts,
	which: 'rules' | 'rule',
): void {
	if (ownerOf(item) === 'identifier') {
		request.pathParameters.asset_id = locatorInteger(item, 'identifierId');
	} else {
		request.pathParameters.assets_group_id = locatorInteger(item, 'groupId');
		request.path = which === 'rules' ? GROUP_RULES : GROUP_RULE;
	}
}

/** Flare's risk scores (1–5) by severity, as the rule's Severities are chosen. */
const RISKS: Record<string, number> = { info: 1, low: 2, medium: 3, high: 4, critical: 5 };

/** The settings of a rule, as Create has them and Update's Update Fields offer them. */
export const frequencyField: INodeProperties = {
	displayName: 'Frequency (Minutes)',
	name: 'frequency',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 60,
	description:
		"How often Flare sends what is new for the rule, in minutes, e.g. 60 for hourly or 1440 for daily. Flare's docs give no unit: minutes is the package's assumption, which the read-back after each write checks as far as Flare shows it.",
};

export const ruleSettingFields: INodeProperties[] = [
	{
		displayName: 'Event Type Names or IDs',
		name: 'eventTypes',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'getEventTypes' },
		default: [],
		description:
			'Kinds of events the rule alerts on (none: every kind); a category includes all its types. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{
		displayName: 'Severities',
		name: 'severities',
		type: 'multiOptions',
		default: [],
		description: 'Severities of the events the rule alerts on (none: every severity)',
		options: [
			{ name: 'Critical', value: 'critical' },
			{ name: 'High', value: 'high' },
			{ name: 'Info', value: 'info' },
			{ name: 'Low', value: 'low' },
			{ name: 'Medium', value: 'medium' },
		],
	},
	{
		displayName: 'Start At',
		name: 'startAt',
		type: 'dateTime',
		default: '',
		description: 'When the rule starts alerting (default: now)',
	},
];

export const channelField: INodeProperties = alertChannelLocator(
	'Alert channel the rule sends to (Alert Central → Channels): pick it by name, or enter its numeric ID',
);

/** The rule's channel, as a v2 `FeedAlert` points at a channel of Alert Central. */
export function channelOf(item: FlareItem, name: string): IDataObject {
	const id = locatorInteger(item, name);
	return {
		type: 'channel',
		params: { type: 'channel', alert_channel_id: id },
		tenant_alert_channel_id: id,
	};
}

/** Frequency in whole minutes, at least 1. */
export function frequencyOf(item: FlareItem, name: string): number {
	const value = item.parameter<unknown>(name, 60);
	if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 525_600) {
		throw parameterError(
			item,
			name,
			`must be a whole number of minutes from 1 to 525600 (a year), not ${JSON.stringify(value) ?? String(value)}`,
			'Enter e.g. 60 for hourly, 1440 for daily.',
		);
	}
	return value;
}

/** Event types, each one Flare documents. */
export function eventTypesOf(item: FlareItem, name: string): string[] {
	const types = textList(item, name);
	const unknown = types.find((type) => !EVENT_TYPES.includes(type));
	if (unknown !== undefined) {
		throw parameterError(
			item,
			name,
			`has an unknown event type: "${unknown}"`,
			'Choose types from the list, or use the values Flare documents, e.g. leak, paste, stealer_log or illicit_networks.',
		);
	}
	return types;
}

/** Severities as Flare's risk scores, 1 (info) to 5 (critical), in order. */
export function risksOf(item: FlareItem, name: string): number[] {
	const chosen = textList(item, name);
	const unknown = chosen.find((value) => !(value in RISKS));
	if (unknown !== undefined) {
		throw parameterError(
			item,
			name,
			`has an unknown severity: "${unknown}"`,
			'Use info, low, medium, high or critical.',
		);
	}
	return chosen.map((value) => RISKS[value]).sort((a, b) => a - b);
}

/** `start_at`: the date given, or now. */
export function startAtOf(item: FlareItem, name: string): string {
	return dateTime(item, name) ?? new Date().toISOString();
}

/** Fields of an item's rule the answer names (Flare's field → our parameter). */
export const ruleApiFields: Record<string, string> = {
	asset_id: 'identifierId',
	assets_group_id: 'groupId',
	alert_id: 'alertRuleId',
	name: 'name',
	tenant_alert_channel_id: 'alertChannelId',
	params: 'alertChannelId',
	frequency: 'frequency',
	search_types: 'additionalFields.eventTypes',
	risks: 'additionalFields.severities',
	start_at: 'additionalFields.startAt',
};
