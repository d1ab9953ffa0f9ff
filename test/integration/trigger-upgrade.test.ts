/**
 * A New Event trigger saved before issue 31 (keys `e:digest(uid)`, `<tenant>:e:digest(uid)` with a
 * Tenant; no `scope`, no `rejected`; Severity sent to Flare), upgraded: nothing emitted twice,
 * nothing lost (written by the hostile review of issue 31).
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { eventKey } from '../../nodes/FlareTrigger/newEvent';
import { tenantRecordKey } from '../../nodes/FlareTrigger/poll';
import { digest } from '../../nodes/FlareTrigger/state';
import { FakeFlare } from '../fake-flare';
import { Harness } from '../harness/engine';
import { TriggerWorkflow } from '../harness/poll';
import { moveClock, useVirtualTime } from '../support/clock';

const TENANT = 101;
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const iso = (ms: number) => new Date(ms).toISOString();
const uidOf = (item: { metadata: unknown }) => (item.metadata as IDataObject).uid as string;
const uidsOf = (items: INodeExecutionData[] | null | undefined) => (items ?? []).map((item) => uidOf(item.json as never));
const tenantId = (value: number) => ({ __rl: true, mode: 'id', value: String(value) });

describe('Flare Trigger: a New Event trigger saved before issue 31, upgraded', () => {
	useVirtualTime();
	let fake: FakeFlare;
	let harness: Harness;
	beforeAll(async () => {
		fake = await FakeFlare.start();
		harness = await Harness.create();
	});
	afterAll(async () => await fake.stop());

	it.each([
		['no Tenant, no filter', {}],
		['Tenant 101, Severity critical', { tenant: tenantId(TENANT), severityFilter: 'minimum', minimumSeverity: 'critical' }],
	])('%s: the old keys keep what was emitted from coming again', async (_name, extra) => {
		fake.reset({ credentials: 100, startTime: iso(Date.now() - 35 * DAY) });
		harness.addFlareCredential({ apiKey: fake.apiKeys.full, baseUrl: fake.url });
		const parameters = { event: 'newEvent', feed: 'tenant', ...extra } as IDataObject;
		const workflow = new TriggerWorkflow(harness, { parameters });
		expect(await workflow.activate()).toEqual({ items: null });
		const before: IDataObject[] = [];
		for (let t = 0; t < 8; t++) {
			moveClock(MINUTE);
			fake.addEvents(2, { severity: 'critical' });
			fake.addEvents(1, { severity: 'low' });
			const result = await workflow.poll();
			expect(result.error).toBeUndefined();
			before.push(...(result.items ?? []).map((item) => item.json));
		}
		// Some of what went out is remediated afterwards (the playbook): now only in the sweep's other walks.
		fake.events.act(TENANT, before.slice(0, 4).map((record) => uidOf(record as never)), 'remediate', Date.now());
		// The state as main before the merge saved it: uid keys, no scope, no rejected.
		const prefix = 'tenant' in extra ? `${TENANT}:` : '';
		const keyNow = (record: IDataObject) => ('tenant' in extra ? tenantRecordKey(TENANT, eventKey(record)) : eventKey(record));
		const legacy = new Map(before.map((record) => [keyNow(record), `${prefix}e:${digest(uidOf(record as never))}`]));
		const saved = { ...(workflow.saved['node:Flare Trigger'] as IDataObject) };
		saved.seen = Object.fromEntries(Object.entries(saved.seen as Record<string, number>).filter(([key]) => legacy.has(key)).map(([key, at]) => [legacy.get(key), at]));
		saved.lastPage = (saved.lastPage as string[]).filter((key) => legacy.has(key)).map((key) => legacy.get(key));
		delete saved.rejected;
		delete saved.scope;
		expect(Object.keys(saved.seen as object).length).toBeGreaterThan(0);
		workflow.saved = { 'node:Flare Trigger': saved };
		// n8n's start-up activation poll, over the state the earlier version saved.
		const restarted = await workflow.restart();
		expect(restarted.error).toBeUndefined();

		const after: string[] = uidsOf(restarted.items);
		const added: string[] = [];
		for (let t = 0; t < 60; t += 5) {
			moveClock(5 * MINUTE);
			if (t < 20) added.push(...fake.addEvents(1, { severity: 'critical' }).map(uidOf));
			const result = await workflow.poll();
			expect(result.error).toBeUndefined();
			after.push(...uidsOf(result.items));
		}
		expect(after).toEqual(added);
	}, 120_000);
});
