import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { updateDisplayOptions } from '../../shared/descriptions';
import { parameterError } from '../../shared/errors';
import type { FlareItem } from '../../shared/item';
import { recordOfAnswer, type FlareOperation } from '../../shared/operation';
import { readBackError, shown } from '../../shared/records';
import { booleanValue, optionValue, requiredText } from '../../shared/validation';
import { SEVERITIES, textList } from './feed';

const fields: INodeProperties[] = [
	{
		displayName: 'Event UID',
		name: 'uid',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. stealer_log/russian_market/1010076',
		description:
			'UID of the event, one per input item (e.g. the metadata.uid of a feed search). Each item is one request.',
	},
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description: "What to change in the tenant's own data of the event; the rest stays as it is",
		options: [
			{
				displayName: 'Clear Notes',
				name: 'clearNotes',
				type: 'boolean',
				default: true,
				description:
					"Whether to remove the event's notes (sent as null, which Flare's schema allows but does not explain: Flare's answer must show them gone, or the item fails)",
			},
			{
				displayName: 'Clear Severity Override',
				name: 'clearSeverity',
				type: 'boolean',
				default: true,
				description:
					"Whether to remove the tenant's severity, so that Flare's own applies again (sent as null, which Flare's schema allows but does not explain: Flare's answer must show no override, or the item fails)",
			},
			{
				displayName: 'Notes',
				name: 'notes',
				type: 'string',
				typeOptions: { rows: 3 },
				default: '',
				placeholder: 'e.g. Sessions revoked by the SOC, ticket 4211',
				description: 'Notes on the event, replacing the current ones',
			},
			{
				displayName: 'Severity',
				name: 'severity',
				type: 'options',
				default: 'high',
				description:
					"Severity the tenant gives the event, in place of Flare's (which Flare keeps as the original)",
				options: [
					{ name: 'Critical', value: 'critical' },
					{ name: 'High', value: 'high' },
					{ name: 'Info', value: 'info' },
					{ name: 'Low', value: 'low' },
					{ name: 'Medium', value: 'medium' },
				],
			},
			{
				displayName: 'Tags',
				name: 'tags',
				type: 'string',
				default: '',
				placeholder: 'e.g. handled, vip',
				description:
					'The tags of the event, replacing the current ones: separated by commas, or an array from an expression. To add a tag, keep the current ones in the list (a feed item has them in tenant_metadata.tags). Empty removes every tag.',
			},
		],
	},
];

export const updateTenantMetadataDescription = updateDisplayOptions(
	{ show: { resource: ['event'], operation: ['updateTenantMetadata'] } },
	fields,
);

/** Whether the collection option `name` was added to the form (even left empty). */
const added = (item: FlareItem, name: string) => item.parameter<unknown>(name, null) !== null;

/** The Clear options: each option, the field it clears, and Flare's key (sent as null). */
const CLEARED = [
	['updateFields.clearSeverity', 'updateFields.severity', 'severity'],
	['updateFields.clearNotes', 'updateFields.notes', 'notes'],
] as const;

/** Whether a Clear option is on (added and true). */
const clearing = (item: FlareItem, name: string) => booleanValue(item, name);

/** The fields to change, checked before anything is sent: at least one. */
function changesOf(item: FlareItem): IDataObject {
	const changes: IDataObject = {};
	if (added(item, 'updateFields.tags')) changes.tags = textList(item, 'updateFields.tags');
	if (added(item, 'updateFields.severity')) {
		changes.severity = optionValue(item, 'updateFields.severity', SEVERITIES, 'high');
	}
	if (added(item, 'updateFields.notes')) {
		const notes = item.parameter<unknown>('updateFields.notes');
		if (typeof notes !== 'string' && typeof notes !== 'number') {
			throw parameterError(item, 'updateFields.notes', 'must be text');
		}
		changes.notes = String(notes);
	}
	for (const [clear, field, key] of CLEARED) {
		if (!clearing(item, clear)) continue;
		if (key in changes) {
			throw parameterError(
				item,
				clear,
				`cannot go with '${item.displayName(field)}'`,
				`Remove '${item.displayName(field)}' or '${item.displayName(clear)}' from Update Fields.`,
			);
		}
		changes[key] = null;
	}
	if (Object.keys(changes).length === 0) {
		throw parameterError(
			item,
			'updateFields',
			'has nothing to change',
			'Add Tags, Severity or Notes (or clear them) under Update Fields.',
		);
	}
	return changes;
}

/**
 * The tenant's tags, severity override and notes of one event (`PATCH …/events/tenant/metadata?uid=`,
 * one event a request): only the fields added to the form are sent, a cleared one as null, which
 * Flare's answer (the event's metadata after the write) must then show cleared. A write, never sent
 * twice.
 */
export const updateTenantMetadataOperation: FlareOperation = {
	action: 'update the tenant metadata of the event',
	method: 'PATCH',
	path: '/{segment}/v4/events/tenant/metadata',
	tier: 'basic',
	write: true,
	properties: fields,
	apiFields: {
		uid: 'uid',
		tags: 'updateFields.tags',
		severity: 'updateFields.severity',
		notes: 'updateFields.notes',
	},
	target: (item) => `Event '${String(item.parameter('uid', ''))}'`,
	prepare(item, request) {
		request.qs = { uid: requiredText(item, 'uid') };
		request.body = changesOf(item);
	},
	// Flare's answer is the event's metadata (`TenantMetadataResponse`): anything else does not confirm the write.
	output: (_item, _records, response) =>
		recordOfAnswer(response, ['uid'], "the event's tenant metadata"),
	// A field sent as null must come back cleared: in the answer, and null ('' for notes); an answer
	// without it confirms nothing (docs/api-contract.md, "Writes that read first or read back").
	async readBack(item, [metadata]) {
		const isCleared = (key: string) =>
			metadata !== undefined && key in metadata && (metadata[key] === null || (key === 'notes' && metadata[key] === ''));
		const unconfirmed = CLEARED.filter(([clear, , key]) => clearing(item, clear) && !isCleared(key));
		if (unconfirmed.length === 0) return;
		const uid = String(item.parameter('uid', '')).trim();
		const what = unconfirmed.map(([, , key]) => (key === 'severity' ? 'severity override' : key));
		const showing = unconfirmed.map(([, , key]) =>
			metadata !== undefined && key in metadata ? `shows ${key} ${shown(metadata[key])}` : `has no '${key}'`,
		);
		throw readBackError(
			item,
			`Event '${uid}' was updated, but Flare's answer does not show its ${what.join(' and ')} cleared`,
			`Its answer to the write ${showing.join(' and ')}. The node sends null to clear a field, which Flare's schema allows but does not explain (docs/api-contract.md, "Writes that read first or read back").`,
		);
	},
};
