/**
 * One run under a rate limit (bench/sections/pacing.ts): our node in the engine with `items` input
 * items, in a process of its own, so that the fake API (in the parent) and the node do not share an
 * event loop, as with the real Flare. The token is exchanged before the clock starts.
 */
import type { IDataObject } from 'n8n-workflow';

import { performance } from '../../test/support/node';
import { harnessFor, runFlareNode } from '../lib/engine';
import { childArgs, childMain, finishChild, ownPeakMiB } from '../lib/proc';

export interface PacingChildConfig {
	baseUrl: string;
	apiKey: string;
	parameters: IDataObject;
	items: number;
}

childMain(async () => {
	const { config, out } = childArgs<PacingChildConfig>();
	const harness = await harnessFor(config.baseUrl, config.apiKey);
	const test = await harness.testCredential();
	if (test.status !== 'OK') throw new Error(`credential test failed: ${test.message}`);
	const started = performance.now();
	const result = await runFlareNode(harness, config.parameters, {
		items: Array.from({ length: config.items }, (_, index) => ({ index })),
		continueOnFail: true,
	});
	const wallMs = performance.now() - started;
	finishChild(out, {
		wallMs,
		peakMiB: ownPeakMiB(),
		items: result.items,
		errorItems: result.errorItems + (result.run.data.resultData.error ? config.items : 0),
	});
});
