/**
 * The people of the stand-in identity providers (Microsoft Entra ID, Okta): every address of the
 * demo tenant's domain `example.com` is an employee, except those whose name starts with `former.`
 * (people who left, whose old address still leaks). Each has a stable id derived from the address.
 */
import { createHash } from '../../support/node';

export const EMPLOYEE_DOMAIN = 'example.com';
export const DEPARTED_PREFIX = 'former.';

export interface Employee {
	login: string;
	firstName: string;
	lastName: string;
	/** Hex digest of the lowercased login: what each provider's id is made of. */
	digest: string;
}

/** The employee with this address (any case), or undefined. */
export function employee(address: string): Employee | undefined {
	const login = address.trim().toLowerCase();
	const [local, domain, ...rest] = login.split('@');
	if (
		rest.length > 0 ||
		domain !== EMPLOYEE_DOMAIN ||
		!local ||
		local.startsWith(DEPARTED_PREFIX)
	) {
		return undefined;
	}
	const [first, last = ''] = local.replace(/\d+$/, '').split('.');
	const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
	return {
		login,
		firstName: capital(first),
		lastName: capital(last),
		digest: createHash('sha256').update(login).digest('hex'),
	};
}
