import fc from 'fast-check';

import { FakeFlare } from '../fake-flare';
import { Harness } from '../harness/engine';
import { useVirtualTime } from '../support/clock';
import { volume } from '../support/volume';
import { checkTriggerModel, type Kind } from './trigger-model';

/**
 * The Flare Trigger against its model (trigger-model.ts), with fixed seeds; the long run is
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
		['New Leaked Credential', 20251125, 'credential', 50],
		['New Event', 20251126, 'event', 30],
		// Issue 34: a short sample by default, the long run's in FLARE_LONG=1.
		['New Leaked Cookie', 20261128, 'cookie', volume(6, 60)],
	] as Array<[string, number, Kind, number]>)('%s: exactly once, nothing else, in time, bounded (seed %d)', async (_name, seed, kind, runs) => {
		const details = await checkTriggerModel({ fake, harness, time: clock.time }, { kind, seed, runs });
		if (details.failed) throw new Error(fc.defaultReportMessage(details));
	}, 240_000);
});
