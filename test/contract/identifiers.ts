/**
 * Identifier shapes of the v4 OpenAPI: what an identifier watches (`data`, nine kinds discriminated on
 * `type`) and the bodies of Create Identifier and Update Identifier (docs/feed-endpoints.md).
 * Request variants are strict, as every request schema of the contract.
 */
import { z } from 'zod';

import { SearchType, Severity } from './taxonomy';

const NonEmpty = z.string().min(1);

const EmailAttribute = z.object({ type: z.literal('email'), email: z.string().email() });
const UsernameAttribute = z.object({ type: z.literal('username'), username: NonEmpty });
const NameAttribute = z.object({
	type: z.literal('name'),
	first_name: z.string(),
	last_name: z.string(),
	is_strict: z.boolean(),
});

/** One attribute of an identity identifier. */
export const IdentityAttribute = z.discriminatedUnion('type', [
	EmailAttribute,
	UsernameAttribute,
	NameAttribute,
]);
export type IdentityAttribute = z.infer<typeof IdentityAttribute>;

const BinData = z.object({ type: z.literal('bin'), bin: NonEmpty });
const IpData = z.object({ type: z.literal('ip'), ip: NonEmpty });
const KeywordData = z.object({ type: z.literal('keyword'), keyword: NonEmpty });
const AzureTenantData = z.object({ type: z.literal('azure_tenant'), tenant_id: NonEmpty });
const DomainData = z.object({ type: z.literal('domain'), fqdn: NonEmpty });
const SearchQueryData = z.object({ type: z.literal('search_query'), search_query: NonEmpty });
const GithubRepositoryData = z.object({
	type: z.literal('github_repository'),
	repo_name: NonEmpty,
	repo_owner: NonEmpty,
});
const SecretData = z.object({ type: z.literal('secret'), secret: NonEmpty });
const IdentityData = z.object({
	type: z.literal('identity'),
	attributes: z.array(IdentityAttribute).min(1).max(15),
});

/** What an identifier watches (`PublicIdentifierResponse.data`). */
export const IdentifierData = z.discriminatedUnion('type', [
	BinData,
	IpData,
	KeywordData,
	AzureTenantData,
	DomainData,
	SearchQueryData,
	GithubRepositoryData,
	SecretData,
	IdentityData,
]);
export type IdentifierData = z.infer<typeof IdentifierData>;

/** The nine kinds, in the OpenAPI's order (the `types` filter of List Identifiers). */
export const IdentifierType = z.enum([
	'bin',
	'ip',
	'keyword',
	'azure_tenant',
	'domain',
	'search_query',
	'github_repository',
	'secret',
	'identity',
]);
export type IdentifierType = z.infer<typeof IdentifierType>;

/** `data` as a client sends it: unknown fields are refused. */
export const IdentifierDataInput = z.discriminatedUnion('type', [
	BinData.strict(),
	IpData.strict(),
	KeywordData.strict(),
	AzureTenantData.strict(),
	DomainData.strict(),
	SearchQueryData.strict(),
	GithubRepositoryData.strict(),
	SecretData.strict(),
	z
		.object({
			type: z.literal('identity'),
			attributes: z
				.array(
					z.discriminatedUnion('type', [
						EmailAttribute.strict(),
						UsernameAttribute.strict(),
						NameAttribute.strict(),
					]),
				)
				.min(1)
				.max(15),
		})
		.strict(),
]);

/** Body of POST /{segment}/v4/identifiers/ (`PublicIdentifierRequestBody`). */
export const IdentifierCreateBody = z
	.object({
		data: IdentifierDataInput,
		name: z.string().nullable().optional(),
		categories: z.array(SearchType),
		emerging_categories: z.array(z.string()),
		severities: z.array(Severity),
		group_id: z.number().int().nullable().optional(),
	})
	.strict();
export type IdentifierCreateBody = z.infer<typeof IdentifierCreateBody>;
export type IdentifierCreateBodyInput = z.input<typeof IdentifierCreateBody>;

/** Body of PUT /{segment}/v4/identifiers/{identifier_id} (`PublicIdentifierUpdateRequestBody`). */
export const IdentifierUpdateBody = IdentifierCreateBody.extend({
	is_disabled: z.boolean().nullable().optional(),
}).strict();
export type IdentifierUpdateBody = z.infer<typeof IdentifierUpdateBody>;
export type IdentifierUpdateBodyInput = z.input<typeof IdentifierUpdateBody>;
