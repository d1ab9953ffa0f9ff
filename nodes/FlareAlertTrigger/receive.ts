import type { IDataObject } from 'n8n-workflow';

import { alertsOf } from './alert';
import { MAX_REMEMBERED } from './deliveries';

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

/**
 * The most alerts one body may carry: the window remembers as many (docs/alerts.md, "Once per
 * alert"), so that a retried body is recognised whole.
 */
export const MAX_ALERTS_PER_BODY = MAX_REMEMBERED;

/**
 * The alerts of a JSON body (one object, or an array of them), or a 400 saying what is wrong, or a
 * 413 when it holds more than {@link MAX_ALERTS_PER_BODY}.
 */
export function parseAlerts(rawBody: Buffer): IDataObject[] | Refusal {
	let body: unknown;
	try {
		body = JSON.parse(rawBody.toString('utf8').replace(/^\uFEFF/, ''));
	} catch {
		return { status: 400, message: `The body is not valid JSON (${rawBody.length} bytes)` };
	}
	const alerts = alertsOf(body);
	if (!alerts) {
		return {
			status: 400,
			message: 'The body is JSON but not an alert: an object, or an array of objects, was expected',
		};
	}
	if (alerts.length > MAX_ALERTS_PER_BODY) {
		return {
			status: 413,
			message: `The body holds ${alerts.length} alerts, more than the ${MAX_ALERTS_PER_BODY} one request may carry: send them in several requests`,
		};
	}
	return alerts;
}
