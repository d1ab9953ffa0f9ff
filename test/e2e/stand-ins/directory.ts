/**
 * The people of the stand-in identity providers (Microsoft Entra ID, Okta): every address of the
 * demo tenant's domain `example.com`, and of its second domain `example.net`, is an employee, except
 * those whose name starts with `former.` (people who left, whose old address still leaks). Each has a
 * stable id derived from the address.
 * A few prefixes give an employee what a real directory has too, so that a playbook meets it:
 * - `admin.`: an administrator whom the playbook's own admin may not manage: both providers end
 *   their sessions but refuse to change their password (Okta 403 `E0000006`, Graph 403
 *   `Authorization_RequestDenied`);
 * - `deactivated.`: a user Okta keeps deactivated (`DEPROVISIONED`): found, and every lifecycle or
 *   session call refused (403 `E0000038`);
 * - `moved.`: Okta answers the password call with a redirect to another origin (`/elsewhere` on
 *   `localhost`), and Graph the sign-out call;
 * - `elsewhere.`: Okta's answer links the user (`_links.self.href`) on another origin.
 */
import { createHash } from '../../support/node';

export const EMPLOYEE_DOMAIN = 'example.com';
/**
 * The second domain: the end-to-end suite's Entra ID playbook watches it (ToolStandIns.watch), so
 * that the leaks of the Okta playbook's cases are not in its trigger's first look-back.
 */
export const SECOND_EMPLOYEE_DOMAIN = 'example.net';
export const DEPARTED_PREFIX = 'former.';

/** How a directory treats an employee (the prefix of the address, above). */
export type EmployeeKind = 'regular' | 'admin' | 'deactivated' | 'moved' | 'elsewhere';
const KINDS: EmployeeKind[] = ['admin', 'deactivated', 'moved', 'elsewhere'];

export interface Employee {
	login: string;
	firstName: string;
	lastName: string;
	/** Hex digest of the lowercased login: what each provider's id is made of. */
	digest: string;
	kind: EmployeeKind;
}

/** The employee with this address (any case), or undefined. */
export function employee(address: string): Employee | undefined {
	const login = address.trim().toLowerCase();
	const [local, domain, ...rest] = login.split('@');
	if (
		rest.length > 0 ||
		![EMPLOYEE_DOMAIN, SECOND_EMPLOYEE_DOMAIN].includes(domain) ||
		!local ||
		local.startsWith(DEPARTED_PREFIX)
	) {
		return undefined;
	}
	const kind = KINDS.find((candidate) => local.startsWith(`${candidate}.`)) ?? 'regular';
	const name = kind === 'regular' ? local : local.slice(kind.length + 1);
	const [first, last = ''] = name.replace(/\d+$/, '').split('.');
	const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
	return {
		login,
		firstName: capital(first),
		lastName: capital(last),
		digest: createHash('sha256').update(login).digest('hex'),
		kind,
	};
}

/** Another origin than the stand-ins' (`localhost` for `127.0.0.1`): where `moved.` users lead. */
export const elsewhereOf = (base: string) =>
	`${new URL(base).origin.replace('127.0.0.1', 'localhost')}/elsewhere`;
