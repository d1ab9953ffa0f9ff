import type { INodeProperties } from 'n8n-workflow';

import {
	leakedValueOutput,
	returnAllOrLimit,
	updateDisplayOptions,
} from '../../shared/descriptions';
import { nextCursor, type FlareOperation } from '../../shared/operation';
import { boundedText, MAX_NAME_LENGTH, optionValue, optionValues } from '../../shared/validation';

/** What Flare recommends monitoring (v4 OpenAPI, `types` of the list). */
export const RECOMMENDATION_TYPES = ['domain', 'azure_tenant', 'email', 'username'] as const;
/** Where a recommendation stands (v4 OpenAPI `IdentifierRecommendationState`). */
const STATUSES = ['recommended', 'accepted', 'rejected'] as const;

const fields: INodeProperties[] = [
	...returnAllOrLimit,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		description: 'Only the recommendations that match all of these',
		options: [
			{
				displayName: 'Query',
				name: 'query',
				type: 'string',
				default: '',
				placeholder: 'e.g. acme',
				description:
					"Text Flare searches the recommendations for (its query, which Flare's docs do not describe), e.g. part of a domain or an e-mail address",
			},
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				default: 'recommended',
				description: 'Where the recommendation stands',
				options: [
					{ name: 'Accepted', value: 'accepted', description: 'Accepted: Flare monitors it' },
					{ name: 'Recommended', value: 'recommended', description: 'Waiting for a decision' },
					{ name: 'Rejected', value: 'rejected' },
				],
			},
			{
				displayName: 'Types',
				name: 'types',
				type: 'multiOptions',
				default: [],
				description: 'Only recommendations of these kinds; none: every kind',
				options: [
					{ name: 'Azure Tenant', value: 'azure_tenant' },
					{ name: 'Domain', value: 'domain' },
					{ name: 'Email', value: 'email' },
					{ name: 'Username', value: 'username' },
				],
			},
		],
	},
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

export const getAllDescription = updateDisplayOptions(
	{ show: { resource: ['identifierRecommendation'], operation: ['getAll'] } },
	fields,
);

/**
 * The identifiers Flare recommends monitoring (`GET /{segment}/v4/identifier-recommendations/`, pages
 * of up to 100): one item each, `{id, data: {type, fqdn | tenant_id | email | username}}`.
 */
export const getAllOperation: FlareOperation = {
	action: 'list identifier recommendations',
	method: 'GET',
	path: '/{segment}/v4/identifier-recommendations/',
	tier: 'basic',
	paging: { maxPageSize: 100, next: nextCursor, key: (record) => record.id },
	narrow: 'e.g. set Types or Status under Filters',
	properties: fields,
	apiFields: {
		size: 'limit',
		types: 'filters.types',
		status: 'filters.status',
		query: 'filters.query',
	},
	prepare(item, request) {
		const types = optionValues(item, 'filters.types', RECOMMENDATION_TYPES);
		const filters = item.parameter<Record<string, unknown>>('filters', {});
		request.qs = {
			...(types.length ? { types } : {}),
			...('status' in filters
				? { status: optionValue(item, 'filters.status', STATUSES, 'recommended') }
				: {}),
			...(filters.query === undefined || filters.query === ''
				? {}
				: { query: boundedText(item, 'filters.query', MAX_NAME_LENGTH) }),
		};
	},
	output: (_item, records) => records,
};
