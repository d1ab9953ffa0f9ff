import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { FlareItem } from './item';

/** What went wrong with one request, reduced to facts that are safe to show (no headers, no secrets). */
export interface FlareFailure {
	/** HTTP status when Flare answered. */
	status?: number;
	/** Flare's error code (e.g. `QUOTA_EXCEEDED`) or the network error code (e.g. `ECONNRESET`). */
	code?: string;
	/** Flare's own message, parsed in the decided order. */
	message?: string;
	/** Validation details of a 422. */
	details?: Array<{ loc: Array<string | number>; msg: string }>;
	/** Wait that Flare asked for, from `Retry-After`. */
	retryAfterMs?: number;
	/** The answer was not valid JSON. */
	malformed?: boolean;
	/** How many times the request was sent. */
	attempts?: number;
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
	if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
	const date = Date.parse(String(value));
	return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
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

/** Turns whatever n8n's request helper threw into a {@link FlareFailure}. */
export function failureFromError(error: unknown): FlareFailure {
	const thrown = error as {
		httpCode?: string | null;
		cause?: {
			code?: string;
			response?: { status?: number; headers?: IDataObject; data?: unknown };
		};
		context?: { data?: unknown };
		code?: string;
	};
	const response = thrown?.cause?.response;
	const status = response?.status ?? (Number(thrown?.httpCode) || undefined);
	const headers = response?.headers ?? {};
	const failure: FlareFailure = {
		status,
		...describeBody(response?.data ?? thrown?.context?.data),
		retryAfterMs: retryAfterMs(headers['retry-after']),
	};
	if (!status) {
		const code = thrown?.cause?.code ?? thrown?.code;
		if (code) {
			failure.code = code;
		} else {
			// No answer and no network code: the credential's token exchange failed, and its message
			// (written without secrets) says why.
			failure.code = 'TOKEN_EXCHANGE';
			failure.message = (thrown as { cause?: Error })?.cause?.message ?? (error as Error)?.message;
		}
	}
	return failure;
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

export function isQuotaExceeded(failure: FlareFailure): boolean {
	return failure.status === 429 && failure.code === 'QUOTA_EXCEEDED';
}

/** A connection error or time-out: the request got no answer. */
export function isNetworkFailure(failure: FlareFailure): boolean {
	return failure.status === undefined && !failure.malformed && failure.code !== 'TOKEN_EXCHANGE';
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

function explain(
	failure: FlareFailure,
	context: FailureContext,
): { message: string; description: string } {
	const flareSays = failure.message ? ` Flare says: "${failure.message}".` : '';
	const tried =
		failure.attempts && failure.attempts > 1 ? ` after ${failure.attempts} attempts` : '';
	const { status } = failure;
	if (failure.code === 'TOKEN_EXCHANGE') {
		return {
			message: failure.message ?? 'Flare did not issue an access token',
			description:
				'Open the Flare API credential, check the API key and the Base URL, and use Test to confirm.',
		};
	}
	if (status === 401) {
		return {
			message: `Flare refused the credentials while trying to ${context.action}`,
			description: `A fresh access token was requested and still refused.${flareSays} Check the API key in the Flare API credential, or create a new one under Profile → API Keys.`,
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
	if (isQuotaExceeded(failure)) {
		return {
			message: 'The global search quota of your Flare organization is used up',
			description: `Global credential searches count toward a monthly quota; waiting does not help. Ask an administrator to check usage on the Tenants page or contact Flare to raise it.${flareSays}`,
		};
	}
	if (status === 429) {
		return {
			message: `Flare kept rate-limiting the requests to ${context.action}${tried}`,
			description:
				'Process fewer items at once (Settings → Request Options → Batching) or run the workflow again later.',
		};
	}
	if (context.write && (status === undefined || status >= 500)) {
		return {
			message: `Flare did not confirm the request to ${context.action}`,
			description: `${status ? 'Flare answered HTTP ' + status : 'The connection failed (' + failure.code + ')'}. The request was not sent again because Flare may already have applied it. Check the result in Flare before running the workflow again.`,
		};
	}
	if (failure.code === 'REPEATED_CURSOR') {
		return {
			message: `Flare returned the same page cursor twice while trying to ${context.action}`,
			description:
				'The walk was stopped to avoid an endless loop, and nothing was returned for this item. Run the workflow again later; if it persists, report it to Flare.',
		};
	}
	if (failure.malformed) {
		return {
			message: `Flare sent a response that is not valid JSON${tried}`,
			description: 'This is usually temporary. Run the workflow again later.',
		};
	}
	if (status === undefined) {
		return {
			message: `Could not reach Flare${tried}`,
			description: `The connection failed (${failure.code}). Check the Base URL in the Flare API credential and the network between n8n and Flare, then try again.`,
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

/** The `NodeOperationError` for a parameter value that cannot be sent. */
export function parameterError(
	item: FlareItem,
	displayName: string,
	problem: string,
	hint?: string,
): NodeOperationError {
	return new NodeOperationError(item.node(), `'${displayName}' ${problem} [item ${item.index}]`, {
		itemIndex: item.index,
		description: hint,
	});
}
