import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { tenantField } from '../shared/descriptions';
import { FlareItem } from '../shared/item';
import {
	isObject,
	listUnder,
	nextCursor,
	type FlareOperation,
	type FlareResponse,
} from '../shared/operation';
import { protectLeakedValues } from '../shared/masking';
import { callFlare, tenantOf } from '../shared/runner';
import { organizationOf } from '../resources/tenant/organization';

/** One of Flare's list endpoints as a picker: the list, and the entry each record becomes. */
interface FlareList extends Pick<FlareOperation, 'action' | 'entitlement' | 'path'> {
	/**
	 * Records per request: the endpoint's largest page, or as many as a dropdown shows at once. Without
	 * it, the endpoint does not page: one request lists everything.
	 */
	pageSize?: number;
	/** Where the answer holds the records when it is not a page of `items` (e.g. `assets_groups`). */
	listKey?: string;
	/** Query parameters sent with every page (the cursor requires them unchanged between pages). */
	qs?: IDataObject;
	/** Lists in the credential's tenant whatever the node's Tenant says (the Tenant picker itself). */
	credentialTenant?: boolean;
	/** The path names the API key's organization (`{organization_id}`, from `GET /tokens/test`). */
	organization?: boolean;
	/**
	 * The query parameter by which the endpoint searches by name (e.g. `q`): the typed filter is sent
	 * there, so that Flare's pages hold the matches; n8n asks for the next page with the same filter.
	 */
	searchParameter?: string;
	/** The entry a record becomes, or undefined for a record that cannot be picked. */
	entry: (record: IDataObject) => INodeListSearchItems | undefined;
}

const text = (value: unknown): string | undefined =>
	typeof value === 'string' && value.trim() !== '' ? value : undefined;

/**
 * A resource locator's "From List" mode over a Flare list: one page per call, the page after
 * `paginationToken` (Flare's `next` cursor, which n8n hands back when the user scrolls on), through
 * the same request path as the operations (token exchange, pacing, retries, clear errors).
 *
 * None of these endpoints searches by name, so the typed filter is applied here, to the page's
 * entries (case-insensitive, on the name or the ID). A page may then hold no match while later pages
 * do: its `paginationToken` still lets n8n load them. A list lists what the node's Tenant holds (the
 * credential's tenant when it is empty, or when it is an expression that the editor, which has no
 * input item, cannot resolve: docs/usage.md, "One credential, every tenant").
 */
function picker(list: FlareList) {
	const { listKey } = list;
	// An answer without its list fails, saying what came, as the operation reading it does.
	const listOf = (response: FlareResponse): unknown[] =>
		listUnder(response, listKey!, `a ${list.action.replace(/^list /, 'list of ')}`);
	const operationFor = (filter: string): FlareOperation => ({
		...list,
		method: 'GET',
		tier: 'basic',
		paging: list.pageSize
			? {
					maxPageSize: list.pageSize,
					next: nextCursor,
					// A page that holds its records elsewhere than in `items` (e.g. `members`).
					...(listKey ? { records: (response) => listOf(response).filter(isObject) } : {}),
				}
			: undefined,
		properties: [],
		prepare: async (item, request) => {
			if (list.organization) request.pathParameters.organization_id = await organizationOf(item);
			request.qs = {
				...list.qs,
				...(list.searchParameter && filter !== '' ? { [list.searchParameter]: filter } : {}),
			};
		},
		output: (_item, records) => records,
	});
	const recordsOf = (records: IDataObject[], response: FlareResponse): unknown[] =>
		listKey && !list.pageSize ? listOf(response) : records;
	return async function (
		this: ILoadOptionsFunctions,
		filter?: string,
		paginationToken?: string,
	): Promise<INodeListSearchResult> {
		const entries: INodeListSearchItems[] = [];
		const typed = (filter ?? '').trim().slice(0, 255);
		const item = FlareItem.ofNode(this, [tenantField]);
		const end = await callFlare(item, inEditor(item, operationFor(typed)), {
			from: paginationToken || undefined,
			onPage(records, response) {
				for (const record of recordsOf(records, response)) {
					if (!isObject(record)) continue;
					// A list shows what an output would: its leaked values masked (a secret identifier's
					// name may be its secret: docs/api-contract.md, "Masking").
					const entry = list.entry(protectLeakedValues(record, 'masked'));
					if (entry) entries.push(entry);
				}
				return false;
			},
		});
		const needle = (filter ?? '').trim().toLowerCase();
		// Flare searched already where it can; elsewhere the page's entries are filtered here.
		const results = list.searchParameter
			? entries
			: entries.filter(
					(entry) =>
						entry.name.toLowerCase().includes(needle) ||
						String(entry.value).toLowerCase().includes(needle),
				);
		return { results, paginationToken: end.next === undefined ? undefined : String(end.next) };
	};
}

/**
 * `operation` as a list in the editor works it: in the credential's tenant when the node's Tenant is
 * an expression that gives no tenant there (e.g. `{{ $json.id }}`: the editor has no input item).
 */
function inEditor(item: FlareItem, operation: FlareOperation): FlareOperation {
	if (operation.credentialTenant || !item.isExpression(tenantField.name)) return operation;
	try {
		tenantOf(item);
		return operation;
	} catch {
		return { ...operation, credentialTenant: true };
	}
}

/** The `methods.listSearch` of the Flare node. */
export const listSearch = {
	/** Tenants the API key's user can work in, by name: "<name> (<id>)". Flare lists them in one answer. */
	searchTenants: picker({
		action: 'list tenants',
		path: '/{segment}/v2/me/tenants',
		listKey: 'tenants',
		credentialTenant: true,
		entry: (record) => {
			if (typeof record.id !== 'number' && typeof record.id !== 'string') return undefined;
			const id = String(record.id);
			return { name: `${text(record.name) ?? 'Tenant'} (${id})`, value: id };
		},
	}),
	/** Identifiers of the tenant, by name: "<name> (<id>)". */
	searchIdentifiers: picker({
		action: 'list identifiers',
		path: '/{segment}/v4/identifiers/',
		pageSize: 100,
		qs: { order_by: 'name' },
		entry: (record) => {
			if (typeof record.id !== 'number' && typeof record.id !== 'string') return undefined;
			const id = String(record.id);
			return { name: `${text(record.name) ?? 'Identifier'} (${id})`, value: id };
		},
	}),
	/** Identifier groups of the tenant, by name: "<name> (<id>)". Flare lists them in one answer. */
	searchIdentifierGroups: picker({
		action: 'list identifier groups',
		path: '/{segment}/v2/assets/groups/',
		listKey: 'assets_groups',
		entry: (record) => {
			if (typeof record.id !== 'number' && typeof record.id !== 'string') return undefined;
			const id = String(record.id);
			return { name: `${text(record.name) ?? 'Group'} (${id})`, value: id };
		},
	}),
	/** Matching policies of the tenant, by name. */
	searchMatchingPolicies: picker({
		action: 'list matching policies',
		path: '/{segment}/v4/matching-policies',
		pageSize: 25,
		entry: (record) => {
			const uuid = text(record.uuid);
			return uuid ? { name: text(record.name) ?? uuid, value: uuid } : undefined;
		},
	}),
	/** Threat Flow reports of the tenant, newest first: "<title> (<id>)". */
	searchThreatReports: picker({
		action: 'list threat reports',
		entitlement: 'threat intelligence',
		path: '/{segment}/v4/threat_flow/reports/',
		pageSize: 10,
		qs: { order: 'desc' },
		entry: (record) => {
			if (typeof record.id !== 'number' && typeof record.id !== 'string') return undefined;
			const id = String(record.id);
			return { name: `${text(record.title) ?? 'Report'} (${id})`, value: id };
		},
	}),
	/** Alert channels of the tenant, searched by name: "<name> (<type>, <id>)". */
	searchAlertChannels: picker({
		action: 'list alert channels',
		path: '/{segment}/v4/alerts/channels',
		pageSize: 10,
		searchParameter: 'q',
		entry: (record) => {
			if (typeof record.id !== 'number' && typeof record.id !== 'string') return undefined;
			const id = String(record.id);
			const type = text(record.type);
			return {
				name: `${text(record.name) ?? 'Channel'} (${type ? `${type}, ` : ''}${id})`,
				value: id,
			};
		},
	}),
	/** Alert rules of the tenant, searched by name: "<name> (<id>)". */
	searchAlertRules: picker({
		action: 'list alert rules',
		path: '/{segment}/v4/alerts/',
		pageSize: 10,
		searchParameter: 'q',
		entry: (record) => {
			if (typeof record.id !== 'number' && typeof record.id !== 'string') return undefined;
			const id = String(record.id);
			return { name: `${text(record.name) ?? 'Alert rule'} (${id})`, value: id };
		},
	}),
	/** Identifier recommendations still waiting, searched by value: "<value> (<type>, <id>)". */
	searchIdentifierRecommendations: picker({
		action: 'list identifier recommendations',
		path: '/{segment}/v4/identifier-recommendations/',
		pageSize: 100,
		qs: { status: 'recommended' },
		searchParameter: 'query',
		entry: (record) => {
			if (typeof record.id !== 'number' && typeof record.id !== 'string') return undefined;
			const id = String(record.id);
			const data = (record.data ?? {}) as IDataObject;
			const value =
				text(data.fqdn) ?? text(data.tenant_id) ?? text(data.email) ?? text(data.username);
			return {
				name: `${value ?? 'Recommendation'} (${text(data.type) ?? 'identifier'}, ${id})`,
				value: id,
			};
		},
	}),
	/** Every tenant of the API key's organization (an organization administrator's key): "<name> (<id>)". */
	searchOrganizationTenants: picker({
		action: 'list the tenants of the organization',
		path: '/{segment}/v2/organizations/{organization_id}/tenants',
		organization: true,
		pageSize: 100,
		credentialTenant: true,
		entry: (record) => {
			if (typeof record.id !== 'number' && typeof record.id !== 'string') return undefined;
			const id = String(record.id);
			return { name: `${text(record.name) ?? 'Tenant'} (${id})`, value: id };
		},
	}),
	/** Members of the API key's organization, searched by Flare: "<name> <surname> (<e-mail>, <id>)". */
	searchOrganizationMembers: picker({
		action: 'list organization members',
		path: '/{segment}/v2/organizations/{organization_id}/members',
		organization: true,
		pageSize: 100,
		listKey: 'members',
		searchParameter: 'q',
		credentialTenant: true,
		entry: (record) => {
			const user = isObject(record.user) ? record.user : record;
			if (typeof user.id !== 'number' && typeof user.id !== 'string') return undefined;
			const id = String(user.id);
			const name = [text(user.name), text(user.surname)].filter(Boolean).join(' ');
			const email = text(user.email);
			return { name: `${name || 'Member'} (${email ? `${email}, ` : ''}${id})`, value: id };
		},
	}),
	/** Platform reports of the tenant, newest first: "<title> (<id>)". */
	searchReports: picker({
		action: 'list reports',
		entitlement: 'reports',
		path: '/{segment}/v4/reports',
		pageSize: 100,
		qs: { order_by: 'created_at', order_type: 'desc' },
		entry: (record) => {
			if (typeof record.id !== 'number' && typeof record.id !== 'string') return undefined;
			const id = String(record.id);
			return { name: `${text(record.title) ?? 'Report'} (${id})`, value: id };
		},
	}),
	/** Leak sources (ASTP), by name. */
	searchSources: picker({
		action: 'list sources',
		entitlement: 'ASTP',
		path: '/astp/v2/sources',
		pageSize: 1000,
		entry: (record) => {
			const id = text(record.id);
			return id ? { name: text(record.name) ?? id, value: id } : undefined;
		},
	}),
};
