/**
 * Hostile review of issue 22 (masking on every surface), findings 4–6: the reproductions, their
 * assertions turned to what is promised (docs/api-contract.md, "Masking"). Findings 1–4 on the masking
 * itself are test/unit/masking.test.ts.
 */
import { planted } from '../fake-flare';
import { lastLeakedValueScan } from '../harness/collect';
import { apiRequests, masked, useFakeFlare } from './support';

const SECRET = planted('sk_live_4eC39HqLyjWDarjtT1zd');
const createSecret = (extra: Record<string, unknown> = {}) => ({
	resource: 'identifier',
	operation: 'create',
	identifierType: 'secret',
	secret: SECRET,
	categories: ['leak'],
	severities: ['high'],
	...extra,
});

describe('Leaked values masked on every surface: a secret identifier, Flare\'s errors, pickers (hostile review of issue 22, findings 4–6)', () => {
	const flare = useFakeFlare({ credentials: 10 });

	describe('finding 4: a monitored secret outside data.secret', () => {
		it('Create of a secret identifier without a Name sends "Secret" and the masked secret as its name', async () => {
			const result = await flare.harness.runNode({ parameters: createSecret() });

			expect(result.status).toBe('success');
			const post = apiRequests(flare.fake).find((request) => request.method === 'POST')!;
			expect(post.body).toMatchObject({ name: `Secret ${masked(SECRET)}`, data: { type: 'secret', secret: SECRET } });
			expect(result.output[0].json).toMatchObject({ name: `Secret ${masked(SECRET)}`, data: { type: 'secret', secret: masked(SECRET) } });
			expect(lastLeakedValueScan().found).toBe(0);
		});

		it('a Name given is sent as it is', async () => {
			await flare.harness.runNode({ parameters: createSecret({ additionalFields: { name: 'Stripe live key' } }) });

			const post = apiRequests(flare.fake).find((request) => request.method === 'POST')!;
			expect(post.body).toMatchObject({ name: 'Stripe live key' });
		});
	});

	describe('finding 5: Flare\'s error texts quoting a leaked value', () => {
		it('a 409 quoting the secret being created reaches the error item and an AI Agent masked', async () => {
			flare.fake.faults.add({
				path: '/firework/v4/identifiers/',
				method: 'POST',
				times: 2,
				fault: { status: 409, body: { message: `An identifier already watches the secret ${SECRET}` } },
			});

			const thrown = await flare.harness.runNode({ parameters: createSecret() });
			expect(lastLeakedValueScan().found).toBe(0);
			const paired = await flare.harness.runNode({ parameters: createSecret(), onError: 'continueErrorOutput' });
			expect(lastLeakedValueScan().found).toBe(0);

			expect(thrown.error?.message).toBe('Flare could not create the identifier (HTTP 409)');
			expect(thrown.error?.description).toBe('An identifier already watches the secret ********');
			expect(paired.errorOutput.map((item) => item.json)).toEqual([{ error: 'Flare could not create the identifier (HTTP 409)' }]);
			// (The error's node holds the parameters the user typed; n8n attaches them, as to any error.)
			expect(JSON.stringify([thrown.error?.message, thrown.error?.description, paired.errorOutput])).not.toContain(SECRET);
		});

		it('a 400 whose details quote a credential line: masked as free text', async () => {
			const password = planted('Summer2024Acme!');
			flare.fake.faults.add({
				path: '/firework/v4/identifiers/',
				method: 'POST',
				fault: { status: 400, body: { message: `Rejected jane@acme.com:${password}`, details: [{ loc: ['body', 'name'], msg: `not jane@acme.com:${password}` }] } },
			});

			const result = await flare.harness.runNode({ parameters: createSecret() });

			expect(lastLeakedValueScan().found).toBe(0);
			expect(result.error?.description).toContain('jane@acme.com:********');
			expect(JSON.stringify([result.error?.message, result.error?.description])).not.toContain(password);
		});
	});

	describe('finding 6: the leaked-value scan sees pickers', () => {
		it('a picker\'s list is collected: a secret identifier named by its secret was given to the masking, and is listed masked', async () => {
			// Named by its secret, as Flare may name one created without a name (docs/api-contract.md, "Masking").
			const created = await flare.harness.runNode({ parameters: createSecret({ additionalFields: { name: SECRET } }) });
			const id = created.output[0].json.id as number;
			const listed = await flare.harness.listOptions({
				kind: 'listSearch',
				method: 'searchIdentifiers',
				parameters: { resource: 'identifier', operation: 'delete' },
				path: 'parameters.identifierId',
			});

			const scan = lastLeakedValueScan();
			expect(scan.operations?.['list.searchIdentifiers']).toEqual({ outputs: 1, exposed: 1, found: 0 });
			expect(scan.outputs).toBe(1);
			expect(JSON.stringify(listed)).toContain(`"P********D (${id})"`);
		});
	});
});
