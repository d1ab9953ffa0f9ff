/**
 * Our node in n8n-core's real WorkflowExecute, through the test harness (test/harness/engine.ts): the
 * package loaded from dist/ by n8n's own loader, the harness's credentials helper (token exchange,
 * 401 refresh, token persisted between executions).
 *
 * `Harness.runWorkflow` also scans every run for secrets, which serialises the whole run: fine for
 * tests, but it would be measured here (and 1,000,000 items do not fit in one string). The bench runs
 * the same workflow through `Harness.executeWorkflow`, which leaves that scan out.
 */
import 'reflect-metadata';
import type { IDataObject, IRun } from 'n8n-workflow';

import { Harness, itemsIntoNode } from '../../test/harness/engine';

export { Harness };

export interface EngineRun {
	run: IRun;
	/** Items our node output (main output). */
	items: number;
	/** The error that stopped the run, or the first error item's message. */
	error?: string;
	/** Items that came out as error items (continue on fail). */
	errorItems: number;
}

/** Runs `Items → Flare` once: `items` are the Flare node's input items. */
export async function runFlareNode(
	harness: Harness,
	parameters: IDataObject,
	options: { items?: IDataObject[]; credentialId?: string; continueOnFail?: boolean } = {},
): Promise<EngineRun> {
	const { nodes, connections } = itemsIntoNode(
		{ parameters, onError: options.continueOnFail ? 'continueRegularOutput' : undefined },
		options,
	);
	const run = await harness.executeWorkflow(nodes, connections);
	const task = run.data.resultData.runData.Flare?.[0];
	const output = task?.data?.main?.[0] ?? [];
	const errorItems = output.filter((item) => item.error !== undefined || 'error' in item.json);
	return {
		run,
		items: output.length - errorItems.length,
		errorItems: errorItems.length,
		error:
			run.data.resultData.error?.message ??
			(errorItems[0] ? String(errorItems[0].json.error) : undefined),
	};
}

/** A harness with one Flare credential (`cred-1`) for the fake at `baseUrl`. */
export async function harnessFor(baseUrl: string, apiKey: string): Promise<Harness> {
	const harness = await Harness.create();
	harness.addFlareCredential({ apiKey, baseUrl, productSegment: 'firework' });
	return harness;
}
