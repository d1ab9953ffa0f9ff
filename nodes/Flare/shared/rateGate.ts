import { sleep } from 'n8n-workflow';

/** The clock a gate reads and waits on; tests give it a virtual one. */
export interface GateClock {
	now(): number;
	sleep(ms: number): Promise<void>;
}

const realClock: GateClock = { now: () => Date.now(), sleep: async (ms) => await sleep(ms) };

export interface RateGateOptions {
	/**
	 * The tier's documented spacing between requests (Search 1 request/s = 1000 ms, Basic 4 = 250 ms).
	 * It is only used once Flare has rate-limited the tier, and only where Flare's answers do not tell
	 * the spacing more exactly (a Retry-After in whole seconds, or none).
	 */
	expectedIntervalMs?: number;
	clock?: GateClock;
}

/** Safety added to a measured spacing: at least 1 ms, or this fraction of it. */
const MARGIN = 0.01;
/** First safety fraction added to a guessed spacing, where a 429 costs a second or ten. */
const GUESS_MARGIN = 0.05;
/** A 429 at the guessed pace within this factor of the guess is taken for jitter. */
const JITTER_BAND = 1.1;
/** How many measured spacings the pace keeps the largest of. */
const MEASURES_KEPT = 3;
/** Largest safety fraction after repeated 429s at the guessed pace. */
const MAX_MARGIN = 0.25;
/** Whether a Retry-After has a fraction of a second, and so names the slot to the millisecond. */
const fractional = (retryAfterMs?: number): retryAfterMs is number =>
	retryAfterMs !== undefined && retryAfterMs % 1000 !== 0;

/** A gap longer than this says nothing about the tier's spacing. */
const MAX_USEFUL_GAP_MS = 60_000;
/** Nor does a gap longer than this many times the pace (learned, else documented): it was idle time. */
const IDLE_FACTOR = 2;

/**
 * Per-process pacing for one rate-limit tier of one Flare organisation (keyed by base URL and tier).
 *
 * Flare limits per organisation (Search 1 request/s, Basic 4 requests/s) and answers 429 beyond that.
 * Until the first 429 the gate adds no delay at all. A 429 teaches it the tier's spacing, from when
 * the last accepted request went out and when Flare said the next slot would be:
 * - a Retry-After with a fraction (e.g. `0.183`) gives the spacing exactly: the time from the last
 *   accepted request to the slot, provided that request went out at a slot of the gate (a request
 *   sent straight away may have waited on a token exchange first; then the retry, sent at the slot,
 *   is the anchor for the next 429);
 * - a Retry-After in whole seconds only bounds it (`1` means "at most 1 s from now"), and no
 *   Retry-After at all bounds nothing: the documented spacing is used when the 429 allows it, else
 *   the range is narrowed;
 * - the pace keeps the largest of the last few measured spacings, so that the jitter of the trips
 *   to Flare costs few 429s; a guessed spacing gets a margin (5 %) that doubles with each 429 at
 *   that pace, until such a 429 comes too far above the guess to be jitter and the guess moves up;
 * - a 429 long after the last request (idle time) or after a first 429 not yet resolved teaches
 *   nothing: it says more about other traffic than about the spacing.
 * From then on every request of the tier takes the next slot of that spacing, so a sequence of pages
 * and items goes out at the tier's pace instead of provoking a 429 (and its wait) per request.
 * Concurrent requests, from parallel executions of one process, take successive slots in the order
 * they ask.
 *
 * Only speed depends on this: every request still waits and retries its own 429s (transport.ts), so
 * correctness holds across processes and queue-mode workers, where each process has its own gates.
 */
export class RateGate {
	/** Learned spacing between two requests of the tier, ms; undefined until a 429. */
	private spacing?: number;

	/** The spacing guessed from a whole-second Retry-After, or none, before its margin. */
	private guess?: number;

	/** Safety fraction added to the guess. */
	private margin = GUESS_MARGIN;

	/** The last spacings measured from fractional Retry-Afters: the pace keeps the largest. */
	private measured: number[] = [];

	/** Earliest time the next request may go out. */
	private nextSlot = 0;

	/** When the request that took the latest slot went out. */
	private latestSent?: number;

	/** When the latest request that Flare accepted went out. */
	private lastAccepted?: number;

	/**
	 * Whether that request went out at a slot this gate chose. Only such a request is a precise
	 * anchor: one sent straight away may have spent time first on the credential's token exchange
	 * (inside n8n's request helper), so Flare saw it later than it left here.
	 */
	private lastAcceptedPaced = false;

	/** Send times of requests released after a wait, until they are answered. */
	private readonly paced = new Set<number>();

	/**
	 * Whether a 429 already taught the spacing since the last accepted request. The 429s after it,
	 * until Flare accepts again, are waited out but teach nothing: their gap to the last accepted
	 * request grows with every wait, and learning from it would inflate the spacing without end.
	 */
	private learnedSinceAccepted = false;

	private readonly clock: GateClock;

	constructor(private readonly options: RateGateOptions = {}) {
		this.clock = options.clock ?? realClock;
	}

	/** The spacing the gate paces at, ms; undefined while the tier has not been rate-limited. */
	get interval(): number | undefined {
		return this.spacing;
	}

	/**
	 * Waits for this request's slot and returns the time it goes out (pass it to {@link accepted} or
	 * {@link rejected}). Until the tier's first 429, returns at once.
	 */
	async acquire(): Promise<number> {
		const now = this.clock.now();
		if (this.spacing === undefined && this.nextSlot <= now) return now;
		const slot = Math.max(now, this.nextSlot);
		this.nextSlot = slot + (this.spacing ?? 0);
		if (slot <= now) return (this.latestSent = now);
		await this.clock.sleep(slot - now);
		// Timers can fire late: the next slot counts from when this request really goes out.
		const sent = this.clock.now();
		this.nextSlot = Math.max(this.nextSlot, sent + (this.spacing ?? 0));
		if (this.paced.size > 1000) this.paced.clear();
		this.paced.add(sent);
		return (this.latestSent = sent);
	}

	/** Records that the request sent at `sentAt` was accepted. */
	accepted(sentAt: number): void {
		const paced = this.paced.delete(sentAt);
		if (this.lastAccepted === undefined || sentAt >= this.lastAccepted) {
			this.lastAccepted = sentAt;
			this.lastAcceptedPaced = paced;
		}
		this.learnedSinceAccepted = false;
	}

	/**
	 * Records a 429 for the request sent at `sentAt`: nothing of this tier goes out earlier than
	 * `waitMs` after the answer, and the spacing is learned. `retryAfterMs` is Flare's Retry-After,
	 * if it sent one.
	 */
	rejected(sentAt: number, waitMs: number, retryAfterMs?: number): void {
		this.paced.delete(sentAt);
		const answeredAt = this.clock.now();
		// +1 ms: a timer may fire up to a millisecond before the wall clock says it is due.
		const free = answeredAt + waitMs + 1;
		// The refused request used no slot: unless a later request took one since, its retry is next.
		this.nextSlot = sentAt === this.latestSent ? free : Math.max(this.nextSlot, free);
		if (this.learnedSinceAccepted) return;
		this.learnedSinceAccepted = true;
		const gap =
			this.lastAccepted !== undefined && sentAt >= this.lastAccepted
				? sentAt - this.lastAccepted
				: undefined;
		// A gap far longer than the pace is idle time, not our pace: the tier's window had long reset,
		// so the 429 came from other traffic of the organisation and says nothing about the spacing.
		const pace = this.spacing ?? this.options.expectedIntervalMs;
		const useful =
			gap !== undefined &&
			gap <= MAX_USEFUL_GAP_MS &&
			(pace === undefined || gap <= IDLE_FACTOR * pace);
		const learned = this.learn(
			useful ? gap : undefined,
			// Flare counts the wait from when it answered; the gap, from when the last accepted one went out.
			useful ? answeredAt - this.lastAccepted! : undefined,
			retryAfterMs,
		);
		if (learned === undefined) return;
		if (fractional(retryAfterMs)) {
			// Measured: each measure is the spacing plus the jitter of two trips to Flare. Keeping the
			// largest of the last few covers the jitter without a margin that grows.
			this.measured = [...this.measured.slice(-(MEASURES_KEPT - 1)), learned];
			const largest = Math.max(...this.measured);
			this.spacing = largest + Math.max(1, largest * MARGIN);
			return;
		}
		// Guessed. A 429 at the guessed pace, close to the guess, is most likely the jitter of the trips
		// to Flare: widen the margin (a 429 costs a whole second, or ten) before doubting the guess.
		const previous = this.spacing;
		const atPace = previous !== undefined && gap !== undefined && gap >= previous * (1 - MARGIN);
		if (atPace && this.guess !== undefined && gap <= this.guess * JITTER_BAND) {
			this.margin = Math.min(MAX_MARGIN, this.margin * 2);
		} else {
			if (learned !== this.guess) this.margin = GUESS_MARGIN;
			this.guess = learned;
		}
		this.spacing = this.guess + Math.max(1, this.guess * this.margin);
	}

	/**
	 * The tier's spacing as far as one 429 tells it (before the safety margin). `gap`: from the last
	 * accepted request to this one; `sinceAccepted`: from the last accepted request to the 429.
	 */
	private learn(
		gap: number | undefined,
		sinceAccepted: number | undefined,
		retryAfterMs: number | undefined,
	): number | undefined {
		const expected = this.options.expectedIntervalMs;
		// A Retry-After with a fraction of a second names the slot: the spacing is known. Flare counts
		// it from when it refused the request, which took the same way to Flare as the accepted one:
		// the spacing is the gap between their sending plus the wait. That needs a precise anchor; if
		// the accepted request was not sent at a slot, the retry (sent at this one) becomes the anchor,
		// and the next 429 tells the spacing.
		if (fractional(retryAfterMs)) {
			return gap !== undefined && this.lastAcceptedPaced ? gap + retryAfterMs : undefined;
		}
		if (gap === undefined || sinceAccepted === undefined) {
			return this.spacing === undefined ? expected : undefined;
		}
		// Whole seconds, or nothing: the spacing is more than the gap, at most gap + Retry-After, and
		// more than gap + Retry-After - 1 s when the wait was rounded up to more than one second.
		const upper = retryAfterMs === undefined ? Infinity : sinceAccepted + retryAfterMs;
		const lower = gap + Math.max(0, (retryAfterMs ?? 0) - 1000);
		if (expected !== undefined && expected > lower && expected <= upper) return expected;
		// The documented spacing is ruled out: step up from what the 429 proves, further when a wrong
		// step costs the whole 10 s of a 429 without Retry-After.
		return Math.min(upper, lower * (retryAfterMs === undefined ? 1.5 : 1.25));
	}
}

const gates = new Map<string, RateGate>();

/** The gate of one tier of one Flare API base URL in this process. */
export function rateGate(baseUrl: string, tier: string, options?: RateGateOptions): RateGate {
	const key = `${baseUrl}|${tier}`;
	let gate = gates.get(key);
	if (!gate) {
		gate = new RateGate(options);
		gates.set(key, gate);
	}
	return gate;
}
