import type { IDataObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { FlareItem } from './item';

/**
 * Writes that check what Flare stored (docs/api-contract.md, "Writes that read first or read back"):
 * updates that read a record and send it back whole with the changes (Alert Rule, Matching Policy,
 * Identifier, Tenant, Organization Member → Update) run one at a time per record of a Flare (its Base
 * URL, whatever the API key: two keys of one organization reach the same rule) within the n8n process,
 * and a change made elsewhere between the read and the write is detected where a read can see it.
 */

/** The work under way or queued per record: each waits for the one before it. */
const queues = new Map<string, Promise<void>>();

/**
 * Runs `work` once every earlier work of the same `record` in this process has ended (its reads,
 * its write and its read-back): two executions updating one record never interleave. Works of
 * other records do not wait for each other.
 */
export async function oneAtATime<T>(record: string, work: () => Promise<T>): Promise<T> {
	const before = queues.get(record) ?? Promise.resolve();
	let release!: () => void;
	const mine = new Promise<void>((resolve) => (release = resolve));
	const tail = before.then(() => mine);
	queues.set(record, tail);
	try {
		await before;
		return await work();
	} finally {
		release();
		if (queues.get(record) === tail) queues.delete(record);
	}
}

/** Records under way or queued (for the tests: none is left behind). */
export const recordsQueued = () => queues.size;

/**
 * The error of an update whose record changed in Flare between the node's read and its write
 * (another process, or someone in Flare's app): nothing was written.
 */
export function changedMeanwhile(item: FlareItem, label: string): NodeOperationError {
	return new NodeOperationError(
		item.node(),
		`${label} changed in Flare while it was being updated [item ${item.index}]`,
		{
			itemIndex: item.index,
			description:
				'Something else (another n8n process, or someone in Flare) changed it between the read and the write, so nothing was written. Run the node again: it reads it anew.',
		},
	);
}

/**
 * Reads a record again just before the write is sent, and fails the item when it differs from the
 * first read (`first`) in what the update writes back (`version`): the window in which a change made
 * elsewhere would be overwritten is then that of one request.
 */
export async function unchangedSince(
	item: FlareItem,
	label: string,
	first: IDataObject,
	read: () => Promise<IDataObject>,
	version: (record: IDataObject) => string,
): Promise<void> {
	if (version(await read()) !== version(first)) throw changedMeanwhile(item, label);
}

/** A value as a read-back message shows it: JSON, at most 100 characters. */
export function shown(value: unknown): string {
	return (JSON.stringify(value) ?? 'nothing').slice(0, 100);
}

/**
 * What the error of a write Flare applied says of it: it is not sent again, n8n's Retry On Fail
 * included (applied.ts); running the workflow again would send it again.
 */
export const NOT_SENT_AGAIN =
	"The request was not sent again, not even by n8n's Retry On Fail: check the record in Flare and correct it there before running the workflow again.";

/**
 * The error of a write Flare applied whose read-back shows something else than was sent, or does
 * not show the record: the item fails, and nothing is sent again (docs/api-contract.md, "Writes that
 * read first or read back").
 */
export function readBackError(item: FlareItem, message: string, description: string): NodeApiError {
	const text = `${description} ${NOT_SENT_AGAIN}`;
	return new NodeApiError(item.node(), { message, description: text }, {
		message,
		description: text,
		itemIndex: item.index,
	});
}
