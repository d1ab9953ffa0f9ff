import type { IDataObject } from 'n8n-workflow';

import { alertsOf } from './alert';

/**
 * The checks of a request before its signature: size, media type, and, once it is trusted, its JSON
 * (docs/alerts.md, "What it checks and answers"). A refusal carries the status the trigger answers.
 */

/**
 * The largest body accepted, well above any alert and well below n8n's own bound
 * (N8N_PAYLOAD_SIZE_MAX, 16 MiB by default), beyond which n8n refuses the request itself.
 */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

export interface Refusal {
	status: number;
	message: string;
}

/** `application/json` or a `+json` type, parameters (charset) aside. */
const JSON_MEDIA_TYPE = /^application\/([a-z0-9.-]+\+)?json\s*(;|$)/i;

/**
 * The body's bytes when it is JSON of an acceptable size; else 415 (not JSON) or 413 (too large). n8n
 * keeps the bytes of every body but a multipart one, which is not JSON.
 */
export function acceptedBody(
	contentType: string | undefined,
	rawBody: Buffer | undefined,
): Buffer | Refusal {
	if (!contentType || !JSON_MEDIA_TYPE.test(contentType)) {
		return {
			status: 415,
			message: `Flare alerts are JSON: the Content-Type is ${contentType ? `"${contentType}"` : 'missing'}, not application/json`,
		};
	}
	if (!Buffer.isBuffer(rawBody)) {
		return { status: 500, message: 'n8n handed the trigger no raw body to check' };
	}
	if (rawBody.length > MAX_BODY_BYTES) {
		return {
			status: 413,
			message: `The body has ${rawBody.length} bytes, more than the ${MAX_BODY_BYTES} an alert may have`,
		};
	}
	return rawBody;
}

/** The alerts of a JSON body (one object, or an array of them), or a 400 saying what is wrong. */
export function parseAlerts(rawBody: Buffer): IDataObject[] | Refusal {
	let body: unknown;
	try {
		body = JSON.parse(rawBody.toString('utf8').replace(/^\uFEFF/, ''));
	} catch {
		return { status: 400, message: `The body is not valid JSON (${rawBody.length} bytes)` };
	}
	return (
		alertsOf(body) ?? {
			status: 400,
			message: 'The body is JSON but not an alert: an object, or an array of objects, was expected',
		}
	);
}
