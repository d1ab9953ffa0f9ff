import fc from 'fast-check';
import { FakeFlare } from '../fake-flare';
import { Harness } from '../harness/engine';
import { useVirtualTime } from '../support/clock';
import { checkTriggerModel } from './trigger-model';

describe('debug', () => {
	const clock = useVirtualTime();
	let fake: FakeFlare;
	let harness: Harness;
	beforeAll(async () => { fake = await FakeFlare.start(); harness = await Harness.create(); });
	afterAll(async () => await fake.stop());
	it('runs', async () => {
		const details = await checkTriggerModel({ fake, harness, time: clock.time }, { kind: (process.env.KIND ?? 'credential') as never, seed: 7, runs: Number(process.env.RUNS ?? 1) });
		console.log(fc.defaultReportMessage(details) ?? 'ok');
	}, 600_000);
});
