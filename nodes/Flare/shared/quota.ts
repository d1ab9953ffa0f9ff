import type { IDataObject } from 'n8n-workflow';

import type { FlareResponse } from './operation';

/** The global-search quota headers of Flare's answers (docs/api-contract.md, "Global-search quota"). */

/** `X-Flare-Global-Searches-Remaining`: the global searches left this month, when the answer says. */
export function searchesRemaining(response: FlareResponse): number | undefined {
	const header = response.headers?.['x-flare-global-searches-remaining'];
	const remaining = header === undefined || header === '' ? Number.NaN : Number(header);
	return Number.isFinite(remaining) ? remaining : undefined;
}

/**
 * `X-Flare-Global-Searches-Batch-Reached`: this search has returned the results its quota unit
 * covers; the next page will count as another search.
 */
export function batchReached(response: FlareResponse): boolean {
	return (
		String(response.headers?.['x-flare-global-searches-batch-reached'] ?? '').toLowerCase() ===
		'true'
	);
}

/**
 * What a global search's output items say of the quota: `globalSearchesRemaining` when Flare said,
 * and `globalSearchBatchReached: true` on the answer after which the next result costs a search.
 */
export function quotaFields(response: FlareResponse): IDataObject {
	const remaining = searchesRemaining(response);
	return {
		...(remaining === undefined ? {} : { globalSearchesRemaining: remaining }),
		...(batchReached(response) ? { globalSearchBatchReached: true } : {}),
	};
}
