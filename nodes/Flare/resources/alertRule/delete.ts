import type { INodeProperties } from 'n8n-workflow';

import { alertRuleLocator, updateDisplayOptions } from '../../shared/descriptions';
import type { FlareOperation } from '../../shared/operation';
import { locatorInteger, locatorLabel } from '../../shared/validation';
import {
	GROUP_RULE,
	IDENTIFIER_RULE,
	ownerFields,
	ownerLabel,
	ownerOutput,
	ownerPath,
	ruleApiFields,
} from './rule';

const fields: INodeProperties[] = [
	...ownerFields,
	alertRuleLocator('Alert rule to delete: pick it by name, or enter its numeric ID'),
];

export const deleteDescription = updateDisplayOptions(
	{ show: { resource: ['alertRule'], operation: ['delete'] } },
	fields,
);

/** Deletes an alert rule of an identifier or an identifier group (v2). */
export const deleteOperation: FlareOperation = {
	action: 'delete the alert rule',
	method: 'DELETE',
	path: IDENTIFIER_RULE,
	otherPaths: [GROUP_RULE],
	tier: 'basic',
	write: true,
	answerIgnored: true,
	properties: fields,
	apiFields: ruleApiFields,
	target: (item) => `Alert rule ${locatorLabel(item, 'alertRuleId')} of ${ownerLabel(item)}`,
	prepare(item, request) {
		ownerPath(item, request, 'rule');
		request.pathParameters.alert_id = locatorInteger(item, 'alertRuleId');
	},
	output: (item) => [
		{ deleted: true, alertRuleId: locatorInteger(item, 'alertRuleId'), ...ownerOutput(item) },
	],
};
