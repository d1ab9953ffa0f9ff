/**
 * The alert channel's request signature: HMAC-SHA256 of `<t>.<raw body>` with the signing secret,
 * compared in constant time, within a tolerance of the timestamp.
 */
import { createHmac, timingSafeEqual } from 'crypto';

/** The header Flare adds when the alert channel has a request signature secret. */
export const SIGNATURE_HEADER = 'x-flare-signature';

/** Default of Options → Timestamp Tolerance: a signed alert older (or later) than this is refused. */
export const DEFAULT_TOLERANCE_SECONDS = 300;
/**
 * The largest Timestamp Tolerance: an hour, well within the 24 hours the trigger remembers what it
 * received, so that a signed request replayed is still recognised when its time is last accepted
 * (docs/alerts.md, "Once per alert").
 */
export const MAX_TOLERANCE_SECONDS = 3600;

/** What is signed, as the node's messages say it (docs/api-contract.md, "Alert webhook"). */
export const SIGNED_MESSAGE = 'HMAC-SHA256 of "<t>.<raw body>" with the signing secret, in hex';

/** A `t` of more digits than this is in milliseconds, not seconds (13 digits until the year 2286). */
const MILLISECONDS_FROM = 1e11;

/**
 * A valid signature gives its time `t` as sent (what a replay repeats); a refusal says why, for the
 * caller (`reason`), and names the check for n8n's log in words of its own (`check`).
 */
export type SignatureVerdict =
	| { valid: true; t: string }
	| { valid: false; reason: string; check: string };

/** `t=<timestamp>,v1=<signature>[,v1=<signature>…]`: the time and every v1 value, other schemes ignored. */
function parseHeader(header: string): { t?: string; v1: string[] } {
	const parsed: { t?: string; v1: string[] } = { v1: [] };
	for (const part of header.split(',')) {
		const at = part.indexOf('=');
		if (at === -1) continue;
		const key = part.slice(0, at).trim();
		const value = part.slice(at + 1).trim();
		if (key === 't') parsed.t = value;
		else if (key === 'v1' && value) parsed.v1.push(value);
	}
	return parsed;
}

/** The signature Flare computes (hex), never shown anywhere: only compared. */
function expectedSignature(secret: string, t: string, rawBody: Buffer): Buffer {
	const hmac = createHmac('sha256', secret);
	hmac.update(`${t}.`, 'utf8');
	hmac.update(rawBody);
	return Buffer.from(hmac.digest('hex'), 'utf8');
}

/** What a valid header gives: its time as sent, and every v1 value. */
export interface SignatureStamp {
	valid: true;
	t: string;
	v1: string[];
}

/**
 * Reads an `X-Flare-Signature` header and checks its form and its time: `t` within
 * `toleranceSeconds` of `nowMs`. What it refuses needs no secret, so that the trigger refuses it
 * before reading its credential.
 */
export function readSignatureHeader(
	header: string | string[] | undefined,
	toleranceSeconds: number,
	nowMs: number,
): SignatureStamp | Extract<SignatureVerdict, { valid: false }> {
	const value = Array.isArray(header) ? header.join(',') : header;
	if (!value) {
		return {
			valid: false,
			reason: 'The request has no X-Flare-Signature header',
			check: 'no X-Flare-Signature header',
		};
	}
	const { t, v1 } = parseHeader(value);
	if (!t || !/^\d{1,16}$/.test(t) || v1.length === 0) {
		return {
			valid: false,
			reason: 'The X-Flare-Signature header is not of the form t=<timestamp>,v1=<signature>',
			check: 'an X-Flare-Signature header not of the form t=<timestamp>,v1=<signature>',
		};
	}
	const stamped = Number(t);
	const stampedMs = stamped >= MILLISECONDS_FROM ? stamped : stamped * 1000;
	const offsetSeconds = (nowMs - stampedMs) / 1000;
	if (!(Math.abs(offsetSeconds) <= toleranceSeconds)) {
		const shown = Math.round(Math.abs(offsetSeconds));
		const when = offsetSeconds > 0 ? `${shown} s old` : `${shown} s ahead`;
		return {
			valid: false,
			reason: `The signature's time t=${t} is ${when}, outside the tolerance of ${toleranceSeconds} s (a replay, or clocks apart)`,
			check: `a signature's time outside the tolerance of ${toleranceSeconds} s`,
		};
	}
	return { valid: true, t, v1 };
}

/**
 * Whether one of the header's `v1` values equals, in constant time, the HMAC-SHA256 of
 * `<t>.<raw body>` in hex under `secret`. Several `v1` values are accepted (Flare rotating its
 * secret). A refusal says what was checked, never the secret nor the expected signature.
 */
export function checkSignature(
	{ t, v1 }: SignatureStamp,
	rawBody: Buffer,
	secret: string,
): SignatureVerdict {
	const expected = expectedSignature(secret, t, rawBody);
	let matches = false;
	for (const candidate of v1) {
		const given = Buffer.from(candidate.toLowerCase(), 'utf8');
		// Every value is compared, a match or not, so that the time taken says nothing.
		if (given.length === expected.length && timingSafeEqual(given, expected)) matches = true;
	}
	if (matches) return { valid: true, t };
	return {
		valid: false,
		reason: `No v1 signature of the X-Flare-Signature header matches: checked ${v1.length} value(s) against the ${SIGNED_MESSAGE} (t=${t}, body of ${rawBody.length} bytes)`,
		check: 'no v1 signature matching the signing secret',
	};
}

/**
 * Checks an `X-Flare-Signature` header against the raw body (docs/api-contract.md, "Alert webhook"):
 * its form and time ({@link readSignatureHeader}), then its signature ({@link checkSignature}).
 */
export function verifySignature(
	header: string | string[] | undefined,
	rawBody: Buffer,
	secret: string,
	toleranceSeconds: number,
	nowMs: number,
): SignatureVerdict {
	const stamp = readSignatureHeader(header, toleranceSeconds, nowMs);
	return stamp.valid ? checkSignature(stamp, rawBody, secret) : stamp;
}
