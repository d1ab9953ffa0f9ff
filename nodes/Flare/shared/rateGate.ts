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

	constructor(private readonly intervalMs: number) {}

	/** Waits for this request's turn; several requests waiting go out one interval apart. */
	async acquire(cancel?: AbortSignal): Promise<void> {
		for (;;) {
			const now = Date.now();
			const start = Math.max(this.nextSlot, this.pausedUntil);
			if (start <= now) {
				this.nextSlot = now + (this.intervalMs > 0 ? this.intervalMs + SAFETY_MS : 0);
				return;
			}
			await wait(start - now, cancel);
		}
	}

	/** Holds every request of the tier until `time` (ms since the epoch). */
	pauseUntil(time: number): void {
		this.pausedUntil = Math.max(this.pausedUntil, time);
	}

	/** The request that took the latest slot went out only at `time`: the next slot counts from then. */
	sentLate(time: number): void {
		if (this.intervalMs > 0)
			this.nextSlot = Math.max(this.nextSlot, time + this.intervalMs + SAFETY_MS);
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
 * n8n exchanges the token inside its request helper, after the gate let the request go: that request
 * leaves only when the exchange is over, so the organization's next slots count from then.
 */
export function tokenExchanged(organization: string, at: number): void {
	for (const tier of Object.keys(DOCUMENTED_INTERVAL_MS) as RateTier[]) {
		gates.get(keyOf(organization, tier))?.sentLate(at);
	}
}
