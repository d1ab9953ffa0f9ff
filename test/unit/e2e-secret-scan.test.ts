import type { RunJson } from '../e2e/report';
import { planted } from '../fake-flare/planted';
import { E2eSecretScan, N8N_LOG_FILE, SERVER_OUTPUT_FILE } from '../e2e/secrets';
import { keepServerOutput } from '../e2e/server';
import { CANARY_API_KEY, CANARY_TOKEN_PREFIX } from '../reliability/secret-scan';
import { fs, os, path } from '../support/node';

/** The e2e suite's scan finds the canary secrets wherever n8n could leave them. */
describe('the end-to-end secret scan', () => {
	let folder: string;
	const made: string[] = [];
	const temporary = (prefix: string) => {
		made.push(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
		return made[made.length - 1];
	};
	afterAll(() => made.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));
	const token = `${CANARY_TOKEN_PREFIX}${'ab12'.repeat(10)}`;

	const run = (json: Record<string, unknown>, error?: { message: string }): RunJson => ({
		status: error ? 'error' : 'success',
		data: {
			resultData: {
				runData: { Flare: [{ data: { main: [[{ json }, { json: { id: 2 } }]] }, error }] },
				error,
			},
		},
	});

	/** An n8n user folder holding what n8n writes: printed runs, its log, its database. */
	const userFolder = (files: { printed?: string; log?: string; database?: string; eventLog?: string; rotatedLog?: string }) => {
		const root = temporary('flare-e2e-scan-');
		fs.mkdirSync(path.join(root, 'runs'));
		fs.mkdirSync(path.join(root, '.n8n'));
		fs.writeFileSync(
			path.join(root, 'runs', '01-run.log'),
			files.printed ?? 'Execution was successful\n',
		);
		fs.writeFileSync(path.join(root, N8N_LOG_FILE), files.log ?? 'info: n8n ready\n');
		fs.writeFileSync(
			path.join(root, '.n8n', 'database.sqlite'),
			files.database ?? 'SQLite format 3\n',
		);
		if (files.eventLog) fs.writeFileSync(path.join(root, '.n8n', 'n8nEventLog.log'), files.eventLog);
		if (files.rotatedLog) fs.writeFileSync(path.join(root, 'n8n1.log'), files.rotatedLog);
		return root;
	};

	beforeEach(() => {
		folder = temporary('flare-e2e-results-');
	});

	it('counts a clean run and writes the summary the reliability table reads', async () => {
		const scan = new E2eSecretScan(CANARY_API_KEY);
		scan.addRun(
			run({ id: 1, hash: 'p*****d' }, { message: 'Identifier 7999 was not found' }),
			'run 1',
		);
		await scan.addInstanceFiles(userFolder({}));
		expect(scan.leaks).toBe(0);
		expect(await scan.write(folder)).toMatch(
			/^Secret scan: 1 runs, 2 output items, 2 errors, 2 lines in 2 files n8n printed or logged, 0\.0 MiB of n8n's database: 0 leaks/,
		);
		const summary = JSON.parse(
			fs.readFileSync(path.join(folder, 'test-results', 'secret-scan-e2e.json'), 'utf8'),
		);
		expect(summary).toMatchObject({
			suite: 'e2e',
			runs: 1,
			items: 2,
			errors: 2,
			logFiles: 2,
			logLines: 2,
			leaks: 0,
			hits: [],
		});
	});

	it.each([
		['an output item', { run: { note: `key ${CANARY_API_KEY}` } }],
		['an error message', { error: `Bearer ${token} refused` }],
		["n8n's log", { log: `debug: Authorization: ${CANARY_API_KEY}\n` }],
		['a printed run', { printed: `"accessToken": "${token}"\n` }],
		["n8n's database", { database: `\u0000${token}\u0000` }],
		["n8n's log as rotated past 16 MiB (hostile review 49)", { rotatedLog: `debug: Authorization: ${CANARY_API_KEY}\n` }],
		["n8n's event log", { eventLog: `{"eventName":"n8n.workflow.failed","payload":{"errorMessage":"Bearer ${token} refused"}}\n` }],
	])(
		'finds a secret in %s, without repeating it',
		async (_where, place: Record<string, unknown>) => {
			const scan = new E2eSecretScan(CANARY_API_KEY);
			const error = place.error ? { message: String(place.error) } : undefined;
			scan.addRun(run((place.run as Record<string, unknown>) ?? { id: 1 }, error), 'run 1');
			await scan.addInstanceFiles(userFolder(place as Record<string, string>));
			expect(scan.leaks).toBeGreaterThan(0);
			expect(scan.describe()).not.toContain(CANARY_API_KEY);
			expect(scan.describe()).not.toContain(token);
		},
	);

	it('finds a secret an earlier start of the server printed: a later start keeps that output (hostile review 46, F1)', async () => {
		const root = userFolder({});
		const printedByStart = [`debug: Authorization: Bearer ${token}\n`, 'info: n8n ready\n', 'info: n8n ready\n'];
		for (const printed of printedByStart) {
			keepServerOutput(root); // what startServer does before it starts n8n
			fs.writeFileSync(path.join(root, SERVER_OUTPUT_FILE), printed);
		}
		expect(fs.readdirSync(path.join(root, 'runs')).sort()).toEqual(['01-run.log', 'server-1.log', 'server-2.log']);
		const scan = new E2eSecretScan(CANARY_API_KEY);
		await scan.addInstanceFiles(root);
		expect(scan.leaks).toBe(1);
	});

	describe('planted leaked values in the output of this package\'s nodes', () => {
		const flare = (parameters: Record<string, unknown> = {}) => ({ name: 'Flare', type: 'n8n-nodes-flareio.flare', parameters });
		const leaked = planted('hunter2');

		it('counts masked output, and reports a planted value in an item or an error', async () => {
			const scan = new E2eSecretScan(CANARY_API_KEY);
			scan.addRun(run({ hash: 'h********D' }), 'clean', [flare()]);
			expect(scan.leakedValueProblems).toEqual([]);
			scan.addRun(run({ data: { password: leaked } }), 'in an item', [flare()]);
			scan.addRun(run({ id: 1 }, { message: `Flare said ${leaked}` }), 'in an error', [flare({ options: { leakedValueOutput: 'masked' } })]);
			// A parameter the user typed, which n8n copies into the error's node, is not an output.
			const typed = run({ id: 1 }, { message: 'not found', node: { name: 'Flare', type: 'n8n-nodes-flareio.flare', parameters: { password: leaked } } } as never);
			scan.addRun(typed, 'a typed parameter', [flare({ password: leaked })]);
			expect(scan.leakedValueProblems).toEqual(['2 planted leaked values in output that is not Full']);
			expect(scan.describe()).toContain('in an item, node "Flare"');
			expect(scan.describe()).toContain('in an error, node "Flare"');
			expect(await scan.write(folder)).toContain(
				"Leaked-value scan: 4 outputs (8 items) of this package's nodes with Leaked Value Output not Full: 2 planted values found; with Full: 0 outputs (0 items) gave back 0",
			);
		});

		it('counts Full apart, and requires it to give the values back; other nodes are not read', () => {
			const scan = new E2eSecretScan(CANARY_API_KEY);
			scan.addRun(run({ hash: leaked }), 'full', [flare({ options: { leakedValueOutput: 'full' } })]);
			scan.addRun(run({ hash: leaked }), 'lookup, full', [flare({ leakedValueOutput: 'full' })]);
			scan.addRun(run({ hash: leaked }), 'another node', [{ name: 'Flare', type: 'n8n-nodes-base.set', parameters: {} }]);
			expect(scan.leakedValueProblems).toEqual([]);
			const empty = new E2eSecretScan(CANARY_API_KEY);
			empty.addRun(run({ hash: 'h********D' }), 'full without values', [flare({ options: { leakedValueOutput: 'full' } })]);
			expect(empty.leakedValueProblems).toEqual(['1 outputs with Leaked Value Output Full held no planted value']);
		});
	});
});
