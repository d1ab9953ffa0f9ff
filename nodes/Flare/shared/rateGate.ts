import { sleep } from 'n8n-workflow';

/**
 * Per-process pacing for one rate-limit tier of one Flare organisation (keyed by base URL and tier).
 *
 * Flare limits per organisation (Search 1 request/s, Basic 4 requests/s) and answers 429 beyond that.
 * A node runs its items one after another, but several executions, or parallel branches, of one n8n
 * process share the organisation's budget and would keep colliding. The gate is open until a 429 is
 * seen; from then on the requests of the tier queue
 * up and go out one at a time, first come first served, each no earlier than the wait that Flare
 * asked for. When the queue drains the gate opens again.
 *
 * Only speed depends on this: every request still retries its own 429s, so correctness holds across
 * processes and queue-mode workers, where each process has its own gates.
 */
export class RateGate {
	private openAt = 0;

	private throttled = false;

	private queue: Promise<void> = Promise.resolve();

	private waiting = 0;

	/** Whether requests may go out directly, without queueing. */
	isOpen(): boolean {
		return !this.throttled && this.waiting === 0;
	}

	/** Records a 429: nothing goes out of this tier for `waitMs`, and requests queue from now on. */
	block(waitMs: number): void {
		this.throttled = true;
		this.openAt = Math.max(this.openAt, Date.now() + waitMs);
	}

	/** Waits until the tier may be called again. */
	async waitUntilOpen(): Promise<void> {
		const delay = this.openAt - Date.now();
		if (delay > 0) await sleep(delay);
	}

	/** Runs `send` when every request queued before it is done; `send` keeps the turn while it retries. */
	async inTurn<T>(send: () => Promise<T>): Promise<T> {
		this.waiting++;
		const previous = this.queue;
		let release!: () => void;
		this.queue = new Promise<void>((resolve) => (release = resolve));
		try {
			await previous;
			return await send();
		} finally {
			this.waiting--;
			if (this.waiting === 0) this.throttled = false;
			release();
		}
	}
}

const gates = new Map<string, RateGate>();

/** The gate of one tier of one Flare API base URL in this process. */
export function rateGate(baseUrl: string, tier: string): RateGate {
	const key = `${baseUrl}|${tier}`;
	let gate = gates.get(key);
	if (!gate) {
		gate = new RateGate();
		gates.set(key, gate);
	}
	return gate;
}
