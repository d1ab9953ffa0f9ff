/**
 * Identifiers v4 beyond the list and the deletion that server.ts serves: create, get and update,
 * over the dataset's identifiers (created ones join the list, updated ones replace the generated
 * record). `data` is validated per kind: the shape by the contract (422), the value as the API's own
 * example error says (400 `INVALID_IDENTIFIER_DATA`, "fqdn is invalid").
 */
import {
	IdentifierCreateBody,
	type IdentifierData,
	IdentifierIdParam,
	type IdentifierListQuery,
	IdentifierUpdateBody,
	type PublicIdentifier,
} from '../contract';
import { net } from '../support/node';
import type { Dataset } from './dataset';
import { isoWithOffset } from './random';
import {
	errorReply,
	Halt,
	type HandlerRequest,
	jsonBody,
	jsonReply,
	parseWith,
	pathParam,
	type Reply,
} from './replies';

const FQDN = /^(?=.{1,253}$)(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+$/i;
const BIN = /^\d{6,8}$/;

export class IdentifierApi {
	constructor(
		private readonly dataset: Dataset,
		private readonly recordWrite: (write: { method: string; path: string; body: unknown }) => void,
	) {}

	create(request: HandlerRequest): Reply {
		const rawBody = jsonBody(request);
		const body = parseWith(IdentifierCreateBody, rawBody, 'body');
		checkData(body.data);
		const record: PublicIdentifier = {
			id: this.dataset.nextIdentifierId(),
			name: body.name || defaultName(body.data),
			tenant_id: request.tenantId,
			data: body.data,
			categories: body.categories,
			emerging_categories: body.emerging_categories,
			severities: body.severities,
			group_id: body.group_id ?? null,
			enrichments: enrichmentsFor(body.data),
			is_disabled: false,
			updated_at: isoWithOffset(Math.floor(Date.now() / 1000) * 1000),
		};
		this.dataset.storeIdentifier(record);
		this.recordWrite({ method: request.method, path: request.rawPath, body: rawBody });
		return jsonReply(200, record);
	}

	get(request: HandlerRequest): Reply {
		return jsonReply(200, this.existing(request));
	}

	/**
	 * Replaces `data`, `categories`, `emerging_categories` and `severities`; `name` and `is_disabled`
	 * change when given (not null), `group_id` when present (null leaves the group).
	 */
	update(request: HandlerRequest): Reply {
		const current = this.existing(request);
		const rawBody = jsonBody(request);
		const body = parseWith(IdentifierUpdateBody, rawBody, 'body');
		checkData(body.data);
		const dataChanged = JSON.stringify(body.data) !== JSON.stringify(current.data);
		const record: PublicIdentifier = {
			...current,
			name: body.name || current.name,
			data: body.data,
			categories: body.categories,
			emerging_categories: body.emerging_categories,
			severities: body.severities,
			group_id: body.group_id === undefined ? current.group_id : body.group_id,
			enrichments: dataChanged ? enrichmentsFor(body.data) : current.enrichments,
			is_disabled: body.is_disabled ?? current.is_disabled,
			updated_at: isoWithOffset(Math.floor(Date.now() / 1000) * 1000),
		};
		this.dataset.storeIdentifier(record);
		this.recordWrite({ method: request.method, path: request.rawPath, body: rawBody });
		return jsonReply(200, record);
	}

	/** The identifier of the path, as the caller's tenant sees it; 404 when unknown or deleted. */
	private existing(request: HandlerRequest): PublicIdentifier {
		const id = pathParam('identifier_id', request.params[0], IdentifierIdParam);
		if (!this.dataset.identifierExists(id))
			throw new Halt(errorReply(404, 'NOT_FOUND', `identifier ${id} not found`));
		return this.dataset.identifier(id, request.tenantId);
	}
}

/** The filters of List Identifiers other than paging and order. */
export function identifierFilter(
	query: IdentifierListQuery,
): (record: PublicIdentifier) => boolean {
	return (record) =>
		(query.is_disabled === undefined || record.is_disabled === query.is_disabled) &&
		(query.group_id === undefined || record.group_id === query.group_id) &&
		(query.types === undefined || query.types.includes(record.data.type)) &&
		(query.authorization_status === undefined ||
			record.enrichments?.authorization_status === query.authorization_status);
}

/** 400 `INVALID_IDENTIFIER_DATA` for values the shape allows but the API would refuse. */
function checkData(data: IdentifierData): void {
	const invalid = (message: string) =>
		new Halt(jsonReply(400, { error: { code: 'INVALID_IDENTIFIER_DATA', message, data: null } }));
	if (data.type === 'domain' && !FQDN.test(data.fqdn)) throw invalid('fqdn is invalid');
	if (data.type === 'ip' && !isIpOrNetwork(data.ip)) throw invalid('ip is invalid');
	if (data.type === 'bin' && !BIN.test(data.bin)) throw invalid('bin is invalid');
}

function isIpOrNetwork(value: string): boolean {
	const [address, prefix, ...rest] = value.split('/');
	const version = net.isIP(address);
	if (version === 0 || rest.length > 0) return false;
	if (prefix === undefined) return true;
	const bits = Number(prefix);
	return /^\d+$/.test(prefix) && bits <= (version === 4 ? 32 : 128);
}

/**
 * The name of an identifier created without one: what it watches, a secret's too. Flare documents no
 * default (docs/api-contract.md, "Masking"): the fake follows the node's bet, the harder case.
 */
function defaultName(data: IdentifierData): string {
	switch (data.type) {
		case 'domain':
			return data.fqdn;
		case 'keyword':
			return data.keyword;
		case 'ip':
			return data.ip;
		case 'bin':
			return data.bin;
		case 'azure_tenant':
			return data.tenant_id;
		case 'search_query':
			return data.search_query;
		case 'github_repository':
			return `${data.repo_owner}/${data.repo_name}`;
		case 'secret':
			return data.secret;
		case 'identity': {
			const [first] = data.attributes;
			if (first.type === 'email') return first.email;
			if (first.type === 'username') return first.username;
			return `${first.first_name} ${first.last_name}`;
		}
	}
}

/** A new domain identifier waits for authorization; other kinds have no enrichments. */
function enrichmentsFor(data: IdentifierData): PublicIdentifier['enrichments'] {
	if (data.type !== 'domain') return null;
	return {
		domain_reachable_at: null,
		domain_resolves_at: null,
		usage_count: 0,
		event_count: null,
		authorization_status: 'pending',
	};
}
