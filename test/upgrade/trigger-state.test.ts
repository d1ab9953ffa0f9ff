import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { FakeFlare } from '../fake-flare';
import { Harness } from '../harness/engine';
import { TriggerWorkflow } from '../harness/poll';
import { moveClockTo, useVirtualTime } from '../support/clock';
import captured from './c3b5608-trigger-state.json';
import { MINUTE, SCENARIOS, startOf, type Captured } from './scenarios';

const upgradeFrom = captured as Captured;

/**
 * An upgrade from c3b5608: each workflow keeps its parameters and the static data that version saved
 * (c3b5608-trigger-state.json, written by that version's own code: capture.ts); this version takes
 * it over. Nothing it emitted comes again, nothing that came after it, or that it had still to read,
 * is lost.
 */
describe(`Flare Trigger: an upgrade from ${upgradeFrom.version}`, () => {
	useVirtualTime();
	let fake: FakeFlare;
	let harness: Harness;
	beforeAll(async () => {
		fake = await FakeFlare.start();
		harness = await Harness.create();
	});
	afterAll(async () => await fake.stop());

	it.each(SCENARIOS.map((scenario, index) => [scenario.name, scenario, index] as const))('%s', async (name, scenario, index) => {
		const earlier = upgradeFrom.scenarios[name];
		const t0 = startOf(index);
		moveClockTo(t0);
		fake.reset(scenario.fake(t0));
		harness.addFlareCredential({ apiKey: fake.apiKeys.full, baseUrl: fake.url });
		scenario.before?.(fake, t0);
		// The same data at the same instants as when that version ran (its polls are not run again).
		const last = scenario.steps[scenario.steps.length - 1].minute;
		for (const step of scenario.steps) {
			moveClockTo(t0 + step.minute * MINUTE);
			step.add?.(fake);
		}
		const keyOf = (item: INodeExecutionData) =>
			scenario.kind === 'credential' ? String(item.json.id) : String(((item.json as IDataObject).metadata as IDataObject).uid);
		const matching = () =>
			scenario.kind === 'credential'
				? fake.dataset.searchAll({ query: { type: 'domain', fqdn: 'acme.com' } as never, filters: { imported_at: { gte: new Date(t0).toISOString() } }, order: 'asc' }).map((record) => String(record.id))
				: fake.feed
						.feedAll(101, {
							filters: {
								materialized_at: { gte: new Date(t0 - (scenario.budgetMs ? 7 * 24 * 60 : 0) * MINUTE).toISOString() },
								...(scenario.parameters.minimumSeverity ? { severity: scenario.parameters.minimumSeverity } : {}),
							},
							order: 'asc',
						})
						.map((item) => item.metadata.uid);

		// n8n starts with the new version: the workflow, its parameters and what n8n stored.
		moveClockTo(t0 + (last + 1) * MINUTE);
		const workflow = new TriggerWorkflow(harness, { workflowId: `upgraded-${index}`, parameters: scenario.parameters, budgetMs: scenario.budgetMs, published: true });
		workflow.saved = earlier.saved;
		const restarted = await workflow.restart();
		expect(restarted.error).toBeUndefined();
		const later = scenario.kind === 'credential' ? fake.addCredentials(4, undefined, { domain: 'acme.com' }) : fake.addEvents(2, { severity: 'critical' });
		expect(later).toBeDefined();
		const emitted: string[] = (restarted.items ?? []).map(keyOf);
		for (let poll = 0; poll < 10; poll++) {
			moveClockTo(t0 + (last + 2 + poll) * MINUTE);
			const result = await workflow.poll();
			expect(result.error).toBeUndefined();
			emitted.push(...(result.items ?? []).map(keyOf));
		}

		expect(earlier.emitted.length).toBeGreaterThan(0);
		expect(emitted.filter((key) => earlier.emitted.includes(key))).toEqual([]);
		expect([...earlier.emitted, ...emitted].sort()).toEqual(matching().sort());
	});
});
