/**
 * Masking of leaked and monitored secrets (docs/api-contract.md, "Masking"; the rooms:
 * docs/architecture.md, "Masking"). The runner applies {@link protectLeakedValuesWith} to every
 * output item of every operation, the triggers to every item they emit, errors {@link maskFreeText}
 * to Flare's texts they quote.
 *
 *   names.ts        the one rule for names of secrets
 *   records.ts      a record walked at any depth: secret fields by their names, strings noted
 *   text.ts         strings masked in two passes: the rules, then the record's values everywhere
 *   view.ts         free text with its markup read through (HTML, BBCode, Markdown, entities, escapes)
 *   reader.ts       the one left-to-right reader of free text, and the families it hands places to:
 *     assignments.ts  a name, a separator and a value       commands.ts   command lines
 *     credentials.ts  combo and stealer-log lines           lines.ts      tables, cookie files, key lines
 *     urls.ts         URLs                                  shapes.ts     tokens by their shape, PEM keys
 *     labels.ts       labels of several words, titles
 *   values.ts       a record's own values, found in its texts and URLs
 *   apply.ts        the mask written over what was found
 *   modes.ts        Masked, SHA-256, Omit, Full
 */
import type { IDataObject } from 'n8n-workflow';

import type { LeakedValueOutput } from './modes';
import { protectRecord } from './records';
import { maskText } from './text';

export { LEAKED_VALUE_OUTPUTS, maskValue, type LeakedValueOutput } from './modes';

/**
 * Protects the leaked and monitored secrets of a record, at any depth and in place, and returns it:
 * the value of every secret field gets the mode; in every mode but Full, its free text, URLs and
 * hosts have what the reader finds and the record's own secret values masked. Full leaves the record
 * as it is.
 */
export function protectLeakedValues(record: IDataObject, mode: LeakedValueOutput): IDataObject {
	return mode === 'full' ? record : protectRecord(record, mode, [], false);
}

/**
 * {@link protectLeakedValues}, with secrets the item was given (e.g. the secret a search looks for)
 * masked in the record's strings as its own are; `isCookie`: the record is a leaked cookie, whose
 * `value` is a secret whatever its other fields.
 */
export function protectLeakedValuesWith(
	record: IDataObject,
	mode: LeakedValueOutput,
	given: readonly string[],
	isCookie = false,
): IDataObject {
	return mode === 'full' ? record : protectRecord(record, mode, given, isCookie);
}

/**
 * Free text on its own (an error's message) masked: what the reader finds, `values` given, and each
 * value found wherever the text repeats it.
 */
export function maskFreeText(text: string, values: readonly string[] = []): string {
	return maskText(text, values);
}
