import type { IDataObject, INodeProperties } from 'n8n-workflow';

import {
	leakedValueOutput,
	notice,
	simplify,
	updateDisplayOptions,
} from '../../shared/descriptions';
import type { FlareOperation, FlareResponse } from '../../shared/operation';
import {
	protectLeakedValues,
	simplifyIdentity,
	type LeakedValueOutput,
} from '../../shared/output';
import { requiredText } from '../../shared/validation';

/** Most accounts Flare takes in one request. */
const MAX_ACCOUNTS = 100;

const fields: INodeProperties[] = [
	notice(
		'checkAccountsNotice',
		'Needs the ASTP feature. Exact accounts only (no wildcard, no domain). Up to 100 input items go to Flare in one request; Flare returns up to 100 passwords per account: for more, use Get by Keyword with that account.',
	),
	{
		displayName: 'Account',
		name: 'account',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. jane.doe@example.com',
		description:
			'E-mail address or username to check, exactly, one per input item (e.g. from a list of employees)',
	},
	simplify,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		description: 'Output settings',
		options: [leakedValueOutput],
	},
];

export const checkAccountsDescription = updateDisplayOptions(
	{ show: { resource: ['identity'], operation: ['checkAccounts'] } },
	fields,
);

const isObject = (value: unknown): value is IDataObject =>
	!!value && typeof value === 'object' && !Array.isArray(value);

/**
 * The identity Flare answered for `account`: the answer is an object keyed by account
 * (`post-by-accounts.mdx`); the key is looked up as sent, then regardless of case.
 */
function identityOf(response: FlareResponse, account: string): IDataObject | undefined {
	const body = response.body;
	if (!isObject(body)) return undefined;
	if (isObject(body[account])) return body[account];
	const key = Object.keys(body).find((entry) => entry.toLowerCase() === account.toLowerCase());
	return key !== undefined && isObject(body[key]) ? body[key] : undefined;
}

/**
 * Which accounts of a list leaked passwords (ASTP `POST /astp/identities/by_accounts`): each input
 * item is one account, sent up to 100 to a request in input order, and gets one output item,
 * `leaked` or not. A read: a request that fails for a server or network reason is tried again as a
 * whole, and when it fails for good every account it carried fails with its error.
 */
export const checkAccountsOperation: FlareOperation = {
	action: 'check accounts for leaked passwords',
	entitlement: 'ASTP',
	method: 'POST',
	path: '/astp/identities/by_accounts',
	tier: 'basic',
	batch: {
		size: MAX_ACCOUNTS,
		target: (item) => ({ account: requiredText(item, 'account') }),
		shared: () => ({}),
		body: (_shared, targets) => ({ accounts: targets.map((target) => target.account) }),
	},
	properties: fields,
	apiFields: { accounts: 'account' },
	target: (item) => `Account '${String(item.parameter('account', ''))}'`,
	output(item, [target], response) {
		const account = String(target.account);
		const identity = identityOf(response, account) ?? {};
		const passwords = Array.isArray(identity.passwords)
			? (identity.passwords as unknown[]).filter(isObject)
			: [];
		const mode = item.parameter<LeakedValueOutput>('options.leakedValueOutput', 'masked');
		const result: IDataObject = item.parameter<boolean>('simplify', true)
			? {
					account,
					leaked: passwords.length > 0,
					passwords: simplifyIdentity({ ...identity, passwords }),
					morePasswords: isObject(identity.links) && !!identity.links.next,
				}
			: { account, leaked: passwords.length > 0, ...(JSON.parse(JSON.stringify(identity)) as IDataObject) };
		protectLeakedValues(result, mode);
		return [result];
	},
};
