import { DOCUMENTED_INTERVAL_MS, RateGate, rateGate } from '../../nodes/Flare/shared/rateGate';
import { moveClock } from '../support/clock';

/** Times (ms since the first) at which `count` acquires of the gate returned, started together. */
async function acquireTimes(gate: RateGate, count: number, cancel?: AbortSignal): Promise<number[]> {
	const start = Date.now();
	const times: number[] = [];
	await Promise.all(
		Array.from({ length: count }, async () => {
			await gate.acquire(cancel);
			times.push(Date.now() - start);
		}),
	);
	return times.sort((a, b) => a - b);
}

const gaps = (times: number[]) => times.slice(1).map((time, index) => time - times[index]);

describe('Rate gate', () => {
	it('paces at the documented rates: Search 1 per second, Basic 4 per second', () => {
		expect(DOCUMENTED_INTERVAL_MS).toEqual({ search: 1000, basic: 250 });
	});

	it('lets the first request go at once, then one per interval, also for concurrent requests', async () => {
		const times = await acquireTimes(new RateGate(100), 5);

		expect(times[0]).toBeLessThan(50);
		for (const gap of gaps(times)) expect(gap).toBeGreaterThanOrEqual(100);
		expect(times[4]).toBeLessThan(4 * 105 + 200);
	});

	it('holds the whole tier while Flare asked to wait, then returns to the documented pace', async () => {
		const gate = new RateGate(300);
		await gate.acquire();
		gate.pauseUntil(Date.now() + 600);

		const times = await acquireTimes(gate, 4);

		expect(times[0]).toBeGreaterThanOrEqual(590);
		for (const gap of gaps(times)) expect(gap).toBeGreaterThanOrEqual(300);
		// The documented pace, not a slower one (twice the interval would take 1,800 ms), with room for
		// timer delays on a loaded machine.
		expect(times[3] - times[0]).toBeLessThan(3 * 300 + 450);
	});

	it('a host clock moved back leaves the pace and a pause as they were: no wait for the clock to catch up', async () => {
		const gate = new RateGate(100);
		await gate.acquire();
		gate.pauseUntil(Date.now() + 300);
		moveClock(-10 * 60_000);
		try {
			// Before, the slot and the pause stayed 10 minutes ahead of the clock: a 10-minute wait.
			const times = await acquireTimes(gate, 3);
			expect(times[0]).toBeGreaterThanOrEqual(280);
			for (const gap of gaps(times)) expect(gap).toBeGreaterThanOrEqual(100);
			expect(times[2]).toBeLessThan(300 + 2 * 110 + 450);
		} finally {
			moveClock(10 * 60_000);
		}
	});

	it('ends every wait at once when the execution is cancelled', async () => {
		const gate = new RateGate(60_000);
		await gate.acquire();
		const controller = new AbortController();
		const started = Date.now();
		const waiting = gate.acquire(controller.signal);
		controller.abort();

		await expect(waiting).rejects.toMatchObject({ failure: { code: 'CANCELLED' } });
		expect(Date.now() - started).toBeLessThan(1_000);
	});

	it('keeps one gate per organization and tier', () => {
		expect(rateGate('https://api.flare.io|a', 'search')).toBe(rateGate('https://api.flare.io|a', 'search'));
		expect(rateGate('https://api.flare.io|a', 'search')).not.toBe(rateGate('https://api.flare.io|b', 'search'));
		expect(rateGate('https://api.flare.io|a', 'search')).not.toBe(rateGate('https://api.flare.io|a', 'basic'));
	});
});
