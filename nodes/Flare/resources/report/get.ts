import type { INodeProperties } from 'n8n-workflow';

import {
	leakedValueOptions,
	notice,
	reportLocator,
	updateDisplayOptions,
} from '../../shared/descriptions';
import { recordOfAnswer, type FlareOperation } from '../../shared/operation';
import { locatorInteger, locatorLabel } from '../../shared/validation';
import { REPORTS_NEEDS } from './getAll';

const fields: INodeProperties[] = [
	notice('reportGetNotice', REPORTS_NEEDS),
	reportLocator('Report to get: pick it by title, or enter its numeric ID'),
	leakedValueOptions,
];

export const getDescription = updateDisplayOptions(
	{ show: { resource: ['report'], operation: ['get'] } },
	fields,
);

/** One platform report (`GET /{segment}/v4/reports/{report_id}`): the `PublicReport` Flare answers. */
export const getOperation: FlareOperation = {
	action: 'get the report',
	entitlement: 'reports',
	method: 'GET',
	path: '/{segment}/v4/reports/{report_id}',
	tier: 'basic',
	properties: fields,
	apiFields: { report_id: 'reportId' },
	target: (item) => `Report ${locatorLabel(item, 'reportId')}`,
	prepare(item, request) {
		request.pathParameters.report_id = locatorInteger(item, 'reportId');
	},
	output: (_item, _records, response) => recordOfAnswer(response, ['id'], 'a report'),
};
