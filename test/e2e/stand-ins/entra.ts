/**
 * Microsoft Graph v1.0, as far as the Microsoft Entra ID playbook uses it, at https://graph.microsoft.com
 * (reached through the proxy: n8n's Entra ID node and the HTTP Request node write that address
 * themselves). As Microsoft's reference documents each call (learn.microsoft.com/graph/api/…):
 * - `GET /v1.0/users/{id | userPrincipalName}` (user-get), with `$select`; an unknown user is a 404
 *   `Request_ResourceNotFound`;
 * - `PATCH /v1.0/users/{id}` (user-update): writable properties only (else 400 `Request_BadRequest`),
 *   `passwordProfile.forceChangePasswordNextSignIn` a boolean; answers 204;
 * - `POST /v1.0/users/{id}/revokeSignInSessions` (user-revokesigninsessions): no request body;
 *   answers 200 `{ value: true }`.
 * Every call carries the OAuth2 access token of the credential as a Bearer token (else 401
 * `InvalidAuthenticationToken`). What the directory's prefixes do (directory.ts): an administrator's
 * password profile may not be changed (403 `Authorization_RequestDenied`, "Insufficient privileges
 * to complete the operation.", as Graph answers an app without a role above theirs); a `moved.`
 * user's sign-out is redirected to another origin (307).
 */
import { employee, type Employee } from './directory';
import type { ToolReply, ToolRequest, ToolStandIn } from './http';

/** The access token of the stand-in's credential (a placeholder: no real token). */
export const GRAPH_ACCESS_TOKEN = [
	'eyJ0eXAiOiJKV1QiLCJGQUtFIjoiZW50cmEifQ',
	'standin',
	'graph0001',
].join('.');

/** The Entra ID user of an employee: its object id is a UUID made of the address's digest. */
export function entraUser(person: Employee): Record<string, unknown> {
	const hex = person.digest;
	const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
	return {
		id,
		displayName: `${person.firstName} ${person.lastName}`.trim(),
		givenName: person.firstName,
		surname: person.lastName,
		userPrincipalName: person.login,
		mail: person.login,
		mailNickname: person.login.split('@')[0],
		accountEnabled: true,
		createdDateTime: '2023-04-03T09:00:00Z',
		securityIdentifier: `S-1-12-1-${parseInt(hex.slice(0, 8), 16)}`,
	};
}

/** Properties of a user that PATCH may write, as far as a playbook would. */
const WRITABLE = [
	'accountEnabled',
	'displayName',
	'givenName',
	'surname',
	'jobTitle',
	'department',
	'passwordProfile',
	'passwordPolicies',
];
const PASSWORD_PROFILE = [
	'forceChangePasswordNextSignIn',
	'forceChangePasswordNextSignInWithMfa',
	'password',
];

export class EntraStandIn implements ToolStandIn {
	readonly tool = 'graph';
	/** User ids, in the order Graph was asked: a new password required, sign-in sessions revoked. */
	readonly passwordChangesRequired: string[] = [];
	readonly sessionsRevoked: string[] = [];
	/** Another origin than Graph's, where `moved.` users' sign-outs are redirected (set at start). */
	elsewhere = 'http://localhost:1/elsewhere';
	/** The people served so far, by id: Graph finds a user by id as well as by address. */
	private readonly byId = new Map<string, Employee>();

	handle(request: ToolRequest): ToolReply {
		if (request.headers.authorization !== `Bearer ${GRAPH_ACCESS_TOKEN}`) {
			return this.error(
				401,
				'InvalidAuthenticationToken',
				request.headers.authorization
					? 'Access token validation failure.'
					: 'Access token is empty.',
				'not the access token of the credential',
			);
		}
		const match = /^\/v1\.0\/users\/([^/]+)(\/revokeSignInSessions)?$/.exec(request.path);
		if (!match)
			return this.error(
				400,
				'BadRequest',
				`Resource not found for the segment '${request.path}'.`,
				`${request.method} ${request.path} is not a call of the playbook`,
			);
		// A user by its id (of one served before) or its user principal name, as Graph finds them.
		const person = this.byId.get(match[1]) ?? employee(match[1]);
		if (!person) {
			return this.error(
				404,
				'Request_ResourceNotFound',
				`Resource '${match[1]}' does not exist or one of its queried reference-property objects are not present.`,
			);
		}
		const user = entraUser(person);
		const id = String(user.id);
		this.byId.set(id, person);
		if (match[2]) {
			if (request.method !== 'POST')
				return this.error(
					405,
					'Request_BadRequest',
					'Method not allowed.',
					`${request.method} on revokeSignInSessions`,
				);
			if (request.text.trim() !== '')
				return this.error(
					400,
					'Request_BadRequest',
					'The request must have no body.',
					`a body was sent: ${request.text.slice(0, 200)}`,
				);
			if (person.kind === 'moved')
				return { status: 307, headers: { location: `${this.elsewhere}${request.path}` } };
			this.sessionsRevoked.push(id);
			return {
				status: 200,
				body: {
					'@odata.context': 'https://graph.microsoft.com/v1.0/$metadata#Edm.Boolean',
					value: true,
				},
			};
		}
		if (request.method === 'GET') {
			const select = request.query.$select?.split(',').filter(Boolean);
			const shown = select
				? Object.fromEntries(select.filter((key) => key in user).map((key) => [key, user[key]]))
				: user;
			return {
				status: 200,
				body: {
					'@odata.context': 'https://graph.microsoft.com/v1.0/$metadata#users/$entity',
					...shown,
				},
			};
		}
		if (request.method === 'PATCH') return this.update(id, request, person);
		return this.error(
			405,
			'Request_BadRequest',
			'Method not allowed.',
			`${request.method} on a user`,
		);
	}

	private update(id: string, request: ToolRequest, person: Employee): ToolReply {
		const body = request.json as Record<string, unknown> | undefined;
		if (!body || typeof body !== 'object' || Array.isArray(body)) {
			return this.error(
				400,
				'BadRequest',
				'Empty Payload. JSON content expected.',
				'no JSON object',
			);
		}
		const unknown = Object.keys(body).filter((key) => !WRITABLE.includes(key));
		if (unknown.length > 0)
			return this.error(
				400,
				'Request_BadRequest',
				`Invalid property '${unknown[0]}'.`,
				`properties that are not writable: ${unknown.join(', ')}`,
			);
		const profile = body.passwordProfile as Record<string, unknown> | undefined;
		if (profile !== undefined) {
			const wrong = Object.entries(profile).filter(
				([key, value]) =>
					!PASSWORD_PROFILE.includes(key) || (key !== 'password' && typeof value !== 'boolean'),
			);
			if (wrong.length > 0)
				return this.error(
					400,
					'Request_BadRequest',
					`Invalid value for passwordProfile: ${JSON.stringify(Object.fromEntries(wrong))}.`,
					'a passwordProfile Graph does not take',
				);
			if (person.kind === 'admin')
				return this.error(
					403,
					'Authorization_RequestDenied',
					'Insufficient privileges to complete the operation.',
				);
			if (profile.forceChangePasswordNextSignIn === true) this.passwordChangesRequired.push(id);
		}
		return { status: 204 };
	}

	private error(status: number, code: string, message: string, problem?: string): ToolReply {
		return {
			status,
			body: {
				error: {
					code,
					message,
					innerError: {
						'request-id': '00000000-0000-4000-8000-000000000000',
						date: new Date().toISOString(),
					},
				},
			},
			problem,
		};
	}
}
