import type { IDataObject } from 'n8n-workflow';

import { pushAlert, type PushOptions, testAlert } from '../fake-flare';
import { AlertWebhookWorkflow } from '../harness/webhook';
import {
	ALERT_SECRET,
	alertUids,
	ALREADY,
	answered,
	N8N_500,
	nowSeconds,
	SIGNED,
	STARTED,
	useAlertTrigger,
} from './support';

const OTHER_SECRET = ['whsec', 'rotated', 'b51f0c'].join('_');

const failures = (workflow: AlertWebhookWorkflow) =>
	workflow.executions.map(({ mode, items, error }) => ({ mode, items, error }));
/** Another n8n process serving the same webhook (queue mode's webhook processors, multi-main). */
const onProcess = (workflow: AlertWebhookWorkflow, process: number) => {
	(workflow as unknown as { nodeId: string }).nodeId = `flare-alert-trigger-${process}`;
};

/**
 * The reproductions of the hostile review of the Flare Alert Trigger (2026-11-25, findings F1–F7),
 * each asserting what the trigger now promises (README "Receive Flare's alerts", docs/alerts.md).
 */
describe('Flare Alert Trigger: each delivery once, every refusal named (hostile review of 2026-11-25)', () => {
	const env = useAlertTrigger({ credentials: 10 });
	const { start, push } = env;

	describe('F1: an alert is remembered only once its items are built', () => {
		it('a body the node cannot take is refused each time Flare sends it, never "already received"', async () => {
			await start();
			const depth = 200_000;
			const rawBody = `{"uid":"paste/pastebin/deep-1","risk":{"score":4},"data":${'['.repeat(depth)}${']'.repeat(depth)}}`;
			const first = await push({}, { secrets: [ALERT_SECRET], rawBody });
			const retry = await push({}, { secrets: [ALERT_SECRET], rawBody, t: nowSeconds() + 1 });
			// Refused before anything reads it (review of 2026-11-28: it failed in the node, 500).
			const deep = {
				status: 400,
				message: 'The body nests objects or arrays more than 64 levels deep: no alert does',
			};
			expect([answered(first), answered(retry)]).toEqual([deep, deep]);
			expect(env.workflow.executions).toEqual([]);
			expect(env.workflow.saved).toEqual({});
		});
	});

	describe('F2: several webhook processes (the documented limit)', () => {
		it.each(['2.41', '1.123'] as const)(
			'n8n %s: a retry on another process is recognised, also while the first delivery runs',
			async (line) => {
				env.workflow = await AlertWebhookWorkflow.start(env.harness, {
					parameters: SIGNED,
					credentialId: env.credentialId,
					n8n: line,
				});
				const [x, y, z] = env.fake.newAlerts(3);
				onProcess(env.workflow, 0);
				await push(x); // the first change of the static data (n8n 2.41 saves it after the request)
				await push(y); // saved after its request too: the request's static data is marked changed
				onProcess(env.workflow, 1); // Flare's retry of y, load-balanced to the other process
				expect(answered(await push(y, { secrets: [ALERT_SECRET], t: nowSeconds() + 30 }))).toEqual(
					ALREADY,
				);
				// z's execution has not ended when its retry reaches the other process.
				onProcess(env.workflow, 0);
				const release = env.workflow.holdExecutions();
				expect(
					answered(await pushAlert(env.workflow.productionUrl, z, { secrets: [ALERT_SECRET] })),
				).toEqual(STARTED);
				onProcess(env.workflow, 1);
				const early = await pushAlert(env.workflow.productionUrl, z, {
					secrets: [ALERT_SECRET],
					t: nowSeconds() + 1,
				});
				// docs/alerts.md "What n8n saves, and when": n8n saves the window after the request, before
				// it answers, on both lines (the hostile review of issue 32, R1).
				const earlyAnswer = answered(early);
				release();
				await env.workflow.settled();
				expect(earlyAnswer).toEqual(ALREADY);
				expect(alertUids(env.workflow)).toEqual([x.uid, y.uid, z.uid]);
				// The same retry on the first process is recognised.
				onProcess(env.workflow, 0);
				expect(answered(await push(z, { secrets: [ALERT_SECRET], t: nowSeconds() + 60 }))).toEqual(
					ALREADY,
				);
			},
		);
	});

	describe('F3: a refused test event shows in the editor', () => {
		it('an execution in error naming the reason and the fix; listening again, the fixed Test starts', async () => {
			await start();
			env.workflow.listen();
			const refused = await pushAlert(env.workflow.testUrl, testAlert(Date.now()), {
				secrets: [OTHER_SECRET],
			});
			await env.workflow.settled();
			expect(answered(refused)).toEqual(N8N_500);
			expect(failures(env.workflow)).toEqual([
				{
					mode: 'manual',
					items: [],
					error: {
						message: expect.stringMatching(
							/^No v1 signature of the X-Flare-Signature header matches: checked 1 value/,
						),
						description:
							"Enter the request signature secret of the Flare alert channel in the node's credential, and check that the clocks of Flare and n8n agree (Options → Timestamp Tolerance). In production, this request is answered 401 and starts no execution; n8n's log keeps a warning.",
					},
				},
			]);
			// n8n stops listening once an execution started (this one, in error), as after a success.
			expect(
				(await pushAlert(env.workflow.testUrl, testAlert(Date.now()), { secrets: [ALERT_SECRET] }))
					.status,
			).toBe(404);
			env.workflow.listen();
			const fixed = await pushAlert(env.workflow.testUrl, testAlert(Date.now()), {
				secrets: [ALERT_SECRET],
			});
			await env.workflow.settled();
			expect(answered(fixed)).toEqual(STARTED);
			expect(env.workflow.executions[1].items.map((item) => item.json.uid)).toEqual([
				'test/flare/alert-channel-test',
			]);
		});

		it('every refusal of a test event names its reason: 415, 400, 413', async () => {
			await start();
			const cases: Array<[PushOptions, RegExp]> = [
				[{ contentType: 'text/plain', rawBody: 'hello' }, /^Flare alerts are JSON/],
				[
					{ contentType: 'application/vnd.flare+json', rawBody: '{' },
					/^The body is not valid JSON/,
				],
				[{ rawBody: '[1]' }, /^The body is JSON but not an alert/],
				[
					{ rawBody: JSON.stringify(Array.from({ length: 1001 }, () => ({}))) },
					/holds 1001 alerts/,
				],
			];
			for (const [options] of cases) {
				env.workflow.listen();
				const result = await pushAlert(
					env.workflow.testUrl,
					{},
					{ secrets: [ALERT_SECRET], ...options },
				);
				expect(answered(result)).toEqual(N8N_500);
			}
			expect(env.workflow.executions.map((execution) => execution.error?.message)).toEqual(
				cases.map(([, reason]) => expect.stringMatching(reason)),
			);
		});

		it('in production a refusal stays a 401 that starts nothing', async () => {
			await start();
			const [alert] = env.fake.newAlerts(1);
			const refused = await push(alert, { secrets: [OTHER_SECRET] });
			expect(refused.status).toBe(401);
			expect(env.workflow.executions).toEqual([]);
		});
	});

	describe('F4, F5: a delivery is its uid and its content', () => {
		it('two different alerts about one event both start the workflow; each retried starts nothing', async () => {
			await start();
			const [alert] = env.fake.newAlerts(1);
			const first = { ...alert, keyword: 'acme.com', identifiers: ['acme.com'] };
			const other = {
				...alert,
				keyword: 'globex.io',
				identifiers: ['globex.io'],
				risk: { score: 5 },
			};
			expect(answered(await push(first))).toEqual(STARTED);
			expect(answered(await push(other))).toEqual(STARTED);
			expect(answered(await push(first, { secrets: [ALERT_SECRET], t: nowSeconds() + 1 }))).toEqual(
				ALREADY,
			);
			expect(answered(await push(other, { secrets: [ALERT_SECRET], t: nowSeconds() + 1 }))).toEqual(
				ALREADY,
			);
			expect(
				env.workflow.executions.map(
					(execution) => (execution.items[0].json.alert as IDataObject).keyword,
				),
			).toEqual(['acme.com', 'globex.io']);
		});

		it('unsigned: a forged body with a genuine uid does not silence the genuine alert', async () => {
			await start({});
			const [genuine] = env.fake.newAlerts(1);
			expect(answered(await push({ uid: genuine.uid, event_type: 'noise' }, {}))).toEqual(STARTED);
			expect(answered(await push(genuine, {}))).toEqual(STARTED);
			expect(alertUids(env.workflow)).toEqual([genuine.uid, genuine.uid]);
		});
	});

	describe('F6: at most 1,000 alerts per body', () => {
		it('1,001 alerts: 413 naming the bound, nothing started nor remembered; 1,000 start one execution', async () => {
			await start();
			const many = Array.from({ length: 1001 }, (_, k) => ({ uid: `test/bulk/${k}` }));
			const refused = await push(many);
			expect(answered(refused)).toEqual({
				status: 413,
				message:
					'The body holds 1001 alerts, more than the 1000 one request may carry: send them in several requests',
			});
			expect(env.workflow.executions).toEqual([]);
			expect(env.workflow.saved).toEqual({});
			const bulk = many.slice(0, 1000).map((alert) => ({ ...alert, event_type: 'bulk' }));
			expect(answered(await push(bulk))).toEqual(STARTED);
			expect(answered(await push(bulk, { secrets: [ALERT_SECRET], t: nowSeconds() + 1 }))).toEqual(
				ALREADY,
			);
			expect(env.workflow.executions.map((execution) => execution.items.length)).toEqual([1000]);
		});
	});

	describe("F7: the channel's Test alert on the Production URL", () => {
		it('starts the workflow each time it is pressed (a new t); the same request again starts nothing', async () => {
			await start();
			const sample = testAlert(Date.now());
			expect(answered(await push(sample))).toEqual(STARTED);
			expect(
				answered(await push(sample, { secrets: [ALERT_SECRET], t: nowSeconds() + 60 })),
			).toEqual(STARTED);
			expect(alertUids(env.workflow)).toEqual([
				'test/flare/alert-channel-test',
				'test/flare/alert-channel-test',
			]);
			// Beside a real alert in one body, the real one is known by its content, the test by its t.
			const [alert] = env.fake.newAlerts(1);
			await push([sample, alert], { secrets: [ALERT_SECRET], t: nowSeconds() + 120 });
			expect(
				answered(await push([sample, alert], { secrets: [ALERT_SECRET], t: nowSeconds() + 121 })),
			).toEqual(STARTED);
			expect(env.workflow.executions.map((execution) => execution.items.length)).toEqual([
				1, 1, 2, 1,
			]);
		});

		it('unsigned (Authentication None), it starts the workflow each time and is never remembered', async () => {
			await start({});
			const sample = testAlert(Date.now());
			expect(answered(await push(sample, {}))).toEqual(STARTED);
			expect(answered(await push(sample, {}))).toEqual(STARTED);
			expect(env.workflow.saved).toEqual({});
		});
	});
});
