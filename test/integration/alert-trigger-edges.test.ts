import type { IDataObject } from 'n8n-workflow';

import { pushAlert, signatureHeader, testAlert, type PushOptions } from '../fake-flare';
import { AlertWebhookWorkflow } from '../harness/webhook';
import { moveClock } from '../support/clock';
import {
	ALERT_SECRET,
	alertUids,
	ALREADY,
	answered,
	loggedSince,
	logSince,
	logSize,
	N8N_500,
	nowSeconds,
	SIGNED,
	STARTED,
	useAlertTrigger,
} from './support';

const HOUR_MS = 3_600_000;
const NOT_SET_UP = { status: 500, message: "The Flare Alert Trigger is not set up: see n8n's log" };
const DEEP = {
	status: 400,
	message: 'The body nests objects or arrays more than 64 levels deep: no alert does',
};

/** `{"uid":…,"data":[[…]]}`: objects and arrays `depth` levels deep. */
const nestedAlert = (uid: string, depth: number) =>
	`{"uid":"${uid}","risk":{"score":4},"data":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;

/**
 * The Flare Alert Trigger at its edges, the findings of the hostile review of 2026-11-28 (A1, A2,
 * A4, A6, S2, the deep body) and the repeat across a restart of n8n 2.41, each as what the trigger
 * promises (README "Known limits", docs/alerts.md).
 */
describe('Flare Alert Trigger at its edges (hostile review of 2026-11-28)', () => {
	const env = useAlertTrigger({ credentials: 10 });
	const { start, push } = env;

	describe('A1: an identical signed request is accepted once', () => {
		it('a captured signed Test alert replayed as is (same t, same v1) starts one execution; Test pressed again (a new t) starts', async () => {
			await start();
			const sample = testAlert(Date.now());
			const rawBody = JSON.stringify(sample);
			const header = signatureHeader([ALERT_SECRET], nowSeconds(), rawBody);
			const answers = [];
			for (let k = 0; k < 5; k++) answers.push(answered(await push(sample, { rawBody, header })));
			expect(answers).toEqual([STARTED, ALREADY, ALREADY, ALREADY, ALREADY]);
			expect(env.workflow.executions).toHaveLength(1);
			expect(
				answered(await push(sample, { secrets: [ALERT_SECRET], t: nowSeconds() + 1 })),
			).toEqual(STARTED);
			// n8n restarted: the replay is still recognised (its key is in the saved static data).
			env.workflow.restart();
			expect(answered(await push(sample, { rawBody, header }))).toEqual(ALREADY);
			expect(env.workflow.executions).toHaveLength(2);
		});

		it('a captured signed alert replayed as is starts one execution', async () => {
			await start();
			const [alert] = env.fake.newAlerts(1);
			const rawBody = JSON.stringify(alert);
			const header = signatureHeader([ALERT_SECRET], nowSeconds(), rawBody);
			for (let k = 0; k < 3; k++) await push(alert, { rawBody, header });
			expect(alertUids(env.workflow)).toEqual([alert.uid]);
		});
	});

	describe('A2: Timestamp Tolerance is at most an hour, within the 24 hours of the window', () => {
		it('above 3600 s the trigger is not set up (500): the caller learns only that, the log says what to fix', async () => {
			await start({ ...SIGNED, options: { timestampTolerance: 2 * 24 * 3600 } });
			const [alert] = env.fake.newAlerts(1);
			const logged = logSize();
			expect(answered(await push(alert))).toEqual(NOT_SET_UP);
			await loggedSince(
				logged,
				'Flare Alert Trigger refused a request with 500: Options → Timestamp Tolerance must be a number of seconds from 1 to 3600, not',
			);
			expect(env.workflow.executions).toEqual([]);
		});

		it('at 3600 s, a signed alert replayed 25 hours later is refused (401); an hour old is still recognised', async () => {
			await start({ ...SIGNED, options: { timestampTolerance: 3600 } });
			const [alert] = env.fake.newAlerts(1);
			const rawBody = JSON.stringify(alert);
			const header = signatureHeader([ALERT_SECRET], nowSeconds(), rawBody);
			expect(answered(await push(alert, { rawBody, header }))).toEqual(STARTED);
			moveClock(HOUR_MS - 1000);
			expect(answered(await push(alert, { rawBody, header }))).toEqual(ALREADY);
			moveClock(24 * HOUR_MS);
			const replay = await push(alert, { rawBody, header });
			expect(replay.status).toBe(401);
			expect(answered(replay).message).toContain('outside the tolerance of 3600 s');
			expect(alertUids(env.workflow)).toEqual([alert.uid]);
		});
	});

	describe('A6: what a caller learns when the node is not set up', () => {
		it("a credential that cannot be read: a fixed 500 for the caller; n8n's log and the editor get the detail", async () => {
			env.workflow = await AlertWebhookWorkflow.start(env.harness, {
				parameters: SIGNED,
				credentialId: 'no-such-credential',
			});
			const logged = logSize();
			// Unsigned, it is refused before the credential is read: it learns nothing of the setup.
			expect((await push({ uid: 'x' }, {})).status).toBe(401);
			const result = await push({ uid: 'x' }, { secrets: ['whsec_guessed'] });
			expect(answered(result)).toEqual(NOT_SET_UP);
			await loggedSince(
				logged,
				'Flare Alert Trigger refused a request with 500: The Flare Alert Webhook API credential of the node could not be read: ',
			);
			env.workflow.listen();
			const test = await pushAlert(env.workflow.testUrl, testAlert(Date.now()), {
				secrets: [ALERT_SECRET],
			});
			await env.workflow.settled();
			expect(answered(test)).toEqual(N8N_500);
			expect(env.workflow.executions.map((execution) => execution.error?.message)).toEqual([
				expect.stringMatching(
					/^The Flare Alert Webhook API credential of the node could not be read: /,
				),
			]);
		});
	});

	describe("S2: refusals in n8n's log", () => {
		it('a flood of refused requests writes a line a minute per status, in words of the trigger, none of the caller', async () => {
			await start();
			const [alert] = env.fake.newAlerts(1);
			const logged = logSize();
			const forged = { secrets: ['whsec_forged_by_someone'], t: nowSeconds() - 1 };
			const odd = 'text/x-attacker-controlled-LOG-INJECTION';
			for (let k = 0; k < 100; k++) {
				expect((await push(alert, forged)).status).toBe(401);
				expect((await push(alert, { contentType: `${odd}-${k}`, rawBody: 'x' })).status).toBe(415);
			}
			// A 400 logged after them: once its line is in the file, theirs are too.
			expect((await push({}, { secrets: [ALERT_SECRET], rawBody: '[1]' })).status).toBe(400);
			const log = await loggedSince(logged, 'refused a request with 400');
			expect(log.match(/Flare Alert Trigger refused a request/g)).toHaveLength(3);
			expect(log).toContain(
				'Flare Alert Trigger refused a request with 401: no v1 signature matching the signing secret',
			);
			expect(log).toContain(
				'Flare Alert Trigger refused a request with 415: a Content-Type other than JSON',
			);
			expect(log).not.toContain('LOG-INJECTION');
			expect(log).not.toContain(`t=${forged.t}`);
			// A minute later, the next refusal is logged with the count of those left out.
			moveClock(61_000);
			const later = logSize();
			expect((await push(alert, {})).status).toBe(401);
			const since = await loggedSince(later, 'refused a request with 401');
			expect(since).toMatch(
				/Flare Alert Trigger refused a request with 401: no X-Flare-Signature header \(99 more refused with 401 since \d{4}-/,
			);
			expect(env.workflow.executions).toEqual([]);
			// The caller still gets what was checked.
			const answer = await push(alert, forged);
			expect(answered(answer).message).toMatch(
				/^No v1 signature of the X-Flare-Signature header matches/,
			);
			expect(logSince(later)).not.toContain('LOG-INJECTION');
		});
	});

	describe('a body nested deeper than 64 levels: 400 before anything reads it', () => {
		it.each<[string, IDataObject, PushOptions]>([
			['signed', SIGNED, { secrets: [ALERT_SECRET] }],
			['under Authentication None', {}, {}],
		])(
			'%s: 20,000 levels deep, refused each time, nothing started nor remembered',
			async (_, parameters, options) => {
				await start(parameters);
				const rawBody = nestedAlert('paste/pastebin/deep-2', 20_000);
				expect(answered(await push({}, { ...options, rawBody }))).toEqual(DEEP);
				expect(answered(await push({}, { ...options, rawBody }))).toEqual(DEEP);
				expect(env.workflow.executions).toEqual([]);
				expect(env.workflow.saved).toEqual({});
			},
		);

		it('64 levels start the workflow; 65 are refused; a test event shows the refusal in the editor', async () => {
			await start();
			expect(
				answered(
					await push(
						{},
						{ secrets: [ALERT_SECRET], rawBody: nestedAlert('paste/pastebin/d64', 64) },
					),
				),
			).toEqual(STARTED);
			expect(
				answered(
					await push(
						{},
						{ secrets: [ALERT_SECRET], rawBody: nestedAlert('paste/pastebin/d65', 65) },
					),
				),
			).toEqual(DEEP);
			expect(alertUids(env.workflow)).toEqual(['paste/pastebin/d64']);
			env.workflow.listen();
			const test = await pushAlert(
				env.workflow.testUrl,
				{},
				{ secrets: [ALERT_SECRET], rawBody: nestedAlert('paste/pastebin/d65', 65) },
			);
			await env.workflow.settled();
			expect(answered(test)).toEqual(N8N_500);
			expect(env.workflow.executions.at(-1)?.error?.message).toBe(DEEP.message);
		});
	});

	describe('a repeat across a restart starts nothing', () => {
		it.each(['2.41', '1.123'] as const)(
			'n8n %s: alerts received before a restart, sent again after it, start nothing (each execution saves the window)',
			async (line) => {
				await start(SIGNED, line);
				const alerts = env.fake.newAlerts(4);
				for (const alert of alerts) expect(answered(await push(alert))).toEqual(STARTED);
				env.workflow.restart();
				for (const alert of alerts) {
					expect(
						answered(await push(alert, { secrets: [ALERT_SECRET], t: nowSeconds() + 1 })),
					).toEqual(ALREADY);
				}
				expect(alertUids(env.workflow)).toEqual(alerts.map((alert) => alert.uid));
				// What was saved: one digest per alert, never the alert.
				const saved = env.workflow.saved['node:Flare Alert Trigger'] as {
					received: Record<string, number>;
				};
				expect(Object.keys(saved.received)).toHaveLength(4);
				expect(JSON.stringify(env.workflow.saved)).not.toContain(String(alerts[0].uid));
			},
		);

		it('the output has no trace of how the trigger remembers', async () => {
			await start();
			const [alert] = env.fake.newAlerts(1);
			await push(alert);
			const [execution] = env.workflow.executions;
			// n8n pairs each item with the trigger's own (as it did when the trigger passed them on).
			expect(Object.keys(execution.items[0]).sort()).toEqual(['json', 'pairedItem']);
			expect(Object.keys(execution.items[0].json).sort()).toEqual([
				'alert',
				'event_type',
				'flare_url',
				'occurred_at',
				'received_at',
				'risk_score',
				'severity',
				'uid',
			]);
		});
	});
});
