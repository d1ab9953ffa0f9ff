/**
 * (b, engine) Our node's Return All in n8n-core's real WorkflowExecute, in this process: the same
 * Node.js as the floor, so b/a compares like with like. The package is loaded (and the harness built)
 * before the clock starts; the clock covers the whole execution, token exchange included, as the
 * floor's does.
 */
import type { IDataObject } from 'n8n-workflow';

import { performance, processRef } from '../../test/support/node';
import { withoutRatePacing } from '../../test/harness/engine';
import { harnessFor, runFlareNode } from '../lib/engine';
import { childArgs, childMain, finishChild, ownPeakMiB } from '../lib/proc';

export interface EngineConfig {
	baseUrl: string;
	apiKey: string;
	parameters: IDataObject;
}

childMain(async () => {
	const { config, out } = childArgs<EngineConfig>();
	const harness = await harnessFor(config.baseUrl, config.apiKey);
	// These rows measure the node's own work, without a rate limit: Flare's documented pace is lifted.
	await withoutRatePacing();
	const started = performance.now();
	const cpu = processRef.cpuUsage();
	const result = await runFlareNode(harness, config.parameters);
	const wallMs = performance.now() - started;
	const { user, system } = processRef.cpuUsage(cpu);
	const cpuMs = (user + system) / 1000;
	if (result.error) throw new Error(`the Flare node failed: ${result.error}`);
	finishChild(out, { wallMs, cpuMs, peakMiB: ownPeakMiB(), items: result.items });
});
