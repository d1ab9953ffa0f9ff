/**
 * New Event and an event that Flare files again in the feed, with a later `matched_at` (e.g. when it
 * matches one more identifier; whether Flare does so is not documented: docs/api-contract.md). The
 * trigger's meaning (docs/trigger.md, "New Event"): each filing is an entry into the feed, emitted
 * once, however long after the last it comes; a filing read again (by a sweep, a restart) is not
 * emitted twice. A workflow that must act once per event leaves out remediated events and remediates
 * what it handled: the filing again of an event it handled is then left out.
 *
 * This replaces the review's test of 2026-11-28 (`trigger-refiled.test.ts`, T2), which asked for once
 * per uid: the trigger emitted the second filing after 40 minutes and not after 5 (it remembered the
 * uid only while a sweep could read it again). Once per uid for ever needs a memory without bound;
 * once per filing needs none and does not depend on when the filing comes.
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
const filingsOf = (items: INodeExecutionData[] | null | undefined) =>
	(items ?? []).map((item) => {
		const metadata = (item.json as IDataObject).metadata as IDataObject;
		return `${String(metadata.uid)} @ ${String(metadata.matched_at)}`;
	});

describe('Flare Trigger, New Event: the same uid filed again in the feed', () => {
	useVirtualTime();
	let fake: FakeFlare;
	let harness: Harness;
	beforeAll(async () => {
		fake = await FakeFlare.start();
		harness = await Harness.create();
	});
	afterAll(async () => await fake.stop());

	const start = async (parameters: IDataObject = {}) => {
		fake.reset({ credentials: 100, startTime: iso(Date.now() - 35 * DAY) });
		harness.addFlareCredential({ apiKey: fake.apiKeys.full, baseUrl: fake.url });
		const workflow = new TriggerWorkflow(harness, { parameters: { event: 'newEvent', feed: 'tenant', ...parameters } });
		expect(await workflow.activate()).toEqual({ items: null });
		return workflow;
	};
	const filing = (item: { metadata: { uid: string; matched_at: string | null } }) => `${item.metadata.uid} @ ${item.metadata.matched_at}`;

	it.each([5, 40])('filed again %i minutes later: each filing emitted once, the others once', async (minutes) => {
		const workflow = await start();
		const [event] = fake.addEvents(1);
		const emitted: string[] = [];
		const others: string[] = [];
		const poll = async () => {
			const result = await workflow.poll();
			expect(result.error).toBeUndefined();
			emitted.push(...filingsOf(result.items));
		};
		await poll();
		for (let t = 0; t < minutes; t += 5) {
			moveClock(5 * MINUTE);
			// The feed goes on: other events enter it meanwhile (a tenant feed of a few a minute).
			others.push(...fake.addEvents(12).map(filing));
			await poll();
		}
		const again = fake.refileEvent(uidOf(event));
		for (let t = 0; t < 30; t += 5) {
			moveClock(5 * MINUTE);
			await poll();
		}

		expect(again.metadata.matched_at).not.toBe(event.metadata.matched_at);
		expect(emitted.filter((key) => key.startsWith(`${event.metadata.uid} @`))).toEqual([filing(event), filing(again)]);
		expect(emitted.filter((key) => !key.startsWith(`${event.metadata.uid} @`))).toEqual(others);
	}, 120_000);

	it('filed again within the same minute, read by the long-lived search and by sweeps, across a restart: once', async () => {
		const workflow = await start();
		const [event] = fake.addEvents(1);
		moveClock(2_000);
		const again = fake.refileEvent(uidOf(event));
		const emitted: string[] = [];
		for (let t = 0; t < 40; t += 5) {
			moveClock(5 * MINUTE);
			// At 15 minutes n8n restarts: its start-up activation poll instead of a tick.
			emitted.push(...filingsOf((t === 15 ? await workflow.restart() : await workflow.poll()).items));
		}

		expect(emitted).toEqual([filing(again)]);
	}, 120_000);

	it('Leave Out Remediated Events, the workflow remediating what it handled: the filing again of a handled event is left out', async () => {
		const workflow = await start({ filters: { leaveOutRemediated: true } });
		const [event] = fake.addEvents(1);
		moveClock(MINUTE);
		const first = filingsOf((await workflow.poll()).items);
		// The workflow handles it, then remediates it (Event → Take Action).
		fake.events.act(TENANT, [uidOf(event)], 'remediate', Date.now());
		moveClock(40 * MINUTE);
		fake.refileEvent(uidOf(event));
		const later: string[] = [];
		for (let t = 0; t < 30; t += 5) {
			moveClock(5 * MINUTE);
			later.push(...filingsOf((await workflow.poll()).items));
		}

		expect([first, later]).toEqual([[filing(event)], []]);
	}, 120_000);
});
