import type { Execution } from '../e2e/n8n';
import type { RunJson } from '../e2e/report';
import { againIfWatchdogFired } from '../e2e/suite';
import { processRef } from '../support/node';

/** What n8n 2.41 prints when its regular-expression watchdog stops a run before any node (safe-regex.ts). */
const WATCHDOG_OUTPUT = 'Execution error:\nRegular expression execution timed out\n    at WorkflowExecute.checkReadyForExecution';

const execution = (exitCode: number, output: string, runData: RunJson['data']['resultData']['runData'] = {}): Execution => ({
	workflowId: 'w1',
	exitCode,
	output,
	outputFile: '/tmp/01-w1.log',
	seconds: 1,
	run: { status: exitCode === 0 ? 'success' : 'error', data: { resultData: { runData } } },
});

describe("an end-to-end run stopped by n8n's regular-expression watchdog", () => {
	beforeAll(() => jest.spyOn(processRef.stdout, 'write').mockImplementation(() => true));
	afterAll(() => jest.restoreAllMocks());

	it('is started again once when it reached no node, and the second run counts', async () => {
		const runs = [execution(1, WATCHDOG_OUTPUT), execution(0, '{}')];
		const execute = jest.fn(async () => runs.shift()!);
		await expect(againIfWatchdogFired(execute)).resolves.toMatchObject({ exitCode: 0 });
		expect(execute).toHaveBeenCalledTimes(2);
	});

	it('fails the case when the watchdog fires again: no third run', async () => {
		const execute = jest.fn(async () => execution(1, WATCHDOG_OUTPUT));
		await expect(againIfWatchdogFired(execute)).resolves.toMatchObject({ exitCode: 1 });
		expect(execute).toHaveBeenCalledTimes(2);
	});

	it('is not started again when a node ran, nor for another failure, nor after a success', async () => {
		const ranANode = execution(1, WATCHDOG_OUTPUT, { Flare: [] } as unknown as RunJson['data']['resultData']['runData']);
		for (const once of [ranANode, execution(1, 'Identifier 7999 was not found in Flare'), execution(0, WATCHDOG_OUTPUT)]) {
			const execute = jest.fn(async () => once);
			await expect(againIfWatchdogFired(execute)).resolves.toBe(once);
			expect(execute).toHaveBeenCalledTimes(1);
		}
	});
});
