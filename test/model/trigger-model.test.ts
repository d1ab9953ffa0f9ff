import fc from 'fast-check';

import { FakeFlare } from '../fake-flare';
import { Harness } from '../harness/engine';
import { useVirtualTime } from '../support/clock';
import { LONG, volume } from '../support/volume';
import { checkTriggerModel, type Kind } from './trigger-model';

/**
 * The Flare Trigger against its model (trigger-model.ts), with fixed seeds: `npm test` runs the first
 * runs of each seed, `npm run test:long` the same seeds at full length and a further seed; any seed and
 * length: `npm run test:trigger-model -- --runs N --seed S`.
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
		['New Leaked Credential', 20251125, 'credential', volume(3, 9)],
		['New Event', 20251126, 'event', volume(2, 6)],
		['New Leaked Cookie', 20261128, 'cookie', volume(2, 12)],
		...(LONG ? [['New Leaked Credential', 7, 'credential', 18]] : []),
	] as Array<[string, number, Kind, number]>)('%s: exactly once, nothing else, in time, bounded; New Event decided at the first read (seed %d, kind %s, %d runs)', async (_name, seed, kind, runs) => {
		const details = await checkTriggerModel({ fake, harness, time: clock.time }, { kind, seed, runs });
		if (details.failed) throw new Error(fc.defaultReportMessage(details));
	}, volume(120_000, 1_800_000));
});
