import type { INodeProperties } from 'n8n-workflow';

import { notice, threatReportLocator, updateDisplayOptions } from '../../shared/descriptions';
import type { FlareOperation } from '../../shared/operation';
import { locatorInteger, locatorLabel } from '../../shared/validation';
import { THREAT_FLOW_NEEDS } from './get';

const fields: INodeProperties[] = [
	notice('threatReportDeleteNotice', THREAT_FLOW_NEEDS),
	threatReportLocator('Threat report to delete: pick it by title, or enter its numeric ID'),
];

export const deleteDescription = updateDisplayOptions(
	{ show: { resource: ['threatReport'], operation: ['delete'] } },
	fields,
);

/**
 * Deletes a Threat Flow report (`DELETE /{segment}/v4/threat_flow/reports/{report_id}`; Flare
 * documents an empty answer): one item `{deleted, reportId}`.
 */
export const deleteOperation: FlareOperation = {
	action: 'delete the threat report',
	entitlement: 'threat intelligence',
	method: 'DELETE',
	path: '/{segment}/v4/threat_flow/reports/{report_id}',
	tier: 'basic',
	write: true,
	answerIgnored: true,
	properties: fields,
	apiFields: { report_id: 'reportId' },
	target: (item) => `Threat report ${locatorLabel(item, 'reportId')}`,
	prepare(item, request) {
		request.pathParameters.report_id = locatorInteger(item, 'reportId');
	},
	output: (item) => [{ deleted: true, reportId: locatorInteger(item, 'reportId') }],
};
