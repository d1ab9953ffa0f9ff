/**
 * The leaked-value scan reads more than outputs: the triggers' static data, the alert webhook's
 * answers (test/harness/collect.ts) and n8n's log files (the jest global teardown), whatever Leaked
 * Value Output says. Each surface finds a planted value put there, in any of its forms.
 */
import type { INode } from 'n8n-workflow';

import { planted, plantedNumber } from '../fake-flare/planted';
import { collectRun, lastLeakedValueScan } from '../harness/collect';
import { emptyLeakedValueScan, leakedValueProblems, scanLogSurface } from '../reliability/secret-scan';
import { fs, os, path, processRef } from '../support/node';

const VALUE = planted('hunter2-static');
const trigger = (leakedValueOutput: string): INode => ({
	id: 't',
	name: 'Flare Trigger',
	type: 'n8n-nodes-flareio.flareTrigger',
	typeVersion: 1,
	position: [0, 0],
	parameters: { event: 'newEvent', options: { leakedValueOutput } },
});

describe('the leaked-value scan: static data, webhook answers and n8n logs', () => {
	// These runs plant on purpose: they stay out of the run-wide scan of the global teardown.
	const scanDir = processRef.env.FLARE_SECRET_SCAN_DIR;
	beforeAll(() => delete processRef.env.FLARE_SECRET_SCAN_DIR);
	afterAll(() => {
		if (scanDir !== undefined) processRef.env.FLARE_SECRET_SCAN_DIR = scanDir;
	});

	it.each(['masked', 'full'])("a poll's static data (Leaked Value Output %s) holding a planted value is found", (mode) => {
		collectRun('poll', { result: { items: [] } }, 0, [trigger(mode)], undefined, undefined, {
			'static data': { state: { seen: ['a1'] }, saved: { 'node:Flare Trigger': { lastPage: [VALUE] } } },
		});
		const scan = lastLeakedValueScan();
		expect([scan.found, scan.surfaces]).toEqual([1, { 'static data': { scanned: 1, found: 1 } }]);
		expect(leakedValueProblems(scan)).toEqual(['1 planted leaked values in static data']);
	});

	it("a webhook's answer with a planted value (base64, a number) is found; a clean one counts", () => {
		const base64 = Buffer.from(`jane:${VALUE}`).toString('base64');
		collectRun('webhook', {}, 0, [], undefined, undefined, { 'webhook answers': { status: 200, body: { message: `got ${base64} ${plantedNumber('x')}` } }, 'static data': {} });
		// The base64 of the value holds its two markers, each found.
		expect(lastLeakedValueScan().surfaces).toEqual({ 'webhook answers': { scanned: 1, found: 3 }, 'static data': { scanned: 1, found: 0 } });
		collectRun('webhook', {}, 0, [], undefined, undefined, { 'webhook answers': { status: 200, body: { message: 'Workflow was started' } } });
		expect([lastLeakedValueScan().found, lastLeakedValueScan().surfaces]).toEqual([0, { 'webhook answers': { scanned: 1, found: 0 } }]);
	});

	it("n8n's log files: each is read for planted values, missing ones skipped", async () => {
		const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'flare-log-scan-'));
		try {
			const [clean, leaking] = [path.join(folder, 'a.log'), path.join(folder, 'b.log')];
			fs.writeFileSync(clean, 'info: Workflow was started\n');
			// n8n logs an error with its node, whose parameters the user typed: those are not read.
			const node = { name: 'Flare', type: 'n8n-nodes-flareio.flare', parameters: { operation: 'getByPassword', password: VALUE } };
			fs.writeFileSync(leaking, [
				JSON.stringify({ level: 'debug', message: 'Workflow execution finished with error', metadata: { error: { node, message: 'Flare could not look up' } } }),
				`warn: Flare could not send the event: ${VALUE}`,
				JSON.stringify({ level: 'debug', message: 'x', metadata: { items: [{ json: { note: VALUE } }] } }),
			].join('\n'));
			const scan = emptyLeakedValueScan();
			await scanLogSurface(scan, [clean, leaking, path.join(folder, 'missing.log')]);
			expect([scan.found, scan.surfaces]).toEqual([2, { 'n8n logs': { scanned: 2, found: 2 } }]);
			expect(scan.hits.map((hit) => [hit.source, hit.line])).toEqual([[leaking, 2], [leaking, 3]]);
		} finally {
			fs.rmSync(folder, { recursive: true, force: true });
		}
	});
});
