import type { IDataObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { unexpectedAnswer } from '../../shared/failure';
import type { FlareItem } from '../../shared/item';
import { isObject, nextCursor, type FlareOperation } from '../../shared/operation';
import { NOT_SENT_AGAIN, readBackError, shown } from '../../shared/records';
import { asNodeError, callFlare } from '../../shared/runner';

/**
 * The read-back of Alert Rule → Create and Update (docs/api-contract.md, "Writes that read first or
 * read back"): Flare's docs state neither the unit of a rule's `frequency` nor how a v2 rule is bound
 * to an Alert Central channel, so the node reads the rule back from the tenant's list (v4, which
 * shows its channel and frequency) and fails the item when Flare shows something else than was
 * sent. A wrong bet then shows at the first use; nothing is sent again.
 */

/** The body each item's write sent (`prepare` notes it), for its read-back. */
const sentBodies = new WeakMap<FlareItem, IDataObject>();

/** Notes the rule body the item's write sends, and returns it. */
export function sending(item: FlareItem, body: IDataObject): IDataObject {
	sentBodies.set(item, body);
	return body;
}

/** Pages of the tenant's rules read back at most, per walk (10 rules a page). */
const MAX_PAGES = 50;

/** The tenant's rules (`GET …/v4/alerts/`), the newest first, `q` when given. */
function ruleList(q: string | undefined): FlareOperation {
	return {
		action: 'read back the alert rule',
		method: 'GET',
		path: '/{segment}/v4/alerts/',
		tier: 'basic',
		paging: { maxPageSize: 10, next: nextCursor, key: (record) => record.id },
		properties: [],
		prepare(_item, request) {
			request.qs = { order_type: 'desc', ...(q === undefined ? {} : { q }) };
		},
		output: (_item, records) => records,
	};
}

/** Whether a name can narrow the list (`q`): text that a URL can carry, of a reasonable length. */
function searchable(name: string): boolean {
	try {
		return name !== '' && encodeURIComponent(name).length <= 1_024;
	} catch {
		return false;
	}
}

/** Rule `id` as the list shows it: among the rules named like it, else among all, or undefined. */
async function listedRule(item: FlareItem, id: number, name: string): Promise<IDataObject | undefined> {
	for (const q of searchable(name) ? [name, undefined] : [undefined]) {
		let found: IDataObject | undefined;
		let pages = 0;
		await callFlare(item, ruleList(q), {
			onPage(records) {
				found = records.find((record) => Number(record.id) === id);
				return found === undefined && ++pages < MAX_PAGES;
			},
		});
		if (found) return found;
	}
	return undefined;
}

/** The channel a rule body sends to: its `tenant_alert_channel_id`, else its params' channel. */
function channelOf(body: IDataObject): unknown {
	const params = isObject(body.params) ? body.params : {};
	return body.tenant_alert_channel_id ?? params.alert_channel_id ?? null;
}

const sorted = (value: unknown) =>
	Array.isArray(value) ? JSON.stringify([...(value as unknown[])].sort()) : JSON.stringify(value);

/** What the read-back compares: each field sent, as sent and as the list shows it. */
const CHECKED: Array<[string, (body: IDataObject) => unknown, (rule: IDataObject) => unknown]> = [
	['name', (body) => body.name, (rule) => rule.name],
	['alert channel', channelOf, (rule) => rule.alert_channel_id ?? null],
	['frequency', (body) => body.frequency, (rule) => rule.frequency],
	['event types', (body) => body.search_types, (rule) => rule.search_types],
	['severities', (body) => body.risks, (rule) => rule.risks],
];

/**
 * Reads back the rule `write` answered with (`outputs[0].id`) and fails the item when the list shows
 * another value of a field the write sent than was sent, or does not show the rule.
 */
export async function checkStoredRule(
	item: FlareItem,
	write: FlareOperation,
	outputs: IDataObject[],
): Promise<void> {
	const verb = write.method === 'POST' ? 'created' : 'updated';
	const sent = sentBodies.get(item) ?? {};
	const id = Number(outputs[0]?.id);
	if (outputs.length !== 1 || !Number.isInteger(id) || id < 1) {
		throw asNodeError(
			item,
			write,
			unexpectedAnswer(
				200,
				"Flare answered without the rule's numeric 'id', so what it stored could not be read back",
			),
		);
	}
	const rule = await listedRule(item, id, String(sent.name ?? '')).catch((error: unknown) => {
		// The write was applied: whatever stopped the read-back, the item's message says so first.
		if (error instanceof NodeApiError || error instanceof NodeOperationError) {
			error.message = `Alert rule ${id} was ${verb}, but it could not be read back: ${error.message}`;
			const about = error.description ? ` About the read-back: ${error.description}` : '';
			error.description = `${NOT_SENT_AGAIN}${about}`;
		}
		throw error;
	});
	if (!rule) {
		throw readBackError(
			item,
			`Alert rule ${id} was ${verb}, but Flare's list of alert rules does not show it`,
			"So what Flare stored could not be checked. Flare's docs do not say that the list (v4) gives a rule the ID its identifier's or group's endpoints (v2) gave it, which the node assumes (docs/api-contract.md).",
		);
	}
	const differing = CHECKED.filter(
		([, ofSent, ofRule]) => ofSent(sent) !== undefined && sorted(ofSent(sent)) !== sorted(ofRule(rule)),
	);
	if (differing.length === 0) return;
	const names = differing.map(([name]) => name);
	const list = (values: string[]) =>
		values.length > 1 ? `${values.slice(0, -1).join(', ')} and ${values[values.length - 1]}` : values[0];
	throw readBackError(
		item,
		`Alert rule ${id} was ${verb}, but Flare shows another ${list(names)} than ${names.length > 1 ? 'were' : 'was'} sent`,
		`Sent: ${differing.map(([name, ofSent]) => `${name} ${shown(ofSent(sent))}`).join(', ')}. Flare's list of alert rules shows: ${differing.map(([name, , ofRule]) => `${name} ${shown(ofRule(rule))}`).join(', ')}. Either Flare reads the rule otherwise than the node assumes (the frequency in minutes, the channel as Alert Central's: docs/api-contract.md, which Flare's docs do not confirm), or something else changed the rule meanwhile.`,
	);
}
