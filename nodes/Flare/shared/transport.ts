import type {
	IExecuteFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	ILoadOptionsFunctions,
	IPollFunctions,
} from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import {
	failureFromError,
	isNetworkFailure,
	isQuotaExceeded,
	redactFailure,
	type FlareFailure,
} from './errors';
import { rateGate } from './rateGate';

export const CREDENTIAL_TYPE = 'flareApi';

/** Flare's advice when a 429 carries no Retry-After. */
export const DEFAULT_RATE_LIMIT_WAIT_MS = 10_000;
/** 429s tolerated for one request before giving up. */
export const MAX_RATE_LIMIT_RETRIES = 15;
/** Retries of a read after 5xx, a connection error, a time-out or a malformed answer. */
export const MAX_TRANSIENT_RETRIES = 4;
/** First wait before retrying a transient failure; doubles each time. */
export const TRANSIENT_BASE_WAIT_MS = 500;

/** Time allowed for one answer; a 10,000-credential page is several megabytes. */
export const REQUEST_TIMEOUT_MS = 120_000;

/** Network errors that happen before a request reaches Flare: even a write may be sent again. */
const NOT_SENT_CODES = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN'];

export type RateTier = 'search' | 'basic';

export interface FlareRequestPolicy {
	tier: RateTier;
	/** A write is never sent twice once Flare may have processed it. */
	write: boolean;
}

export class FlareRequestFailed extends Error {
	constructor(readonly failure: FlareFailure) {
		super(failure.message ?? `Flare request failed (${failure.status ?? failure.code})`);
	}
}

type Outcome = { response: IN8nHttpFullResponse } | { failure: FlareFailure };

/** The contexts that send Flare requests: a node execution, a trigger's poll or a list search. */
export type FlareContext = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions;

/** One HTTP exchange through n8n's authenticated helper (token exchange and the 401 refresh included). */
async function sendOnce(ctx: FlareContext, options: IHttpRequestOptions): Promise<Outcome> {
	try {
		const response = (await ctx.helpers.httpRequestWithAuthentication.call(ctx, CREDENTIAL_TYPE, {
			timeout: REQUEST_TIMEOUT_MS,
			...options,
			json: true,
			returnFullResponse: true,
		})) as IN8nHttpFullResponse;
		if (typeof response.body === 'string' && response.body !== '') {
			return { failure: { status: response.statusCode, malformed: true } };
		}
		return { response };
	} catch (error) {
		return { failure: redactFailure(failureFromError(error), await credentialSecrets(ctx)) };
	}
}

/** The API key and the current access token, so that an answer echoing them cannot pass them on. */
async function credentialSecrets(ctx: FlareContext): Promise<unknown[]> {
	try {
		const credentials = await ctx.getCredentials(CREDENTIAL_TYPE);
		return [credentials.apiKey, credentials.accessToken];
	} catch {
		return [];
	}
}

function isRetryableRead(failure: FlareFailure): boolean {
	return (
		failure.malformed === true ||
		isNetworkFailure(failure) ||
		[500, 502, 503, 504].includes(failure.status ?? 0)
	);
}

/** Documented spacing of each tier (Search 1 request/s, Basic 4 requests/s), for the pacing's guess. */
const TIER_INTERVAL_MS: Record<RateTier, number> = { search: 1000, basic: 250 };

/**
 * Sends one request with the decided retry rules (contract-decisions.md): a 429 rate limit waits
 * Retry-After (else 10 s) and retries, for reads and writes alike; a quota 429 fails at once; reads
 * retry 5xx, connection errors, time-outs and malformed answers with growing waits; writes retry a
 * connection error only when the request never left. Once the tier has answered a 429, its
 * {@link rateGate} paces every request of the tier at the spacing it learned.
 */
export async function flareRequest(
	ctx: FlareContext,
	options: IHttpRequestOptions,
	policy: FlareRequestPolicy,
): Promise<IN8nHttpFullResponse> {
	const gate = rateGate(String(options.baseURL ?? ''), policy.tier, {
		expectedIntervalMs: TIER_INTERVAL_MS[policy.tier],
	});
	let attempts = 0;
	let rateLimited = 0;
	let transient = 0;
	for (;;) {
		const sentAt = await gate.acquire();
		attempts++;
		const outcome = await sendOnce(ctx, options);
		if ('response' in outcome) {
			gate.accepted(sentAt);
			return outcome.response;
		}
		const { failure } = outcome;
		failure.attempts = attempts;
		if (
			failure.status === 429 &&
			!isQuotaExceeded(failure) &&
			rateLimited < MAX_RATE_LIMIT_RETRIES
		) {
			rateLimited++;
			// The gate holds this request (and the tier) until the wait is over.
			gate.rejected(sentAt, failure.retryAfterMs ?? DEFAULT_RATE_LIMIT_WAIT_MS, failure.retryAfterMs);
			continue;
		}
		const retryable = policy.write
			? isNetworkFailure(failure) && NOT_SENT_CODES.includes(failure.code ?? '')
			: isRetryableRead(failure);
		if (!retryable || transient >= MAX_TRANSIENT_RETRIES) throw new FlareRequestFailed(failure);
		await sleep(TRANSIENT_BASE_WAIT_MS * 2 ** transient++);
	}
}
