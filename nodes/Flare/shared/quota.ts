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
