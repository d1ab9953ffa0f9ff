import type { RateTier } from './operation';
import { wait } from './wait';

/**
 * Flare's documented rate limits per organization: Search 1 request per second (the global searches),
 * Basic 4 per second (everything else) (docs/api-contract.md, "Rate limits").
 */
export const DOCUMENTED_INTERVAL_MS: Record<RateTier, number> = { search: 1000, basic: 250 };

/** Added to each interval, so that the jitter of the way to Flare cannot bring two requests closer. */
const SAFETY_MS = 10;

/**
 * Paces one rate-limit tier of one Flare organization in this process, like python-flareio's
 * limiter: one request per interval, from the first request on; and when Flare answers 429, nothing
 * of the tier goes out before the wait it asked for. The interval never changes, so the pace is the
 * documented one again as soon as the wait is over.
 */
export class RateGate {
	/** Earliest time the next request may go out. */
	private nextSlot = 0;

	/** Until when Flare asked the tier to wait. */
	private pausedUntil = 0;

	/** The latest time this gate has read: a later reading before it means the host clock went back. */
	private lastSeen = 0;

	/**
	 * Takes a reading of the clock; when the host clock went back, the slot and the pause go back as
	 * far, so that they stay as far ahead as they were (no request waits for the clock to catch up).
	 */
	private observe(now: number): number {
		if (now < this.lastSeen) {
			const back = this.lastSeen - now;
			this.nextSlot -= back;
			this.pausedUntil -= back;
		}
		this.lastSeen = now;
		return now;
	}

	/** Time from one request to the next: the interval and its margin (none for no interval). */
	private readonly spacingMs: number;

	constructor(intervalMs: number) {
		this.spacingMs = intervalMs > 0 ? intervalMs + SAFETY_MS : 0;
	}

	/** Waits for this request's turn; several requests waiting go out one interval apart. */
	async acquire(cancel?: AbortSignal): Promise<void> {
		for (;;) {
			const now = this.observe(Date.now());
			const start = Math.max(this.nextSlot, this.pausedUntil);
			if (start <= now) {
				this.nextSlot = now + this.spacingMs;
				return;
			}
			await wait(start - now, cancel);
		}
	}

	/** Holds every request of the tier until `time` (ms since the epoch). */
	pauseUntil(time: number): void {
		this.observe(Date.now());
		this.pausedUntil = Math.max(this.pausedUntil, time);
	}

	/** A request of the tier leaves only at `time`: the next slot counts from then. */
	sentAt(time: number): void {
		this.observe(time);
		this.nextSlot = Math.max(this.nextSlot, time + this.spacingMs);
	}
}

const gates = new Map<string, RateGate>();
/** Organizations × tiers whose gates a process keeps; beyond that the oldest is forgotten. */
const MAX_GATES = 1000;

const keyOf = (organization: string, tier: RateTier) => `${tier}|${organization}`;

/** The gate of one tier of one organization (connection.ts `organizationKey`). */
export function rateGate(organization: string, tier: RateTier): RateGate {
	const key = keyOf(organization, tier);
	let gate = gates.get(key);
	if (!gate) {
		if (gates.size >= MAX_GATES) gates.delete(gates.keys().next().value as string);
		gate = new RateGate(DOCUMENTED_INTERVAL_MS[tier]);
		gates.set(key, gate);
	}
	return gate;
}

/**
 * The key of the callback a request carries to its credential's `authenticate`, which n8n calls last
 * before its HTTP client sends, after reading the credentials and exchanging the token. On a loaded
 * machine that can come tens of milliseconds after the gate's admission, so the next slot counts from
 * then (docs/api-contract.md, "Rate limits").
 */
const ON_SEND = Symbol.for('n8n-nodes-flareio.onSend');

/** Makes `options` tell `gate` the moment n8n hands it to its HTTP client (hidden from n8n's copies). */
export function reportSendTo<T extends object>(options: T, gate: RateGate): T {
	Object.defineProperty(options, ON_SEND, { value: () => gate.sentAt(Date.now()) });
	return options;
}

/** Called by the credential's `authenticate`: the request is about to leave. */
export function sending(options: object): void {
	(options as { [ON_SEND]?: () => void })[ON_SEND]?.();
}
