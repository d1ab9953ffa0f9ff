import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

/**
 * The alerts a trigger received lately, so that a delivery Flare sends again (the same alert: its uid
 * and the digest of its content) starts no second execution (docs/alerts.md, "Once per alert").
 *
 * Two copies, each bounded ({@link bounded}):
 * - in this process's memory, per workflow and node, {@link MAX_IN_MEMORY} alerts in all: n8n reads a
 *   webhook's static data from its database for each request and saves it after, so two deliveries
 *   at once would not see each other there;
 * - in the node's static data (`received`), which n8n keeps across restarts: the request writes it
 *   ({@link admit}) and n8n saves it after the request. What n8n writes is computed when it writes
 *   (the window's `toJSON`): what was read with it and this process's memory as they are then, so
 *   that a copy saved late (a request answered after a later one, the copy a poller of the same
 *   workflow holds since activation: {@link rememberWhenSaved}) does not drop the alerts received
 *   since (n8n keeps the last writer's static data; docs/alerts.md, "What n8n saves, and when").
 */

/** How long a received alert is remembered. */
export const WINDOW_MS = 24 * 60 * 60_000;
/**
 * At most this many alerts are remembered per trigger, the oldest going first; but never one received
 * within the signature's tolerance (a replay of its request would be accepted again), up to
 * {@link MAX_IN_MEMORY}.
 */
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
 * The entries of the window, each key once at its latest time: those of the last 24 hours, at most
 * {@link MAX_REMEMBERED}, the oldest going first; but every one of the last `protectSeconds` (the
 * signature's tolerance: a replay of its request is accepted that long), at most
 * {@link MAX_IN_MEMORY}. A time ahead of now (the host's clock stepped back since) counts as now, so
 * that it does not outlast the entries received after it.
 */
function bounded(
	entries: Iterable<[string, number]>,
	nowSeconds: number,
	protectSeconds: number,
): Map<string, number> {
	const since = nowSeconds - WINDOW_MS / 1000;
	const latest = new Map<string, number>();
	for (const [key, stamped] of entries) {
		if (!Number.isFinite(stamped)) continue;
		const seconds = Math.min(stamped, nowSeconds);
		if (seconds <= since) continue;
		latest.set(key, Math.max(seconds, latest.get(key) ?? seconds));
	}
	const sorted = [...latest].sort((a, b) => a[1] - b[1]);
	const firstYoung = sorted.findIndex(([, seconds]) => seconds > nowSeconds - protectSeconds);
	const young = protectSeconds > 0 && firstYoung !== -1 ? sorted.length - firstYoung : 0;
	return new Map(sorted.slice(-Math.min(MAX_IN_MEMORY, Math.max(MAX_REMEMBERED, young))));
}

/** What the static data holds: what n8n read, or a window of this process as it was made. */
const savedOf = (state: DeliveryState): Array<[string, number]> =>
	state.received && typeof state.received === 'object' ? Object.entries(state.received) : [];

/**
 * The `received` of the static data: `entries` as they are now, and, when n8n writes it (n8n
 * serializes static data with JSON.stringify, which calls `toJSON`), these and this process's memory
 * of the trigger as it is then. A copy made otherwise keeps `entries`.
 */
function savedWindow(
	trigger: string,
	entries: Map<string, number>,
	protectSeconds: number,
): Record<string, number> {
	const window: Record<string, number> = Object.fromEntries(entries);
	Object.defineProperty(window, 'toJSON', {
		value: () =>
			Object.fromEntries(
				bounded(
					[...entries, ...(memory.get(trigger) ?? [])],
					Math.floor(Date.now() / 1000),
					protectSeconds,
				),
			),
	});
	return window;
}

/**
 * Splits `keys` into the new ones and those received within the window (also earlier in `keys`), and
 * remembers the new ones in memory and in `state`. A null key is new and not remembered (an unsigned
 * Test alert). `state` is changed only when something is remembered. `protectSeconds`: the signature's
 * tolerance, 0 unsigned ({@link bounded}).
 */
export function admit(
	trigger: string,
	state: DeliveryState,
	keys: Array<string | null>,
	nowMs: number,
	protectSeconds = 0,
): boolean[] {
	const nowSeconds = Math.floor(nowMs / 1000);
	const seen = bounded([...savedOf(state), ...remembered(trigger)], nowSeconds, protectSeconds);
	let remembering = false;
	const fresh = keys.map((key) => {
		if (key === null) return true;
		if (seen.has(key)) return false;
		seen.set(key, nowSeconds);
		remembering = true;
		return true;
	});
	if (!remembering) return fresh;
	const kept = bounded(seen, nowSeconds, protectSeconds);
	keep(trigger, kept);
	state.received = savedWindow(trigger, kept, protectSeconds);
	return fresh;
}

/**
 * Makes `state` (the static data a workflow holds since its activation, which n8n saves whole when a
 * poller or another trigger of the workflow changes it) write the trigger's window as it is when n8n
 * saves it, not as it was read at activation. `state` is not marked changed: n8n saves nothing for
 * it.
 */
export function rememberWhenSaved(
	trigger: string,
	state: DeliveryState,
	nowMs: number,
	protectSeconds = 0,
): void {
	const window = savedWindow(
		trigger,
		bounded(savedOf(state), Math.floor(nowMs / 1000), protectSeconds),
		protectSeconds,
	);
	// Defined, not set: n8n's ObservableObject marks a set, and would save the static data for it.
	Object.defineProperty(state, 'received', {
		value: window,
		enumerable: true,
		writable: true,
		configurable: true,
	});
}

/** How many alerts this process's memory holds, all triggers together (for the tests). */
export function alertsInMemory(): number {
	return inMemory;
}
