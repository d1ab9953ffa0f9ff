/**
 * Flare Alert Trigger → Alert Channel: Create on Activation (issue 34; docs/alerts.md, "A channel of
 * its own"): on activation the trigger creates a Webhook channel in Flare for its Production URL, with
 * a signing secret it keeps, reuses it later, and says in n8n's log what it cannot remove (Flare's API
 * cannot delete a channel), as n8n's own webhook triggers register and remove theirs. In n8n-core's
 * HookContext and WebhookContext, against the fake over real HTTP.
 */
import crypto from 'crypto';
import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { FakeFlare, pushAlert } from '../fake-flare';
import { registerSecret } from '../harness/collect';
import { Harness } from '../harness/engine';
import { AlertWebhookWorkflow } from '../harness/webhook';
import { useVirtualTime } from '../support/clock';
import { fs, processRef } from '../support/node';
import { apiRequests } from './support';

const CHANNELS = '/firework/v4/alerts/channels';
const CREATE = { alertChannel: 'create' };

/** n8n's log of this jest worker (test/support/jest-env.js), from `offset`, once it holds `text`. */
const logFile = () => processRef.env.N8N_LOG_FILE_LOCATION!;
const logSize = () => (fs.existsSync(logFile()) ? fs.statSync(logFile()).size : 0);
async function loggedSince(offset: number, text: string): Promise<string> {
	const read = () => (fs.existsSync(logFile()) ? fs.readFileSync(logFile(), 'utf8').slice(offset) : '');
	for (let wait = 0; wait < 50 && !read().includes(text); wait++) await sleep(50);
	expect(read()).toContain(text);
	return read();
}

describe('Flare Alert Trigger: a channel of its own', () => {
	let fake: FakeFlare;
	let harness: Harness;
	let workflow: AlertWebhookWorkflow;

	const start = async (parameters: IDataObject = CREATE) => {
		workflow = await AlertWebhookWorkflow.start(harness, { parameters, flareCredentialId: 'cred-1', name: 'Alerts to n8n' });
		return workflow;
	};
	/** The channel the trigger keeps in its static data (the secret registered for the secret scan). */
	const kept = () => {
		const channel = (workflow.saved['node:Alerts to n8n'] as IDataObject | undefined)?.flareChannel as IDataObject | undefined;
		if (typeof channel?.secret === 'string') registerSecret(channel.secret);
		return channel;
	};
	const sent = () => apiRequests(fake).map((request) => [request.method, request.path, request.query, request.body]);

	beforeAll(async () => {
		fake = await FakeFlare.start();
		harness = await Harness.create();
	});
	afterEach(async () => await workflow?.stop());
	afterAll(async () => await fake.stop());
	beforeEach(() => {
		fake.reset({ credentials: 50, eventsPerTenant: 10 });
		harness.addFlareCredential({ apiKey: fake.apiKeys.full, baseUrl: fake.url });
	});

	it('activation creates one Webhook channel for the Production URL, with a new secret it keeps', async () => {
		await start({ ...CREATE, channelName: ' SOC alerts ' });

		const channel = kept()!;
		expect(channel).toEqual({ id: expect.any(Number), url: workflow.productionUrl, name: 'SOC alerts', secret: expect.stringMatching(/^[0-9a-f]{64}$/) });
		expect(sent()).toEqual([['POST', CHANNELS, {}, { name: 'SOC alerts', params: { type: 'webhook', webhook_url: workflow.productionUrl, secret: channel.secret } }]]);
		expect(fake.playbook.channel(channel.id as number)).toMatchObject({ name: 'SOC alerts', type: 'webhook', params: { webhook_url: workflow.productionUrl } });
	});

	it("alerts signed with the channel's secret start the workflow; unsigned or otherwise signed ones get 401", async () => {
		await start();
		const { secret } = kept()!;
		const [alert] = fake.newAlerts(1);

		const signed = await pushAlert(workflow.productionUrl, alert, { secrets: [secret as string] });
		const unsigned = await pushAlert(workflow.productionUrl, alert);
		const forged = await pushAlert(workflow.productionUrl, alert, { secrets: ['not the secret of the channel'] });
		await workflow.settled();

		expect([signed.status, unsigned.status, forged.status]).toEqual([200, 401, 401]);
		expect(workflow.executions.map((execution) => execution.items.map((item) => item.json.uid))).toEqual([[alert.uid]]);
	});

	it('the channel is named after the workflow unless Channel Name says otherwise', async () => {
		await start();

		expect(sent().map(([, , , body]) => (body as IDataObject).name)).toEqual(['n8n: Harness alert trigger']);
	});

	it('publishing again reuses the channel: it is looked up by name, nothing is created', async () => {
		await start();
		const { id, name } = kept()!;
		fake.clearLog();

		await workflow.activate();

		expect(sent()).toEqual([['GET', CHANNELS, { order_type: 'asc', q: name, size: '10' }, undefined]]);
		expect(kept()!.id).toBe(id);
	});

	it('deactivation removes nothing and says so in n8n\'s log; the channel stays kept for the next activation', async () => {
		await start();
		const { id } = kept()!;
		fake.clearLog();
		const offset = logSize();

		await workflow.deactivate();

		expect(sent()).toEqual([]);
		// n8n's log is JSON: the quotes around the name are escaped there.
		await loggedSince(offset, `the Flare alert channel ${String(id)} (\\"n8n: Harness alert trigger\\") stays in Flare, since Flare's API cannot delete a channel`);
		expect(kept()!.id).toBe(id);
	});

	it('a channel deleted in Flare meanwhile: the next activation creates a new one, with a new secret', async () => {
		await start();
		const before = kept()!;
		fake.playbook.removeChannel(before.id as number);
		fake.clearLog();

		await workflow.activate();

		const after = kept()!;
		expect(sent().map(([method, path]) => [method, path])).toEqual([
			['GET', CHANNELS],
			['POST', CHANNELS],
		]);
		expect(after.id).not.toBe(before.id);
		expect(after.secret).not.toBe(before.secret);
	});

	it('Flare refusing the channel fails the activation with its error', async () => {
		fake.faults.add({ path: CHANNELS, method: 'POST', fault: { status: 403, body: { error: { code: 'FORBIDDEN', message: 'not allowed to manage integrations' } } } });

		const failed = await AlertWebhookWorkflow.start(harness, { parameters: CREATE, flareCredentialId: 'cred-1' }).then(
			() => undefined,
			(error: Error) => error,
		);

		expect([failed?.name, failed?.message]).toEqual(['NodeApiError', 'Your Flare account has no access to this feature, needed to create the alert channel']);
		expect((failed as { description?: string }).description).toContain('not allowed to manage integrations');
		expect(sent().map(([method, path]) => [method, path])).toEqual([['POST', CHANNELS]]);
	});

	describe('Flare unavailable when the workflow is published again', () => {
		useVirtualTime();

		it('the kept channel is used as it is (activation does not depend on Flare); nothing is created', async () => {
			await start();
			const { id } = kept()!;
			fake.clearLog();
			fake.faults.add({ path: CHANNELS, method: 'GET', times: Infinity, fault: { status: 503, rawBody: 'Service Unavailable' } });

			await workflow.activate();

			// The read is tried 5 times (retries of a read), then the channel is kept.
			expect(sent().map(([method, path]) => [method, path])).toEqual(Array(5).fill(['GET', CHANNELS]));
			expect(kept()!.id).toBe(id);
		});
	});

	it("Flare quoting what it was sent in its refusal: the channel's secret is not in the activation's error", async () => {
		const fixed = Buffer.alloc(32, 0x5a);
		const secret = fixed.toString('hex');
		registerSecret(secret);
		const random = jest.spyOn(crypto, 'randomBytes').mockImplementation((() => fixed) as never);
		fake.faults.add({
			path: CHANNELS,
			method: 'POST',
			fault: { status: 422, body: { detail: [{ loc: ['body', 'params', 'secret'], msg: `secret ${secret} is not accepted`, type: 'value_error', input: secret }] } },
		});

		const failed = await AlertWebhookWorkflow.start(harness, { parameters: CREATE, flareCredentialId: 'cred-1' })
			.then(
				() => undefined,
				(error: Error & { description?: string }) => error,
			)
			.finally(() => random.mockRestore());

		expect(failed?.name).toBe('NodeApiError');
		expect(`${failed?.message} ${failed?.description}`).toContain('secret ******** is not accepted');
		expect(JSON.stringify({ message: failed?.message, description: failed?.description, response: (failed as { errorResponse?: unknown }).errorResponse })).not.toContain(secret);
	});

	it('Set Up in Flare (the default): activation and deactivation send nothing to Flare', async () => {
		await start({ authentication: 'none' });
		await workflow.deactivate();

		expect(fake.requests).toEqual([]);
	});
});
