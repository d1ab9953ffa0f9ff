import type { INodeProperties } from 'n8n-workflow';

import {
	leakedValueOptions,
	notice,
	reportRequestLocator,
	updateDisplayOptions,
} from '../../shared/descriptions';
import type { FlareOperation } from '../../shared/operation';
import { locatorLabel, locatorUuid } from '../../shared/validation';

const fields: INodeProperties[] = [
	notice(
		'getRequestStatusNotice',
		'Needs access to Threat Flow (a feature of your Flare account and a permission of your role). Flare answers processing until the report is ready, then completed with the report (or error). To wait for it, loop this operation through a Wait node.',
	),
	reportRequestLocator(
		'The request_id that Create Request returned. Flare has no endpoint that lists report requests, so enter it or map it from the Create Request output.',
	),
	leakedValueOptions,
];

export const getRequestStatusDescription = updateDisplayOptions(
	{ show: { resource: ['threatReport'], operation: ['getRequestStatus'] } },
	fields,
);

export const getRequestStatusOperation: FlareOperation = {
	action: 'get the status of the threat report request',
	entitlement: 'threat intelligence',
	method: 'GET',
	path: '/{segment}/v4/threat_flow/reports/requests/{request_id}',
	tier: 'basic',
	properties: fields,
	// Flare's OpenAPI names the path parameter request_info_id.
	apiFields: { request_id: 'requestId', request_info_id: 'requestId' },
	target: (item) => `Threat report request ${locatorLabel(item, 'requestId')}`,
	prepare(item, request) {
		request.pathParameters.request_id = locatorUuid(
			item,
			'requestId',
			'Use the request_id that Create Request returned, e.g. 3fa85f64-5717-4562-b3fc-2c963f66afa6.',
		);
	},
	// The status object as Flare returns it: { status, report }, report set once completed.
	output: (_item, records) => records,
};
