import type { INodeProperties } from 'n8n-workflow';

import { notice, reportLocator, updateDisplayOptions } from '../../shared/descriptions';
import { binaryProperty, binaryPropertyField, FILE_FORMATS, fileOf } from '../../shared/files';
import type { FlareItem } from '../../shared/item';
import type { FlareOperation } from '../../shared/operation';
import { locatorInteger, locatorLabel, optionValue } from '../../shared/validation';
import { REPORTS_NEEDS } from './getAll';

/** The formats Flare renders a platform report in (v4 OpenAPI `ReportDownloadFormat`). */
const FORMATS = ['csv', 'docx', 'pdf', 'zip'] as const;
type Format = (typeof FORMATS)[number];

const fields: INodeProperties[] = [
	notice(
		'reportDownloadNotice',
		`${REPORTS_NEEDS} The file is Flare's, as Flare renders it: the node cannot mask leaked values inside it. An answer that is not a file of the chosen format, or is over 50 MiB, fails the item.`,
	),
	reportLocator('Report to download: pick it by title, or enter its numeric ID'),
	{
		displayName: 'Format',
		name: 'format',
		type: 'options',
		default: 'pdf',
		description: 'File format of the report',
		options: [
			{ name: 'CSV', value: 'csv', description: 'The data of the report as a table' },
			{ name: 'DOCX', value: 'docx', description: 'A Word document' },
			{ name: 'PDF', value: 'pdf' },
			{ name: 'ZIP', value: 'zip', description: 'An archive, as Flare builds it' },
		],
	},
	binaryPropertyField,
];

export const downloadDescription = updateDisplayOptions(
	{ show: { resource: ['report'], operation: ['download'] } },
	fields,
);

const formatOf = (item: FlareItem): Format => optionValue(item, 'format', FORMATS, 'pdf');

const fileName = (item: FlareItem) => `report-${locatorInteger(item, 'reportId')}.${formatOf(item)}`;

/**
 * A platform report as a file (`GET /{segment}/v4/reports/{report_id}/download?format=`): one item,
 * `{reportId, format, fileName, fileSize}`, with the file in the chosen binary field; the same checks
 * and size cap as Threat Report → Download (shared/files.ts).
 */
export const downloadOperation: FlareOperation = {
	action: 'download the report',
	entitlement: 'reports',
	method: 'GET',
	path: '/{segment}/v4/reports/{report_id}/download',
	tier: 'basic',
	properties: fields,
	apiFields: { report_id: 'reportId', format: 'format' },
	target: (item) => `Report ${locatorLabel(item, 'reportId')}`,
	prepare(item, request) {
		request.pathParameters.report_id = locatorInteger(item, 'reportId');
		request.qs = { format: formatOf(item) };
		binaryProperty(item);
	},
	file: {
		property: binaryProperty,
		name: fileName,
		mimeType: (item) => FILE_FORMATS[formatOf(item)].mimeType,
	},
	output(item, _records, response) {
		const bytes = fileOf(formatOf(item), response);
		return [
			{
				reportId: locatorInteger(item, 'reportId'),
				format: formatOf(item),
				fileName: fileName(item),
				fileSize: bytes.length,
			},
		];
	},
};
