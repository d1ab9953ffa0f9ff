import type { INodeProperties } from 'n8n-workflow';

import {
	matchingPolicyLocator,
	notice,
	returnAllOrLimit,
	updateDisplayOptions,
} from '../../shared/descriptions';
import { nextCursor, type FlareOperation } from '../../shared/operation';
import { locatorLabel, locatorUuid, optionValue } from '../../shared/validation';
import { listOrderOptions } from './getAll';

const fields: INodeProperties[] = [
	notice('getAssignmentsBetaNotice', 'Beta: Flare may change this endpoint without notice.'),
	matchingPolicyLocator(
		'Matching policy whose assignments to list: pick it by name, or enter its UUID',
	),
	...returnAllOrLimit,
	listOrderOptions,
];

export const getAssignmentsDescription = updateDisplayOptions(
	{ show: { resource: ['matchingPolicy'], operation: ['getAssignments'] } },
	fields,
);

/** The identifiers a policy is assigned to, one item each (`identifier_id`, `identifier_name`, …). */
export const getAssignmentsOperation: FlareOperation = {
	action: 'list the assignments of the matching policy',
	method: 'GET',
	path: '/{segment}/v4/matching-policies/{policy_uuid}/assignments',
	tier: 'basic',
	paging: { maxPageSize: 25, next: nextCursor, key: (record) => record.identifier_id },
	properties: fields,
	apiFields: { policy_uuid: 'policyUuid', size: 'limit', order: 'options.order' },
	target: (item) => `Matching policy ${locatorLabel(item, 'policyUuid')}`,
	prepare(item, request) {
		request.pathParameters.policy_uuid = locatorUuid(item, 'policyUuid');
		request.qs = { order: optionValue(item, 'options.order', ['asc', 'desc'], 'asc') };
	},
	output: (_item, records) => records,
};
