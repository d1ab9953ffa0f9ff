import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { parameterError } from '../../shared/errors';
import type { FlareItem } from '../../shared/item';
import { recordOfAnswer, type FlareResponse } from '../../shared/operation';
import { optionValue, requiredText } from '../../shared/validation';
import { textList } from '../event/feed';

/**
 * What a matching policy does (its `type`) and the `value` each type takes (v4 OpenAPI
 * `CreateMatchingPolicyBody`, `PolicyValue`): the form fields and their checks, shared by Create and
 * Update.
 */

export const POLICY_TYPES = [
	'INCLUDED_KEYWORDS',
	'EXCLUDED_KEYWORDS',
	'LUCENE_QUERY',
	'ASTP_COOKIES',
	'ASTP_DOMAIN',
] as const;
type PolicyType = (typeof POLICY_TYPES)[number];

const MATCH_MODES = [
	'email_domain_only',
	'auth_domain_and_email_domain',
	'auth_domain_only',
] as const;

const policyTypeOptions = [
	{
		name: 'ASTP Cookies',
		value: 'ASTP_COOKIES',
		description: 'Leaked cookies of these names, on the domains of the identifiers (ASTP)',
	},
	{
		name: 'ASTP Domain',
		value: 'ASTP_DOMAIN',
		description: 'Which domains of a leaked credential match a domain identifier (ASTP)',
	},
	{
		name: 'Excluded Keywords',
		value: 'EXCLUDED_KEYWORDS',
		description: 'Leave out the events that mention any of these keywords',
	},
	{
		name: 'Included Keywords',
		value: 'INCLUDED_KEYWORDS',
		description: 'Keep only the events that mention one of these keywords',
	},
	{
		name: 'Lucene Query',
		value: 'LUCENE_QUERY',
		description: 'Keep only the events that match a query in Lucene syntax',
	},
];

/** The parameters of each type's value, by Flare's field name. */
const VALUE_FIELDS: Record<PolicyType, Record<string, string>> = {
	INCLUDED_KEYWORDS: { keywords: 'keywords' },
	EXCLUDED_KEYWORDS: { keywords: 'keywords' },
	LUCENE_QUERY: { query: 'query' },
	ASTP_COOKIES: { cookie_names: 'cookieNames', match_subdomains: 'matchSubdomains' },
	ASTP_DOMAIN: { match_mode: 'matchMode' },
};

/** Flare's fields of a policy (as in a 422 `loc`) and the parameters they come from, under `prefix`. */
export function policyApiFields(prefix = ''): Record<string, string> {
	return {
		name: `${prefix}name`,
		keywords: `${prefix}keywords`,
		query: `${prefix}query`,
		cookie_names: `${prefix}cookieNames`,
		match_subdomains: `${prefix}matchSubdomains`,
		match_mode: `${prefix}matchMode`,
	};
}

const keywordsField: INodeProperties = {
	displayName: 'Keywords',
	name: 'keywords',
	type: 'string',
	default: '',
	placeholder: 'e.g. acme, acme corp',
	description: 'Keywords, separated by commas, or an array from an expression',
};

const queryField: INodeProperties = {
	displayName: 'Query',
	name: 'query',
	type: 'string',
	default: '',
	placeholder: 'e.g. acme AND NOT "acme bank"',
	description: 'Query in Lucene syntax that the events must match',
};

const cookieNamesField: INodeProperties = {
	displayName: 'Cookie Names',
	name: 'cookieNames',
	type: 'string',
	default: '',
	placeholder: 'e.g. session, PHPSESSID',
	description:
		'Names of the cookies to monitor, separated by commas, or an array from an expression',
};

const matchSubdomainsField: INodeProperties = {
	displayName: 'Match Subdomains',
	name: 'matchSubdomains',
	type: 'boolean',
	default: false,
	description:
		'Whether the policy also monitors the subdomains of the domain identifiers it is assigned to',
};

const matchModeField: INodeProperties = {
	displayName: 'Match Mode',
	name: 'matchMode',
	type: 'options',
	default: 'email_domain_only',
	description: 'Which domain of a leaked credential must be the identifier’s domain',
	options: [
		{
			name: 'Auth Domain and Email Domain',
			value: 'auth_domain_and_email_domain',
			description: 'Either the login domain or the domain of the e-mail address',
		},
		{
			name: 'Auth Domain Only',
			value: 'auth_domain_only',
			description: 'The domain where the credential was used to log in',
		},
		{
			name: 'Email Domain Only',
			value: 'email_domain_only',
			description: 'The domain of the e-mail address',
		},
	],
};

const forTypes = (field: INodeProperties, types: PolicyType[]): INodeProperties => ({
	...field,
	required: field.type !== 'boolean',
	displayOptions: { show: { policyType: types } },
});

/** Create's type and value fields: each type shows its own. */
export const policyValueFields: INodeProperties[] = [
	{
		displayName: 'Type',
		name: 'policyType',
		type: 'options',
		default: 'EXCLUDED_KEYWORDS',
		description: 'What the policy does to the events of the identifiers it is assigned to',
		options: policyTypeOptions,
	},
	forTypes(keywordsField, ['INCLUDED_KEYWORDS', 'EXCLUDED_KEYWORDS']),
	forTypes(queryField, ['LUCENE_QUERY']),
	forTypes(cookieNamesField, ['ASTP_COOKIES']),
	forTypes(matchSubdomainsField, ['ASTP_COOKIES']),
	forTypes(matchModeField, ['ASTP_DOMAIN']),
];

/** Update's value fields, all offered: the one that fits the policy's type is checked on update. */
export const policyValueUpdateFields: INodeProperties[] = [
	cookieNamesField,
	keywordsField,
	matchModeField,
	matchSubdomainsField,
	queryField,
];

/** A non-empty list of texts. */
function requiredList(item: FlareItem, name: string): string[] {
	const list = textList(item, name);
	if (list.length === 0) {
		throw parameterError(
			item,
			name,
			'needs at least one entry',
			`Enter values separated by commas in '${item.displayName(name)}'.`,
		);
	}
	return list;
}

/** Reads the value of one of a policy's fields (Flare's name) from the parameter `name`. */
function valueOf(item: FlareItem, field: string, name: string): IDataObject[string] {
	switch (field) {
		case 'keywords':
		case 'cookie_names':
			return requiredList(item, name);
		case 'query':
			return requiredText(item, name);
		case 'match_subdomains': {
			const value = item.parameter<unknown>(name, false);
			if (typeof value !== 'boolean') throw parameterError(item, name, 'must be true or false');
			return value;
		}
		default:
			return optionValue(item, name, MATCH_MODES, 'email_domain_only');
	}
}

export function policyType(item: FlareItem): PolicyType {
	return optionValue(item, 'policyType', POLICY_TYPES, 'EXCLUDED_KEYWORDS');
}

/** The `value` of a new policy of `type`, from the form. */
export function policyValue(item: FlareItem, type: PolicyType): IDataObject {
	const value: IDataObject = {};
	for (const [field, name] of Object.entries(VALUE_FIELDS[type])) {
		value[field] = valueOf(item, field, name);
	}
	return value;
}

/**
 * The value fields given under Update Fields `prefix` (Flare's names), each read and checked: what
 * can be checked before the policy is read.
 */
export function policyValuesGiven(item: FlareItem, prefix: string): IDataObject {
	const given: IDataObject = {};
	for (const [field, name] of Object.entries(policyApiFields(prefix))) {
		if (field === 'name' || item.parameter<unknown>(name, null) === null) continue;
		given[field] = valueOf(item, field, name);
	}
	return given;
}

/**
 * The changes `given` (policyValuesGiven) to the `value` of a policy of `type`: the fields given
 * must be those of its type.
 */
export function policyValueChanges(item: FlareItem, type: string, prefix: string, given: IDataObject): IDataObject {
	const own = VALUE_FIELDS[type as PolicyType] ?? {};
	const name = Object.keys(given).find((field) => !(field in own));
	if (name !== undefined) {
		const label = policyTypeOptions.find((option) => option.value === type)?.name ?? type;
		throw parameterError(
			item,
			policyApiFields(prefix)[name],
			`does not apply to a matching policy of type ${label}`,
			`Change only the fields of its type: ${Object.values(own)
				.map((entry) => item.displayName(`${prefix}${entry}`))
				.join(', ')}.`,
		);
	}
	return given;
}

/**
 * The policy of an answer to Get, Create or Update (`MatchingPolicyPayload`): with its `uuid`,
 * `policy_type` and `value`, or it fails, saying what came.
 */
export const policyOfAnswer = (response: FlareResponse): IDataObject[] =>
	recordOfAnswer(response, ['uuid', 'policy_type', 'value'], 'a matching policy');
