/**
 * The Flare Trigger node (docs/trigger.md): one polling node of three kinds (New Leaked Credential,
 * New Event, New Leaked Cookie), each a form and a watch that poll.ts walks; Fetch Test Event shows
 * the newest matches without moving anything.
 */
import {
	NodeConnectionTypes,
	NodeOperationError,
	type IDataObject,
	type INodeExecutionData,
	type INodeProperties,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';

import { FlareItem } from '../Flare/shared/item';
import type { FlareResponse } from '../Flare/shared/operation';
import {
	asNodeError,
	callFlare,
	outputProtectionOf,
	SHARED_FIELDS,
	tenantOf,
	tenantStamp,
} from '../Flare/shared/runner';
import { listSearch } from '../Flare/methods/listSearch';
import { loadOptions } from '../Flare/methods/loadOptions';
import { newEventFields, newEventWatch } from './newEvent';
import { newLeakedCookieFields, newLeakedCookieWatch } from './newLeakedCookie';
import { leakedCredentialFields, leakedCredentialWatch } from './newLeakedCredential';
import { presentOf } from './clock';
import { POLL_TIME_LIMIT_MS, pollWatch } from './poll';
import { OutputLater, searchFor, type Watch } from './watch';

/** How many of the newest matches a manual "fetch test event" returns. */
export const SAMPLE_SIZE = 5;

/** A kind of trigger: its form, what an active poll watches, and what a test fetches. */
interface TriggerKind {
	fields: INodeProperties[];
	watch(item: FlareItem): Watch;
	/** What to say when a test finds nothing, and what to try. */
	nothingYet: { message: string; description: string };
	/** What a test looks through, e.g. "events of this feed". */
	records: string;
	/** Every record is a leaked cookie: its `value` is masked whatever its other fields. */
	outputsCookies?: boolean;
}

const kinds: Record<string, TriggerKind> = {
	newLeakedCredential: {
		fields: leakedCredentialFields,
		watch: leakedCredentialWatch,
		nothingYet: {
			message: 'No leaked credential matches this query yet',
			description:
				'Once active, the trigger starts the workflow when Flare imports a matching credential. To see sample data now, try a broader query, e.g. a domain.',
		},
		records: 'leaked credentials',
	},
	newEvent: {
		fields: newEventFields,
		watch: newEventWatch,
		nothingYet: {
			message: 'No event of this feed matches yet',
			description:
				'Once active, the trigger starts the workflow when a matching event enters the feed. To see sample data now, widen the search, e.g. Severity Any and no filters.',
		},
		records: 'events of this feed',
	},
	newLeakedCookie: {
		fields: newLeakedCookieFields,
		watch: newLeakedCookieWatch,
		nothingYet: {
			message: 'No leaked cookie of this domain matches yet',
			description:
				'Once active, the trigger starts the workflow when Flare imports a matching cookie. To see sample data now, leave Cookie Names empty or turn on Include Expired Cookies under Options.',
		},
		records: 'leaked cookies of this domain',
		outputsCookies: true,
	},
};

const eventField: INodeProperties = {
	displayName: 'Event',
	name: 'event',
	type: 'options',
	noDataExpression: true,
	required: true,
	default: 'newLeakedCredential',
	description: 'What starts the workflow',
	options: [
		{
			name: 'New Event',
			value: 'newEvent',
			description: "An event that matches the search entered the tenant's or an identifier's feed",
		},
		{
			name: 'New Leaked Cookie',
			value: 'newLeakedCookie',
			description: 'Flare imported a session cookie of your domain that malware stole (ASTP)',
		},
		{
			name: 'New Leaked Credential',
			value: 'newLeakedCredential',
			description: 'Flare imported a leaked credential that matches the query',
		},
	],
};

/** The form of one kind, as its messages name fields: Event, the kind's fields, Tenant, Request Options. */
const formOf = (kind: TriggerKind): INodeProperties[] => [
	eventField,
	...kind.fields,
	...SHARED_FIELDS,
];

/**
 * Manual "fetch test event": the newest few matches, newest first, with the watch's pages, within
 * the poll's time limit (a long run of pages that Flare's filters leave empty ends there, saying so).
 * Reads and writes no state.
 */
async function newestMatches(poll: FlareItem, kind: TriggerKind): Promise<INodeExecutionData[][]> {
	const cancel = AbortSignal.timeout(POLL_TIME_LIMIT_MS);
	const item = poll.withCancel(cancel);
	const context = item.context as IPollFunctions;
	const watch = kind.watch(item);
	const search = searchFor(watch, item.properties, watch.newest);
	const pages: Array<[IDataObject[], FlareResponse]> = [];
	let found = 0;
	let read = 0;
	let complete = false;
	try {
		const end = await callFlare(
			item,
			{ ...search, paging: { ...search.paging!, resumable: true } },
			{
				pageSize: watch.pageSize,
				onPage(records, response) {
					read++;
					// Judged at the earlier of n8n's clock and Flare's (e.g. a cookie's expiry), as an
					// active poll judges it (clock.ts).
					const now = presentOf(response, Date.now());
					const wanted = records
						.filter((record) => watch.accepts?.(record, watch.newestPartition) !== false)
						.filter((record) => watch.wanted?.(record, now) !== false)
						.slice(0, SAMPLE_SIZE - found);
					found += wanted.length;
					pages.push([wanted, response]);
					return found < SAMPLE_SIZE;
				},
			},
		);
		complete = end.next === undefined;
	} catch (error) {
		// Past the time limit, what was found so far is shown.
		if (!cancel.aborted) throw asNodeError(item, search, error);
	}
	if (found === 0) {
		if (complete) {
			throw new NodeOperationError(context.getNode(), kind.nothingYet.message, {
				description: kind.nothingYet.description,
			});
		}
		throw new NodeOperationError(
			context.getNode(),
			`No match among the newest ${kind.records} that Flare went through (${read.toLocaleString('en-US')} pages, newest first)`,
			{
				description: `Flare's filters left each of those pages empty, and a test stops after ${POLL_TIME_LIMIT_MS / 1000} seconds or a long run of empty pages. ${kind.nothingYet.description}`,
			},
		);
	}
	const items: IDataObject[] = [];
	for (const [records, response] of pages) {
		for (const record of records) {
			// A test fetch asks once: its only try is the last (a full event it cannot get is marked).
			const output = await watch.output(record, response);
			items.push(output instanceof OutputLater ? output.anyway : output);
		}
	}
	return [context.helpers.returnJsonArray(items)];
}

export class FlareTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Flare Trigger',
		name: 'flareTrigger',
		icon: { light: 'file:../../icons/flare.svg', dark: 'file:../../icons/flare.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle:
			'={{$parameter["event"] === "newEvent" ? "New event in the " + $parameter["feed"] + " feed" : $parameter["event"] === "newLeakedCookie" ? "New leaked cookie of " + $parameter["domain"] : "New leaked credential by " + $parameter["queryType"]}}',
		description:
			"Starts the workflow when Flare imports a matching leaked credential or cookie, or when a matching event enters the tenant's feed",
		defaults: { name: 'Flare Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'flareApi', required: true }],
		properties: [
			eventField,
			...Object.values(kinds).flatMap((kind) => kind.fields),
			...SHARED_FIELDS,
		],
	};

	/** The identifier picker and the event types, as in the Flare node. */
	methods = { listSearch, loadOptions };

	/**
	 * Active polls walk Flare's search in ascending arrival order from the saved cursor and emit every
	 * new match once (poll.ts); a manual "fetch test event" returns the newest few and changes
	 * nothing. Either way, every item's leaked values are protected as Leaked Value Output says, and,
	 * with a Tenant set, names that tenant. A failed poll throws and leaves the stored state as it was.
	 */
	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const startedAt = Date.now();
		const name = this.getNodeParameter('event', 'newLeakedCredential') as string;
		const kind = kinds[name];
		if (!kind) {
			throw new NodeOperationError(this.getNode(), `Event has an unknown value: "${name}"`);
		}
		const form = formOf(kind);
		const item = FlareItem.ofNode(this, form);
		const protect = outputProtectionOf(item, form, kind.outputsCookies);
		const stamp = tenantStamp(tenantOf(item), {});
		// One FlareItem for the whole poll: every parameter, the Tenant included, is read again at each
		// poll (n8n polls every tick with the PollContext of the activation).
		const emitted =
			this.getMode() === 'manual'
				? await newestMatches(item, kind)
				: await pollWatch(item, kind.watch, startedAt);
		for (const entry of emitted?.[0] ?? []) entry.json = stamp(protect(entry.json));
		return emitted;
	}
}
