import type { IDataObject, INodeProperties } from 'n8n-workflow';

import {
	alertRuleLocator,
	leakedValueOptions,
	updateDisplayOptions,
} from '../../shared/descriptions';
import { parameterError } from '../../shared/errors';
import { FlareRequestFailed, unexpectedAnswer } from '../../shared/failure';
import type { FlareItem } from '../../shared/item';
import { isObject, type FlareOperation, type FlareResponse } from '../../shared/operation';
import { answerOf, asNodeError } from '../../shared/runner';
import {
	boundedText,
	locatorInteger,
	locatorLabel,
	MAX_NAME_LENGTH,
} from '../../shared/validation';
import { isGiven } from '../identifier/data';
import { checkStoredRule, sending } from './readBack';
import {
	channelField,
	channelOf,
	eventTypesOf,
	frequencyField,
	frequencyOf,
	GROUP_RULE,
	GROUP_RULES,
	IDENTIFIER_RULE,
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
	alertRuleLocator('Alert rule to update: pick it by name, or enter its numeric ID'),
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description: 'The settings to change; the others keep their current values',
		options: [
			{ ...channelField, required: false },
			...ruleSettingFields,
			frequencyField,
			{
				displayName: 'Name',
				name: 'name',
				type: 'string',
				default: '',
				placeholder: 'e.g. Critical leaks to n8n',
				description: 'Name of the rule, shown in Flare',
			},
		],
	},
	leakedValueOptions,
];

export const updateDescription = updateDisplayOptions(
	{ show: { resource: ['alertRule'], operation: ['update'] } },
	fields,
);

/** The changes asked for, checked before anything is sent. */
function changesOf(item: FlareItem): IDataObject {
	const changes: IDataObject = {};
	if (isGiven(item, 'updateFields.name')) {
		changes.name = boundedText(item, 'updateFields.name', MAX_NAME_LENGTH);
	}
	if (isGiven(item, 'updateFields.alertChannelId')) {
		Object.assign(changes, channelOf(item, 'updateFields.alertChannelId'));
	}
	if (isGiven(item, 'updateFields.frequency')) {
		changes.frequency = frequencyOf(item, 'updateFields.frequency');
	}
	const collection = item.parameter<IDataObject>('updateFields', {});
	if ('eventTypes' in collection) {
		changes.search_types = eventTypesOf(item, 'updateFields.eventTypes');
	}
	if ('severities' in collection) changes.risks = risksOf(item, 'updateFields.severities');
	if (isGiven(item, 'updateFields.startAt')) {
		changes.start_at = startAtOf(item, 'updateFields.startAt');
	}
	if (Object.keys(changes).length === 0) {
		throw parameterError(
			item,
			'updateFields',
			'has nothing to change',
			'Add a field to change under Update Fields.',
		);
	}
	return changes;
}

/** The owner's rules (`GET …/alerts`), read to find the one updated. */
const listRules: FlareOperation = {
	action: 'read the alert rules',
	method: 'GET',
	path: IDENTIFIER_RULES,
	otherPaths: [GROUP_RULES],
	tier: 'basic',
	properties: fields,
	apiFields: ruleApiFields,
	target: (item) => ownerLabel(item).replace(/^i/, 'I'),
	prepare(item, request) {
		ownerPath(item, request, 'rules');
	},
	output: (_item, records) => records,
};

/**
 * The rules of an answer: Flare's v2 OpenAPI puts them under `alerts` (one `FeedAlert` in its schema;
 * a list is read too). Anything else is not read as "no rules": it fails, saying what came.
 */
export function rulesOf({ body, statusCode }: FlareResponse): IDataObject[] {
	const value = isObject(body) ? body.alerts : undefined;
	const rules = Array.isArray(value) ? value : isObject(value) ? [value] : undefined;
	if (!rules) {
		throw unexpectedAnswer(
			statusCode,
			"Flare answered without a list of alert rules under 'alerts'",
		);
	}
	const hasId = (rule: unknown) =>
		isObject(rule) &&
		/^\d{1,15}$/.test(
			typeof rule.id === 'number' || typeof rule.id === 'string' ? String(rule.id) : '',
		);
	if (!rules.every(hasId)) {
		throw unexpectedAnswer(statusCode, "Flare's answer holds alert rules without a numeric 'id'");
	}
	return rules as IDataObject[];
}

/** What an update sends back of a rule as read: the fields of a v2 `FeedAlert` one may write. */
const WRITABLE = [
	'name',
	'type',
	'params',
	'frequency',
	'start_at',
	'search_types',
	'experimental_search_types',
	'risks',
	'tenant_alert_channel_id',
];

/** The rule as Flare has it now, among its owner's. */
async function currentRule(item: FlareItem, id: number): Promise<IDataObject> {
	const answer = await answerOf(item, listRules);
	let rules: IDataObject[];
	try {
		rules = rulesOf(answer);
	} catch (error) {
		throw asNodeError(item, listRules, error);
	}
	const rule = rules.find((candidate) => Number(candidate.id) === id);
	if (!rule) {
		throw asNodeError(
			item,
			updateOperation,
			new FlareRequestFailed({
				status: 404,
				message: `alert rule ${id} is not among the ${rules.length} rules of ${ownerLabel(item)}`,
			}),
		);
	}
	return rule;
}

/**
 * Flare's update replaces the rule whole (`PUT …/alerts/{alert_id}`, a `FeedAlert` with `type`,
 * `params`, `frequency` and `start_at` required), so the node reads the owner's rules first and sends
 * the rule back with the changes: fields left out keep their current values (docs/api-contract.md,
 * "Alert rules and channels"). Updates of one rule run one at a time in the n8n process, and the rule
 * is read back afterwards (readBack.ts): a change another process wrote over it shows there.
 */
export const updateOperation: FlareOperation = {
	action: 'update the alert rule',
	method: 'PUT',
	path: IDENTIFIER_RULE,
	otherPaths: [GROUP_RULE],
	tier: 'basic',
	write: true,
	properties: fields,
	apiFields: {
		...ruleApiFields,
		name: 'updateFields.name',
		tenant_alert_channel_id: 'updateFields.alertChannelId',
		params: 'updateFields.alertChannelId',
		frequency: 'updateFields.frequency',
		search_types: 'updateFields.eventTypes',
		risks: 'updateFields.severities',
		start_at: 'updateFields.startAt',
	},
	target: (item) => `Alert rule ${locatorLabel(item, 'alertRuleId')} of ${ownerLabel(item)}`,
	record: (item) => `alertRule:${locatorInteger(item, 'alertRuleId')}`,
	async prepare(item, request) {
		ownerPath(item, request, 'rule');
		const id = locatorInteger(item, 'alertRuleId');
		request.pathParameters.alert_id = id;
		const changes = changesOf(item);
		const current = await currentRule(item, id);
		// A rule with its destination inline (Slack, Jira…) holds its settings in `params`, secrets
		// included; Flare does not say whether it reads them back in clear, so they are never written
		// back as read: such a rule is updated only to send to a channel.
		if (current.type !== 'channel' && changes.params === undefined) {
			throw parameterError(
				item,
				'updateFields.alertChannelId',
				`must be set to update alert rule ${id}, which sends to its own ${String(current.type)} destination`,
				"Flare's docs do not say whether that destination's settings (a webhook URL, a token) are read back in clear, so the node never writes them back. Pick the alert channel the rule should send to, under Update Fields.",
			);
		}
		const body: IDataObject = {};
		for (const key of WRITABLE) if (current[key] !== undefined) body[key] = current[key];
		request.body = sending(item, { ...body, ...changes });
	},
	output: (_item, records) => records,
	// The rule as Flare stored it, read back: a change of another process meanwhile shows there too.
	readBack: async (item, outputs) => await checkStoredRule(item, updateOperation, outputs),
};
