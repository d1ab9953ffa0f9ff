import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { leakedValueOptions, updateDisplayOptions } from '../../shared/descriptions';
import type { FlareOperation } from '../../shared/operation';
import { boundedText, locatorLabel, MAX_NAME_LENGTH } from '../../shared/validation';
import { isGiven } from '../identifier/data';
import { checkStoredRule, sending } from './readBack';
import {
	channelField,
	channelOf,
	eventTypesOf,
	frequencyField,
	frequencyOf,
	GROUP_RULES,
	IDENTIFIER_RULES,
	ownerFields,
	ownerLabel,
	ownerPath,
	risksOf,
	ruleApiFields,
	ruleSettingFields,
	startAtOf,
} from './rule';

const fields: INodeProperties[] = [
	...ownerFields,
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Critical leaks to n8n',
		description: 'Name of the rule, shown in Flare',
	},
	channelField,
	frequencyField,
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description: 'What the rule alerts on, and from when',
		options: ruleSettingFields,
	},
	leakedValueOptions,
];

export const createDescription = updateDisplayOptions(
	{ show: { resource: ['alertRule'], operation: ['create'] } },
	fields,
);

/** The new rule's body: a v2 `FeedAlert` that sends to the chosen channel. */
function ruleBody(item: Parameters<NonNullable<FlareOperation['prepare']>>[0]): IDataObject {
	const types = isGiven(item, 'additionalFields.eventTypes')
		? eventTypesOf(item, 'additionalFields.eventTypes')
		: [];
	const risks = isGiven(item, 'additionalFields.severities')
		? risksOf(item, 'additionalFields.severities')
		: [];
	return {
		name: boundedText(item, 'name', MAX_NAME_LENGTH),
		...channelOf(item, 'alertChannelId'),
		frequency: frequencyOf(item, 'frequency'),
		start_at: startAtOf(item, 'additionalFields.startAt'),
		...(types.length ? { search_types: types } : {}),
		...(risks.length ? { risks } : {}),
	};
}

/**
 * A new alert rule of an identifier or an identifier group (`POST …/v2/assets/{asset_id}/alerts`, or
 * `…/assets/groups/{assets_group_id}/alerts`): the rule as Flare answers it, once the tenant's list
 * of rules shows it with the channel, frequency and settings sent (readBack.ts).
 */
export const createOperation: FlareOperation = {
	action: 'create the alert rule',
	method: 'POST',
	path: IDENTIFIER_RULES,
	otherPaths: [GROUP_RULES],
	tier: 'basic',
	write: true,
	properties: fields,
	apiFields: ruleApiFields,
	// Flare's docs say nothing of an unknown channel: a 404 may be about either.
	target: (item) =>
		`${ownerLabel(item).replace(/^i/, 'I')} or alert channel ${locatorLabel(item, 'alertChannelId')}`,
	prepare(item, request) {
		ownerPath(item, request, 'rules');
		request.body = sending(item, ruleBody(item));
	},
	output: (_item, records) => records,
	// What Flare stored, read back: its channel and frequency are bets (readBack.ts).
	readBack: async (item, outputs) => await checkStoredRule(item, createOperation, outputs),
};
