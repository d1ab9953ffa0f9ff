/**
 * Planted leaked values. Every leaked or monitored secret the fake serves (a credential's password or
 * hash, an identity's passwords, the passwords and session cookies of full events, a source-code
 * secret, a credential line of a paste or post, a `secret` identifier's secret) carries the marker,
 * which nothing else the fake serves holds: the leaked-value scan (test/harness/collect.ts,
 * test/e2e/secrets.ts) looks for it in every output of this package's nodes. A masked value keeps at
 * most its first and last characters, and a digest none, so the marker survives only in clear.
 */
import { createHash } from 'crypto';

/** The marker: mixed case, so that no word, hex digest or UUID holds it. */
export const PLANTED_MARKER = 'PlAnTeD';

/** `value`, planted: the marker appended (`hunter2` → `hunter2~PlAnTeD`). */
export function planted(value: string): string {
	return `${value}~${PLANTED_MARKER}`;
}

/** Whether `text` holds a planted value. */
export function holdsPlanted(text: string): boolean {
	return text.includes(PLANTED_MARKER);
}

/** A planted secret derived from `seed` (e.g. a uid): `prefix` and 20 hex characters. */
export function plantedSecret(prefix: string, seed: string): string {
	return planted(`${prefix}${createHash('sha1').update(seed).digest('hex').slice(0, 20)}`);
}
