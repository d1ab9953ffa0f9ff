import type { INodeProperties } from 'n8n-workflow';

import { parameterError } from './errors';
import { unexpectedAnswer } from './failure';
import type { FlareItem } from './item';
import type { FlareResponse } from './operation';

/**
 * Files Flare renders (Threat Report → Download, Report → Download): their media types, and how each
 * is known by its first bytes, since Flare's OpenAPI gives every file's media type as JSON
 * (docs/api-contract.md, "Response and onboarding endpoints"). The bytes are passed on as they came:
 * n8n cannot mask what a file holds.
 */
export const FILE_FORMATS = {
	csv: { mimeType: 'text/csv', name: 'CSV' },
	docx: {
		mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
		name: 'DOCX',
	},
	pdf: { mimeType: 'application/pdf', name: 'PDF' },
	zip: { mimeType: 'application/zip', name: 'ZIP' },
} as const;
export type FileFormat = keyof typeof FILE_FORMATS;

/** The first bytes of each format: a PDF's header; the ZIP archive a DOCX is (or an empty one). */
const MAGIC: Record<Exclude<FileFormat, 'csv'>, Buffer[]> = {
	docx: [Buffer.from([0x50, 0x4b, 0x03, 0x04])],
	pdf: [Buffer.from('%PDF', 'latin1')],
	zip: [Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from([0x50, 0x4b, 0x05, 0x06])],
};

/** Put Output File in Field, as n8n's own download operations name it. */
export const binaryPropertyField: INodeProperties = {
	displayName: 'Put Output File in Field',
	name: 'binaryPropertyName',
	type: 'string',
	required: true,
	default: 'data',
	placeholder: 'e.g. data',
	description: 'Name of the output binary field to put the file in',
};

/** The binary field to put the file in: a name n8n can store (no dots, which n8n reads as paths). */
export function binaryProperty(item: FlareItem): string {
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

/** Whether `bytes` can be a CSV file: text, not JSON or HTML (Flare's errors, a proxy's page). */
function looksLikeCsv(bytes: Buffer): boolean {
	const start = bytes.subarray(0, 4_096);
	return bytes.length > 0 && !start.includes(0) && !/^\s*[[{<]/.test(start.toString('latin1'));
}

/**
 * Whether an answer is JSON although it does not start as an object or a list (`null`, `0`, a text):
 * its media type says JSON and it parses as JSON. A CSV that Flare labels JSON (its OpenAPI declares
 * every download JSON) does not parse as JSON, unless it is one quoted cell.
 */
function isJson(bytes: Buffer, type: string): boolean {
	if (!/\bjson\b/.test(type)) return false;
	try {
		JSON.parse(bytes.toString('utf8'));
		return true;
	} catch {
		return false;
	}
}

/**
 * The bytes of a file answer of `format`, known by its first bytes (a CSV as text that is not JSON
 * nor HTML); anything else (JSON, as Flare's errors are, a proxy's page, another format) fails,
 * saying what came. The bytes are never quoted.
 */
export function fileOf(format: FileFormat, { body, headers, statusCode }: FlareResponse): Buffer {
	const bytes = Buffer.isBuffer(body) ? body : Buffer.alloc(0);
	const type = String(headers['content-type'] ?? '').toLowerCase().slice(0, 100);
	const fits =
		format === 'csv'
			? looksLikeCsv(bytes) && !isJson(bytes, type)
			: MAGIC[format].some((magic) => bytes.subarray(0, magic.length).equals(magic));
	if (fits) return bytes;
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
}
