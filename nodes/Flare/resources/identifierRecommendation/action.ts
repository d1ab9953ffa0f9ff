import type { INodeProperties } from 'n8n-workflow';

import { identifierRecommendationLocator, updateDisplayOptions } from '../../shared/descriptions';
import type { FlareOperation } from '../../shared/operation';
import { locatorInteger, locatorLabel } from '../../shared/validation';

/** Most recommendations Flare takes in one request (v4 OpenAPI `maxItems`). */
const MAX_TARGETS = 100;

type Action = 'accept' | 'reject';

/** The form of Accept or Reject: the recommendation, one per input item. */
function fieldsOf(action: Action): INodeProperties[] {
	return [
		identifierRecommendationLocator(
			`Recommendation to ${action}, one per input item: pick it from those waiting, or enter its numeric ID (e.g. the id of Get Many). Up to 100 items go to Flare in one request.`,
		),
	];
}

/**
 * Accept or Reject identifier recommendations (`POST /{segment}/v4/identifier-recommendations/actions`,
 * `{targets: [{id}], action: {type}}`, at most 100 a request): through the runner's batched writes,
 * in input order, each item confirmed as `{id, action, done: true}` or given its own error.
 */
export function recommendationAction(action: Action): {
	description: INodeProperties[];
	operation: FlareOperation;
} {
	const fields = fieldsOf(action);
	return {
		description: updateDisplayOptions(
			{ show: { resource: ['identifierRecommendation'], operation: [action] } },
			fields,
		),
		operation: {
			action: `${action} identifier recommendations`,
			method: 'POST',
			path: '/{segment}/v4/identifier-recommendations/actions',
			tier: 'basic',
			write: true,
			answerIgnored: true,
			batch: {
				size: MAX_TARGETS,
				target: (item) => ({ id: locatorInteger(item, 'recommendationId') }),
				shared: () => ({ action: { type: action } }),
			},
			properties: fields,
			apiFields: { targets: 'recommendationId', id: 'recommendationId' },
			target: (item) => `Identifier recommendation ${locatorLabel(item, 'recommendationId')}`,
			output: (_item, [target]) => [{ id: target.id, action, done: true }],
		},
	};
}
