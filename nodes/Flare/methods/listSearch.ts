import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { NodeOperationError } from 'n8n-workflow';

import { flareApiError, type FailureContext } from '../shared/errors';
import { buildPath, flareTarget, walkPages } from '../shared/pagination';
import { FlareRequestFailed } from '../shared/transport';

/** One of Flare's list endpoints, as a picker of a resource locator's "From List" mode. */
interface FlareList {
	/** For messages, e.g. "list identifiers". */
	action: string;
	entitlement?: FailureContext['entitlement'];
	/** Path below the base URL; `{segment}` is the credential's product segment. */
	path: string;
	/** Records per request: the endpoint's maximum, or a page a dropdown can show at once. */
	pageSize: number;
	/** Parameters sent with every page (the cursor requires them unchanged between pages). */
	qs?: IDataObject;
	/** The entry a record becomes, or undefined for a record that cannot be picked. */
	entry: (record: IDataObject) => INodeListSearchItems | undefined;
}

/** Page sizes of the pickers (exported for the tests). */
export const PICKER_PAGE_SIZE = { identifiers: 100, matchingPolicies: 25, sources: 1000 };

/**
 * One page of a list, as n8n's resource locator asks for it: the page after `paginationToken` (Flare's
 * `next` cursor, handed back by n8n when the user scrolls on), one request per call, through the
 * same transport as the operations (token exchange, retries, rate-limit pacing, clear errors).
 *
 * None of these endpoints searches by name, so the typed filter is applied here, to the page's
 * entries (case-insensitive, on the name or the ID). A page may then hold no match while later
 * pages do: its `paginationToken` still lets n8n load them.
 */
async function listPage(
	context: ILoadOptionsFunctions,
	list: FlareList,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const target = await flareTarget(context);
	const request = {
		method: 'GET' as const,
		baseURL: target.baseURL,
		url: buildPath(list.path, target.segment, {}),
		qs: { ...list.qs },
	};
	const entries: INodeListSearchItems[] = [];
	let end;
	try {
		end = await walkPages(
			context,
			request,
			{ tier: 'basic', write: false },
			{ style: 'cursor', pageSize: list.pageSize, from: paginationToken || undefined },
			(records) => {
				for (const record of records) {
					const entry = list.entry(record);
					if (entry) entries.push(entry);
				}
				return false;
			},
		);
	} catch (error) {
		if (error instanceof FlareRequestFailed) {
			throw flareApiError(context.getNode(), error.failure, {
				action: list.action,
				entitlement: list.entitlement,
			});
		}
		throw new NodeOperationError(context.getNode(), error as Error);
	}
	const needle = (filter ?? '').trim().toLowerCase();
	const results = needle
		? entries.filter(
				(entry) =>
					entry.name.toLowerCase().includes(needle) ||
					String(entry.value).toLowerCase().includes(needle),
			)
		: entries;
	return { results, paginationToken: end.next === undefined ? undefined : String(end.next) };
}

const text = (value: unknown): string | undefined =>
	typeof value === 'string' && value.trim() !== '' ? value : undefined;

/** Identifiers of the tenant, by name: "<name> (<id>)". */
export async function searchIdentifiers(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await listPage(
		this,
		{
			action: 'list identifiers',
			path: '/{segment}/v4/identifiers/',
			pageSize: PICKER_PAGE_SIZE.identifiers,
			qs: { order_by: 'name' },
			entry: (record) => {
				if (typeof record.id !== 'number' && typeof record.id !== 'string') return undefined;
				const id = String(record.id);
				return { name: `${text(record.name) ?? 'Identifier'} (${id})`, value: id };
			},
		},
		filter,
		paginationToken,
	);
}

/** Matching policies of the tenant, by name. */
export async function searchMatchingPolicies(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await listPage(
		this,
		{
			action: 'list matching policies',
			path: '/{segment}/v4/matching-policies',
			pageSize: PICKER_PAGE_SIZE.matchingPolicies,
			entry: (record) => {
				const uuid = text(record.uuid);
				return uuid ? { name: text(record.name) ?? uuid, value: uuid } : undefined;
			},
		},
		filter,
		paginationToken,
	);
}

/** Leak sources (ASTP), by name. */
export async function searchSources(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await listPage(
		this,
		{
			action: 'list sources',
			entitlement: 'ASTP',
			path: '/astp/v2/sources',
			pageSize: PICKER_PAGE_SIZE.sources,
			entry: (record) => {
				const id = text(record.id);
				return id ? { name: text(record.name) ?? id, value: id } : undefined;
			},
		},
		filter,
		paginationToken,
	);
}

/** The `methods.listSearch` of the Flare node. */
export const listSearch = { searchIdentifiers, searchMatchingPolicies, searchSources };
