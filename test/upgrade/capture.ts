/**
 * Writes what an earlier version of the Flare Trigger saves in each scenario of scenarios.ts, with
 * that version's own code, into `<version>-trigger-state.json` beside this file (run from the
 * repository's root):
 *
 *   git archive <version> | tar -x -C /tmp/old && ln -s "$PWD/node_modules" /tmp/old/node_modules
 *   (cd /tmp/old && npx n8n-node build)
 *   FLARE_PACKAGE_DIR=/tmp/old npx tsx test/upgrade/capture.ts <version>
 *
 * The fake, the harness and the clock are this checkout's; only the package under test is the old one.
 */
import type { INodeExecutionData } from 'n8n-workflow';

import { fs, os, path, processRef } from '../support/node';
import { SCENARIOS, startOf, type Captured, type Scenario } from './scenarios';

const keyOf = (scenario: Scenario, item: INodeExecutionData): string =>
	scenario.kind === 'credential'
		? String(item.json.id)
		: String((item.json.metadata as { uid: string }).uid);

async function main(): Promise<void> {
	const version = processRef.argv[2];
	if (!version || !processRef.env.FLARE_PACKAGE_DIR) {
		throw new Error(
			'Usage: FLARE_PACKAGE_DIR=<built old checkout> tsx test/upgrade/capture.ts <version>',
		);
	}
	processRef.env.N8N_USER_FOLDER ??= fs.mkdtempSync(path.join(os.tmpdir(), 'flare-n8n-'));
	processRef.env.N8N_LOG_OUTPUT = 'file';
	processRef.env.N8N_LOG_FILE_LOCATION ??= path.join(processRef.env.N8N_USER_FOLDER, 'n8n.log');
	const { FakeFlare } = await import('../fake-flare');
	const { Harness } = await import('../harness/engine');
	const { TriggerWorkflow } = await import('../harness/poll');
	const { installVirtualTime, moveClockTo, useRealTime } = await import('../support/clock');
	installVirtualTime();
	const fake = await FakeFlare.start();
	const harness = await Harness.create();
	const captured: Captured = { version, scenarios: {} };
	try {
		for (const [index, scenario] of SCENARIOS.entries()) {
			const t0 = startOf(index);
			moveClockTo(t0);
			fake.reset(scenario.fake(t0));
			harness.addFlareCredential({ apiKey: fake.apiKeys.full, baseUrl: fake.url });
			scenario.before?.(fake, t0);
			const workflow = new TriggerWorkflow(harness, {
				workflowId: `upgrade-${index}`,
				parameters: scenario.parameters,
				budgetMs: scenario.budgetMs,
			});
			const emitted: string[] = [];
			for (const step of scenario.steps) {
				moveClockTo(t0 + step.minute * 60_000);
				step.add?.(fake);
				if (step.fault) fake.faults.add(step.fault);
				const result = step.minute === 0 ? await workflow.activate() : await workflow.poll();
				if (result.error)
					throw new Error(`${scenario.name}, minute ${step.minute}: ${result.error.message}`);
				emitted.push(...(result.items ?? []).map((item) => keyOf(scenario, item)));
			}
			captured.scenarios[scenario.name] = { saved: workflow.saved, emitted };
		}
	} finally {
		await fake.stop();
		useRealTime();
	}
	const file = path.resolve('test', 'upgrade', `${version}-trigger-state.json`);
	fs.writeFileSync(file, `${JSON.stringify(captured, null, '\t')}\n`);
	processRef.stdout.write(`Wrote ${file}\n`);
}

main().catch((error: Error) => {
	processRef.stderr.write(`${error.stack ?? error.message}\n`);
	processRef.exitCode = 1;
});
