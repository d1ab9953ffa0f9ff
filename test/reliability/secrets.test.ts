import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { FakeFlare } from '../fake-flare';
import { lastCollectedHits } from '../harness/collect';
import { Harness } from '../harness/engine';
import { TriggerWorkflow } from '../harness/poll';
import { masked } from '../integration/support';
import { processRef } from '../support/node';
import { CANARY_API_KEY, CANARY_TOKEN_PREFIX, scanFiles, scanText, secretPatterns, textOf } from './secret-scan';
import { CANARY_OPTIONS, Recorder } from './support';

const SEARCH_PATH = '/firework/v4/credentials/global/_search';
const MINUTE = 60_000;

/** Every leaked value (hash field) of an output item: the credential's own, or its passwords'. */
function leakedValues(item: IDataObject): unknown[] {
	const values: unknown[] = 'hash' in item ? [item.hash] : [];
	for (const password of (item.passwords as IDataObject[] | undefined) ?? []) values.push(password.hash);
	return values;
}

describe('Secret hygiene', () => {
	let fake: FakeFlare;
	let harness: Harness;
	const recorder = new Recorder('secrets');
	const patterns = secretPatterns([CANARY_API_KEY]);

	beforeAll(async () => {
		fake = await FakeFlare.start({ credentials: 3_000, domains: ['acme.com', 'example.com'], ...CANARY_OPTIONS });
		harness = await Harness.create();
	});
	beforeEach(() => {
		fake.reset();
		harness.addFlareCredential({ apiKey: CANARY_API_KEY, baseUrl: fake.url });
	});
	afterAll(async () => {
		recorder.save();
		await fake.stop();
	});

	/** Nothing of what the last run left (items, errors, state) holds the key or a token. */
	const expectNoSecrets = (what: unknown) => {
		expect(lastCollectedHits()).toEqual([]);
		expect(scanText(textOf(what).text, patterns)).toEqual([]);
	};

	describe('leaked values are masked by default in every output', () => {
		/** Checks each leaked value against the oracle's, masked; records the row. */
		const expectMasked = (operation: string, items: INodeExecutionData[], originals: Map<string, string>, keyOf: (item: IDataObject) => string[]) => {
			expect(items.length).toBeGreaterThan(0);
			let values = 0;
			for (const { json } of items) {
				const found = leakedValues(json);
				const plain = keyOf(json).map((key) => originals.get(key));
				expect(found).toEqual(plain.map((value) => masked(String(value))));
				for (const [index, value] of found.entries()) {
					if (String(plain[index]).length > 2) expect(value).not.toBe(plain[index]);
				}
				values += found.length;
			}
			expect(values).toBeGreaterThanOrEqual(items.length);
			recorder.add({ kind: 'masking', operation, items: items.length, values });
		};

		/** Original hash of every credential id (1-based index + 1). */
		const credentialHashes = () => {
			const map = new Map<string, string>();
			for (let index = 0; index < fake.dataset.size; index++) map.set(String(index + 1), fake.dataset.credential(index).hash);
			return map;
		};

		it.each([true, false])('Leaked Credential → Search (Simplify %s)', async (simplify) => {
			const result = await harness.runNode({
				parameters: { resource: 'leakedCredential', operation: 'search', queryType: 'domain', fqdn: 'acme.com', limit: 200, simplify },
			});

			expect(result.status).toBe('success');
			expectMasked(`Leaked Credential → Search${simplify ? '' : ' (raw)'}`, result.output, credentialHashes(), (item) => [String(item.id)]);
			expectNoSecrets(result.run);
		});

		it.each(['getByPassword', 'getByKeyword'])('Identity → %s (simplified and raw)', async (operation) => {
			const hashes = credentialHashes();
			const parameter = operation === 'getByPassword' ? { password: fake.dataset.credential(11).hash } : { keyword: '*@acme.com' };
			for (const simplify of [true, false]) {
				const result = await harness.runNode({ parameters: { resource: 'identity', operation, ...parameter, limit: 100, simplify } });

				expect(result.status).toBe('success');
				expectMasked(`Identity → ${operation}${simplify ? '' : ' (raw)'}`, result.output, hashes, (item) =>
					simplify ? [String(item.id)] : ((item.passwords as IDataObject[]) ?? []).map((password) => String(password.id)),
				);
				expectNoSecrets(result.run);
			}
		});

		it.each([true, false])('Flare Trigger, active and manual polls (Simplify %s)', async (simplify) => {
			const workflow = new TriggerWorkflow(harness, { parameters: { queryType: 'domain', fqdn: 'acme.com', simplify } });
			await workflow.activate();
			const at = Math.ceil(Date.now() / MINUTE) * MINUTE + MINUTE;
			fake.addCredentials(40, new Date(at).toISOString());

			const active = await workflow.poll();
			const manual = await workflow.poll('manual');

			const hashes = credentialHashes();
			expectMasked(`Flare Trigger, active poll${simplify ? '' : ' (raw)'}`, active.items ?? [], hashes, (item) => [String(item.id)]);
			expectMasked(`Flare Trigger, fetch test event${simplify ? '' : ' (raw)'}`, manual.items ?? [], hashes, (item) => [String(item.id)]);
			expectNoSecrets({ active, manual, state: workflow.state });
		});
	});

	describe('the API key and the tokens appear nowhere, even when things go wrong', () => {
		it('credential test, good and bad key', async () => {
			expect(await harness.testCredential()).toEqual({ status: 'OK', message: 'Connection successful!' });
			harness.addFlareCredential({ apiKey: `${CANARY_API_KEY}_revoked`, baseUrl: fake.url }, 'cred-bad');

			const refused = await harness.testCredential('cred-bad');

			expect(refused.status).toBe('Error');
			expectNoSecrets(refused);
		});

		it.each([
			['a refused key', { key: `${CANARY_API_KEY}_revoked` }],
			// The exchange is tried 3 times on a 5xx: every attempt fails.
			['a failing token endpoint', { fault: { path: '/tokens/generate', times: 3, fault: { status: 500, body: { error: { message: 'boom' } } } } }],
			['a token endpoint answering without a token', { fault: { path: '/tokens/generate', fault: { status: 200, body: {} } } }],
			['tokens refused after the refresh', { fault: { path: SEARCH_PATH, times: 2, fault: { status: 401, body: { error: { code: 'UNAUTHORIZED', message: 'token revoked' } } } } }],
		] as const)('Search with %s: the error message and description hold no secret', async (_name, setup) => {
			const s = setup as { key?: string; fault?: Parameters<FakeFlare['faults']['add']>[0] };
			if (s.key) harness.addFlareCredential({ apiKey: s.key, baseUrl: fake.url });
			if (s.fault) fake.faults.add(s.fault);

			const result = await harness.runNode({
				parameters: { resource: 'leakedCredential', operation: 'search', queryType: 'domain', fqdn: 'acme.com', limit: 5 },
				onError: 'continueErrorOutput',
			});

			expect(result.errorOutput).toHaveLength(1);
			expect(result.errorOutput[0].error?.message).toEqual(expect.any(String));
			expectNoSecrets(result.run);
		});

		it.each([400, 404, 422, 429])('Flare (or a proxy) echoing the token and the key in an HTTP %i answer: neither reaches the message', async (status) => {
			const warmUp = await harness.runNode({ parameters: { resource: 'source', operation: 'get', sourceId: fake.dataset.sources()[0].id } });
			expect(warmUp.status).toBe('success');
			const token = String(harness.credentials.get('cred-1').data.accessToken);
			expect(token.startsWith(CANARY_TOKEN_PREFIX)).toBe(true);
			const echo = `rejected request with Authorization: Bearer ${token} (key ${CANARY_API_KEY})`;
			const body =
				status === 422
					? { detail: [{ loc: ['header', 'authorization'], msg: echo, type: 'value_error' }] }
					: { error: { code: status === 429 ? 'QUOTA_EXCEEDED' : 'BAD_REQUEST', message: echo } };
			fake.faults.add({ path: /^\/astp\/sources\//, fault: { status, body } });

			const result = await harness.runNode({ parameters: { resource: 'source', operation: 'get', sourceId: fake.dataset.sources()[0].id } });

			expect(result.status).toBe('error');
			expect(`${result.error?.message} ${result.error?.description}`).toContain('[redacted]');
			expectNoSecrets(result.run);
		});

		it.each([400, 404, 422])("a tenant's token (the node's Tenant), echoed bare in an HTTP %i answer, does not reach the message", async (status) => {
			const parameters = { resource: 'source', operation: 'get', sourceId: fake.dataset.sources()[0].id, tenant: { __rl: true, mode: 'id', value: '202' } };
			const warmUp = await harness.runNode({ parameters });
			expect(warmUp.status).toBe('success');
			const [issued] = fake.issuedTokens();
			expect(issued).toEqual({ token: expect.stringMatching(new RegExp(`^${CANARY_TOKEN_PREFIX}`)), tenantId: 202 });
			// The credential's own token is another: the tenant's is held by the node, never stored.
			expect(harness.credentials.get('cred-1').data.accessToken).toBe('');
			const echo = `token ${issued.token} is not allowed here`;
			const body = status === 422 ? { detail: [{ loc: ['header', 'authorization'], msg: echo, type: 'value_error' }] } : { error: { code: 'BAD_REQUEST', message: echo } };
			fake.faults.add({ path: /^\/astp\/sources\//, fault: { status, body } });

			const result = await harness.runNode({ parameters });

			expect(result.status).toBe('error');
			expect(`${result.error?.message} ${result.error?.description}`).toContain('token [redacted] is not allowed here');
			expectNoSecrets(result.run);
		});

		it('a trigger poll that fails keeps its error and state free of secrets', async () => {
			const workflow = new TriggerWorkflow(harness, { parameters: { queryType: 'domain', fqdn: 'acme.com', options: { backfill: 'last24Hours' } } });
			expect((await workflow.activate()).error).toBeUndefined();
			fake.faults.add({ path: SEARCH_PATH, times: 2, fault: { status: 401, body: { error: { code: 'UNAUTHORIZED', message: 'token revoked' } } } });

			const result = await workflow.poll();

			expect(result.error?.message).toBe('Flare refused the credentials while trying to search leaked credentials');
			expectNoSecrets({ error: result.error, state: workflow.state, saved: workflow.saved });
		});

		it("n8n's log of this test file holds no key and no token", async () => {
			const log = processRef.env.N8N_LOG_FILE_LOCATION;
			expect(log).toEqual(expect.any(String));
			const scan = await scanFiles([String(log)], secretPatterns([CANARY_API_KEY, `${CANARY_API_KEY}_revoked`]));
			expect(scan.files).toBe(1);
			expect(scan.lines).toBeGreaterThan(0);
			expect(scan.hits).toEqual([]);
			expect(CANARY_TOKEN_PREFIX).toMatch(/^ftok_/);
		});
	});
});
