import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

/**
 * The alerts a trigger received lately, so that a delivery Flare sends again (the same alert: its uid
 * and the digest of its content) starts no second execution (docs/alerts.md, "Once per alert").
 *
 * Two copies, each bounded to {@link WINDOW_MS} and {@link MAX_REMEMBERED} alerts:
 * - in this process's memory, per workflow and node: n8n reads a webhook's static data from its
 *   database for each request and saves it after, so two deliveries at once would not see each other
 *   there;
 * - in the node's static data (`received`), which n8n saves after each production request and keeps
 *   across restarts. What is saved is the union of both, so that requests at once do not drop each
 *   other's alerts from it (n8n keeps the last writer's static data).
 */

/** How long a received alert is remembered. */
export const WINDOW_MS = 24 * 60 * 60_000;
/** At most this many alerts are remembered per trigger; the oldest go first. */
export const MAX_REMEMBERED = 1000;
/** At most this many triggers are remembered in memory; the least recently used go first. */
const MAX_TRIGGERS = 200;

/** Static data: digest of the alert's key → when it was received, in seconds since the epoch. */
export interface DeliveryState {
	received?: Record<string, number>;
}

const memory = new Map<string, Map<string, number>>();

/**
 * The key of an alert: a short digest of its uid and of the alert as sent. A retry resends the same
 * alert (docs/api-contract.md, "Alert webhook"); another alert about the same event (another
 * identifier matched, a raised risk) differs, and so does a body someone else posts with a genuine uid.
 */
export function deliveryKey(uid: string | null, alert: IDataObject): string {
	return createHash('sha256')
		.update(`${uid ?? ''}\n${JSON.stringify(alert)}`, 'utf8')
		.digest('hex')
		.slice(0, 16);
}

/** This process's copy for a trigger, moved to the end of the least-recently-used order. */
function remembered(trigger: string): Map<string, number> {
	const known = memory.get(trigger) ?? new Map<string, number>();
	memory.delete(trigger);
	memory.set(trigger, known);
	while (memory.size > MAX_TRIGGERS) memory.delete(memory.keys().next().value as string);
	return known;
}

/**
 * The entries of the window, each key once at its latest time, at most {@link MAX_REMEMBERED}: the
 * oldest go first.
 */
function bounded(entries: Iterable<[string, number]>, nowSeconds: number): Map<string, number> {
	const since = nowSeconds - WINDOW_MS / 1000;
	const latest = new Map<string, number>();
	for (const [key, seconds] of entries) {
		if (!Number.isFinite(seconds) || seconds <= since) continue;
		latest.set(key, Math.max(seconds, latest.get(key) ?? seconds));
	}
	return new Map([...latest].sort((a, b) => a[1] - b[1]).slice(-MAX_REMEMBERED));
}

/**
 * Splits `keys` into the new ones and those received within the window (also earlier in `keys`), and
 * remembers the new ones in memory and in `state`. A null key is new and not remembered (Flare's Test
 * alert). `state` is changed only when something is remembered.
 */
export function admit(
	trigger: string,
	state: DeliveryState,
	keys: Array<string | null>,
	nowMs: number,
): boolean[] {
	const nowSeconds = Math.floor(nowMs / 1000);
	const known = remembered(trigger);
	const saved = state.received && typeof state.received === 'object' ? state.received : {};
	const seen = bounded([...Object.entries(saved), ...known], nowSeconds);
	let remembering = false;
	const fresh = keys.map((key) => {
		if (key === null) return true;
		if (seen.has(key)) return false;
		seen.set(key, nowSeconds);
		remembering = true;
		return true;
	});
	if (!remembering) return fresh;
	const kept = bounded(seen, nowSeconds);
	known.clear();
	for (const [key, seconds] of kept) known.set(key, seconds);
	state.received = Object.fromEntries(kept);
	return fresh;
}
