import type {
	IExecuteFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	IPollFunctions,
} from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { failureFromError, isNetworkFailure, isQuotaExceeded, type FlareFailure } from './errors';
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

/** The contexts that send Flare requests: a node execution or a trigger's poll. */
export type FlareContext = IExecuteFunctions | IPollFunctions;

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
		return { failure: failureFromError(error) };
	}
}

function isRetryableRead(failure: FlareFailure): boolean {
	return (
		failure.malformed === true ||
		isNetworkFailure(failure) ||
		[500, 502, 503, 504].includes(failure.status ?? 0)
	);
}

/**
 * Sends one request with the decided retry rules (contract-decisions.md): a 429 rate limit waits
 * Retry-After (else 10 s) and retries, for reads and writes alike; a quota 429 fails at once; reads
 * retry 5xx, connection errors, time-outs and malformed answers with growing waits; writes retry a
 * connection error only when the request never left. The tier's {@link rateGate} paces concurrent
 * requests after a 429.
 */
export async function flareRequest(
	ctx: FlareContext,
	options: IHttpRequestOptions,
	policy: FlareRequestPolicy,
): Promise<IN8nHttpFullResponse> {
	const gate = rateGate(String(options.baseURL ?? ''), policy.tier);
	let attempts = 0;
	let rateLimited = 0;
	let transient = 0;

	/** Sends until done; returns 'queue' when a 429 hit outside the queue, so the retry waits its turn. */
	const attempt = async (queued: boolean): Promise<Outcome | 'queue'> => {
		for (;;) {
			if (queued) await gate.waitUntilOpen();
			attempts++;
			const outcome = await sendOnce(ctx, options);
			if ('response' in outcome) return outcome;
			const { failure } = outcome;
			failure.attempts = attempts;
			if (
				failure.status === 429 &&
				!isQuotaExceeded(failure) &&
				rateLimited < MAX_RATE_LIMIT_RETRIES
			) {
				rateLimited++;
				gate.block(failure.retryAfterMs ?? DEFAULT_RATE_LIMIT_WAIT_MS);
				if (!queued) return 'queue';
				continue;
			}
			const retryable = policy.write
				? isNetworkFailure(failure) && NOT_SENT_CODES.includes(failure.code ?? '')
				: isRetryableRead(failure);
			if (!retryable || transient >= MAX_TRANSIENT_RETRIES) return outcome;
			await sleep(TRANSIENT_BASE_WAIT_MS * 2 ** transient++);
		}
	};

	const first = gate.isOpen() ? await attempt(false) : 'queue';
	const outcome =
		first === 'queue' ? ((await gate.inTurn(async () => await attempt(true))) as Outcome) : first;
	if ('failure' in outcome) throw new FlareRequestFailed(outcome.failure);
	return outcome.response;
}
