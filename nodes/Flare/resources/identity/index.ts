import type { INodeProperties } from 'n8n-workflow';

import type { FlareOperation } from '../../shared/operation';
import { checkAccountsDescription, checkAccountsOperation } from './checkAccounts';
import { getByKeywordDescription, getByKeywordOperation } from './getByKeyword';
import { getByPasswordDescription, getByPasswordOperation } from './getByPassword';

export const identityDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		description: 'What to do with identities',
		displayOptions: { show: { resource: ['identity'] } },
		options: [
			{
				name: 'Check Accounts',
				value: 'checkAccounts',
				action: 'Check accounts for leaked passwords',
				description:
					'Check a list of accounts (e.g. employees) for leaked passwords, up to 100 a request (ASTP)',
			},
			{
				name: 'Get by Keyword',
				value: 'getByKeyword',
				action: 'Get leaked identities by name keyword',
				description:
					'Find leaked identities by name, with an optional * wildcard (deprecated, ASTP)',
			},
			{
				name: 'Get by Password',
				value: 'getByPassword',
				action: 'Get the identities that leaked a password',
				description: 'Find the identities that leaked a given password (deprecated, ASTP)',
			},
		],
		default: 'getByKeyword',
	},
	...checkAccountsDescription,
	...getByKeywordDescription,
	...getByPasswordDescription,
];

export const identityOperations: Record<string, FlareOperation> = {
	checkAccounts: checkAccountsOperation,
	getByKeyword: getByKeywordOperation,
	getByPassword: getByPasswordOperation,
};
