/**
 * Tenant and member administration (v2, issue 40): the organization's tenants (list, create, get,
 * update, archive), a tenant's users (list, add, remove) and the organization's members (list, get,
 * update, enable, disable, their tenants). Only an organization administrator's key may call them,
 * and only for its own organization: any other key gets 403, as the organization's tenant list always
 * did. server.ts routes them here after authentication and rate limits; every write is recorded. The
 * fake's choices where Flare's docs are silent are in README.md.
 */
import {
	type AdministeredTenant,
	EnableState,
	IdentifierIdParam,
	type MemberWithMetadata,
	MemberListQuery,
	MemberTenantsQuery,
	MemberUpdateBody,
	NewTenantInfoBody,
	type OrganizationMember,
	type OrganizationTenant,
	OrganizationTenantsQuery,
	TenantDataBody,
	type TenantUser,
	TenantUsersQuery,
	UserTenantAccessBody,
} from '../contract';
import { positionsPage, type Quirks } from './paging';
import { isoWithOffset } from './random';
import {
	answer,
	errorReply,
	Halt,
	type HandlerRequest,
	jsonBody,
	jsonReply,
	parseWith,
	pathParam,
	type Reply,
} from './replies';

export type AdministrationRouteName =
	| 'organizationTenants'
	| 'createTenant'
	| 'getTenant'
	| 'updateTenant'
	| 'archiveTenant'
	| 'listTenantUsers'
	| 'addTenantUsers'
	| 'removeTenantUser'
	| 'listMembers'
	| 'getMember'
	| 'updateMember'
	| 'enableMember'
	| 'disableMember'
	| 'memberTenants';

export interface AdministrationRoute {
	name: AdministrationRouteName;
	method: string;
	path: string;
}

/** The routes of this module; `seg` is the product segment, already escaped for a RegExp. */
export function administrationRoutes(seg: string): AdministrationRoute[] {
	const param = '([^/]+)';
	const organization = `/${seg}/v2/organizations/${param}`;
	const tenant = `/${seg}/v2/tenants/${param}`;
	const member = `${organization}/members/${param}`;
	const route = (name: AdministrationRouteName, method: string, path: string) => ({ name, method, path });
	return [
		route('organizationTenants', 'GET', `${organization}/tenants`),
		route('createTenant', 'POST', `${organization}/tenants`),
		route('listMembers', 'GET', `${organization}/members`),
		route('memberTenants', 'GET', `${member}/tenants`),
		route('enableMember', 'POST', `${member}/enable`),
		route('disableMember', 'POST', `${member}/disable`),
		route('getMember', 'GET', member),
		route('updateMember', 'PUT', member),
		route('archiveTenant', 'POST', `${tenant}/archive`),
		route('listTenantUsers', 'GET', `${tenant}/users`),
		route('addTenantUsers', 'POST', `${tenant}/users`),
		route('removeTenantUser', 'DELETE', `${tenant}/users/${param}`),
		route('getTenant', 'GET', tenant),
		route('updateTenant', 'PUT', tenant),
	];
}

export interface AdministrationSettings {
	/** The tenants of the demo keys (`tenants`), with their names. */
	tenants: Array<{ id: number; name: string }>;
	/** More tenants of the organization (`otherOrganizationTenants`). */
	others: Array<{ id: number; name?: string; is_disabled?: boolean; is_archived?: boolean }>;
	/** The organization of the administrator's key. */
	organizationId: number;
	startTime: string;
	quirks: Quirks;
}

/** Seeded members: the administrator's key's user (501), then analysts 510 on. */
const MEMBERS = 14;
const FIRST_NAMES = ['Jane', 'Omar', 'Li', 'Sofia', 'Noah', 'Amara', 'Lucas', 'Mia', 'Ravi', 'Elena', 'Tom', 'Yuki', 'Ada', 'Ben'];
const ROLES: TenantUser['role'][] = ['viewer', 'editor', 'admin'];

type StoredTenant = AdministeredTenant & { global_search_calls_limit?: number };

export class AdministrationApi {
	private readonly tenants: StoredTenant[] = [];
	private readonly members: OrganizationMember[] = [];
	/** Users of each tenant: user id → their access. */
	private readonly access = new Map<number, Map<number, { role: TenantUser['role']; is_readonly: boolean }>>();
	private nextTenantId = 9901;

	constructor(
		private readonly settings: AdministrationSettings,
		private readonly recordWrite: (write: { method: string; path: string; body: unknown }) => void,
	) {
		const listed = [
			...settings.tenants.map((tenant) => ({ ...tenant, is_disabled: false, is_archived: false })),
			...settings.others.map((tenant) => ({
				id: tenant.id,
				name: tenant.name ?? `Tenant ${tenant.id}`,
				is_disabled: tenant.is_disabled ?? false,
				is_archived: tenant.is_archived ?? false,
			})),
		];
		for (const { id, name, is_disabled, is_archived } of listed) {
			this.tenants.push(this.newTenant(id, name, `Monitoring of ${name}`, 'global', { is_disabled, is_archived }));
		}
		const registered = Date.parse(settings.startTime);
		for (let k = 0; k < MEMBERS; k++) {
			const id = k === 0 ? 501 : 509 + k;
			this.members.push({
				id,
				name: FIRST_NAMES[k],
				surname: k === 0 ? 'Analyst' : `Member${k}`,
				email: k === 0 ? 'analyst@acme.com' : `${FIRST_NAMES[k].toLowerCase()}.member${k}@acme.com`,
				organization_member_permissions: { [String(settings.organizationId)]: { admin: k === 0, manage_tenants: k < 3 } },
				is_disabled: false,
				registered_at: isoWithOffset(registered + k * 86_400_000),
				urn: `urn:flare:user:${id}`,
			});
		}
		// The administrator works in every tenant; analysts in one or two of the first.
		this.tenants.forEach((tenant, t) => {
			const users = new Map<number, { role: TenantUser['role']; is_readonly: boolean }>([[501, { role: 'admin', is_readonly: false }]]);
			this.members.slice(1).forEach((member, k) => {
				if (t < settings.tenants.length && (k % settings.tenants.length === t || k % 4 === 0)) {
					users.set(member.id, { role: ROLES[k % 3], is_readonly: k % 5 === 0 });
				}
			});
			this.access.set(tenant.id, users);
		});
	}

	private newTenant(id: number, name: string, description: string, industry: string, flags: { is_disabled: boolean; is_archived: boolean }): StoredTenant {
		return {
			id,
			name,
			type: 'regular',
			description,
			organization_id: this.settings.organizationId,
			industry,
			number_of_employees: 250,
			prevent_global_search: false,
			...flags,
		};
	}

	// ---- oracles ----

	/** Every tenant of the organization, as its list shows them (without their number of employees). */
	organizationTenants(): OrganizationTenant[] {
		return this.tenants.map((tenant) => {
			const listed: Partial<StoredTenant> = this.shown(tenant);
			delete listed.number_of_employees;
			return listed as OrganizationTenant;
		});
	}

	/** A tenant with what the fake keeps beside Flare's shape (its global-search limit). */
	tenant(id: number): StoredTenant | undefined {
		const found = this.tenants.find((tenant) => tenant.id === id);
		return found && structuredClone(found);
	}

	/** The users of a tenant, as its list shows them. */
	usersOf(tenantId: number): TenantUser[] {
		return [...(this.access.get(tenantId) ?? new Map())].map(([id, { role, is_readonly }]) => {
			const member = this.members.find((candidate) => candidate.id === id)!;
			return { id, name: member.name, surname: member.surname, email: member.email, is_readonly, role, is_disabled: member.is_disabled };
		});
	}

	/** Every member of the organization, with their tenant count. */
	membersList(): MemberWithMetadata[] {
		return this.members.map((member) => this.withCount(member));
	}

	private withCount(member: OrganizationMember): MemberWithMetadata {
		const tenant_count = [...this.access.values()].filter((users) => users.has(member.id)).length;
		return { user: structuredClone(member), tenant_count };
	}

	/** A tenant as Flare shows one: without the limit (the v2 `Tenant` schema does not have it). */
	private shown(tenant: StoredTenant): AdministeredTenant {
		const copy = { ...tenant };
		delete copy.global_search_calls_limit;
		return copy;
	}

	// ---- handlers ----

	/** `adminOf`: the organization of the request's key when it is an administrator's, else undefined. */
	handle(name: AdministrationRouteName, request: HandlerRequest, adminOf: number | undefined): Reply {
		return answer(() => {
			this.allow(name, request, adminOf);
			switch (name) {
				case 'organizationTenants': {
					const query = parseWith(OrganizationTenantsQuery, request.query, 'query');
					return jsonReply(200, this.page(request, `tenants:${adminOf}`, query, this.organizationTenants()));
				}
				case 'createTenant':
					return this.createTenant(request);
				case 'getTenant':
					return jsonReply(200, this.shown(this.tenantOf(request)));
				case 'updateTenant':
					return this.updateTenant(request);
				case 'archiveTenant':
					this.tenantOf(request).is_archived = true;
					this.write(request, undefined);
					return { status: 200 };
				case 'listTenantUsers':
					return this.listUsers(request);
				case 'addTenantUsers':
					return this.addUsers(request);
				case 'removeTenantUser':
					return this.removeUser(request);
				case 'listMembers':
					return this.listMembers(request);
				case 'getMember':
					return jsonReply(200, { member: this.withCount(this.memberOf(request)) });
				case 'updateMember':
					return this.updateMember(request);
				case 'enableMember':
				case 'disableMember':
					return this.setDisabled(request, name === 'disableMember');
				case 'memberTenants':
					return this.memberTenants(request);
			}
		});
	}

	/** Only the administrator of the organization: a 403 for any other key or organization. */
	private allow(name: AdministrationRouteName, request: HandlerRequest, adminOf: number | undefined): void {
		const byOrganization = ['organizationTenants', 'createTenant', 'listMembers', 'getMember', 'updateMember', 'enableMember', 'disableMember', 'memberTenants'].includes(name);
		const organization = byOrganization ? pathParam('organization_id', request.params[0], IdentifierIdParam) : adminOf;
		if (adminOf === undefined || organization !== adminOf) {
			throw new Halt(errorReply(403, 'FORBIDDEN', `you are not an administrator of organization ${organization ?? 'of this tenant'}`));
		}
	}

	private write(request: HandlerRequest, body: unknown): void {
		this.recordWrite({ method: request.method, path: request.rawPath, body });
	}

	private page<T>(request: HandlerRequest, scope: string, query: { from?: string; size: number }, records: T[]) {
		const { from, ...params } = query;
		const page = request.pages({ scope, params, from, location: 'query' }, (cursor) =>
			positionsPage(cursor, records.length, query.size, this.settings.quirks),
		);
		return { items: page.items.map((j) => records[j]), next: page.next };
	}

	/** The tenant of the path, of the organization, or a 404 (v2 `{message, code}`). */
	private tenantOf(request: HandlerRequest): StoredTenant {
		const id = pathParam('tenant_id', request.params[0], IdentifierIdParam);
		const tenant = this.tenants.find((candidate) => candidate.id === id);
		if (!tenant) throw new Halt(jsonReply(404, { message: `Tenant ${id} not found`, code: 'NOT_FOUND' }));
		return tenant;
	}

	/** The member of the path (after the organization), or a 404. */
	private memberOf(request: HandlerRequest): OrganizationMember {
		const id = pathParam('user_id', request.params[1], IdentifierIdParam);
		const member = this.members.find((candidate) => candidate.id === id);
		if (!member) throw new Halt(jsonReply(404, { message: `User ${id} not found`, code: 'NOT_FOUND' }));
		return member;
	}

	private createTenant(request: HandlerRequest): Reply {
		const rawBody = jsonBody(request);
		const body = parseWith(NewTenantInfoBody, rawBody, 'body');
		const tenant = this.newTenant(this.nextTenantId++, body.name, body.description ?? '', body.industry ?? 'global', { is_disabled: false, is_archived: false });
		this.tenants.push(tenant);
		this.access.set(tenant.id, new Map([[501, { role: 'admin', is_readonly: false }]]));
		this.write(request, rawBody);
		return jsonReply(200, this.shown(tenant));
	}

	private updateTenant(request: HandlerRequest): Reply {
		const tenant = this.tenantOf(request);
		const rawBody = jsonBody(request);
		const body = parseWith(TenantDataBody, rawBody, 'body');
		Object.assign(tenant, body);
		this.write(request, rawBody);
		return jsonReply(200, this.shown(tenant));
	}

	/** `next` a number: the position of the next page (Flare's `TenantUsers.next` is an integer). */
	private listUsers(request: HandlerRequest): Reply {
		const tenant = this.tenantOf(request);
		const query = parseWith(TenantUsersQuery, request.query, 'query');
		const users = this.usersOf(tenant.id);
		const from = query.from ?? 0;
		const next = from + query.size < users.length ? from + query.size : null;
		return jsonReply(200, { items: users.slice(from, from + query.size), next });
	}

	/** Every user must be a member of the organization, or nothing changes (404 naming them). */
	private addUsers(request: HandlerRequest): Reply {
		const tenant = this.tenantOf(request);
		const rawBody = jsonBody(request);
		const { users } = parseWith(UserTenantAccessBody, rawBody, 'body');
		const unknown = users.filter((user) => !this.members.some((member) => member.id === user.user_id));
		if (unknown.length) {
			return jsonReply(404, { message: `User ${unknown.map((user) => user.user_id).join(', ')} not found`, code: 'NOT_FOUND' });
		}
		const access = this.access.get(tenant.id)!;
		for (const user of users) access.set(user.user_id, { role: user.role ?? 'viewer', is_readonly: user.is_readonly ?? false });
		this.write(request, rawBody);
		return { status: 200 };
	}

	private removeUser(request: HandlerRequest): Reply {
		const tenant = this.tenantOf(request);
		const id = pathParam('user_id', request.params[1], IdentifierIdParam);
		const access = this.access.get(tenant.id)!;
		if (!access.has(id)) return jsonReply(404, { message: `User ${id} not found in tenant ${tenant.id}`, code: 'NOT_FOUND' });
		access.delete(id);
		this.write(request, undefined);
		return { status: 200 };
	}

	/** `q` in the name, surname or e-mail (any case); `{members, next}`. */
	private listMembers(request: HandlerRequest): Reply {
		const query = parseWith(MemberListQuery, request.query, 'query');
		const needle = query.q?.toLowerCase() ?? '';
		const members = this.membersList().filter(({ user }) =>
			[user.name, user.surname, user.email].some((value) => value.toLowerCase().includes(needle)),
		);
		const page = this.page(request, 'members', query, members);
		return jsonReply(200, { members: page.items, next: page.next });
	}

	private updateMember(request: HandlerRequest): Reply {
		const member = this.memberOf(request);
		const rawBody = jsonBody(request);
		Object.assign(member, parseWith(MemberUpdateBody, rawBody, 'body'));
		this.write(request, rawBody);
		return jsonReply(200, { member: this.withCount(member) });
	}

	private setDisabled(request: HandlerRequest, disabled: boolean): Reply {
		const member = this.memberOf(request);
		member.is_disabled = disabled;
		this.write(request, undefined);
		return jsonReply(200, EnableState.parse({ is_disabled: disabled }));
	}

	private memberTenants(request: HandlerRequest): Reply {
		const member = this.memberOf(request);
		const query = parseWith(MemberTenantsQuery, request.query, 'query');
		const tenants = this.organizationTenants().filter((tenant) => this.access.get(tenant.id)?.has(member.id));
		return jsonReply(200, this.page(request, `memberTenants:${member.id}`, query, tenants));
	}
}
