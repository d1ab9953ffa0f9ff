/**
 * Flare's access tokens (docs/api-contract.md, "Authentication"): the API key exchanged for a
 * one-hour token (`exchangeToken`, used by the credential's preAuthentication), and the tokens of
 * other tenants, exchanged and cached per API key, Base URL and tenant in this n8n process
 * (`tenantToken`), renewed after a 401.
 */
import type { IDataObject, IHttpRequestHelper, IN8nHttpFullResponse } from 'n8n-workflow';

import { discard, readJson } from './body';
import { hostOf, tokenFingerprint, USER_AGENT, type FlareSettings } from './connection';
import { retryAfterMs } from './failure';
import { wait } from './wait';

/** Time allowed for the token exchange, from sending to the last byte of the answer. */
export const TOKEN_TIMEOUT_MS = 30_000;
/** Attempts of the exchange when Flare answers 429 or 5xx (it changes nothing, so it may repeat). */
const TOKEN_ATTEMPTS = 3;
/** Longest wait between two attempts; Flare asking for longer fails the exchange at once. */
const MAX_TOKEN_RETRY_WAIT_MS = 30_000;
/** A token answer is a few hundred bytes. */
const MAX_TOKEN_ANSWER_BYTES = 64 * 1024;

/** Why no token was issued, in words that never hold the key, the token or the endpoint's body. */
export class FlareTokenError extends Error {
	constructor(
		message: string,
		/**
		 * Flare refused the key for that tenant (400, 401, 403, 404), rather than failing to answer:
		 * only then is the tenant worth checking.
		 */
		readonly refused = false,
	) {
		super(message);
		this.name = 'FlareTokenError';
	}
}

interface ExchangeFailure {
	status?: number;
	code?: string;
	headers?: IDataObject;
}

const CHECK_BASE_URL = 'Check the Base URL in the Flare API credential.';

function messageFor(failure: ExchangeFailure, settings: FlareSettings): string {
	const { status, code, headers } = failure;
	// Every message names the host the key was sent to, or would have been: the credential's Test
	// shows it (docs/usage.md, "Credentials").
	const flare = `Flare at ${hostOf(settings)}`;
	if (status !== undefined && status >= 300 && status < 400) {
		let host = 'another address';
		try {
			host = new URL(String(headers?.location ?? ''), settings.baseUrl).host || host;
		} catch {
			// a Location that is not a URL: "another address"
		}
		return `${flare} answered the token request with a redirect to ${host} (HTTP ${status}); nothing was sent there. ${CHECK_BASE_URL}`;
	}
	if (status === 400 || status === 401 || status === 403) {
		const tenant = settings.tenantId ? ` and that it may access tenant ${settings.tenantId}` : '';
		return `${flare} rejected the API key (HTTP ${status}). Check the API key${tenant}, or create a new key under Profile → API Keys.`;
	}
	if (status === 429) {
		return `${flare} is rate-limiting the token requests of this API key (HTTP 429). Try again in a minute.`;
	}
	if (status !== undefined && status >= 500) {
		return `${flare}: the token service is temporarily unavailable (HTTP ${status}). Try again later.`;
	}
	if (code === 'TIMEOUT') {
		return `${flare} did not answer the token request within ${TOKEN_TIMEOUT_MS / 1000} seconds. Try again later. ${CHECK_BASE_URL}`;
	}
	if (code === 'NO_TOKEN') {
		return `${flare} answered the token request without a token. ${CHECK_BASE_URL}`;
	}
	return `${flare} did not issue an access token (${status ? 'HTTP ' + status : (code ?? 'no answer')}). ${CHECK_BASE_URL}`;
}

function exchangeFailure(error: unknown, deadline: AbortSignal): ExchangeFailure {
	if (deadline.aborted) return { code: 'TIMEOUT' };
	const thrown = error as {
		response?: { status?: number; headers?: IDataObject; data?: unknown };
		code?: string;
	};
	const response = thrown?.response;
	discard(response?.data);
	return response?.status
		? { status: response.status, headers: response.headers }
		: { code: thrown?.code ?? 'NO_ANSWER' };
}

/** One exchange: `POST /tokens/generate` with the raw key, never following a redirect, within 30 s. */
async function exchangeOnce(
	helper: IHttpRequestHelper,
	settings: FlareSettings,
): Promise<{ token: string } | { failure: ExchangeFailure }> {
	const deadline = AbortSignal.timeout(TOKEN_TIMEOUT_MS);
	try {
		const response = (await helper.helpers.httpRequest({
			method: 'POST',
			url: `${settings.baseUrl}/tokens/generate`,
			headers: { Authorization: settings.apiKey, 'User-Agent': USER_AGENT },
			body: settings.tenantId ? { tenant_id: settings.tenantId } : undefined,
			json: true,
			encoding: 'stream',
			returnFullResponse: true,
			disableFollowRedirect: true,
			timeout: TOKEN_TIMEOUT_MS,
			abortSignal: deadline,
		})) as IN8nHttpFullResponse;
		const body = (await readJson(response.body, MAX_TOKEN_ANSWER_BYTES)) as IDataObject | undefined;
		return typeof body?.token === 'string' && body.token !== ''
			? { token: body.token }
			: { failure: { status: response.statusCode, code: 'NO_TOKEN' } };
	} catch (error) {
		return { failure: exchangeFailure(error, deadline) };
	}
}

/**
 * Exchanges the API key for an access token (docs/api-contract.md, "Tokens"). A 429 or 5xx is tried
 * again, at most 3 attempts, after Retry-After (up to 30 s) or 1 s then 2 s; anything else fails at
 * once with a {@link FlareTokenError} that says what happened and what to check.
 */
export async function exchangeToken(
	helper: IHttpRequestHelper,
	settings: FlareSettings,
): Promise<string> {
	for (let attempt = 1; ; attempt++) {
		const outcome = await exchangeOnce(helper, settings);
		if ('token' in outcome) return outcome.token;
		const { status, headers } = outcome.failure;
		const retryable = status === 429 || (status !== undefined && status >= 500);
		const asked = retryAfterMs(headers?.['retry-after']);
		const waitMs = asked === undefined ? 1000 * attempt : Math.max(1000, asked);
		if (!retryable || attempt >= TOKEN_ATTEMPTS || waitMs > MAX_TOKEN_RETRY_WAIT_MS) {
			throw new FlareTokenError(
				messageFor(outcome.failure, settings),
				[400, 401, 403, 404].includes(status ?? 0),
			);
		}
		await wait(waitMs);
	}
}

/**
 * Tokens of the tenants that nodes work in besides their credential's (their Tenant field), in this
 * process: one promise per API key, Base URL and tenant, by {@link tokenFingerprint} (a digest: never
 * the key). n8n stores one token per credential (its own tenant's, `preAuthentication`), so these
 * live in memory; a process that has none, or a token Flare no longer accepts (401), exchanges the
 * key again (docs/architecture.md, "Tokens"). A token is only ever looked up with the settings it was
 * issued for, so it cannot go to another tenant, another key or another host.
 */
const tenantTokens = new Map<string, Promise<string>>();
/** Tenants × keys × Base URLs whose tokens a process keeps; beyond that the oldest is forgotten. */
export const MAX_TENANT_TOKENS = 1000;

/**
 * The access token for `settings` (its `tenantId` the tenant to work in): the one this process holds,
 * or a new one. `refused` is a token Flare refused (401): it is not handed out again, a new one is
 * exchanged (once for all who wait for it).
 */
export async function tenantToken(
	helper: IHttpRequestHelper,
	settings: FlareSettings,
	refused?: string,
): Promise<string> {
	const key = tokenFingerprint(settings);
	const held = tenantTokens.get(key);
	if (held) {
		const token = await held.catch(() => undefined);
		if (token !== undefined && token !== refused) return token;
		// Another request may have replaced it meanwhile: that one is newer.
		const latest = tenantTokens.get(key);
		if (latest && latest !== held) return await tenantToken(helper, settings, refused);
	}
	const issued = exchangeToken(helper, settings);
	tenantTokens.delete(key);
	tenantTokens.set(key, issued);
	if (tenantTokens.size > MAX_TENANT_TOKENS) {
		tenantTokens.delete(tenantTokens.keys().next().value as string);
	}
	// A failed exchange is not kept: the next request tries again.
	issued.catch(() => tenantTokens.get(key) === issued && tenantTokens.delete(key));
	return await issued;
}

/** Forgets every tenant token this process holds, as a restart does (tests start from there). */
export function forgetTenantTokens(): void {
	tenantTokens.clear();
}
