import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { isBodyStream, readText } from './body';
import { FlareSettingsError } from './connection';
import type { FlareItem } from './item';

/** What went wrong with one request, reduced to facts that are safe to show (no headers, no secrets). */
export interface FlareFailure {
	/** HTTP status when Flare answered. */
	status?: number;
	/**
	 * Flare's error code (e.g. `QUOTA_EXCEEDED`), the network error code (e.g. `ECONNRESET`), or ours:
	 * `TIMEOUT`, `TOO_LARGE`, `CANCELLED`, `REDIRECT`, `TOKEN_EXCHANGE`, `RETRY_AFTER_TOO_LONG`,
	 * `REPEATED_CURSOR`, `NO_PROGRESS`, `QUOTA_USED_UP`.
	 */
	code?: string;
	/** Flare's own message, parsed in the decided order (or the token exchange's, written by us). */
	message?: string;
	/** Validation details of a 422. */
	details?: Array<{ loc: Array<string | number>; msg: string }>;
	/** Wait that Flare asked for, from `Retry-After` (may be zero or negative: a date in the past). */
	retryAfterMs?: number;
	/** Host a redirect pointed to. */
	location?: string;
	/** The answer was not valid JSON. */
	malformed?: boolean;
	/** How many times the request was sent. */
	attempts?: number;
	/** The Timeout of the request, for `TIMEOUT`. */
	timeoutMs?: number;
}

/** A failed request, as the transport and the page walker throw it. */
export class FlareRequestFailed extends Error {
	constructor(readonly failure: FlareFailure) {
		super(failure.message ?? `Flare request failed (${failure.status ?? failure.code})`);
		this.name = 'FlareRequestFailed';
	}
}

/** What the error messages need to know about the operation that failed. */
export interface FailureContext {
	/** Sentence-case action, e.g. "search leaked credentials". */
	action: string;
	/** Entitlement the operation needs, named in 403 messages. */
	entitlement?: 'ASTP' | 'threat intelligence';
	/** Flare field names (as in a 422 `loc`) mapped to the display names of our parameters. */
	fields?: Record<string, string>;
	/** What a 404 means, e.g. "Identifier 7001". */
	target?: string;
	/** Whether the operation changes data in Flare. */
	write?: boolean;
}

function asObject(value: unknown): IDataObject | undefined {
	if (typeof value === 'string') {
		try {
			return asObject(JSON.parse(value));
		} catch {
			return undefined;
		}
	}
	return value && typeof value === 'object' && !Array.isArray(value)
		? (value as IDataObject)
		: undefined;
}

/** Reads `Retry-After` (seconds, decimals tolerated, or an HTTP date) into milliseconds. */
export function retryAfterMs(value: unknown): number | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	const seconds = Number(value);
	if (Number.isFinite(seconds)) return seconds * 1000;
	const date = Date.parse(String(value));
	return Number.isNaN(date) ? undefined : date - Date.now();
}

/** Parses a Flare error body: `error.message`, then `detail[*].msg`, then a flat `message`. */
export function describeBody(body: unknown): Pick<FlareFailure, 'code' | 'message' | 'details'> {
	const object = asObject(body);
	if (!object) return {};
	const error = asObject(object.error);
	if (error?.message !== undefined || error?.code !== undefined) {
		return { code: error.code as string | undefined, message: error.message as string | undefined };
	}
	if (Array.isArray(object.detail)) {
		const details = (object.detail as IDataObject[]).map((entry) => ({
			loc: (Array.isArray(entry.loc) ? entry.loc : []) as Array<string | number>,
			msg: String(entry.msg ?? ''),
		}));
		return { details, message: details.map((entry) => entry.msg).join('; ') };
	}
	if (typeof object.message === 'string')
		return { message: object.message, code: object.code as string };
	return {};
}

/** Most of an error answer read for its message: enough for any error envelope. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** Host a redirect's `Location` names, resolved against the request's own URL. */
function redirectHost(location: unknown, requestUrl: string): string {
	if (typeof location !== 'string' || location === '') return 'an unknown host';
	try {
		return new URL(location, requestUrl).host || 'an unknown host';
	} catch {
		return 'an unknown host';
	}
}

/**
 * Turns whatever n8n's request helper threw into a {@link FlareFailure}, reading the error answer's
 * body (at most 64 KiB) for Flare's message. `requestUrl` resolves a relative redirect.
 */
export async function failureFromError(error: unknown, requestUrl: string): Promise<FlareFailure> {
	const thrown = error as {
		httpCode?: string | null;
		cause?: {
			name?: string;
			code?: string;
			message?: string;
			response?: { status?: number; headers?: IDataObject; data?: unknown };
		};
		context?: { data?: unknown };
		code?: string;
	};
	// n8n 2.x keeps the request helper's error as `cause`; n8n 1.x drops it and keeps only the status
	// (`httpCode`) and the answer's body (`context.data`): no headers, so no Retry-After or Location.
	const cause = thrown?.cause;
	if (cause?.name === 'FlareTokenError') {
		// The credential's token exchange failed; its message (written without secrets) says why.
		return { code: 'TOKEN_EXCHANGE', message: cause.message };
	}
	const response = cause?.response;
	const status = response?.status ?? (Number(thrown?.httpCode) || undefined);
	if (!status) return { code: cause?.code ?? thrown?.code ?? 'NO_ANSWER' };
	const headers = response?.headers ?? {};
	const failure: FlareFailure = { status, retryAfterMs: retryAfterMs(headers['retry-after']) };
	if (status >= 300 && status < 400) {
		return { ...failure, code: 'REDIRECT', location: redirectHost(headers.location, requestUrl) };
	}
	let body = response?.data ?? thrown?.context?.data;
	if (isBodyStream(body)) {
		body = await readText(body, MAX_ERROR_BODY_BYTES, { truncate: true }).catch(() => undefined);
	}
	return { ...failure, ...describeBody(body) };
}

/**
 * Removes secrets from text that Flare, or a proxy in front of it, sent back (some echo the request
 * headers in their errors): the given values (the API key, the access token), and any bearer token
 * or Authorization header value.
 */
export function redactSecrets(text: string, secrets: readonly unknown[] = []): string {
	let result = text;
	for (const secret of secrets) {
		if (typeof secret === 'string' && secret.length >= 8)
			result = result.split(secret).join('[redacted]');
	}
	return result
		.replace(/\b(Bearer\s+)[^\s"',;]+/gi, '$1[redacted]')
		.replace(/(Authorization["']?\s*[:=]\s*["']?)(?!Bearer\b)[^\s"',;]+/gi, '$1[redacted]');
}

/** The failure with every text that came from the server passed through {@link redactSecrets}. */
export function redactFailure(failure: FlareFailure, secrets: readonly unknown[]): FlareFailure {
	if (failure.message !== undefined) failure.message = redactSecrets(failure.message, secrets);
	if (failure.code !== undefined) failure.code = redactSecrets(failure.code, secrets);
	if (failure.details) {
		failure.details = failure.details.map((detail) => ({
			...detail,
			msg: redactSecrets(detail.msg, secrets),
		}));
	}
	return failure;
}

/**
 * The global-search quota is used up: a 429 or 403 whose code or message names the quota, or
 * `QUOTA_USED_UP`, a walk stopped because Flare's last answer said that no search remains.
 */
export function isQuotaExceeded(failure: FlareFailure): boolean {
	return (
		failure.code === 'QUOTA_USED_UP' ||
		((failure.status === 429 || failure.status === 403) &&
			/quota/i.test(`${failure.code ?? ''} ${failure.message ?? ''}`))
	);
}

/** No answer: a connection error, or no complete answer within the Timeout. */
export function isNetworkFailure(failure: FlareFailure): boolean {
	return (
		failure.status === undefined &&
		!failure.malformed &&
		!['TOKEN_EXCHANGE', 'TOO_LARGE', 'CANCELLED'].includes(failure.code ?? '')
	);
}

/** A wait in words, e.g. "3 minutes", "2 hours", "5 days". */
export function describeWait(ms: number): string {
	const minutes = Math.ceil(ms / 60_000);
	if (minutes < 120) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
	const hours = Math.round(minutes / 60);
	return hours < 48 ? `${hours} hours` : `${Math.round(hours / 24)} days`;
}

/** Display name of the parameter that a 422 `loc` points at, if we know it. */
function fieldOf(failure: FlareFailure, fields: Record<string, string> = {}): string | undefined {
	for (const { loc } of failure.details ?? []) {
		for (let index = loc.length - 1; index >= 0; index--) {
			const name = fields[String(loc[index])];
			if (name) return name;
		}
	}
	return undefined;
}

const CHECK_BASE_URL = `Check the Base URL in the Flare API credential: Flare's API is https://api.flare.io.`;

function explain(
	failure: FlareFailure,
	context: FailureContext,
): { message: string; description: string } {
	const flareSays = failure.message ? ` Flare says: "${failure.message}".` : '';
	const tried =
		failure.attempts && failure.attempts > 1 ? ` after ${failure.attempts} attempts` : '';
	const { status, code } = failure;
	const mayHaveApplied =
		'The request was not sent again because Flare may already have applied it. Check the result in Flare before running the workflow again.';
	if (code === 'CANCELLED') {
		return {
			message: `The execution was cancelled while trying to ${context.action}`,
			description: 'Nothing more was sent to Flare.',
		};
	}
	if (code === 'TOKEN_EXCHANGE') {
		return {
			message: failure.message ?? 'Flare did not issue an access token',
			description:
				'Open the Flare API credential, check the API key and the Base URL, and use Test to confirm.',
		};
	}
	if (code === 'REDIRECT') {
		return {
			message: `Flare answered with a redirect to ${failure.location} (HTTP ${status}) while trying to ${context.action}`,
			description: `Requests to Flare never follow redirects, so nothing was sent to ${failure.location}. ${CHECK_BASE_URL}`,
		};
	}
	if (code === 'TOO_LARGE') {
		return {
			message: `Flare's answer was too large to read while trying to ${context.action}`,
			description:
				'The answer was cut off at 256 MiB and nothing of it was used. Ask for fewer results at once (Limit), or narrow the search (e.g. Imported From/To).',
		};
	}
	if (status === 401) {
		return {
			message: `Flare refused the credentials while trying to ${context.action}`,
			description: `A fresh access token was requested and still refused.${flareSays} Check the API key in the Flare API credential, or create a new one under Profile → API Keys.`,
		};
	}
	if (isQuotaExceeded(failure)) {
		return {
			message: 'The global search quota of your Flare organization is used up',
			description: `Global searches (of leaked credentials and of all of Flare's events) count toward a monthly quota, which resets each month; waiting does not help. Ask an administrator to check usage on the Tenants page or contact Flare to raise it.${flareSays}`,
		};
	}
	if (status === 403) {
		const feature = context.entitlement ? `the ${context.entitlement} feature` : 'this feature';
		return {
			message: `Your Flare account has no access to ${feature}, needed to ${context.action}`,
			description: `Ask your Flare Customer Success Manager to enable ${feature}, or use the API key of a user who has it.${flareSays}`,
		};
	}
	if (status === 404) {
		return {
			message: `${context.target ?? 'The requested item'} was not found in Flare`,
			description: `Check the ID, and that it belongs to the tenant selected in the credential.${flareSays}`,
		};
	}
	if (status === 422) {
		const field = fieldOf(failure, context.fields);
		return {
			message: field
				? `Flare rejected the value of '${field}'`
				: `Flare rejected the request to ${context.action}`,
			description: `${failure.message ?? 'The request did not pass validation'}. Correct ${field ? `'${field}'` : 'the parameters'} and try again.`,
		};
	}
	if (code === 'RETRY_AFTER_TOO_LONG') {
		const wait = describeWait(failure.retryAfterMs ?? 0);
		return {
			message: `Flare asks to wait ${wait} before the next request to ${context.action}`,
			description: `The node waits at most 2 minutes for Flare's rate limit, so it stopped instead of holding the execution. Try again later.${flareSays}`,
		};
	}
	if (status === 429) {
		return {
			message: `Flare kept rate-limiting the requests to ${context.action}${tried}`,
			description:
				'Flare allows 1 global search and 4 other requests per second per organization, shared by every workflow that uses the same API key. Run fewer such workflows at once, or run the workflow again later.',
		};
	}
	if (context.write && status !== undefined && status < 300 && failure.malformed) {
		return {
			message: `Flare accepted the request to ${context.action} (HTTP ${status}), but its answer could not be read`,
			description: mayHaveApplied,
		};
	}
	if (context.write && (status === undefined || status >= 500)) {
		const what =
			code === 'TIMEOUT'
				? `Flare did not answer within the Timeout (${failure.timeoutMs} ms)`
				: status
					? `Flare answered HTTP ${status}`
					: `The connection failed (${code})`;
		return {
			message: `Flare did not confirm the request to ${context.action}`,
			description: `${what}. ${mayHaveApplied}`,
		};
	}
	if (code === 'REPEATED_CURSOR') {
		return {
			message: `Flare returned the same page cursor twice while trying to ${context.action}`,
			description:
				'The walk was stopped to avoid an endless loop, and nothing was returned for this item. Run the workflow again later; if it persists, report it to Flare.',
		};
	}
	if (code === 'NO_PROGRESS') {
		return {
			message: `Flare returned 50 pages in a row without a new result while trying to ${context.action}`,
			description:
				'The walk was stopped to avoid an endless loop, and nothing was returned for this item. Narrow the search (e.g. Imported From/To) or run the workflow again later; if it persists, report it to Flare.',
		};
	}
	if (failure.malformed) {
		return {
			message: `Flare sent a response that is not valid JSON${tried}`,
			description: 'This is usually temporary. Run the workflow again later.',
		};
	}
	if (code === 'TIMEOUT') {
		return {
			message: `Flare did not answer within the Timeout (${failure.timeoutMs} ms)${tried}`,
			description:
				'Run the workflow again later, or raise Request Options → Timeout. A large Limit also makes each page take longer.',
		};
	}
	if (status === undefined) {
		return {
			message: `Could not reach Flare${tried}`,
			description: `The connection failed (${code}). ${CHECK_BASE_URL} Also check the network between n8n and Flare, then try again.`,
		};
	}
	if (status >= 500) {
		return {
			message: `Flare is temporarily unavailable (HTTP ${status})${tried}`,
			description: `Run the workflow again later.${flareSays}`,
		};
	}
	return {
		message: `Flare could not ${context.action} (HTTP ${status})`,
		description: failure.message ?? 'Check the parameters and try again.',
	};
}

/** The `NodeApiError` for a failed request: what happened, how to fix it, never a secret. */
export function flareApiError(
	node: INode,
	failure: FlareFailure,
	context: FailureContext,
	itemIndex?: number,
): NodeApiError {
	const { message, description } = explain(failure, context);
	const httpCode = failure.status ? String(failure.status) : null;
	return new NodeApiError(node, { message, description, httpCode } as JsonObject, {
		message,
		description,
		httpCode: httpCode ?? undefined,
		itemIndex,
	});
}

/** The `NodeOperationError` for a parameter value that cannot be sent, naming its display name. */
export function parameterError(
	item: FlareItem,
	name: string,
	problem: string,
	hint?: string,
): NodeOperationError {
	return new NodeOperationError(
		item.node(),
		`'${item.displayName(name)}' ${problem} [item ${item.index}]`,
		{ itemIndex: item.index, description: hint },
	);
}

/** The `NodeOperationError` for a credential setting that cannot be used. */
export function settingsError(item: FlareItem, error: FlareSettingsError): NodeOperationError {
	return new NodeOperationError(item.node(), `${error.message} [item ${item.index}]`, {
		itemIndex: item.index,
		description: `Open the Flare API credential and correct ${error.field}. ${error.hint}`,
	});
}
