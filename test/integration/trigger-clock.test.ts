/**
 * The Flare Trigger and a host clock that runs ahead of Flare's, then is stepped back (NTP, a VM
 * resumed): where the search and the sweeps got to is kept on Flare's clock (its `Date` header), so
 * the step moves none of it (docs/trigger.md, "How it follows Flare"). These are the hostile review of
 * issue 31's R1, with the host's clock stepped and Flare's going on (the review stepped both): a sweep
 * run 30 minutes ahead kept every later sweep after what only a sweep finds (an event remediated
 * before the first read), and a search changed after the step started in the future.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { FakeFlare } from '../fake-flare';
import { Harness } from '../harness/engine';
import { TriggerWorkflow } from '../harness/poll';
import { moveClock, useVirtualTime } from '../support/clock';

const TENANT = 101;
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const iso = (ms: number) => new Date(ms).toISOString();
const uidOf = (item: { metadata: unknown }) => (item.metadata as IDataObject).uid as string;
const uidsOf = (items: INodeExecutionData[] | null | undefined) =>
	(items ?? []).map((item) => uidOf(item.json as never));

describe('Flare Trigger: the host clock ahead, then stepped back', () => {
	const clock = useVirtualTime();
	let fake: FakeFlare;
	let harness: Harness;
	beforeAll(async () => {
		fake = await FakeFlare.start();
		harness = await Harness.create();
	});
	afterAll(async () => await fake.stop());

	/** Steps n8n's clock by `ms`, Flare's going on as it was. */
	const stepHost = (ms: number) => {
		clock.time.step(ms);
		fake.setClockOffset(fake.clockOffsetMs - ms);
	};

	/** An active New Event trigger that has polled 15 minutes (a sweep included). */
	async function running(): Promise<TriggerWorkflow> {
		fake.reset({ credentials: 100, startTime: iso(Date.now() - 35 * DAY) });
		harness.addFlareCredential({ apiKey: fake.apiKeys.full, baseUrl: fake.url });
		const workflow = new TriggerWorkflow(harness, { parameters: { event: 'newEvent', feed: 'tenant' } });
		expect(await workflow.activate()).toEqual({ items: null });
		for (let t = 0; t < 15; t += 5) {
			moveClock(5 * MINUTE);
			expect(await workflow.poll()).toEqual({ items: null });
		}
		return workflow;
	}

	it.each([4, 30])(
		'%i minutes ahead for one poll (a sweep): an event remediated before the first read still comes, once',
		async (ahead) => {
			const workflow = await running();
			stepHost(ahead * MINUTE);
			expect(await workflow.poll()).toEqual({ items: null });
			stepHost(-ahead * MINUTE);
			moveClock(MINUTE);
			const [event] = fake.addEvents(1, { severity: 'critical' }).map(uidOf);
			moveClock(MINUTE);
			fake.events.act(TENANT, [event], 'remediate', fake.now());
			const emitted: string[] = [];
			for (let t = 0; t < 30; t += 5) {
				moveClock(5 * MINUTE);
				const result = await workflow.poll();
				expect(result.error).toBeUndefined();
				emitted.push(...uidsOf(result.items));
			}
			expect(emitted).toEqual([event]);
			expect(Date.parse(String(workflow.state.since))).toBeLessThanOrEqual(fake.now());
		},
	);

	it('30 minutes ahead for one poll, then the query changed: what enters the feed afterwards comes, once', async () => {
		const workflow = await running();
		stepHost(30 * MINUTE);
		expect(await workflow.poll()).toEqual({ items: null });
		stepHost(-30 * MINUTE);
		moveClock(MINUTE);
		// The user adds a filter and saves the workflow.
		expect(await workflow.reactivate({ event: 'newEvent', feed: 'tenant', filters: { leaveOutIgnored: true } })).toEqual({ items: null });
		const emitted: string[] = [];
		const added: string[] = [];
		for (let t = 0; t < 30; t += 5) {
			moveClock(5 * MINUTE);
			added.push(...fake.addEvents(1).map(uidOf));
			const result = await workflow.poll();
			expect(result.error).toBeUndefined();
			emitted.push(...uidsOf(result.items));
		}
		expect(Date.parse(String(workflow.state.start))).toBeLessThanOrEqual(fake.now());
		expect(emitted).toEqual(added);
	});

	it("n8n's clock 4 minutes ahead at activation, the workflow saved with a Backfill: what existed before activation is not emitted (the long model, seed 20251126, run 21)", async () => {
		fake.reset({ credentials: 100, startTime: iso(Date.now() - 35 * DAY) });
		harness.addFlareCredential({ apiKey: fake.apiKeys.full, baseUrl: fake.url });
		stepHost(4 * MINUTE);
		// 12 minutes old on Flare's clock: before the activation's search starts (15 minutes on n8n's).
		const [before] = fake.addEvents(1, { severity: 'critical', materializedAt: iso(Math.floor((fake.now() - 12 * MINUTE) / 1000) * 1000) }).map(uidOf);
		const parameters = { event: 'newEvent', feed: 'tenant', severityFilter: 'minimum', minimumSeverity: 'high' };
		const workflow = new TriggerWorkflow(harness, { parameters });
		expect(await workflow.activate()).toEqual({ items: null });

		const activation = (await workflow.reactivate({ ...parameters, options: { backfill: 'last24Hours' } }))!;
		moveClock(MINUTE);
		const [added] = fake.addEvents(1, { severity: 'critical' }).map(uidOf);
		const result = await workflow.poll();

		expect(activation).toEqual({ items: null });
		expect(result.error).toBeUndefined();
		expect(uidsOf(result.items)).toEqual([added]);
		expect(uidsOf(result.items)).not.toContain(before);
	});
});
