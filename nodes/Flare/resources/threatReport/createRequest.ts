import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { notice, updateDisplayOptions } from '../../shared/descriptions';
import { parameterError } from '../../shared/errors';
import type { FlareOperation } from '../../shared/operation';
import { dateTime, optionValue, requiredText } from '../../shared/validation';

const fields: INodeProperties[] = [
	notice(
		'createRequestDeprecatedNotice',
		"The specification this package was built from says Flare will replace this endpoint by POST /v4/threat_flow/intel/requests; Flare's API documentation (July 2026) lists it as current, under Threat-Flow API → Reports, and documents no replacement. Needs access to Threat Flow (a feature of your Flare account and a permission of your role).",
	),
	{
		displayName: 'Report Title',
		name: 'reportTitle',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Credential leaks for example.com',
		description: 'Title of the report to generate',
	},
	{
		displayName: 'Time Range',
		name: 'timeRangeType',
		type: 'options',
		default: 'all',
		description: 'Period the report covers',
		options: [
			{ name: 'All Time', value: 'all' },
			{ name: 'Custom Range', value: 'range' },
			{ name: 'Last 2 Days', value: 'last_2d' },
			{ name: 'Last 24 Hours', value: 'last_24h' },
			{ name: 'Last 3 Months', value: 'last_3m' },
			{ name: 'Last 6 Months', value: 'last_6m' },
			{ name: 'Last 7 Days', value: 'last_7d' },
			{ name: 'Last Month', value: 'last_1m' },
		],
	},
	{
		displayName: 'From',
		name: 'timeRangeFrom',
		type: 'dateTime',
		required: true,
		default: '',
		description: 'Start of the custom range',
		displayOptions: { show: { timeRangeType: ['range'] } },
	},
	{
		displayName: 'To',
		name: 'timeRangeTo',
		type: 'dateTime',
		required: true,
		default: '',
		description: 'End of the custom range',
		displayOptions: { show: { timeRangeType: ['range'] } },
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description: 'Optional details that focus the report',
		options: [
			{
				displayName: 'Excluded Keywords',
				name: 'excludedKeywords',
				type: 'string',
				default: '',
				placeholder: 'e.g. canada, test',
				description: 'Keywords to leave out of the report, separated by commas',
			},
			{
				displayName: 'Included Keywords',
				name: 'includedKeywords',
				type: 'string',
				default: '',
				placeholder: 'e.g. xss, phishing',
				description: 'Keywords the report must cover, separated by commas',
			},
			{
				displayName: 'Question',
				name: 'question',
				type: 'string',
				default: '',
				placeholder: 'e.g. Which banks were targeted by XSS attacks?',
				description: 'Question the report should answer',
			},
		],
	},
];

export const createRequestDescription = updateDisplayOptions(
	{ show: { resource: ['threatReport'], operation: ['createRequest'] } },
	fields,
);

const TIME_RANGES = [
	'all',
	'range',
	'last_2d',
	'last_24h',
	'last_3m',
	'last_6m',
	'last_7d',
	'last_1m',
];

/** Comma-separated text or an array (from an expression) → trimmed, non-empty keywords. */
function keywords(value: unknown): string[] | undefined {
	const list = (Array.isArray(value) ? value : String(value ?? '').split(','))
		.map((entry) => String(entry).trim())
		.filter((entry) => entry !== '');
	return list.length ? list : undefined;
}

export const createRequestOperation: FlareOperation = {
	action: 'create the threat report request',
	entitlement: 'threat intelligence',
	method: 'POST',
	path: '/{segment}/v4/threat_flow/reports/requests',
	tier: 'basic',
	write: true,
	properties: fields,
	apiFields: {
		report_title: 'reportTitle',
		time_range_type: 'timeRangeType',
		time_range_from: 'timeRangeFrom',
		time_range_to: 'timeRangeTo',
		question: 'additionalFields.question',
		included_keywords: 'additionalFields.includedKeywords',
		excluded_keywords: 'additionalFields.excludedKeywords',
	},
	prepare(item, request) {
		const body: IDataObject = { report_title: requiredText(item, 'reportTitle') };
		const timeRangeType = optionValue(item, 'timeRangeType', TIME_RANGES, 'all');
		body.time_range_type = timeRangeType;
		if (timeRangeType === 'range') {
			const from = dateTime(item, 'timeRangeFrom');
			const to = dateTime(item, 'timeRangeTo');
			if (!from) throw parameterError(item, 'timeRangeFrom', 'is required for a custom range');
			if (!to) throw parameterError(item, 'timeRangeTo', 'is required for a custom range');
			if (from >= to) {
				const before = `must be before ${item.displayName('timeRangeTo')}`;
				throw parameterError(
					item,
					'timeRangeFrom',
					before,
					'Swap the two dates or widen the range.',
				);
			}
			body.time_range_from = from;
			body.time_range_to = to;
		}
		const additional = item.parameter<IDataObject>('additionalFields', {});
		const question = String(additional.question ?? '').trim();
		if (question) body.question = question;
		const included = keywords(additional.includedKeywords);
		if (included) body.included_keywords = included;
		const excluded = keywords(additional.excludedKeywords);
		if (excluded) body.excluded_keywords = excluded;
		request.body = body;
	},
	output: (_item, records) => records.map((record) => ({ request_id: record.request_id })),
};
