import type { IDataObject, INodeProperties } from 'n8n-workflow';

import {
	leakedValueOptions,
	notice,
	simplify,
	updateDisplayOptions,
} from '../../shared/descriptions';
import { describeShape, unexpectedAnswer } from '../../shared/failure';
import { isObject, type FlareOperation, type FlareResponse } from '../../shared/operation';
import { simplifyIdentity } from '../../shared/output';
import { requiredText } from '../../shared/validation';

/** Most accounts Flare takes in one request. */
const MAX_ACCOUNTS = 100;

const fields: INodeProperties[] = [
	notice(
		'checkAccountsNotice',
		'Needs the ASTP feature. Exact accounts only (no wildcard, no domain). Up to 100 input items go to Flare in one request; Flare returns up to 100 passwords per account (morePasswords says there are more): for all of them, use Leaked Credential → Search ASTP with that e-mail or username.',
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
	leakedValueOptions,
];

export const checkAccountsDescription = updateDisplayOptions(
	{ show: { resource: ['identity'], operation: ['checkAccounts'] } },
	fields,
);

/**
 * The identity Flare answered for `account`: the answer is an object keyed by account
 * (`post-by-accounts.mdx`); the key is looked up as sent, then regardless of case. An answer without
 * it, or an identity without a list of passwords, is not read as "not leaked": it fails, saying
 * what came.
 */
function identityOf({ body, statusCode }: FlareResponse, account: string): IDataObject {
	if (!isObject(body)) {
		throw unexpectedAnswer(
			statusCode,
			`Flare answered with ${describeShape(body)}, not the accounts' identities`,
		);
	}
	// Own keys only: an account named `__proto__` or `constructor` is not found on every object.
	const key = Object.prototype.hasOwnProperty.call(body, account)
		? account
		: Object.keys(body).find((entry) => entry.toLowerCase() === account.toLowerCase());
	const identity = key === undefined ? undefined : body[key];
	if (!isObject(identity)) {
		const what = key === undefined ? 'nothing' : describeShape(identity);
		throw unexpectedAnswer(
			statusCode,
			`Flare's answer holds ${what} for the account, not its identity`,
		);
	}
	const { passwords } = identity;
	if (!(Array.isArray(passwords) && passwords.every(isObject))) {
		throw unexpectedAnswer(
			statusCode,
			passwords === undefined
				? "Flare's answer holds the account's identity without its list of passwords"
				: "Flare's answer holds passwords of the account that are not a list of records",
		);
	}
	return identity;
}

/**
 * Which accounts of a list leaked passwords (ASTP `POST /astp/identities/by_accounts`): each input
 * item is one account, sent up to 100 to a request in input order, and gets one output item,
 * `leaked` or not, its passwords protected by the runner as Leaked Value Output says. A read: a request that fails for a server or network reason is tried again as a
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
		const identity = identityOf(response, account);
		const passwords = identity.passwords as IDataObject[];
		const result: IDataObject = item.parameter<boolean>('simplify', true)
			? {
					account,
					leaked: passwords.length > 0,
					passwords: simplifyIdentity({ ...identity, passwords }),
					morePasswords: isObject(identity.links) && !!identity.links.next,
				}
			: {
					account,
					leaked: passwords.length > 0,
					...(JSON.parse(JSON.stringify(identity)) as IDataObject),
				};
		return [result];
	},
};
