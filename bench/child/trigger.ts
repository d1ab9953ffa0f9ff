/**
 * Simulated hours of Flare Trigger polls (bench/sections/trigger.ts), in a process of its own: the
 * real trigger (n8n-core's PollContext through the test harness) against the fake with its quota on.
 *
 * Time is simulated: `Date.now` of this process (which both the node and the fake read: the fake's
 * clock is the host's plus its offset, 0 here) jumps by the poll interval before each poll, so a day of
 * polls takes seconds and n8n and Flare agree on the time. New credentials are added to the fake at
 * import times spread evenly over the day (in whole seconds), each before the first poll that follows
 * it, so they are searchable at once. Flare's pace (1 search/s) is lifted: it costs time, not quota.
 */
import { FakeFlare, QUOTA_SESSION_MS } from '../../test/fake-flare';
import { Harness, withoutRatePacing } from '../../test/harness/engine';
import { TriggerWorkflow } from '../../test/harness/poll';
import { moveClockTo } from '../../test/support/clock';
import { performance } from '../../test/support/node';
import { childArgs, childMain, finishChild, ownPeakMiB } from '../lib/proc';

export interface TriggerChildConfig {
	reading: 'returned' | 'requested';
	intervalMinutes: number;
	/** New matching credentials a day. */
	perDay: number;
	/** Hours simulated (24, or 12 for the longest cases). */
	hours: number;
}

export const DAY_MS = 24 * 3600_000;
const DOMAIN = 'acme.com';

childMain(async () => {
	const { config, out } = childArgs<TriggerChildConfig>();
	const started = performance.now();
	await withoutRatePacing();
	const fake = await FakeFlare.start({
		credentials: 1000,
		domains: [DOMAIN, 'example.com'],
		startTime: new Date(Date.now() - 2 * DAY_MS).toISOString(),
		quotaReading: config.reading,
		tokenLifetimeMs: 365 * DAY_MS,
	});
	try {
		const harness = await Harness.create();
		harness.addFlareCredential({ apiKey: fake.apiKeys.full, baseUrl: fake.url });
		const workflow = new TriggerWorkflow(harness, {
			parameters: { queryType: 'domain', fqdn: DOMAIN },
		});
		const activation = await workflow.activate();
		if (activation.error) throw activation.error;
		const activationUnits = fake.quotaUsed();

		// The day starts once the activation's search session is over.
		const start = Date.now() + QUOTA_SESSION_MS;
		const intervalMs = config.intervalMinutes * 60_000;
		const spanMs = config.hours * 3600_000;
		const imports = Math.round((config.perDay * spanMs) / DAY_MS);
		const importTimes = Array.from(
			{ length: imports },
			(_, index) => Math.floor((start + ((index + 0.5) * spanMs) / imports) / 1000) * 1000,
		);
		const mark = fake.requests.length;
		let added = 0;
		let emitted = 0;
		let polls = 0;
		for (let time = start + intervalMs; time <= start + spanMs; time += intervalMs) {
			moveClockTo(time);
			while (added < importTimes.length && importTimes[added] <= time) {
				fake.addCredentials(1, new Date(importTimes[added]).toISOString(), { domain: DOMAIN });
				added++;
			}
			const result = await workflow.poll();
			if (result.error) throw result.error;
			emitted += result.items?.length ?? 0;
			polls++;
		}
		const searches = fake.globalSearches(mark);
		finishChild(out, {
			wallMs: performance.now() - started,
			peakMiB: ownPeakMiB(),
			items: emitted,
			added,
			polls,
			units: fake.quotaUsed() - activationUnits,
			activationUnits,
			requests: searches.requests,
			results: searches.results,
		});
	} finally {
		await fake.stop();
	}
});
