import type { INodeProperties } from 'n8n-workflow';

/** The industries Flare knows (v2 OpenAPI `NewTenantInfo.industry`, `TenantData.industry`). */
export const INDUSTRIES = [
	'education',
	'energy',
	'finance',
	'global',
	'healthcare',
	'manufacturing',
	'retail',
	'software',
	'telecommunication',
	'transport',
] as const;

/** Longest tenant description the node sends (a decision: Flare documents none). */
export const MAX_DESCRIPTION_LENGTH = 2_000;

const label = (value: string) => value.charAt(0).toUpperCase() + value.slice(1);

export const industryField: INodeProperties = {
	displayName: 'Industry',
	name: 'industry',
	type: 'options',
	default: 'global',
	description: "The tenant's industry, as Flare's tenant settings name it",
	options: INDUSTRIES.map((value) => ({ name: label(value), value })),
};
