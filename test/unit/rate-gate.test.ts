import { RateGate, type GateClock } from '../../nodes/Flare/shared/rateGate';

/** A virtual clock: time moves only when every pending task waits on it. */
class VirtualClock implements GateClock {
	time = 1_000_000;

	private timers: Array<{ at: number; resolve: () => void }> = [];

	now(): number {
		return this.time;
	}

	async sleep(ms: number): Promise<void> {
		await new Promise<void>((resolve) => this.timers.push({ at: this.time + ms, resolve }));
	}

	/** Runs `task` to its end, moving the clock to each timer in turn. */
	async run<T>(task: Promise<T>): Promise<T> {
		let done = false;
		const result = task.finally(() => (done = true));
		for (;;) {
			for (let tick = 0; tick < 20; tick++) await Promise.resolve();
			if (done) return await result;
			this.timers.sort((x, y) => x.at - y.at);
			const next = this.timers.shift();
			if (!next) return await result;
			this.time = Math.max(this.time, next.at);
			next.resolve();
		}
	}
}

/** A Flare tier with a fixed spacing: a request is accepted when `interval` has passed since the last accepted one. */
class Tier {
	lastAccepted = -Infinity;

	readonly log: Array<{ at: number; status: 200 | 429 }> = [];

	constructor(
		readonly interval: number,
		private readonly retryAfter: 'precise' | 'integer' | 'none',
	) {}

	/** Flare's answer to a request arriving at `at`: accepted, or the Retry-After of a 429 in ms. */
	answer(at: number): { accepted: true } | { accepted: false; retryAfterMs?: number } {
		const wait = this.lastAccepted + this.interval - at;
		if (wait <= 0) {
			this.lastAccepted = at;
			this.log.push({ at, status: 200 });
			return { accepted: true };
		}
		this.log.push({ at, status: 429 });
		if (this.retryAfter === 'none') return { accepted: false };
		if (this.retryAfter === 'integer') return { accepted: false, retryAfterMs: Math.max(1, Math.ceil(wait / 1000)) * 1000 };
		return { accepted: false, retryAfterMs: wait };
	}

	get rejected(): number {
		return this.log.filter((entry) => entry.status === 429).length;
	}
}

/** One request the way transport.ts sends it: wait for the slot, send, retry every 429 after its wait. */
async function send(gate: RateGate, clock: VirtualClock, tier: Tier, workMs = 2): Promise<number> {
	for (;;) {
		const sentAt = await gate.acquire();
		const answer = tier.answer(clock.now());
		await clock.sleep(workMs);
		if (answer.accepted) {
			gate.accepted(sentAt);
			return sentAt;
		}
		gate.rejected(sentAt, answer.retryAfterMs ?? 10_000, answer.retryAfterMs);
	}
}

async function sequence(gate: RateGate, clock: VirtualClock, tier: Tier, requests: number) {
	const start = clock.now();
	await clock.run(
		(async () => {
			for (let index = 0; index < requests; index++) await send(gate, clock, tier);
		})(),
	);
	return clock.now() - start;
}

describe('RateGate: pacing learned from 429s', () => {
	it('adds no delay and paces nothing while the tier has not answered 429', async () => {
		const clock = new VirtualClock();
		const gate = new RateGate({ clock, expectedIntervalMs: 1000 });
		const start = clock.now();
		for (let index = 0; index < 100; index++) {
			expect(await gate.acquire()).toBe(start);
			gate.accepted(start);
		}
		expect(gate.interval).toBeUndefined();
	});

	it('learns the spacing exactly from a Retry-After with a fraction, and provokes no further 429', async () => {
		const clock = new VirtualClock();
		const gate = new RateGate({ clock, expectedIntervalMs: 1000 });
		const tier = new Tier(200, 'precise');

		const elapsed = await sequence(gate, clock, tier, 60);

		// The first 429 names the slot; the request sent at that slot is the anchor the second one is
		// measured from (the very first request may have waited on a token exchange first).
		expect(tier.rejected).toBe(2);
		expect(gate.interval).toBeGreaterThanOrEqual(200);
		expect(gate.interval).toBeLessThanOrEqual(200 * 1.02 + 2);
		// The theoretical minimum is 59 spacings; the margin and the work per request add a little.
		expect(elapsed).toBeLessThan(59 * 200 * 1.05);
	});

	it('does not measure the spacing from a request that may have waited on a token exchange', async () => {
		const clock = new VirtualClock();
		const gate = new RateGate({ clock, expectedIntervalMs: 1000 });
		const tier = new Tier(100, 'precise');

		await clock.run(
			(async () => {
				const first = await gate.acquire();
				await clock.sleep(80); // n8n's helper exchanges the API key for a token first
				expect(tier.answer(clock.now()).accepted).toBe(true);
				gate.accepted(first);
				for (let index = 0; index < 20; index++) await send(gate, clock, tier);
			})(),
		);

		expect(gate.interval).toBeGreaterThanOrEqual(100);
		expect(gate.interval).toBeLessThanOrEqual(100 * 1.02 + 4);
		expect(tier.rejected).toBe(2);
	});

	it('uses the documented spacing when a whole-second Retry-After only bounds it', async () => {
		const clock = new VirtualClock();
		const gate = new RateGate({ clock, expectedIntervalMs: 250 });
		const tier = new Tier(250, 'integer');

		const elapsed = await sequence(gate, clock, tier, 60);

		expect(tier.rejected).toBe(1);
		expect(gate.interval).toBeCloseTo(250 * 1.05, 0);
		// One 429 costs its whole second; every other request goes out at the guessed pace.
		expect(elapsed).toBeLessThan(59 * 250 * 1.06 + 1000);
	});

	it('never paces faster than a whole-second Retry-After allows', async () => {
		const clock = new VirtualClock();
		const gate = new RateGate({ clock, expectedIntervalMs: 250 });
		const tier = new Tier(2500, 'integer'); // stricter than documented

		await sequence(gate, clock, tier, 10);

		// Retry-After 3 proves more than 2 s: the documented 250 ms is not used.
		expect(gate.interval).toBeGreaterThan(2000);
		expect(gate.interval).toBeLessThanOrEqual(3100);
		expect(tier.rejected).toBeLessThanOrEqual(2);
	});

	it('without Retry-After waits the given time, then paces at the documented spacing', async () => {
		const clock = new VirtualClock();
		const gate = new RateGate({ clock, expectedIntervalMs: 1000 });
		const tier = new Tier(1000, 'none');

		const elapsed = await sequence(gate, clock, tier, 20);

		expect(tier.rejected).toBe(1);
		expect(gate.interval).toBeCloseTo(1050, 0);
		expect(elapsed).toBeGreaterThanOrEqual(10_000); // the one 429 waited the decided 10 s
		expect(elapsed).toBeLessThan(10_000 + 19 * 1050 + 100);
	});

	it('raises the spacing when the documented one proves too short', async () => {
		const clock = new VirtualClock();
		const gate = new RateGate({ clock, expectedIntervalMs: 250 });
		const tier = new Tier(400, 'none');

		await sequence(gate, clock, tier, 30);

		expect(gate.interval).toBeGreaterThan(400);
		expect(tier.rejected).toBeLessThanOrEqual(4);
	});

	it('follows a tier that turns stricter: one 429 at its pace, then the new spacing', async () => {
		const clock = new VirtualClock();
		const gate = new RateGate({ clock });
		const tier = new Tier(100, 'precise');
		await sequence(gate, clock, tier, 3);
		const learned = gate.interval!;

		// The tier turns stricter by 5 ms: the next request at the learned pace is refused.
		const stricter = new Tier(learned + 5, 'precise');
		stricter.lastAccepted = tier.lastAccepted;
		await sequence(gate, clock, stricter, 10);

		expect(stricter.rejected).toBe(1);
		expect(gate.interval).toBeGreaterThanOrEqual(learned + 5);
		expect(gate.interval).toBeLessThanOrEqual((learned + 5) * 1.02 + 3);
	});

	it('takes a 429 at its guessed pace for jitter: the margin widens, the guess stays', async () => {
		const clock = new VirtualClock();
		const gate = new RateGate({ clock, expectedIntervalMs: 250 });
		gate.accepted(await gate.acquire());
		clock.time += 5;
		gate.rejected(await gate.acquire(), 1000, 1000);
		expect(gate.interval).toBeCloseTo(262.5, 1);

		const retry = await clock.run(gate.acquire());
		gate.accepted(retry);
		const next = await clock.run(gate.acquire());
		expect(next - retry).toBeCloseTo(262.5, 0);
		gate.rejected(next, 1000, 1000); // Flare saw the two closer than we sent them

		expect(gate.interval).toBeCloseTo(275, 1);
	});

	it('steps up from a documented spacing that a whole-second Retry-After rules out', async () => {
		const clock = new VirtualClock();
		const gate = new RateGate({ clock, expectedIntervalMs: 250 });
		const tier = new Tier(300, 'integer');

		await sequence(gate, clock, tier, 20);

		// 250 is tried with growing margins (a 429 at its pace may be jitter), then the guess moves up.
		expect(tier.rejected).toBeLessThanOrEqual(4);
		expect(gate.interval).toBeGreaterThanOrEqual(300);
		expect(gate.interval).toBeLessThan(300 * 1.5);
	});

	it('gives concurrent requests successive slots, in the order they ask', async () => {
		const clock = new VirtualClock();
		const gate = new RateGate({ clock, expectedIntervalMs: 250 });
		const tier = new Tier(100, 'precise');
		await sequence(gate, clock, tier, 3);
		const spacing = gate.interval!;
		const order: string[] = [];

		const sent = await clock.run(
			Promise.all(
				['a', 'b', 'c', 'd'].map(async (name) => {
					const at = await send(gate, clock, tier);
					order.push(name);
					return at;
				}),
			),
		);

		expect(order).toEqual(['a', 'b', 'c', 'd']);
		for (let index = 1; index < sent.length; index++) {
			expect(sent[index] - sent[index - 1]).toBeGreaterThanOrEqual(spacing);
		}
		expect(tier.rejected).toBe(2); // both while learning, none of the four
	});

	it('holds a request that got a 429 for the wait it was told, even before anything is learned', async () => {
		const clock = new VirtualClock();
		const gate = new RateGate({ clock });
		const first = await gate.acquire();
		gate.rejected(first, 1500); // no earlier accepted request: nothing to learn from
		expect(gate.interval).toBeUndefined();
		const start = clock.now();
		const retried = await clock.run(gate.acquire());
		expect(retried - start).toBeGreaterThanOrEqual(1500);
	});
});
