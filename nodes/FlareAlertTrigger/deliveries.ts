import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

/**
 * The alerts a trigger received lately, so that a delivery Flare sends again (the same alert: its uid
 * and the digest of its content) starts no second execution (docs/alerts.md, "Once per alert").
 *
 * Two copies, each bounded to {@link WINDOW_MS} and {@link MAX_REMEMBERED} alerts per trigger:
 * - in this process's memory, per workflow and node, {@link MAX_IN_MEMORY} alerts in all: n8n reads a
 *   webhook's static data from its database for each request and saves it after, so two deliveries
 *   at once would not see each other there;
 * - in the node's static data (`received`), which n8n keeps across restarts. The webhook writes it
 *   ({@link admit}), and so does the execution it starts ({@link persist}): n8n saves the static data
 *   an execution changed when it ends, also where it no longer saves a webhook's after its first
 *   change (n8n 2.41; docs/alerts.md, "What n8n saves, and when"). What is written is the union of
 *   both copies, so that requests at once do not drop each other's alerts (n8n keeps the last
 *   writer's static data).
 */

/** How long a received alert is remembered. */
export const WINDOW_MS = 24 * 60 * 60_000;
/** At most this many alerts are remembered per trigger; the oldest go first. */
export const MAX_REMEMBERED = 1000;
/**
 * At most this many alerts are remembered in this process's memory, all triggers together (a few MB):
 * the triggers least recently served go first.
 */
export const MAX_IN_MEMORY = 100_000;

/** Static data: digest of the alert's key → when it was received, in seconds since the epoch. */
export interface DeliveryState {
	received?: Record<string, number>;
}

/** Each trigger's copy, the least recently served first; and how many alerts they hold in all. */
const memory = new Map<string, Map<string, number>>();
let inMemory = 0;

/**
 * The key of an alert: a short digest of its uid and of the alert as sent. A retry resends the same
 * alert (docs/api-contract.md, "Alert webhook"); another alert about the same event (another
 * identifier matched, a raised risk) differs, and so does a body someone else posts with a genuine uid.
 * `signedAt`, the `t` of the request's signature, makes a key of the request itself: the channel's
 * Test alert is the same each time, a new press of Test is a new `t`.
 */
export function deliveryKey(uid: string | null, alert: IDataObject, signedAt?: string): string {
	const hash = createHash('sha256').update(`${uid ?? ''}\n${JSON.stringify(alert)}`, 'utf8');
	if (signedAt !== undefined) hash.update(`\nt=${signedAt}`, 'utf8');
	return hash.digest('hex').slice(0, 16);
}

/** This process's copy for a trigger, moved to the end of the least-recently-served order. */
function remembered(trigger: string): Map<string, number> {
	const known = memory.get(trigger) ?? new Map<string, number>();
	memory.delete(trigger);
	memory.set(trigger, known);
	return known;
}

/**
 * Replaces this process's copy for a trigger; then, while memory holds more than
 * {@link MAX_IN_MEMORY} alerts, forgets the triggers least recently served.
 */
function keep(trigger: string, entries: Map<string, number>): void {
	const known = remembered(trigger);
	inMemory -= known.size;
	known.clear();
	for (const [key, seconds] of entries) known.set(key, seconds);
	inMemory += known.size;
	for (const [other, held] of memory) {
		if (inMemory <= MAX_IN_MEMORY) break;
		if (other === trigger) continue;
		memory.delete(other);
		inMemory -= held.size;
	}
}

/**
 * The entries of the window, each key once at its latest time, at most {@link MAX_REMEMBERED}: the
 * oldest go first. A time ahead of now (the host's clock stepped back since) counts as now, so that
 * it does not outlast the entries received after it.
 */
function bounded(entries: Iterable<[string, number]>, nowSeconds: number): Map<string, number> {
	const since = nowSeconds - WINDOW_MS / 1000;
	const latest = new Map<string, number>();
	for (const [key, stamped] of entries) {
		if (!Number.isFinite(stamped)) continue;
		const seconds = Math.min(stamped, nowSeconds);
		if (seconds <= since) continue;
		latest.set(key, Math.max(seconds, latest.get(key) ?? seconds));
	}
	return new Map([...latest].sort((a, b) => a[1] - b[1]).slice(-MAX_REMEMBERED));
}

const savedOf = (state: DeliveryState): Record<string, number> =>
	state.received && typeof state.received === 'object' ? state.received : {};

/**
 * Splits `keys` into the new ones and those received within the window (also earlier in `keys`), and
 * remembers the new ones in memory and in `state`. A null key is new and not remembered (an unsigned
 * Test alert). `state` is changed only when something is remembered.
 */
export function admit(
	trigger: string,
	state: DeliveryState,
	keys: Array<string | null>,
	nowMs: number,
): boolean[] {
	const nowSeconds = Math.floor(nowMs / 1000);
	const seen = bounded([...Object.entries(savedOf(state)), ...remembered(trigger)], nowSeconds);
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
	keep(trigger, kept);
	state.received = Object.fromEntries(kept);
	return fresh;
}

/**
 * Writes into `state` (the static data of an execution the trigger started) the window with `keys`,
 * the alerts of that execution: what `state` holds, this process's memory and `keys`, each at the
 * time it was received (now, for a key this process does not know: the execution runs on another
 * process than the webhook, a queue-mode worker). `state` is changed only when that differs from
 * what it holds.
 */
export function persist(
	trigger: string,
	state: DeliveryState,
	keys: string[],
	nowMs: number,
): void {
	const nowSeconds = Math.floor(nowMs / 1000);
	const saved = savedOf(state);
	const seen = bounded([...Object.entries(saved), ...remembered(trigger)], nowSeconds);
	for (const key of keys) if (!seen.has(key)) seen.set(key, nowSeconds);
	const kept = bounded(seen, nowSeconds);
	keep(trigger, kept);
	const unchanged =
		kept.size === Object.keys(saved).length &&
		[...kept].every(([key, seconds]) => saved[key] === seconds);
	if (!unchanged) state.received = Object.fromEntries(kept);
}

/** How many alerts this process's memory holds, all triggers together (for the tests). */
export function alertsInMemory(): number {
	return inMemory;
}
