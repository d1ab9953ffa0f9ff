import fc from 'fast-check';

import { FakeFlare } from '../fake-flare';
import { Harness } from '../harness/engine';
import { useVirtualTime } from '../support/clock';
import { volume } from '../support/volume';
import { checkTriggerModel, type Kind } from './trigger-model';

/**
 * The Flare Trigger against its model (trigger-model.ts), with fixed seeds: a sample in `npm test`,
 * more runs of the same seeds in the long-proof run (FLARE_LONG=1); the longest runs are
 * `npm run test:trigger-model -- --runs N`.
 */
describe('Flare Trigger: the model', () => {
	const clock = useVirtualTime();
	let fake: FakeFlare;
	let harness: Harness;
	beforeAll(async () => {
		fake = await FakeFlare.start();
		harness = await Harness.create();
	});
	afterAll(async () => await fake.stop());

	it.each([
		['New Leaked Credential', 20251125, 'credential', volume(50, 300)],
		['New Event', 20251126, 'event', volume(30, 200)],
	] as Array<[string, number, Kind, number]>)('%s: exactly once, nothing else, in time, bounded; New Event decided at the first read (seed %d)', async (_name, seed, kind, runs) => {
		const details = await checkTriggerModel({ fake, harness, time: clock.time }, { kind, seed, runs });
		if (details.failed) throw new Error(fc.defaultReportMessage(details));
	}, volume(240_000, 1_800_000));
});
