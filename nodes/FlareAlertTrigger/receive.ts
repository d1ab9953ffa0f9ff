import type { IDataObject } from 'n8n-workflow';

import { alertsOf } from './alert';
import { MAX_REMEMBERED } from './deliveries';

/**
 * The checks of a request before its signature: size, media type, depth, and, once it is trusted,
 * its JSON (docs/alerts.md, "What it checks and answers"). A refusal carries the status the trigger
 * answers.
 */

/**
 * The largest body accepted, well above any alert and well below n8n's own bound
 * (N8N_PAYLOAD_SIZE_MAX, 16 MiB by default), beyond which n8n refuses the request itself.
 */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * The deepest nesting of objects and arrays accepted in a body: Flare's alerts nest a few levels
 * (a full event about ten); far deeper, what reads the alert (its key, the masking, n8n storing the
 * execution) would run out of stack.
 */
export const MAX_BODY_DEPTH = 64;

export interface Refusal {
	status: number;
	/** What the caller is answered (for a 500, the detail n8n's log and the editor show). */
	message: string;
	/**
	 * What n8n's log says: the check, in the trigger's own words, never a part of the request (its
	 * Content-Type, its signature's time); for a 500, the detail of the setting to fix.
	 */
	logged: string;
}

/** `application/json` or a `+json` type, parameters (charset) aside. */
const JSON_MEDIA_TYPE = /^application\/([a-z0-9.-]+\+)?json\s*(;|$)/i;

/** A Content-Type as the answer quotes it: its first 100 characters, printable ones only. */
function quoted(contentType: string): string {
	const printable = contentType.replace(/[^\x20-\x7e]/g, '?');
	return `"${printable.length > 100 ? `${printable.slice(0, 100)}…` : printable}"`;
}

/**
 * Whether the objects and arrays of a JSON text nest deeper than `limit`, read byte by byte (no
 * parse, no recursion): a bracket counts outside strings only.
 */
export function nestedDeeperThan(rawBody: Buffer, limit: number): boolean {
	let depth = 0;
	let inString = false;
	for (let index = 0; index < rawBody.length; index++) {
		const byte = rawBody[index];
		if (inString) {
			// A backslash escapes the next byte; a quote ends the string.
			if (byte === 0x5c) index++;
			else if (byte === 0x22) inString = false;
		} else if (byte === 0x22) {
			inString = true;
		} else if (byte === 0x7b || byte === 0x5b) {
			if (++depth > limit) return true;
		} else if (byte === 0x7d || byte === 0x5d) {
			depth--;
		}
	}
	return false;
}

/**
 * The body's bytes when it is JSON of an acceptable size and depth; else 415 (not JSON), 413 (too
 * large) or 400 (nested deeper than {@link MAX_BODY_DEPTH}). n8n keeps the bytes of every body but a
 * multipart one, which is not JSON.
 */
export function acceptedBody(
	contentType: string | undefined,
	rawBody: Buffer | undefined,
): Buffer | Refusal {
	if (!contentType || !JSON_MEDIA_TYPE.test(contentType)) {
		return {
			status: 415,
			message: `Flare alerts are JSON: the Content-Type is ${contentType ? quoted(contentType) : 'missing'}, not application/json`,
			logged: 'a Content-Type other than JSON',
		};
	}
	if (!Buffer.isBuffer(rawBody)) {
		const message = 'n8n handed the trigger no raw body to check';
		return { status: 500, message, logged: message };
	}
	if (rawBody.length > MAX_BODY_BYTES) {
		return {
			status: 413,
			message: `The body has ${rawBody.length} bytes, more than the ${MAX_BODY_BYTES} an alert may have`,
			logged: `a body over ${MAX_BODY_BYTES} bytes`,
		};
	}
	if (nestedDeeperThan(rawBody, MAX_BODY_DEPTH)) {
		return {
			status: 400,
			message: `The body nests objects or arrays more than ${MAX_BODY_DEPTH} levels deep: no alert does`,
			logged: `a body nested more than ${MAX_BODY_DEPTH} levels deep`,
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
		return {
			status: 400,
			message: `The body is not valid JSON (${rawBody.length} bytes)`,
			logged: 'a body that is not valid JSON',
		};
	}
	const alerts = alertsOf(body);
	if (!alerts) {
		return {
			status: 400,
			message: 'The body is JSON but not an alert: an object, or an array of objects, was expected',
			logged: 'JSON that is not an alert',
		};
	}
	if (alerts.length > MAX_ALERTS_PER_BODY) {
		return {
			status: 413,
			message: `The body holds ${alerts.length} alerts, more than the ${MAX_ALERTS_PER_BODY} one request may carry: send them in several requests`,
			logged: `a body of more than ${MAX_ALERTS_PER_BODY} alerts`,
		};
	}
	return alerts;
}

/** n8n's log gets at most one line per trigger and status in this time, with a count of the rest. */
export const REFUSAL_LOG_INTERVAL_MS = 60_000;
/** At most this many (trigger, status) pairs are remembered for that; the oldest go first. */
const MAX_LOG_SLOTS = 1000;

const lastLogged = new Map<string, { atMs: number; unlogged: number }>();

/**
 * The line n8n's log gets for a refusal of `trigger`, or undefined when one was logged for the same
 * trigger and status less than {@link REFUSAL_LOG_INTERVAL_MS} ago: a flood of refused requests
 * writes a line a minute, which counts those left out (docs/alerts.md, "Where a refusal shows").
 */
export function refusalLogLine(
	trigger: string,
	refusal: Refusal,
	nowMs: number,
): string | undefined {
	const slot = `${trigger} ${refusal.status}`;
	const last = lastLogged.get(slot);
	if (last && nowMs >= last.atMs && nowMs - last.atMs < REFUSAL_LOG_INTERVAL_MS) {
		last.unlogged++;
		return undefined;
	}
	lastLogged.delete(slot);
	lastLogged.set(slot, { atMs: nowMs, unlogged: 0 });
	if (lastLogged.size > MAX_LOG_SLOTS) lastLogged.delete(lastLogged.keys().next().value as string);
	const more = last?.unlogged
		? ` (${last.unlogged} more refused with ${refusal.status} since ${new Date(last.atMs).toISOString()})`
		: '';
	return `Flare Alert Trigger refused a request with ${refusal.status}: ${refusal.logged}${more}`;
}
