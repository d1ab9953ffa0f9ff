import type { IDataObject } from 'n8n-workflow';
import { WorkflowExecute } from 'n8n-core';

import { pushAlert, signatureHeader, testAlert, type FlareAlert } from '../fake-flare';
import { TriggerWorkflow } from '../harness/poll';
import { StaticDataColumn } from '../harness/static-data';
import { AlertWebhookWorkflow } from '../harness/webhook';
import { moveClock } from '../support/clock';
import { nextTurn } from '../support/node';
import { FlareAlertTrigger } from '../../nodes/FlareAlertTrigger/FlareAlertTrigger.node';
import { MAX_BODY_DEPTH } from '../../nodes/FlareAlertTrigger/receive';
import {
	ALERT_SECRET,
	ALREADY,
	answered,
	nowSeconds,
	SIGNED,
	STARTED,
	useAlertTrigger,
} from './support';

/**
 * What n8n saves of the Flare Alert Trigger's window, and when (docs/alerts.md, "What n8n saves, and
 * when"): the hostile review of issue 32's reproductions (R1 to R4, I1), stating the fixed behaviour.
 * The request saves the window, never the execution; what is written is the window as it is when n8n
 * writes it, also from the copy a poller of the same workflow holds since activation.
 */
const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/**
 * n8n's stop or the workflow's timeout (`ActiveExecutions.stopExecution`), or a next node that runs
 * long: `onTriggerStepDone` runs in n8n-core's own `nodeExecuteAfter` hook, after the trigger's step,
 * with the execution's cancellable run. Returns the restore.
 */
function afterTriggerStep(
	onTriggerStepDone: (run: { cancel: () => void }, index: number) => Promise<void>,
): () => void {
	const original = WorkflowExecute.prototype.processRunExecutionData;
	let index = 0;
	WorkflowExecute.prototype.processRunExecutionData = function (this: WorkflowExecute, ...args) {
		const run = original.apply(this, args);
		const execution = index++;
		const { hooks } = (
			this as unknown as {
				additionalData: {
					hooks?: { addHandler: (name: string, handler: () => Promise<void>) => void };
				};
			}
		).additionalData;
		hooks?.addHandler('nodeExecuteAfter', async () => await onTriggerStepDone(run, execution));
		return run;
	};
	return () => {
		WorkflowExecute.prototype.processRunExecutionData = original;
	};
}

describe('Flare Alert Trigger: what n8n saves, and when (hostile review of issue 32)', () => {
	const env = useAlertTrigger({ credentials: 10 });
	const { start, push } = env;
	/** Flare sends the alert again after n8n restarted (a new signature time). */
	const repeatAfterRestart = async (alert: FlareAlert) => {
		env.workflow.restart();
		return answered(await push(alert, { secrets: [ALERT_SECRET], t: nowSeconds() + 1 }));
	};
	const received = () =>
		Object.keys(
			(env.workflow.saved['node:Flare Alert Trigger'] as { received?: object } | undefined)
				?.received ?? {},
		).length;
	const uids = () =>
		env.workflow.executions.flatMap((execution) => execution.items.map((item) => item.json.uid));

	describe('R1: an alert execution saves nothing; what a poller of the workflow saves keeps the window', () => {
		it.each(['2.41', '1.123'] as const)(
			"n8n %s: another node's state saved while an alert execution runs stays",
			async (line) => {
				await start(SIGNED, line);
				env.workflow.saved = { 'node:Other Trigger': { cursor: 'P0' } };
				const release = env.workflow.holdExecutions();
				const [alert] = env.fake.newAlerts(1);
				expect(
					answered(await pushAlert(env.workflow.productionUrl, alert, { secrets: [ALERT_SECRET] })),
				).toEqual(STARTED);
				// Meanwhile another trigger of the same workflow (a poller) emits and n8n saves its state.
				env.workflow.saved = {
					...plain(env.workflow.saved),
					'node:Other Trigger': { cursor: 'P1' },
				};
				release();
				await env.workflow.settled();
				expect(env.workflow.saved['node:Other Trigger']).toEqual({ cursor: 'P1' });
				expect(received()).toBe(1);
			},
		);

		/**
		 * A save that changes the Flare Trigger alone: n8n 2.41 registers it again over a Workflow of
		 * its own, built from the database (`computeTriggerDiff`, `WorkflowTriggerActivator`), and
		 * leaves the unchanged alert trigger as it was, so its `checkExists` never puts the window into
		 * that copy; the poller's emit then writes back the window as the save found it. n8n 1.123
		 * activates both again. The stated limit of docs/alerts.md ("What n8n saves, and when").
		 */
		it.each([
			['2.41', 'a repeat of an alert received since then starts the workflow again (the stated limit)', STARTED],
			['1.123', 'nothing starts again', ALREADY],
		] as const)('n8n %s: the Flare Trigger saved changed, then an alert, an emit and a restart: %s', async (line, _what, repeated) => {
			env.fake.reset({ credentials: 10 });
			env.harness.addFlareCredential({ apiKey: env.fake.apiKeys.full, baseUrl: env.fake.url });
			const database = new StaticDataColumn();
			const workflowId = `pollSaved-${line}`;
			env.workflow = await AlertWebhookWorkflow.start(env.harness, {
				parameters: SIGNED,
				credentialId: env.credentialId,
				n8n: line,
				workflowId,
				database,
				activatedAlongside: true,
			});
			const poller = new TriggerWorkflow(env.harness, {
				parameters: { event: 'newEvent' },
				workflowId,
				database,
				alongside: [env.workflow.alongside()],
				n8n: line,
			});
			expect(await poller.activate()).toEqual({ items: null });
			moveClock(60_000);
			expect(await poller.reactivate({ event: 'newEvent', severityFilter: 'minimum', minimumSeverity: 'medium' })).toEqual({ items: null });
			const [alert] = env.fake.newAlerts(1);
			const answer = answered(await pushAlert(env.workflow.productionUrl, alert, { secrets: [ALERT_SECRET] }));
			await env.workflow.settled();
			env.fake.addEvents(5, { severity: 'critical' });
			moveClock(60_000);
			const emitted = (await poller.poll()).items ?? [];
			env.workflow.restart();
			moveClock(60_000);
			expect(await poller.restart()).toEqual({ items: null });
			const repeat = answered(await push(alert, { secrets: [ALERT_SECRET], t: nowSeconds() + 1 }));

			// The 5 events and the alert's own.
			expect({ answer, emitted: emitted.length, repeat }).toEqual({ answer: STARTED, emitted: 6, repeat: repeated });
		});

		it.each(['2.41', '1.123'] as const)(
			'n8n %s: a Flare Trigger and a Flare Alert Trigger in one workflow: after a restart, neither starts anything again',
			async (line) => {
				env.fake.reset({ credentials: 10 });
				env.harness.addFlareCredential({ apiKey: env.fake.apiKeys.full, baseUrl: env.fake.url });
				// One workflow, one static-data column, two triggers activated together as n8n does.
				const database = new StaticDataColumn();
				const workflowId = `bothSaved-${line}`;
				env.workflow = await AlertWebhookWorkflow.start(env.harness, {
					parameters: SIGNED,
					credentialId: env.credentialId,
					n8n: line,
					workflowId,
					database,
					activatedAlongside: true,
				});
				const poller = new TriggerWorkflow(env.harness, {
					parameters: { event: 'newEvent' },
					workflowId,
					database,
					alongside: [env.workflow.alongside()],
					n8n: line,
				});
				expect(await poller.activate()).toEqual({ items: null });
				// An alert arrives; its execution is still running when a poll emits and n8n saves the
				// poller's static data (its copy since activation, whole).
				const release = env.workflow.holdExecutions();
				const [alert] = env.fake.newAlerts(1);
				const answer = answered(
					await pushAlert(env.workflow.productionUrl, alert, { secrets: [ALERT_SECRET] }),
				);
				env.fake.addEvents(5);
				moveClock(60_000);
				const emitted = (await poller.poll()).items ?? [];
				release();
				await env.workflow.settled();
				// n8n restarts: both triggers are activated again from what was saved.
				env.workflow.restart();
				moveClock(60_000);
				const again = (await poller.restart()).items;
				const repeat = answered(
					await push(alert, { secrets: [ALERT_SECRET], t: nowSeconds() + 1 }),
				);
				expect({ answer, emitted: emitted.length, again, repeat }).toEqual({
					answer: STARTED,
					emitted: 6, // the 5 events and the alert's own
					again: null,
					repeat: ALREADY,
				});
			},
		);
	});

	describe('R4: what n8n writes is the window as it is then', () => {
		it.each(['2.41', '1.123'] as const)(
			"n8n %s: alert B, received and ended while A's execution runs, is recognised after a restart",
			async (line) => {
				let open = () => {};
				const gate = new Promise<void>((resolve) => (open = resolve));
				// The first execution's next node runs long (a ticket API, an AI step).
				const restore = afterTriggerStep(async (_, index) => {
					if (index === 0) await gate;
				});
				try {
					await start(SIGNED, line);
					env.workflow.saved = { 'node:Other Trigger': {} };
					const [a, b] = env.fake.newAlerts(2);
					for (const alert of [a, b]) {
						expect(
							answered(
								await pushAlert(env.workflow.productionUrl, alert, { secrets: [ALERT_SECRET] }),
							),
						).toEqual(STARTED);
					}
					for (let k = 0; k < 200 && env.workflow.executions.length === 0; k++) await nextTurn();
					expect(uids()).toEqual([b.uid]);
					const savedAfterB = received();
					open();
					await env.workflow.settled();
					const savedAfterA = received();
					expect({ savedAfterB, savedAfterA, repeatOfB: await repeatAfterRestart(b) }).toEqual({
						savedAfterB: 2,
						savedAfterA: 2,
						repeatOfB: ALREADY,
					});
				} finally {
					open();
					restore();
				}
			},
		);

		it.each(['2.41', '1.123'] as const)(
			"n8n %s: a request saved after a later one's keeps the later alert",
			async (line) => {
				await start(SIGNED, line);
				env.workflow.saved = { 'node:Other Trigger': {} };
				const [a, b] = env.fake.newAlerts(2);
				const release = env.workflow.holdSaves();
				// A is admitted and its execution runs; its save waits.
				const answerA = pushAlert(env.workflow.productionUrl, a, { secrets: [ALERT_SECRET] });
				for (let k = 0; k < 200 && env.workflow.executions.length === 0; k++) await nextTurn();
				// B, read before A was saved, is saved first (with A: this process's memory has it).
				expect(answered(await push(b))).toEqual(STARTED);
				const savedAfterB = received();
				release();
				expect(answered(await answerA)).toEqual(STARTED);
				await env.workflow.settled();
				const savedAfterA = received();
				expect({ savedAfterB, savedAfterA, repeatOfB: await repeatAfterRestart(b) }).toEqual({
					savedAfterB: 2,
					savedAfterA: 2,
					repeatOfB: ALREADY,
				});
			},
		);
	});

	describe('R2: no alert received within the signature tolerance is forgotten for a count', () => {
		it('a captured signed alert replayed within the default 300 s, after 1,000 other signed alerts, is recognised', async () => {
			await start();
			const [captured, ...others] = env.fake.newAlerts(1001);
			const rawBody = JSON.stringify(captured);
			const header = signatureHeader([ALERT_SECRET], nowSeconds(), rawBody);
			expect(answered(await push(captured, { rawBody, header }))).toEqual(STARTED);
			// A busy tenant: 1,000 genuine alerts in 10 signed bodies within a minute.
			for (let k = 0; k < 10; k++) {
				expect(answered(await push(others.slice(k * 100, k * 100 + 100)))).toEqual(STARTED);
			}
			moveClock(60_000);
			expect(answered(await push(captured, { rawBody, header }))).toEqual(ALREADY);
			expect(received()).toBe(1001);
		}, 120_000);
	});

	describe('R3: an execution stopped after the trigger ran', () => {
		it.each(['2.41', '1.123'] as const)(
			'n8n %s: the alert is saved all the same: Flare repeating it after a restart starts nothing',
			async (line) => {
				const restore = afterTriggerStep(async (run) => run.cancel());
				try {
					await start(SIGNED, line);
					env.workflow.saved = { 'node:Other Trigger': {} };
					const [alert] = env.fake.newAlerts(1);
					expect(answered(await push(alert))).toEqual(STARTED);
					// The trigger's step ran (its items are in the execution), then the execution was stopped.
					expect(uids()).toEqual([alert.uid]);
					expect(await repeatAfterRestart(alert)).toEqual(ALREADY);
				} finally {
					restore();
				}
			},
		);
	});

	describe('I1: nothing runs after the webhook', () => {
		it('the node has no execute step (engine v2 passes the webhook items on as they are): its items carry only json and pairedItem', async () => {
			expect('execute' in new FlareAlertTrigger()).toBe(false);
			await start(SIGNED, '2.41');
			const [alert] = env.fake.newAlerts(1);
			expect(answered(await push(alert))).toEqual(STARTED);
			expect(
				env.workflow.executions.map((execution) => Object.keys(execution.items[0]).sort()),
			).toEqual([['json', 'pairedItem']]);
		});
	});

	describe('controls: what held before and holds', () => {
		it('20 copies of one signed request at once start one execution', async () => {
			await start();
			const [alert] = env.fake.newAlerts(1);
			const rawBody = JSON.stringify(alert);
			const header = signatureHeader([ALERT_SECRET], nowSeconds(), rawBody);
			const answers = await Promise.all(
				Array.from({ length: 20 }, async () =>
					answered(await pushAlert(env.workflow.productionUrl, alert, { rawBody, header })),
				),
			);
			await env.workflow.settled();
			expect(answers.filter((answer) => answer.message === STARTED.message)).toHaveLength(1);
			expect(uids()).toEqual([alert.uid]);
		});

		it('Flare re-serialising an alert with other whitespace is recognised; another key order is not (the digest is of the alert as parsed)', async () => {
			await start();
			const [alert] = env.fake.newAlerts(1);
			expect(answered(await push(alert))).toEqual(STARTED);
			expect(
				answered(
					await push(alert, { secrets: [ALERT_SECRET], rawBody: JSON.stringify(alert, null, 2) }),
				),
			).toEqual(ALREADY);
			const reordered = Object.fromEntries(Object.entries(alert).reverse());
			expect(answered(await push(reordered))).toEqual(STARTED);
		});

		it('a test event: nothing saved, the same request shown again on the next listen', async () => {
			await start();
			const sample = testAlert(Date.now());
			const rawBody = JSON.stringify(sample);
			const header = signatureHeader([ALERT_SECRET], nowSeconds(), rawBody);
			for (let k = 0; k < 2; k++) {
				env.workflow.listen();
				const answer = await pushAlert(env.workflow.testUrl, sample, { rawBody, header });
				await env.workflow.settled();
				expect(answered(answer)).toEqual(STARTED);
			}
			expect(env.workflow.executions.map((execution) => execution.mode)).toEqual([
				'manual',
				'manual',
			]);
			expect(env.workflow.saved).toEqual({});
		});

		it('a signed Test request captured at the Test URL, replayed at the Production URL, starts there once', async () => {
			await start();
			const sample = testAlert(Date.now());
			const rawBody = JSON.stringify(sample);
			const header = signatureHeader([ALERT_SECRET], nowSeconds(), rawBody);
			env.workflow.listen();
			await pushAlert(env.workflow.testUrl, sample, { rawBody, header });
			await env.workflow.settled();
			expect(answered(await push(sample, { rawBody, header }))).toEqual(STARTED);
			expect(answered(await push(sample, { rawBody, header }))).toEqual(ALREADY);
		});

		it('every alert and full event of the fake nests far below the depth bound', () => {
			const depth = (value: unknown): number =>
				value !== null && typeof value === 'object'
					? 1 + Math.max(0, ...Object.values(value as IDataObject).map(depth))
					: 0;
			const alerts = env.fake.newAlerts(200);
			const events = alerts.map((alert) =>
				env.fake.events.fullEvent(alert.uid as string, env.fake.options.tenants[0]),
			);
			const deepest = Math.max(...alerts.map(depth), ...events.map(depth));
			expect(deepest).toBeLessThanOrEqual(MAX_BODY_DEPTH / 8);
		});
	});
});
