/**
 * Sends one request to Flare (docs/api-contract.md, "Rate limits" and "Errors"): through the rate
 * gate, with the credential's token or, for another tenant, that tenant's (`sendAsTenant`, token.ts),
 * never following a redirect, reading at most the body it may; retries reads after 429, 5xx and
 * dropped connections within the Timeout, waiting as Flare asks; a failure leaves as a FlareFailure.
 */
import type {
	IAdditionalCredentialOptions,
	IHttpRequestHelper,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';

import {
	BodyTooLarge,
	discard,
	MAX_FILE_BYTES,
	MAX_PAGE_BYTES,
	readBytes,
	readJson,
} from './body';
import {
	CREDENTIAL_TYPE,
	madeWith,
	NODE_TENANT_VIEW,
	readSettings,
	tokenFingerprint,
	type MadeWith,
} from './connection';
import {
	failureFromError,
	FlareRequestFailed,
	isNetworkFailure,
	isQuotaExceeded,
	NOT_SENT_CODES,
	redactFailure,
	type FlareFailure,
} from './failure';
import type { FlareContext } from './item';
import type { FlareResponse, RateTier } from './operation';
import { DOCUMENTED_INTERVAL_MS, rateGate, reportSendTo, type RateGate } from './rateGate';
import { tenantToken } from './token';
import { wait } from './wait';

/** Flare's advice when a 429 says nothing of how long to wait. */
export const DEFAULT_RATE_LIMIT_WAIT_MS = 10_000;
/** Shortest wait after a 429: a Retry-After of zero, below zero or in the past counts as this. */
export const MIN_RATE_LIMIT_WAIT_MS = 1_000;
/** Longest Retry-After honoured; Flare asking for more fails the request at once. */
export const MAX_RATE_LIMIT_WAIT_MS = 120_000;
/** Rate-limit waiting allowed to one request in all, and the 429s it may meet. */
export const RATE_LIMIT_BUDGET_MS = 5 * 60_000;
export const MAX_RATE_LIMIT_RETRIES = 15;
/** Retries of a read after a 5xx, a connection error, a time-out or a malformed answer. */
export const MAX_TRANSIENT_RETRIES = 4;
/** First wait before retrying a transient failure; doubles each time. */
export const TRANSIENT_BASE_WAIT_MS = 500;

/** One request to Flare and the rules it is sent under. */
export interface FlareRequest {
	/** Method, base URL, path, query and body. */
	options: IHttpRequestOptions;
	/** Time allowed for each attempt, from sending to the last byte of the answer. */
	timeoutMs: number;
	tier: RateTier;
	/** A write is never sent twice once Flare may have processed it. */
	write: boolean;
	/** Whose rate limits the request counts against (connection.ts `organizationKey`). */
	organization: string;
	/**
	 * The tenant to work in when it is not the credential's (the node's Tenant field): the request
	 * carries that tenant's token, exchanged and held by this process ({@link sendAsTenant}).
	 */
	tenant?: number;
	/**
	 * The credential settings the request was made with (its URL, its tenant): their
	 * `tokenFingerprint`, the tenant it works in included. Each attempt goes only with them: a
	 * credential edited meanwhile fails it, `CREDENTIAL_CHANGED`, before anything is sent
	 * (connection.ts `madeWith`, the credential's `authenticate`).
	 */
	fingerprint: string;
	/** The execution's cancel signal: every wait and every attempt ends when it fires. */
	cancel?: AbortSignal;
	/** The answer is a file: its body comes back as bytes (a Buffer), not parsed as JSON. */
	raw?: boolean;
}

type Outcome = { response: FlareResponse } | { failure: FlareFailure };

/** `work`'s result, or what stopped waiting for it: the deadline, or the execution's cancellation. */
async function within<T>(
	work: Promise<T>,
	deadline: AbortSignal,
	cancel?: AbortSignal,
): Promise<T | 'TIMEOUT' | 'CANCELLED'> {
	let stop = () => {};
	const stopped = new Promise<'TIMEOUT' | 'CANCELLED'>((resolve) => {
		stop = () => resolve(cancel?.aborted ? 'CANCELLED' : 'TIMEOUT');
		deadline.addEventListener('abort', stop, { once: true });
		cancel?.addEventListener('abort', stop, { once: true });
	});
	try {
		return await Promise.race([work, stopped]);
	} finally {
		deadline.removeEventListener('abort', stop);
		cancel?.removeEventListener('abort', stop);
	}
}

type Send = (credentialOptions?: IAdditionalCredentialOptions) => Promise<IN8nHttpFullResponse>;

/** The HTTP status of what n8n's request helper threw (n8n 2.x keeps the cause, 1.x the code). */
function statusOf(error: unknown): number | undefined {
	const thrown = error as { httpCode?: string | null; cause?: { response?: { status?: number } } };
	return thrown?.cause?.response?.status ?? (Number(thrown?.httpCode) || undefined);
}

/**
 * Sends as a node working in `tenant`, not its credential's: with that tenant's token, which this
 * process exchanges and keeps (token.ts `tenantToken`) since n8n stores one token per credential.
 * The credential is read as it is now: when it no longer has the settings the request was made with
 * (`made`), nothing is exchanged nor sent. The token goes with the settings it was issued for, which
 * the credential's `authenticate` checks as for its own token; after a 401, one new token and one
 * new attempt, as n8n does for its own (n8n 1.x makes that attempt itself, after renewing the token
 * through the credential's `preAuthentication`: then not again here). `learn` gets each token, so
 * that an answer echoing it cannot pass it on.
 */
async function sendAsTenant(
	ctx: FlareContext,
	tenant: number,
	made: MadeWith,
	send: Send,
	learn: (token: string) => void,
): Promise<IN8nHttpFullResponse> {
	const credentials = await ctx.getCredentials(CREDENTIAL_TYPE);
	let settings;
	try {
		settings = { ...readSettings(credentials), tenantId: tenant };
	} catch {
		settings = undefined;
	}
	if (!settings || tokenFingerprint(settings) !== made.fingerprint) {
		made.changed = true;
		throw new Error('The Flare API credential changed after this request was made');
	}
	// The same exchange as the credential's (POST /tokens/generate with the raw key, to the checked
	// Base URL only, no redirect), for this tenant.
	const helper: IHttpRequestHelper = { helpers: { httpRequest: ctx.helpers.httpRequest } };
	const stored = ctx.getNode().credentials?.[CREDENTIAL_TYPE];
	const withToken = async (token: string) => {
		learn(token);
		const data = {
			...credentials,
			tenantId: tenant,
			accessToken: token,
			accessTokenFor: tokenFingerprint(settings),
			[NODE_TENANT_VIEW]: true,
		};
		const sent = send({
			credentialsDecrypted: {
				id: stored?.id ?? '',
				name: stored?.name ?? '',
				type: CREDENTIAL_TYPE,
				data,
			},
			// n8n would renew the credential's own token after a 401: this tenant's is renewed here.
			preAuthenticationRetryStatusCode: [],
		});
		return await sent.then(
			(response) => ({ response }),
			(error: unknown) => {
				// n8n 1.x renewed it (the credential's preAuthentication) and sent the request again.
				if (data.accessToken !== token) learn(String(data.accessToken));
				return { error, renewed: data.accessToken !== token };
			},
		);
	};
	const token = await tenantToken(helper, settings);
	const first = await withToken(token);
	if ('response' in first) return first.response;
	if (statusOf(first.error) !== 401 || first.renewed) return await Promise.reject(first.error);
	discard((first.error as { cause?: { response?: { data?: unknown } } }).cause?.response?.data);
	const second = await withToken(await tenantToken(helper, settings, token));
	if ('response' in second) return second.response;
	return await Promise.reject(second.error);
}

/**
 * One attempt through n8n's authenticated helper (token exchange and the 401 refresh included),
 * never following a redirect. The answer is read as a stream, at most 256 MiB of it, and the whole
 * attempt (token exchange, answer and body) must end within the Timeout: past it, or once `cancel`
 * fires (a poll's deadline), the answer is dropped and the request aborted (n8n hands `abortSignal`
 * to its HTTP client; in an execution, n8n puts the execution's cancel signal there itself). The
 * gate learns when n8n hands the request to its HTTP client.
 */
async function sendOnce(
	ctx: FlareContext,
	request: FlareRequest,
	gate: RateGate,
): Promise<Outcome> {
	const { options, timeoutMs, cancel, tenant } = request;
	const deadline = AbortSignal.timeout(timeoutMs);
	let abandoned = false;
	let body: unknown;
	const tenantTokens: string[] = [];
	const made: MadeWith = { fingerprint: request.fingerprint };
	const send: Send = async (credentialOptions) =>
		(await ctx.helpers.httpRequestWithAuthentication.call(
			ctx,
			CREDENTIAL_TYPE,
			madeWith(
				reportSendTo(
					{
						...options,
						timeout: timeoutMs,
						json: true,
						encoding: 'stream',
						returnFullResponse: true,
						disableFollowRedirect: true,
						abortSignal: cancel ? AbortSignal.any([deadline, cancel]) : deadline,
					},
					gate,
				),
				made,
			),
			credentialOptions,
		)) as IN8nHttpFullResponse;
	const attempt = (async (): Promise<Outcome> => {
		let response: IN8nHttpFullResponse;
		try {
			response =
				tenant === undefined
					? await send()
					: await sendAsTenant(ctx, tenant, made, send, (token) => tenantTokens.push(token));
		} catch (error) {
			// The credential was edited after the request was made: nothing was sent (however n8n
			// reports what the credential's `authenticate` threw).
			if (made.changed) return { failure: { code: 'CREDENTIAL_CHANGED' } };
			return { failure: await failureFromError(error, `${options.baseURL}${options.url}`) };
		}
		body = response.body;
		if (abandoned) discard(body);
		try {
			const { headers, statusCode } = response;
			// A file (a report) is held whole, with its copy in n8n's binary data: a lower bound.
			const [read, maxBytes] = request.raw
				? [readBytes, MAX_FILE_BYTES]
				: [readJson, MAX_PAGE_BYTES];
			return { response: { headers, statusCode, body: await read(body, maxBytes) } };
		} catch (error) {
			const failure: FlareFailure = { status: response.statusCode };
			return {
				failure:
					error instanceof BodyTooLarge
						? { ...failure, code: 'TOO_LARGE', maxBytes: error.maxBytes }
						: { ...failure, malformed: true },
			};
		}
	})();
	const outcome = await within(attempt, deadline, cancel);
	if (typeof outcome === 'string') {
		abandoned = true;
		discard(body);
		return { failure: { code: outcome, timeoutMs } };
	}
	if ('failure' in outcome) {
		redactFailure(outcome.failure, [...(await credentialSecrets(ctx)), ...tenantTokens]);
	}
	return outcome;
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

function isRetryable(failure: FlareFailure, write: boolean): boolean {
	// A connection that failed before anything was sent: even a write may be sent again.
	if (write) return isNetworkFailure(failure) && NOT_SENT_CODES.includes(failure.code ?? '');
	return (
		failure.malformed === true ||
		isNetworkFailure(failure) ||
		[500, 502, 503, 504].includes(failure.status ?? 0)
	);
}

/** How long a 429 makes the tier wait: Retry-After as decided (docs/api-contract.md), else 10 s. */
function rateLimitWait(retryAfterMs: number | undefined): number {
	if (retryAfterMs === undefined) return DEFAULT_RATE_LIMIT_WAIT_MS;
	return retryAfterMs <= 0 ? MIN_RATE_LIMIT_WAIT_MS : retryAfterMs;
}

/**
 * Sends one request under the decided rules (docs/api-contract.md): paced by its organization's rate
 * gate; a 429 rate limit waits Retry-After (at most 2 minutes, at most 5 minutes of waiting in all,
 * else 10 s) and retries, for reads and writes alike; a quota answer fails at once; reads retry 5xx,
 * connection errors, time-outs and malformed answers with growing waits; writes retry a connection
 * error only when the request never left. Every wait ends when the execution is cancelled.
 */
export async function flareRequest(
	ctx: FlareContext,
	request: FlareRequest,
): Promise<FlareResponse> {
	const gate = rateGate(request.organization, request.tier);
	let attempts = 0;
	let rateLimited = 0;
	let rateLimitWaitedMs = 0;
	let transient = 0;
	for (;;) {
		await gate.acquire(request.cancel);
		// Cancelled already (a poll past its deadline): nothing more is sent.
		if (request.cancel?.aborted) throw new FlareRequestFailed({ code: 'CANCELLED', attempts });
		attempts++;
		const outcome = await sendOnce(ctx, request, gate);
		if ('response' in outcome) return outcome.response;
		const failure: FlareFailure = { ...outcome.failure, attempts };
		if (request.cancel?.aborted) throw new FlareRequestFailed({ code: 'CANCELLED', attempts });
		if (failure.status === 429 && !isQuotaExceeded(failure)) {
			const waitMs = rateLimitWait(failure.retryAfterMs);
			if (waitMs > MAX_RATE_LIMIT_WAIT_MS) {
				throw new FlareRequestFailed({
					...failure,
					code: 'RETRY_AFTER_TOO_LONG',
					retryAfterMs: waitMs,
				});
			}
			if (
				rateLimited >= MAX_RATE_LIMIT_RETRIES ||
				rateLimitWaitedMs + waitMs > RATE_LIMIT_BUDGET_MS
			) {
				throw new FlareRequestFailed(failure);
			}
			rateLimited++;
			rateLimitWaitedMs += waitMs;
			// The whole tier of this organization holds back, this request included, and a random part
			// of one interval more: n8n's workers pace apart, and a retry sent at the same point of each
			// second as another worker's requests would meet Flare's limit every time (queue mode:
			// docs/queue-mode.md).
			gate.pauseUntil(Date.now() + waitMs + Math.floor(Math.random() * DOCUMENTED_INTERVAL_MS[request.tier]));
			continue;
		}
		if (!isRetryable(failure, request.write) || transient >= MAX_TRANSIENT_RETRIES) {
			throw new FlareRequestFailed(failure);
		}
		await wait(TRANSIENT_BASE_WAIT_MS * 2 ** transient++, request.cancel);
	}
}
