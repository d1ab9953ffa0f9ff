import type { IDataObject } from 'n8n-workflow';

import { describeShape, unexpectedAnswer } from '../../shared/failure';
import type { FlareItem } from '../../shared/item';
import { isObject, type FlareOperation, type FlareResponse } from '../../shared/operation';
import { answerOf, asNodeError } from '../../shared/runner';

/**
 * The organization of the API key, and what Flare's organization endpoints (tenants, members) need
 * alike: an organization administrator's key (docs/api-contract.md, "Tenant and member
 * administration").
 */

/** GET /tokens/test: who the token is for, `organization_id` included (tokens/endpoints/test.mdx). */
const whoAmI: FlareOperation = {
	action: "read the API key's organization",
	method: 'GET',
	path: '/tokens/test',
	tier: 'basic',
	properties: [],
	output: (_item, records) => records,
};

/**
 * The organization of the item's API key, as Flare's token test reports it: asked once per item
 * (an update reads the record, then writes it, both under the organization).
 */
export async function organizationOf(item: FlareItem): Promise<number> {
	return await item.once('organization', async () => await readOrganization(item));
}

async function readOrganization(item: FlareItem): Promise<number> {
	const { body, statusCode } = await answerOf(item, whoAmI);
	const organization = isObject(body) ? body.organization_id : undefined;
	if (typeof organization !== 'number' || !Number.isInteger(organization) || organization < 1) {
		const shape = isObject(body)
			? "an object without a numeric 'organization_id'"
			: describeShape(body);
		// A read's failure, not the write's that comes after it: nothing was written.
		throw asNodeError(
			item,
			whoAmI,
			unexpectedAnswer(statusCode, `Flare's token test answered with ${shape}, not the key's organization`),
		);
	}
	return organization;
}

/** What a 403 of an organization endpoint means, and what to do. */
export const ORGANIZATION_ADMIN_ONLY =
	"Only the API key of an organization administrator may do this (a refusal, HTTP 403 expected: Flare documents none). Use the key of an organization administrator of your Flare organization.";

/**
 * The tenant of an answer: the `Tenant` object itself or, as the documented schema
 * (`TenantWithCounts`) might be read, under `tenant` (docs/api-contract.md, "Tenant and member
 * administration"). Anything else fails, saying what came.
 */
export function tenantOfAnswer({ body, statusCode }: FlareResponse): IDataObject[] {
	const tenant = isObject(body) && isObject(body.tenant) ? body.tenant : body;
	if (!isObject(tenant) || (typeof tenant.id !== 'number' && typeof tenant.id !== 'string')) {
		const what = isObject(tenant) ? "an object without an 'id'" : describeShape(tenant);
		throw unexpectedAnswer(statusCode, `Flare answered with ${what}, not a tenant`);
	}
	return [tenant];
}
