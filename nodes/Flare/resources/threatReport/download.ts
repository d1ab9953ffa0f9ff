import type { INodeProperties } from 'n8n-workflow';

import { notice, threatReportLocator, updateDisplayOptions } from '../../shared/descriptions';
import { binaryProperty, binaryPropertyField, FILE_FORMATS, fileOf } from '../../shared/files';
import type { FlareItem } from '../../shared/item';
import type { FlareOperation } from '../../shared/operation';
import { locatorInteger, locatorLabel, optionValue } from '../../shared/validation';

/** The formats Flare renders a Threat Flow report in (v4 OpenAPI `ThreatFlowReportDownloadFormat`). */
const FORMATS = ['docx', 'pdf'] as const;
type Format = (typeof FORMATS)[number];

const fields: INodeProperties[] = [
	notice(
		'threatReportDownloadNotice',
		"Needs access to Threat Flow (a feature of your Flare account and a permission of your role). The file is Flare's, as Flare renders it: the node cannot mask leaked values inside a PDF or DOCX file (Get returns the report's text with them masked). An answer that is not a file of the chosen format, or is over 50 MiB, fails the item.",
	),
	threatReportLocator('Threat report to download: pick it by title, or enter its numeric ID'),
	{
		displayName: 'Format',
		name: 'format',
		type: 'options',
		default: 'pdf',
		description: 'File format of the report',
		options: [
			{ name: 'DOCX', value: 'docx', description: 'A Word document' },
			{ name: 'PDF', value: 'pdf' },
		],
	},
	binaryPropertyField,
];

export const downloadDescription = updateDisplayOptions(
	{ show: { resource: ['threatReport'], operation: ['download'] } },
	fields,
);

const formatOf = (item: FlareItem): Format => optionValue(item, 'format', FORMATS, 'pdf');

const fileName = (item: FlareItem) =>
	`threat-report-${locatorInteger(item, 'reportId')}.${formatOf(item)}`;

/**
 * A Threat Flow report as a file (`GET /{segment}/v4/threat_flow/reports/{report_id}/download?format=`):
 * one item, `{reportId, format, fileName}`, with the file in the chosen binary field.
 */
export const downloadOperation: FlareOperation = {
	action: 'download the threat report',
	entitlement: 'threat intelligence',
	method: 'GET',
	path: '/{segment}/v4/threat_flow/reports/{report_id}/download',
	tier: 'basic',
	properties: fields,
	apiFields: { report_id: 'reportId', format: 'format' },
	target: (item) => `Threat report ${locatorLabel(item, 'reportId')}`,
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
	output: (item, _records, response) => [fileItem(item, fileOf(formatOf(item), response))],
};

/** The item of a downloaded file: what it is. */
function fileItem(item: FlareItem, bytes: Buffer) {
	return {
		reportId: locatorInteger(item, 'reportId'),
		format: formatOf(item),
		fileName: fileName(item),
		fileSize: bytes.length,
	};
}
