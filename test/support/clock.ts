/**
 * This process's clock, movable: the node, n8n and the fake API all read `Date.now`, so moving it on
 * makes the next poll come later for all of them alike, without waiting. The fake's rate limits and
 * the time-outs run on `performance.now` and timers, and stay real; the node's rate gate reads
 * `Date.now`, so a move forward only lets its next request go sooner.
 */
const realNow = Date.now.bind(Date);
let shiftMs = 0;

/** Moves this process's clock on by `ms`. */
export function moveClock(ms: number): void {
	shiftMs += ms;
	Date.now = () => realNow() + shiftMs;
}

/** Moves this process's clock to `time` (ms since the epoch). */
export function moveClockTo(time: number): void {
	moveClock(time - Date.now());
}
