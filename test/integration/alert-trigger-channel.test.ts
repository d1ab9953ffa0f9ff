/**
 * Flare Alert Trigger → Alert Channel: Create on Activation (issue 34; docs/alerts.md, "A channel of
 * its own"): on activation the trigger creates a Webhook channel in Flare for its Production URL, with
 * a signing secret derived from the API key (never kept), keeps its ID by the webhook ID, finds it by
 * that ID later, and says in n8n's log what it cannot remove (Flare's API
 * cannot delete a channel), as n8n's own webhook triggers register and remove theirs. In n8n-core's
 * HookContext and WebhookContext, against the fake over real HTTP.
 */
import { createHmac } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import { FakeFlare, pushAlert } from '../fake-flare';
import { registerSecret } from '../harness/collect';
import { Harness } from '../harness/engine';
import { AlertWebhookWorkflow } from '../harness/webhook';
import { useVirtualTime } from '../support/clock';
import { apiRequests, loggedSince, logSize } from './support';

const CHANNELS = '/firework/v4/alerts/channels';
const CREATE = { alertChannel: 'create' };

/** The channel's secret as docs/alerts.md ("Its signing secret") states it is derived. */
const derivedSecret = (apiKey: string, workflowId: string, webhookId: string) =>
	createHmac('sha256', apiKey).update(`n8n-flare-alert-channel/v1/${workflowId}/${webhookId}`).digest('hex');

describe('Flare Alert Trigger: a channel of its own', () => {
	let fake: FakeFlare;
	let harness: Harness;
	let workflow: AlertWebhookWorkflow;

	const start = async (parameters: IDataObject = CREATE) => {
		workflow = await AlertWebhookWorkflow.start(harness, { parameters, flareCredentialId: 'cred-1', name: 'Alerts to n8n' });
		return workflow;
	};
	/** The secret Flare signs the channel's alerts with (registered for the secret scan). */
	const secretOf = (id: unknown) => {
		const { secret } = fake.playbook.channel(id as number)!.params as { secret: string };
		registerSecret(secret);
		return secret;
	};
	/** The channel the trigger keeps in the workflow's static data, by its webhook ID. */
	const kept = () => {
		const channels = (workflow.saved.global as IDataObject | undefined)?.flareChannels as IDataObject | undefined;
		return channels?.[workflow.webhookId] as IDataObject | undefined;
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

	it('activation creates one Webhook channel for the Production URL, with a derived secret it does not keep', async () => {
		await start({ ...CREATE, channelName: ' SOC alerts ' });

		const channel = kept()!;
		const secret = secretOf(channel.id);
		expect(secret).toMatch(/^[0-9a-f]{64}$/);
		expect(channel).toEqual({ id: expect.any(Number), url: workflow.productionUrl, name: 'SOC alerts', secretCheck: expect.stringMatching(/^[0-9a-f]{16}$/) });
		expect(JSON.stringify(workflow.saved)).not.toContain(secret);
		expect(sent()).toEqual([['POST', CHANNELS, {}, { name: 'SOC alerts', params: { type: 'webhook', webhook_url: workflow.productionUrl, secret } }]]);
		expect(fake.playbook.channel(channel.id as number)).toMatchObject({ name: 'SOC alerts', type: 'webhook', params: { webhook_url: workflow.productionUrl } });
	});

	it("alerts signed with the channel's secret start the workflow; unsigned or otherwise signed ones get 401", async () => {
		await start();
		const secret = secretOf(kept()!.id);
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

	it('a channel deleted in Flare meanwhile: the next activation looks for it by ID among all channels, then creates a new one, with the same secret', async () => {
		await start();
		const before = kept()!;
		const secret = secretOf(before.id);
		fake.playbook.removeChannel(before.id as number);
		fake.clearLog();

		await workflow.activate();

		const after = kept()!;
		// The tenant's channels, unfiltered: a page of 10, then the next ones (the fake seeds more than 10).
		const pages = sent().length - 2;
		expect(pages).toBeGreaterThan(1);
		expect(sent().map(([method, path, query]) => [method, path, (query as IDataObject).q ?? null, (query as IDataObject).from !== undefined])).toEqual([
			['GET', CHANNELS, before.name, false],
			['GET', CHANNELS, null, false],
			...Array(pages - 1).fill(['GET', CHANNELS, null, true]),
			['POST', CHANNELS, null, false],
		]);
		expect(after.id).not.toBe(before.id);
		expect(secretOf(after.id)).toBe(secret);
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

	it('n8n restarts after an admin renamed the channel in Flare: it is found by its ID, nothing is created, and its alerts start the workflow', async () => {
		await start();
		const first = kept()!;
		const secret = secretOf(first.id);
		(fake.playbook as unknown as { channels: Array<{ id: number; name: string }> }).channels.find((channel) => channel.id === first.id)!.name = 'SOC: n8n playbooks';
		fake.clearLog();

		workflow.restart();
		await workflow.activate();

		// By name first, then every channel (the fake seeds more than a page), until its ID shows.
		const lookups = sent().map(([method, , query]) => [method, (query as IDataObject).q ?? null]);
		expect(lookups.length).toBeGreaterThan(2);
		expect(lookups).toEqual([['GET', first.name], ...Array(lookups.length - 1).fill(['GET', null])]);
		expect(kept()!.id).toBe(first.id);
		const [alert] = fake.newAlerts(1);
		const answer = await pushAlert(workflow.productionUrl, alert, { secrets: [secret] });
		await workflow.settled();
		expect(answer.status).toBe(200);
	});

	it('the trigger node renamed in the editor (its node static data stays under the old name): the channel is kept by webhook ID, nothing is created, its alerts start the workflow', async () => {
		await start();
		const first = kept()!;
		const secret = secretOf(first.id);
		fake.clearLog();

		workflow.renameNode('Flare alerts');
		await workflow.activate();

		expect(sent().map(([method]) => method)).toEqual(['GET']);
		const [alert] = fake.newAlerts(1);
		const answer = await pushAlert(workflow.productionUrl, alert, { secrets: [secret] });
		await workflow.settled();
		expect(answer.status).toBe(200);
	});

	it('a channel recreated while an execution runs: once that execution ends (saving the static data it started from), alerts from the new channel still start the workflow', async () => {
		await start();
		const first = kept()!;
		const [alert, later] = fake.newAlerts(2);
		// An execution (a playbook with a Wait node) starts over the static data that keeps channel A.
		const release = workflow.holdExecutions();
		expect((await pushAlert(workflow.productionUrl, alert, { secrets: [secretOf(first.id)] })).status).toBe(200);
		// Meanwhile the admin deletes channel A in Flare and publishes again: channel B.
		fake.playbook.removeChannel(first.id as number);
		await workflow.activate();
		const second = kept()!;
		expect(second.id).not.toBe(first.id);
		const secret = secretOf(second.id);

		release();
		await workflow.settled();

		const signedByB = await pushAlert(workflow.productionUrl, later, { secrets: [secret] });
		await workflow.settled();
		expect(signedByB.status).toBe(200);
		expect(workflow.executions.map((execution) => execution.items.map((item) => item.json.uid))).toEqual([[alert.uid], [later.uid]]);
	});

	it("another API key in the credential: the next activation creates a channel signed with the new key's secret and says in n8n's log that the old one stays", async () => {
		await start();
		const first = kept()!;
		const before = secretOf(first.id);
		harness.addFlareCredential({ apiKey: fake.apiKeys.noThreatIntel, baseUrl: fake.url });
		fake.clearLog();
		const offset = logSize();

		await workflow.activate();

		const second = kept()!;
		expect(sent().map(([method]) => method)).toEqual(['POST']);
		expect(second.id).not.toBe(first.id);
		expect(secretOf(second.id)).not.toBe(before);
		expect(second.secretCheck).not.toBe(first.secretCheck);
		await loggedSince(offset, `the Flare alert channel ${String(first.id)} (\\"n8n: Harness alert trigger\\") signs with a secret of another Flare API key, so n8n refuses its alerts (401): send its alert rules to channel ${String(second.id)}`);
		const [alert] = fake.newAlerts(1);
		const answers = [await pushAlert(workflow.productionUrl, alert, { secrets: [secretOf(second.id)] }), await pushAlert(workflow.productionUrl, alert, { secrets: [before] })];
		await workflow.settled();
		expect(answers.map((answer) => answer.status)).toEqual([200, 401]);
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

		it('Flare accepting connections but never answering the lookup: activation ends within 30 seconds and keeps the channel', async () => {
			await start();
			const { id } = kept()!;
			fake.clearLog();
			fake.faults.add({ path: CHANNELS, method: 'GET', times: Infinity, fault: { silent: true } });

			const started = Date.now();
			await workflow.activate();

			expect(Date.now() - started).toBeLessThanOrEqual(30_000);
			expect(sent().map(([method]) => method)).toEqual(['GET']);
			expect(kept()!.id).toBe(id);
		});

		it('Flare never answering the creation: activation fails within 30 seconds, saying so', async () => {
			fake.faults.add({ path: CHANNELS, method: 'POST', times: Infinity, fault: { silent: true } });

			const started = Date.now();
			const failed = (await AlertWebhookWorkflow.start(harness, { parameters: CREATE, flareCredentialId: 'cred-1' }).then(
				() => undefined,
				(error: Error) => error,
			)) as Error & { description?: string };

			expect(Date.now() - started).toBeLessThanOrEqual(30_000);
			expect([failed?.name, failed?.message]).toEqual(['NodeOperationError', 'Flare did not answer within 30 seconds while creating the alert channel']);
			expect(failed.description).toContain('Flare may have created the channel all the same');
		});
	});

	it("Flare quoting what it was sent in its refusal: the channel's secret is not in the activation's error", async () => {
		const secret = derivedSecret(fake.apiKeys.full, 'quoting-workflow', 'c0ffee00-flare-alert-0000-harness');
		registerSecret(secret);
		fake.faults.add({
			path: CHANNELS,
			method: 'POST',
			fault: { status: 422, body: { detail: [{ loc: ['body', 'params', 'secret'], msg: `secret ${secret} is not accepted`, type: 'value_error', input: secret }] } },
		});

		const failed = await AlertWebhookWorkflow.start(harness, { parameters: CREATE, flareCredentialId: 'cred-1', workflowId: 'quoting-workflow' }).then(
			() => undefined,
			(error: Error & { description?: string }) => error,
		);

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
