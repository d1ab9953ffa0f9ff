import type { FlareResponse } from '../Flare/shared/operation';

/**
 * The two clocks a poll of the Flare Trigger reads (docs/trigger.md, "How it follows Flare"): n8n's
 * (`Date.now`), and Flare's, from the `Date` header of the poll's first answer. Either may be wrong:
 * n8n's stepped (NTP, a VM resumed), Flare's answer dated by a proxy's stale cache or a far-future
 * clock. So what the poll decides (a cookie's expiry, whether a sweep is due, where a walk got to) is
 * judged at the **earlier** of the two ({@link ClockReading.present}): one clock ahead then never moves
 * a position ahead, nor loses a cookie that is still valid; one behind makes a sweep read more than it
 * needs, and may let an expired cookie out. A saved position is pulled back only when it is after the
 * **later** of the two ({@link ClockReading.latest}): a clock behind never makes the trigger read again
 * what it no longer remembers. Without a usable `Date` header, n8n's clock alone.
 */

/** How late a record may become searchable (10 min), plus clocks apart by up to 5 min. */
export const LOOKBACK_MS = 15 * 60_000;

/** Clocks this close count as one: a `Date` header has whole seconds, a request takes time. */
export const CLOCKS_APART_MS = 5_000;

/** What a poll learnt of Flare's clock: its first answer's `Date`, and its lead over n8n's then. */
export class FlareClock {
	/** Flare's time (ms) when it answered the first page. */
	private time?: number;
	/** How far Flare's clock is ahead of n8n's (ms) by that answer; negative when behind. */
	private ahead?: number;

	/** Notes the `Date` header of an answer received at `now` (n8n's clock), the poll's first only. */
	note(response: FlareResponse, now: number): void {
		if (this.time !== undefined) return;
		const date = Date.parse(String(response.headers?.date ?? ''));
		if (Number.isNaN(date)) return;
		this.time = date;
		this.ahead = date - now;
	}

	/** Flare's lead over n8n's clock; 0 without a `Date`, or within {@link CLOCKS_APART_MS}. */
	get lead(): number {
		const ahead = this.ahead ?? 0;
		return Math.abs(ahead) < CLOCKS_APART_MS ? 0 : ahead;
	}

	/** The two clocks at `now` (n8n's clock). */
	at(now: number): ClockReading {
		return readingOf(now, this.lead);
	}

	/**
	 * Flare's time at activation (`startedAt` on n8n's clock), for the baseline: what existed then was
	 * dated by Flare. n8n's time when Flare said nothing, or something more than the look-back away.
	 */
	activationTime(startedAt: number): number {
		const time = this.time;
		if (time === undefined || Math.abs(time - startedAt) > LOOKBACK_MS) return startedAt;
		return time;
	}
}

/** Both clocks at one moment: the earlier, by which a poll decides, and the later. */
export interface ClockReading {
	/** The earlier of n8n's time and Flare's: what a poll decides by. */
	present: number;
	/** The later: a saved position after it cannot be, and is pulled back to it. */
	latest: number;
}

const readingOf = (now: number, lead: number): ClockReading => ({
	present: now + Math.min(0, lead),
	latest: now + Math.max(0, lead),
});

/**
 * The time Fetch Test Event judges a record of `response` by (e.g. a cookie's expiry), as a poll
 * does: the earlier of n8n's `now` and Flare's time when it sent `response` (its `Date` header).
 */
export function presentOf(response: FlareResponse, now: number): number {
	const clock = new FlareClock();
	clock.note(response, now);
	return clock.at(now).present;
}
