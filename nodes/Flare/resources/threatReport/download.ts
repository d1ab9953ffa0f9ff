import type { INodeProperties } from 'n8n-workflow';

import { notice, threatReportLocator, updateDisplayOptions } from '../../shared/descriptions';
import { parameterError, unexpectedAnswer } from '../../shared/errors';
import type { FlareItem } from '../../shared/item';
import type { FlareOperation } from '../../shared/operation';
import { locatorInteger, locatorLabel, optionValue } from '../../shared/validation';

/** The formats Flare renders a report in (v4 OpenAPI `ThreatFlowReportDownloadFormat`), and their media types. */
const FORMATS = {
	docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
	pdf: 'application/pdf',
} as const;
type Format = keyof typeof FORMATS;

/** The first bytes of each format: a PDF's header, and the ZIP archive a DOCX is. */
const MAGIC: Record<Format, Buffer> = {
	docx: Buffer.from([0x50, 0x4b, 0x03, 0x04]),
	pdf: Buffer.from('%PDF', 'latin1'),
};

const fields: INodeProperties[] = [
	notice(
		'threatReportDownloadNotice',
		"Needs the threat intelligence feature. The file is Flare's, as Flare renders it: the node cannot mask leaked values inside a PDF or DOCX file (Get returns the report's text with them masked). An answer that is not a file of the chosen format, or is over 50 MiB, fails the item.",
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
	{
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		required: true,
		default: 'data',
		placeholder: 'e.g. data',
		description: 'Name of the output binary field to put the file in',
	},
];

export const downloadDescription = updateDisplayOptions(
	{ show: { resource: ['threatReport'], operation: ['download'] } },
	fields,
);

const formatOf = (item: FlareItem): Format =>
	optionValue(item, 'format', Object.keys(FORMATS) as Format[], 'pdf');

/** The binary field to put the file in: a name n8n can store (no dots, which n8n reads as paths). */
function binaryProperty(item: FlareItem): string {
	const value = item.parameter<unknown>('binaryPropertyName', 'data');
	const name = typeof value === 'string' ? value.trim() : '';
	if (!/^[A-Za-z0-9_-]{1,100}$/.test(name)) {
		throw parameterError(
			item,
			'binaryPropertyName',
			`must be a field name of letters, digits, _ or -, not ${JSON.stringify(value)?.slice(0, 100) ?? String(value)}`,
			'Enter e.g. data.',
		);
	}
	return name;
}

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
		mimeType: (item) => FORMATS[formatOf(item)],
	},
	output(item, _records, { body, headers, statusCode }) {
		// The file is known by its first bytes (Flare's OpenAPI gives its media type as JSON): an answer
		// that is JSON instead, as Flare's errors are, or anything else (a proxy's HTML page, a PDF for
		// a DOCX), is not the file. The bytes are never quoted.
		const format = formatOf(item);
		const bytes = Buffer.isBuffer(body) ? body : Buffer.alloc(0);
		const type = String(headers['content-type'] ?? '').toLowerCase().slice(0, 100);
		if (bytes.subarray(0, 4).equals(MAGIC[format])) return [fileItem(item, bytes)];
		const looksLikeJson = /^\s*[[{]/.test(bytes.subarray(0, 64).toString('latin1'));
		const what =
			looksLikeJson || /\bjson\b/.test(type)
				? 'JSON'
				: bytes.length === 0
					? 'an empty file'
					: 'a file that does not start as one';
		throw unexpectedAnswer(
			statusCode,
			`Flare answered with ${what} (${type || 'no media type'}), not a ${format} file`,
		);
	},
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
