import type { INodeProperties } from 'n8n-workflow';

import {
	leakedValueOptions,
	notice,
	threatReportLocator,
	updateDisplayOptions,
} from '../../shared/descriptions';
import { recordUnder, type FlareOperation } from '../../shared/operation';
import {
	boundedText,
	locatorInteger,
	locatorLabel,
	MAX_NAME_LENGTH,
} from '../../shared/validation';
import { isGiven } from '../identifier/data';
import { THREAT_FLOW_NEEDS } from './get';

const fields: INodeProperties[] = [
	notice('threatReportPublishNotice', THREAT_FLOW_NEEDS),
	threatReportLocator('Threat report to publish: pick it by title, or enter its numeric ID'),
	{
		displayName: 'Title',
		name: 'title',
		type: 'string',
		default: '',
		placeholder: 'e.g. Phishing kits targeting Acme, March',
		description: 'New title of the published report; empty keeps its title',
	},
	leakedValueOptions,
];

export const publishDescription = updateDisplayOptions(
	{ show: { resource: ['threatReport'], operation: ['publish'] } },
	fields,
);

/**
 * Publishes a Threat Flow report to the tenant (`PATCH …/threat_flow/reports/{report_id}/publish`,
 * v4 OpenAPI `PublishReportPayload {title}`, optional): the report as Flare answers it (`{report}`).
 */
export const publishOperation: FlareOperation = {
	action: 'publish the threat report',
	entitlement: 'threat intelligence',
	method: 'PATCH',
	path: '/{segment}/v4/threat_flow/reports/{report_id}/publish',
	tier: 'basic',
	write: true,
	properties: fields,
	apiFields: { report_id: 'reportId', title: 'title' },
	target: (item) => `Threat report ${locatorLabel(item, 'reportId')}`,
	prepare(item, request) {
		request.pathParameters.report_id = locatorInteger(item, 'reportId');
		// Flare requires a body: a null title keeps the report's.
		request.body = { title: isGiven(item, 'title') ? boundedText(item, 'title', MAX_NAME_LENGTH) : null };
	},
	output: (_item, _records, response) => recordUnder(response, 'report', 'a threat report'),
};
