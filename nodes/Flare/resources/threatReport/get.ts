import type { INodeProperties } from 'n8n-workflow';

import {
	leakedValueOptions,
	notice,
	threatReportLocator,
	updateDisplayOptions,
} from '../../shared/descriptions';
import { recordUnder, type FlareOperation } from '../../shared/operation';
import { locatorInteger, locatorLabel } from '../../shared/validation';

/** What every Threat Report operation needs (api-audit part 4, C3: Flare names a feature or a role). */
export const THREAT_FLOW_NEEDS = 'Needs access to Threat Flow (a feature of your Flare account and a permission of your role).';

const fields: INodeProperties[] = [
	notice('threatReportGetNotice', THREAT_FLOW_NEEDS),
	threatReportLocator('Threat report to get: pick it by title, or enter its numeric ID'),
	leakedValueOptions,
];

export const getDescription = updateDisplayOptions(
	{ show: { resource: ['threatReport'], operation: ['get'] } },
	fields,
);

/** One Threat Flow report (`GET /{segment}/v4/threat_flow/reports/{report_id}`): its `report`. */
export const getOperation: FlareOperation = {
	action: 'get the threat report',
	entitlement: 'threat intelligence',
	method: 'GET',
	path: '/{segment}/v4/threat_flow/reports/{report_id}',
	tier: 'basic',
	properties: fields,
	apiFields: { report_id: 'reportId' },
	target: (item) => `Threat report ${locatorLabel(item, 'reportId')}`,
	prepare(item, request) {
		request.pathParameters.report_id = locatorInteger(item, 'reportId');
	},
	output: (_item, _records, response) => recordUnder(response, 'report', 'a threat report'),
};
