/**
 * Identifier groups (v2: list, get, create, rename, delete) and matching policies beyond assign and list
 * (v4: create, get, update, delete, list and remove assignments): the Management API that the
 * onboarding playbooks use. server.ts routes them here after authentication and rate limits; the
 * state is the dataset's (groups, policies, assignments), and every write is recorded.
 */
import { randomUUID } from 'crypto';

import {
	IdentifierGroupCreateBody,
	IdentifierIdParam,
	type MatchingPolicy,
	MatchingPolicyCreateBody,
	MatchingPolicyUpdateBody,
	PolicyAssignmentBody,
	PolicyAssignmentListQuery,
	PolicyUuidParam,
	UpdateGroupDataBody,
} from '../contract';
import type { Dataset } from './dataset';
import { positionsPage, type Quirks } from './paging';
import { isoWithOffset } from './random';
import {
	answer,
	errorReply,
	type HandlerRequest,
	invalidReply,
	jsonBody,
	jsonReply,
	parseWith,
	pathParam,
	type Reply,
} from './replies';

export type ManagementRouteName =
	| 'listGroups'
	| 'createGroup'
	| 'getGroup'
	| 'deleteGroup'
	| 'renameGroup'
	| 'createPolicy'
	| 'getPolicy'
	| 'updatePolicy'
	| 'deletePolicy'
	| 'listAssignments'
	| 'unassignPolicy';

export interface ManagementRoute {
	name: ManagementRouteName;
	method: string;
	/** Regular expression source of the path; groups are the path parameters. */
	path: string;
}

/** The routes of this module; `seg` is the product segment, already escaped for a RegExp. */
export function managementRoutes(seg: string): ManagementRoute[] {
	const param = '([^/]+)';
	const route = (name: ManagementRouteName, method: string, path: string) => ({
		name,
		method,
		path,
	});
	return [
		route('listGroups', 'GET', `/${seg}/v2/assets/groups/`),
		route('createGroup', 'POST', `/${seg}/v2/assets/groups/`),
		route('getGroup', 'GET', `/${seg}/v2/assets/groups/${param}`),
		route('deleteGroup', 'DELETE', `/${seg}/v2/assets/groups/${param}`),
		route('renameGroup', 'PUT', `/${seg}/v2/assets/groups/${param}`),
		route('createPolicy', 'POST', `/${seg}/v4/matching-policies`),
		route('getPolicy', 'GET', `/${seg}/v4/matching-policies/${param}`),
		route('updatePolicy', 'PUT', `/${seg}/v4/matching-policies/${param}`),
		route('deletePolicy', 'DELETE', `/${seg}/v4/matching-policies/${param}`),
		route('listAssignments', 'GET', `/${seg}/v4/matching-policies/${param}/assignments`),
		route('unassignPolicy', 'DELETE', `/${seg}/v4/matching-policies/${param}/assignments`),
	];
}

/** Which value each policy type takes (the update must keep the type's shape). */
const VALUE_KEYS: Record<MatchingPolicy['policy_type'], string[]> = {
	INCLUDED_KEYWORDS: ['keywords'],
	EXCLUDED_KEYWORDS: ['keywords'],
	LUCENE_QUERY: ['query'],
	ASTP_COOKIES: ['cookie_names', 'match_subdomains'],
	ASTP_DOMAIN: ['match_mode'],
};

export class ManagementApi {
	constructor(
		private readonly dataset: Dataset,
		private readonly settings: { quirks: Quirks; now: () => number },
		private readonly recordWrite: (write: { method: string; path: string; body: unknown }) => void,
	) {}

	handle(name: ManagementRouteName, request: HandlerRequest): Reply {
		return answer(() => {
			switch (name) {
				case 'listGroups':
					return jsonReply(200, { assets_groups: this.dataset.identifierGroups(request.tenantId) });
				case 'createGroup':
					return this.createGroup(request);
				case 'getGroup':
				case 'deleteGroup':
				case 'renameGroup':
					return this.group(name, request);
				case 'createPolicy':
					return this.createPolicy(request);
				case 'getPolicy':
				case 'updatePolicy':
				case 'deletePolicy':
					return this.policy(name, request);
				case 'listAssignments':
					return this.listAssignments(request);
				case 'unassignPolicy':
					return this.unassign(request);
			}
		});
	}

	private write(request: HandlerRequest, body: unknown): void {
		this.recordWrite({ method: request.method, path: request.rawPath, body });
	}

	// ---- identifier groups ----

	private createGroup(request: HandlerRequest): Reply {
		const rawBody = jsonBody(request);
		const body = parseWith(IdentifierGroupCreateBody, rawBody, 'body');
		const group = this.dataset.addIdentifierGroup(body.name, request.tenantId);
		this.write(request, rawBody);
		return jsonReply(200, { assets_group: group });
	}

	private group(name: 'getGroup' | 'deleteGroup' | 'renameGroup', request: HandlerRequest): Reply {
		const id = pathParam('assets_group_id', request.params[0], IdentifierIdParam);
		const group = this.dataset.identifierGroup(id, request.tenantId);
		if (!group)
			return jsonReply(404, { message: `Identifier group ${id} not found`, code: 'NOT_FOUND' });
		if (name === 'getGroup') return jsonReply(200, { assets_group: group });
		if (name === 'renameGroup') {
			const rawBody = jsonBody(request);
			const { name: renamed } = parseWith(UpdateGroupDataBody, rawBody, 'body');
			this.dataset.renameIdentifierGroup(id, renamed);
			this.write(request, rawBody);
			return jsonReply(200, { assets_group: this.dataset.identifierGroup(id, request.tenantId) });
		}
		this.dataset.deleteIdentifierGroup(id);
		this.write(request, undefined);
		return jsonReply(200, {});
	}

	// ---- matching policies ----

	private createPolicy(request: HandlerRequest): Reply {
		const rawBody = jsonBody(request);
		const body = parseWith(MatchingPolicyCreateBody, rawBody, 'body');
		const now = isoWithOffset(this.settings.now());
		const policy: MatchingPolicy = {
			uuid: randomUUID(),
			name: body.name,
			policy_type: body.type,
			value: body.value,
			created_at: now,
			last_updated_at: now,
		};
		this.dataset.storePolicy(policy);
		this.write(request, rawBody);
		return jsonReply(200, policy);
	}

	private policyOf(request: HandlerRequest): MatchingPolicy | Reply {
		const uuid = pathParam('policy_uuid', request.params[0], PolicyUuidParam);
		return (
			this.dataset.policy(uuid) ??
			errorReply(404, 'NOT_FOUND', `matching policy ${uuid.toLowerCase()} not found`)
		);
	}

	private policy(
		name: 'getPolicy' | 'updatePolicy' | 'deletePolicy',
		request: HandlerRequest,
	): Reply {
		const policy = this.policyOf(request);
		if ('status' in policy) return policy;
		if (name === 'getPolicy') return jsonReply(200, policy);
		if (name === 'deletePolicy') {
			this.dataset.deletePolicy(policy.uuid);
			this.write(request, undefined);
			return jsonReply(200, {});
		}
		const rawBody = jsonBody(request);
		const body = parseWith(MatchingPolicyUpdateBody, rawBody, 'body');
		const allowed = VALUE_KEYS[policy.policy_type];
		const wrong = Object.keys(
			rawBody && typeof rawBody === 'object' ? ((rawBody as { value?: object }).value ?? {}) : {},
		).find((key) => !allowed.includes(key));
		if (wrong !== undefined) {
			return invalidReply([
				{
					loc: ['body', 'value', wrong],
					msg: `${wrong} does not apply to a policy of type ${policy.policy_type}`,
					type: 'value_error',
				},
			]);
		}
		const updated: MatchingPolicy = {
			...policy,
			name: body.name,
			value: body.value,
			last_updated_at: isoWithOffset(this.settings.now()),
		};
		this.dataset.storePolicy(updated);
		this.write(request, rawBody);
		return jsonReply(200, updated);
	}

	/** The identifiers a policy is assigned to, by identifier id, paged as the other lists. */
	private listAssignments(request: HandlerRequest): Reply {
		const policy = this.policyOf(request);
		if ('status' in policy) return policy;
		const query = parseWith(PolicyAssignmentListQuery, request.query, 'query');
		const records = this.dataset.policyAssignments(policy.uuid, request.tenantId);
		if (query.order === 'desc') records.reverse();
		const { from, ...params } = query;
		const page = request.pages(
			{ scope: `assignments:${policy.uuid}`, params, from, location: 'query' },
			(cursor) => positionsPage(cursor, records.length, query.size, this.settings.quirks),
		);
		return jsonReply(200, { items: page.items.map((j) => records[j]), next: page.next });
	}

	/** Every identifier must exist, or nothing changes (404 naming them); unassigned ones are fine. */
	private unassign(request: HandlerRequest): Reply {
		const policy = this.policyOf(request);
		if ('status' in policy) return policy;
		const rawBody = jsonBody(request);
		const body = parseWith(PolicyAssignmentBody, rawBody, 'body');
		const missing = body.identifier_ids.filter((id) => !this.dataset.identifierExists(id));
		if (missing.length > 0) {
			return errorReply(404, 'NOT_FOUND', `identifier ${missing.join(', ')} not found`);
		}
		for (const id of body.identifier_ids) {
			const list = this.dataset.assignments.get(id) ?? [];
			const k = list.findIndex((stored) => stored.policyUuid === policy.uuid);
			if (k !== -1) list.splice(k, 1);
		}
		this.write(request, rawBody);
		return jsonReply(200, {});
	}
}
