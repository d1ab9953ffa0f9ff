/**
 * Okta's Users API, as far as the Okta playbook uses it, at the credential's URL (the Okta domain,
 * here `http://127.0.0.1:<port>/okta`). As Okta's reference documents each call
 * (developer.okta.com/docs/api/openapi/okta-management/management/tag/…):
 * - `GET /api/v1/users/{id | login}` (User): the user with its `_links`, on the Okta domain; an
 *   unknown user is a 404 `E0000007`;
 * - `POST /api/v1/users/{id}/lifecycle/expire_password` (UserLifecycle, Expire the password): the
 *   user must change the password at the next sign-in; answers the user, status `PASSWORD_EXPIRED`;
 * - `DELETE /api/v1/users/{id}/sessions` (UserSessions, Revoke all user sessions), `oauthTokens`
 *   optional; answers 204.
 * Lifecycle and session calls take the user's id. Every call carries the credential's API token as
 * `SSWS <token>` (else 401 `E0000011`). What the directory's prefixes do (directory.ts): a deactivated
 * user is `DEPROVISIONED` and every call on it is refused (403 `E0000038`, "This operation is not
 * allowed in the user's current status"); an administrator's password may not be expired (403
 * `E0000006`, "You do not have permission to perform the requested action"); a `moved.` user's
 * password call is redirected to another origin (307); an `elsewhere.` user is linked there.
 */
import { elsewhereOf, employee, type Employee } from './directory';
import type { ToolReply, ToolRequest, ToolStandIn } from './http';

/** The API token of the stand-in's credential (a placeholder, built from parts: no real token). */
export const OKTA_API_TOKEN = ['00FAKE', 'okta', 'standin', 'token0001'].join('_');

export class OktaStandIn implements ToolStandIn {
	readonly tool = 'okta';
	/** User ids, in the order Okta was asked: password expired, sessions revoked. */
	readonly passwordsExpired: string[] = [];
	readonly sessionsRevoked: string[] = [];
	private readonly expired = new Set<string>();
	/** The people served so far, by id: Okta finds a user by id as well as by login. */
	private readonly byId = new Map<string, Employee>();

	/** The Okta user of an id (of one served before) or a login, as Okta answers it, or undefined. */
	user(key: string, base: string): Record<string, unknown> | undefined {
		const person = this.byId.get(key) ?? employee(key);
		if (!person) return undefined;
		const id = `00u${person.digest.slice(0, 17)}`;
		this.byId.set(id, person);
		const self = `${person.kind === 'elsewhere' ? elsewhereOf(base) : base}/api/v1/users/${id}`;
		return {
			id,
			status:
				person.kind === 'deactivated'
					? 'DEPROVISIONED'
					: this.expired.has(id)
						? 'PASSWORD_EXPIRED'
						: 'ACTIVE',
			created: '2023-04-03T09:00:00.000Z',
			activated: '2023-04-03T09:00:00.000Z',
			lastLogin: '2026-12-01T08:12:00.000Z',
			passwordChanged: '2026-03-01T10:00:00.000Z',
			type: { id: 'oty1stand1in0000000' },
			profile: {
				login: person.login,
				email: person.login,
				firstName: person.firstName,
				lastName: person.lastName,
			},
			credentials: { password: {}, provider: { type: 'OKTA', name: 'OKTA' } },
			_links: {
				self: { href: self },
				expirePassword: { href: `${self}/lifecycle/expire_password`, method: 'POST' },
				resetPassword: { href: `${self}/lifecycle/reset_password`, method: 'POST' },
				suspend: { href: `${self}/lifecycle/suspend`, method: 'POST' },
				deactivate: { href: `${self}/lifecycle/deactivate`, method: 'POST' },
			},
		};
	}

	handle(request: ToolRequest): ToolReply {
		if (request.headers.authorization !== `SSWS ${OKTA_API_TOKEN}`) {
			return this.error(
				401,
				'E0000011',
				'Invalid token provided',
				'not the API token of the credential, as SSWS',
			);
		}
		const match = /^\/api\/v1\/users\/([^/]+)(\/lifecycle\/expire_password|\/sessions)?$/.exec(
			request.path,
		);
		if (!match)
			return this.error(
				404,
				'E0000022',
				'The endpoint does not support the provided HTTP method',
				`${request.method} ${request.path} is not a call of the playbook`,
			);
		const [, key, action] = match;
		const user = this.user(key, request.base);
		// Lifecycle and session calls take the user's id, as Okta documents them.
		if (!user || (action && key !== user.id))
			return this.error(404, 'E0000007', `Not found: Resource not found: ${key} (User)`);
		const id = String(user.id);
		if (!action && request.method === 'GET') return { status: 200, body: user };
		const { kind } = this.byId.get(id)!;
		if (kind === 'deactivated')
			return this.error(403, 'E0000038', "This operation is not allowed in the user's current status.");
		if (action === '/lifecycle/expire_password' && request.method === 'POST') {
			if (kind === 'admin')
				return this.error(403, 'E0000006', 'You do not have permission to perform the requested action');
			if (kind === 'moved')
				return { status: 307, headers: { location: `${elsewhereOf(request.base)}${request.path}` } };
			const temp = request.query.tempPassword;
			if (temp !== undefined && temp !== 'true' && temp !== 'false') {
				return this.error(
					400,
					'E0000001',
					'Api validation failed: tempPassword',
					`tempPassword=${temp}`,
				);
			}
			this.passwordsExpired.push(id);
			this.expired.add(id);
			return { status: 200, body: this.user(key, request.base) };
		}
		if (action === '/sessions' && request.method === 'DELETE') {
			const tokens = request.query.oauthTokens;
			if (tokens !== undefined && tokens !== 'true' && tokens !== 'false') {
				return this.error(
					400,
					'E0000001',
					'Api validation failed: oauthTokens',
					`oauthTokens=${tokens}`,
				);
			}
			this.sessionsRevoked.push(id);
			return { status: 204 };
		}
		return this.error(
			405,
			'E0000022',
			'The endpoint does not support the provided HTTP method',
			`${request.method} ${request.path}`,
		);
	}

	private error(status: number, code: string, summary: string, problem?: string): ToolReply {
		return {
			status,
			body: {
				errorCode: code,
				errorSummary: summary,
				errorLink: code,
				errorId: 'oaeSTANDIN0000000000',
				errorCauses: [],
			},
			problem,
		};
	}
}
