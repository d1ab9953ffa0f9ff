import type { IDataObject } from 'n8n-workflow';
import fc from 'fast-check';

import { FlareAlertTrigger } from '../../nodes/FlareAlertTrigger/FlareAlertTrigger.node';
import {
	type FlareAlert,
	PLANTED_MARKER,
	pushAlert,
	type PushOptions,
	signature,
	testAlert,
} from '../fake-flare';
import { addAlertCredential, AlertWebhookWorkflow } from '../harness/webhook';
import { moveClock } from '../support/clock';
import {
	ALERT_SECRET,
	alertUids,
	answered,
	loggedSince,
	logSize,
	maskedView,
	nowSeconds,
	sha256,
	SIGNED,
	STARTED,
	useAlertTrigger,
} from './support';

const OTHER_SECRET = ['whsec', 'rotated', 'b51f0c'].join('_');
const DAY_MS = 24 * 60 * 60_000;
const MiB = 1024 * 1024;
/** The message of a 401 says what was checked. */
const CHECKED = 'HMAC-SHA256 of "<t>.<raw body>" with the signing secret, in hex';

/**
 * The Flare Alert Trigger's promises (README "Receive Flare's alerts"), in n8n-core's real webhook
 * context, served over HTTP as n8n serves it, with alerts pushed as the fake's alert channel pushes
 * them: what it accepts and starts, what it refuses and answers, and that a delivery starts at most
 * one execution whatever retries, concurrency and restarts happen.
 */
describe('Flare Alert Trigger', () => {
	const env = useAlertTrigger({ credentials: 1000 });
	const { start, push } = env;

	describe('a signed alert', () => {
		it('starts one execution with one item: the normalised fields, then the alert as Flare sent it', async () => {
			await start();
			const [alert] = env.fake.newAlerts(1, { type: 'ransomleak', severity: 'high' });
			const before = Date.now();

			const result = await push(alert);

			expect(answered(result)).toEqual(STARTED);
			expect(env.workflow.executions).toHaveLength(1);
			const [execution] = env.workflow.executions;
			expect(execution.mode).toBe('webhook');
			expect(execution.items).toHaveLength(1);
			const { received_at: receivedAt, ...json } = execution.items[0].json;
			expect(json).toEqual({
				uid: alert.uid,
				event_type: 'ransomleak',
				severity: 'high',
				risk_score: 4,
				flare_url: alert.url,
				occurred_at: alert.timestamp,
				alert: maskedView(alert, env.fake.events.plantedValues()),
			});
			expect(Date.parse(receivedAt as string)).toBeGreaterThanOrEqual(before - 1000);
			expect(Date.parse(receivedAt as string)).toBeLessThanOrEqual(Date.now());
		});

		it('several v1 values (Flare rotating its secret): one matching is enough', async () => {
			await start();
			const [alert] = env.fake.newAlerts(1);
			const result = await push(alert, { secrets: [OTHER_SECRET, ALERT_SECRET] });
			expect(answered(result)).toEqual(STARTED);
			expect(alertUids(env.workflow)).toEqual([alert.uid]);
		});

		it('accepts t in milliseconds and signatures in upper-case hex', async () => {
			await start();
			const [first, second] = env.fake.newAlerts(2);
			const t = Date.now();
			const body = JSON.stringify(first);
			expect(
				answered(
					await push(first, {
						rawBody: body,
						header: `t=${t},v1=${signature(ALERT_SECRET, t, body)}`,
					}),
				),
			).toEqual(STARTED);
			const upper = JSON.stringify(second);
			const seconds = nowSeconds();
			const header = `t=${seconds},v1=${signature(ALERT_SECRET, seconds, upper).toUpperCase()}`;
			expect(answered(await push(second, { rawBody: upper, header }))).toEqual(STARTED);
			expect(alertUids(env.workflow)).toEqual([first.uid, second.uid]);
		});

		it('a body of several alerts: one item each, in order, in one execution', async () => {
			await start();
			const alerts = env.fake.newAlerts(3);
			expect(answered(await push(alerts))).toEqual(STARTED);
			expect(env.workflow.executions).toHaveLength(1);
			expect(alertUids(env.workflow)).toEqual(alerts.map((alert) => alert.uid));
		});
	});

	describe('what it refuses: the status, a message saying what was checked, no execution', () => {
		const refusals: Array<[string, (alert: FlareAlert, body: string) => PushOptions, string]> = [
			['no X-Flare-Signature header', () => ({}), 'The request has no X-Flare-Signature header'],
			[
				'a signature made with another secret',
				() => ({ secrets: [OTHER_SECRET] }),
				`checked 1 value(s) against the ${CHECKED}`,
			],
			[
				'a body changed after signing',
				(alert, body) => ({
					rawBody: body.replace(String(alert.uid), 'forged/uid/1'),
					header: `t=${nowSeconds()},v1=${signature(ALERT_SECRET, nowSeconds(), body)}`,
				}),
				`against the ${CHECKED}`,
			],
			[
				'a header without t',
				(_, body) => ({
					rawBody: body,
					header: `v1=${signature(ALERT_SECRET, nowSeconds(), body)}`,
				}),
				'not of the form t=<timestamp>,v1=<signature>',
			],
			[
				'a header without v1',
				() => ({ header: `t=${nowSeconds()}` }),
				'not of the form t=<timestamp>,v1=<signature>',
			],
			[
				'a t that is not a number',
				(_, body) => ({
					rawBody: body,
					header: `t=yesterday,v1=${signature(ALERT_SECRET, 'yesterday', body)}`,
				}),
				'not of the form',
			],
			[
				'a signature 301 s old (replay)',
				() => ({ secrets: [ALERT_SECRET], t: nowSeconds() - 301 }),
				's old, outside the tolerance of 300 s',
			],
			[
				'a signature 301 s ahead',
				() => ({ secrets: [ALERT_SECRET], t: nowSeconds() + 301 }),
				's ahead, outside the tolerance of 300 s',
			],
		];

		it.each(refusals)('401 for %s', async (_, options, reason) => {
			await start();
			const [alert] = env.fake.newAlerts(1);
			const body = JSON.stringify(alert);
			const logged = logSize();

			const result = await push(alert, { rawBody: body, ...options(alert, body) });

			expect(result.status).toBe(401);
			expect((result.body as { message: string }).message).toContain(reason);
			expect(env.workflow.executions).toEqual([]);
			expect(env.workflow.saved).toEqual({});
			// What was checked is logged; the secret and the signature expected never are.
			const log = await loggedSince(logged, 'Flare Alert Trigger refused a request with 401');
			const expected = signature(ALERT_SECRET, nowSeconds(), body);
			for (const text of [log, JSON.stringify(result.body)]) {
				expect(text).not.toContain(ALERT_SECRET);
				expect(text).not.toContain(expected);
			}
		});

		it('the window is the option Timestamp Tolerance: 59 s old accepted, 61 s old refused at 60', async () => {
			await start({ ...SIGNED, options: { timestampTolerance: 60 } });
			const [fresh, stale] = env.fake.newAlerts(2);
			expect(
				answered(await push(fresh, { secrets: [ALERT_SECRET], t: nowSeconds() - 59 })),
			).toEqual(STARTED);
			const refused = await push(stale, { secrets: [ALERT_SECRET], t: nowSeconds() - 61 });
			expect(refused.status).toBe(401);
			expect((refused.body as { message: string }).message).toContain(
				'outside the tolerance of 60 s',
			);
			expect(alertUids(env.workflow)).toEqual([fresh.uid]);
		});

		it('299 s old is within the default 5 minutes', async () => {
			await start();
			const [alert] = env.fake.newAlerts(1);
			expect(
				answered(await push(alert, { secrets: [ALERT_SECRET], t: nowSeconds() - 299 })),
			).toEqual(STARTED);
		});

		it('415 for a body that is not JSON, whatever its signature', async () => {
			await start();
			for (const contentType of [
				'text/plain',
				'application/x-www-form-urlencoded',
				'application/xml',
			]) {
				const result = await push(
					{ uid: 'a/b/c' },
					{ secrets: [ALERT_SECRET], contentType, rawBody: 'uid=a' },
				);
				expect(answered(result)).toEqual({
					status: 415,
					message: `Flare alerts are JSON: the Content-Type is "${contentType}", not application/json`,
				});
			}
			const missing = await pushAlert(
				env.workflow.productionUrl,
				{},
				{ rawBody: Buffer.from('{}'), contentType: '' },
			);
			expect(missing.status).toBe(415);
			expect(env.workflow.executions).toEqual([]);
		});

		it('JSON with a charset, or a +json type, is JSON', async () => {
			await start();
			const [first, second] = env.fake.newAlerts(2);
			expect(
				answered(
					await push(first, {
						secrets: [ALERT_SECRET],
						contentType: 'application/json; charset=utf-8',
					}),
				),
			).toEqual(STARTED);
			expect(
				answered(
					await push(second, {
						secrets: [ALERT_SECRET],
						contentType: 'application/vnd.flare.alert+json',
					}),
				),
			).toEqual(STARTED);
			expect(alertUids(env.workflow)).toEqual([first.uid, second.uid]);
		});

		it('413 for a body over 4 MiB, before its signature is checked', async () => {
			await start();
			const [alert] = env.fake.newAlerts(1);
			const huge = { ...alert, content: 'x'.repeat(4 * MiB) };
			const result = await push(huge, { secrets: [ALERT_SECRET] });
			expect(result.status).toBe(413);
			expect((result.body as { message: string }).message).toMatch(
				/^The body has \d+ bytes, more than the 4194304 an alert may have$/,
			);
			expect(env.workflow.executions).toEqual([]);
		});

		it("malformed JSON: n8n's own 422 for application/json, the trigger's 400 for a +json type", async () => {
			await start();
			const body = '{"uid": "a/b/c",';
			const n8n = await push({}, { secrets: [ALERT_SECRET], rawBody: body });
			expect(n8n.status).toBe(422);
			const ours = await push(
				{},
				{ secrets: [ALERT_SECRET], rawBody: body, contentType: 'application/vnd.flare.alert+json' },
			);
			expect(answered(ours)).toEqual({
				status: 400,
				message: `The body is not valid JSON (${body.length} bytes)`,
			});
			expect(env.workflow.executions).toEqual([]);
		});

		it.each([
			['a number', '42'],
			['a string', '"alert"'],
			['an empty array', '[]'],
			['an array of numbers', '[1,2]'],
			['null', 'null'],
		])('400 for JSON that is not an alert: %s', async (_, body) => {
			await start();
			const result = await push({}, { secrets: [ALERT_SECRET], rawBody: body });
			expect(answered(result)).toEqual({
				status: 400,
				message:
					'The body is JSON but not an alert: an object, or an array of objects, was expected',
			});
			expect(env.workflow.executions).toEqual([]);
		});

		it('500, nothing started, when the credential has no signing secret', async () => {
			addAlertCredential(env.harness, '', 'alert-cred-empty');
			env.workflow = await AlertWebhookWorkflow.start(env.harness, {
				parameters: SIGNED,
				credentialId: 'alert-cred-empty',
			});
			const [alert] = env.fake.newAlerts(1);
			const logged = logSize();
			const result = await push(alert, { secrets: [ALERT_SECRET] });
			// The caller learns only that the trigger is not set up; n8n's log says what to fix.
			expect(answered(result)).toEqual({
				status: 500,
				message: "The Flare Alert Trigger is not set up: see n8n's log",
			});
			await loggedSince(
				logged,
				'Flare Alert Trigger refused a request with 500: The Flare Alert Webhook API credential has no signing secret: enter the request signature secret of the Flare alert channel',
			);
			expect(env.workflow.executions).toEqual([]);
		});
	});

	describe('without a signing secret (Authentication: None)', () => {
		it('every JSON alert starts the workflow, signed or not', async () => {
			await start({});
			const [plain, forged] = env.fake.newAlerts(2);
			expect(answered(await push(plain, {}))).toEqual(STARTED);
			expect(answered(await push(forged, { secrets: [OTHER_SECRET] }))).toEqual(STARTED);
			expect(alertUids(env.workflow)).toEqual([plain.uid, forged.uid]);
		});

		it('still refuses what is not JSON', async () => {
			await start({});
			expect((await push({}, { contentType: 'text/plain', rawBody: 'hello' })).status).toBe(415);
		});
	});

	describe('a delivery starts one execution, not two', () => {
		it('the same uid again (Flare retrying, signed anew): 200, nothing started', async () => {
			await start();
			const [alert] = env.fake.newAlerts(1);
			expect(answered(await push(alert))).toEqual(STARTED);
			const again = await push(alert, { secrets: [ALERT_SECRET], t: nowSeconds() + 1 });
			expect(answered(again)).toEqual({
				status: 200,
				message: 'Alert already received: no execution started',
			});
			expect(alertUids(env.workflow)).toEqual([alert.uid]);
		});

		it('an alert without uid is known by its content', async () => {
			await start();
			const alert = { event_type: 'custom', content: 'no uid here' };
			await push(alert);
			await push(alert);
			await push({ ...alert, content: 'another' });
			expect(env.workflow.executions.map((execution) => execution.items[0].json.alert)).toEqual([
				alert,
				{ ...alert, content: 'another' },
			]);
		});

		it('a body of alerts: only those not received yet, twice in one body counted once', async () => {
			await start();
			const [a, b, c] = env.fake.newAlerts(3);
			await push([a, b]);
			await push([b, c, c, a]);
			expect(
				env.workflow.executions.map((execution) => execution.items.map((item) => item.json.uid)),
			).toEqual([[a.uid, b.uid], [c.uid]]);
		});

		it.each(['2.41', '1.123'] as const)(
			'across a restart of n8n %s: the saved static data remembers (the execution saves it as it ends)',
			async (line) => {
				env.workflow = await AlertWebhookWorkflow.start(env.harness, {
					parameters: SIGNED,
					credentialId: env.credentialId,
					n8n: line,
				});
				const [alert] = env.fake.newAlerts(1);
				await push(alert);
				expect(Object.keys(env.workflow.saved['node:Flare Alert Trigger'] as IDataObject)).toEqual([
					'received',
				]);
				env.workflow.restart();
				expect(answered(await push(alert))).toEqual({
					status: 200,
					message: 'Alert already received: no execution started',
				});
				expect(env.workflow.executions).toHaveLength(1);
			},
		);

		it('deliveries at once: each uid once, and the saved static data holds them all', async () => {
			await start();
			const alerts = env.fake.newAlerts(10);
			const results = await Promise.all(
				[...alerts, ...alerts].map(
					async (alert) =>
						await pushAlert(env.workflow.productionUrl, alert, { secrets: [ALERT_SECRET] }),
				),
			);
			await env.workflow.settled();
			expect(results.every((result) => result.status === 200)).toBe(true);
			expect([...alertUids(env.workflow)].sort()).toEqual(alerts.map((alert) => alert.uid).sort());
			// Requests at once each saved their own copy; the last one still holds every alert.
			const saved = env.workflow.saved['node:Flare Alert Trigger'] as {
				received: Record<string, number>;
			};
			expect(Object.keys(saved.received)).toHaveLength(10);
			env.workflow.restart();
			for (const alert of alerts) await push(alert);
			expect(env.workflow.executions).toHaveLength(10);
		});

		it('the window: 24 hours, at most 1000 alerts, the oldest forgotten first, but none received within the tolerance', async () => {
			await start();
			const [first, late] = env.fake.newAlerts(2);
			await push(first);
			moveClock(DAY_MS + 1000);
			expect(answered(await push(first))).toEqual(STARTED);
			moveClock(1000);

			const many = Array.from({ length: 1000 }, (_, k) => ({
				uid: `test/bulk/${k}`,
				risk: { score: 2 },
			}));
			for (let k = 0; k < many.length; k += 250) await push(many.slice(k, k + 250));
			const received = () =>
				(env.workflow.saved['node:Flare Alert Trigger'] as { received: Record<string, number> })
					.received;
			// All 1,001 were received within the tolerance (300 s): a replay of their requests is recognised.
			expect(Object.keys(received())).toHaveLength(1001);
			// Past the tolerance, the next alert brings the window back to 1,000.
			moveClock(301_000);
			await push(late);
			expect(Object.keys(received())).toHaveLength(1000);
			expect(JSON.stringify(received()).length).toBeLessThan(40_000);
			env.workflow.restart();
			// `first` (the oldest) was forgotten; the others are still known.
			expect(answered(await push(first))).toEqual(STARTED);
			expect(answered(await push(many[999]))).toEqual({
				status: 200,
				message: 'Alert already received: no execution started',
			});
		});

		it('model: whatever the retries, batches, concurrency and restarts, each uid starts exactly one execution', async () => {
			await start();
			const pool = env.fake.newAlerts(12);
			const step = fc.oneof(
				fc.record({ kind: fc.constant('one' as const), alert: fc.nat(11) }),
				fc.record({
					kind: fc.constant('batch' as const),
					alerts: fc.array(fc.nat(11), { minLength: 1, maxLength: 4 }),
				}),
				fc.record({
					kind: fc.constant('concurrent' as const),
					alerts: fc.array(fc.nat(11), { minLength: 2, maxLength: 6 }),
				}),
				fc.record({ kind: fc.constant('restart' as const) }),
			);
			await fc.assert(
				fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
					await env.workflow.stop();
					env.workflow = await AlertWebhookWorkflow.start(env.harness, {
						parameters: SIGNED,
						credentialId: env.credentialId,
					});
					const sent = new Set<string>();
					for (const action of steps) {
						if (action.kind === 'restart') env.workflow.restart();
						else if (action.kind === 'one') await push(pool[action.alert]);
						else if (action.kind === 'batch') await push(action.alerts.map((k) => pool[k]));
						else {
							await Promise.all(
								action.alerts.map(
									async (k) =>
										await pushAlert(env.workflow.productionUrl, pool[k], {
											secrets: [ALERT_SECRET],
										}),
								),
							);
							await env.workflow.settled();
						}
						if (action.kind !== 'restart') {
							const indexes = action.kind === 'one' ? [action.alert] : action.alerts;
							for (const k of indexes) sent.add(pool[k].uid as string);
						}
					}
					expect([...alertUids(env.workflow)].sort()).toEqual([...sent].sort());
				}),
				{ numRuns: 25 },
			);
		});
	});

	describe("the editor's listen for test event", () => {
		it("starts a manual execution with the Test alert, every time, without touching production's memory", async () => {
			await start();
			for (let k = 0; k < 2; k++) {
				env.workflow.listen();
				const result = await pushAlert(env.workflow.testUrl, testAlert(Date.now()), {
					secrets: [ALERT_SECRET],
				});
				await env.workflow.settled();
				expect(answered(result)).toEqual(STARTED);
			}
			expect(
				env.workflow.executions.map((execution) => [
					execution.mode,
					execution.items[0].json.uid,
					execution.items[0].json.severity,
				]),
			).toEqual([
				['manual', 'test/flare/alert-channel-test', 'info'],
				['manual', 'test/flare/alert-channel-test', 'info'],
			]);
			expect(env.workflow.saved).toEqual({});
			// Not listening: the test URL is n8n's 404.
			expect(
				(await pushAlert(env.workflow.testUrl, testAlert(Date.now()), { secrets: [ALERT_SECRET] }))
					.status,
			).toBe(404);
		});

		it('checks the signature in test mode too: the refusal is an execution in error the editor shows', async () => {
			await start();
			env.workflow.listen();
			const result = await pushAlert(env.workflow.testUrl, testAlert(Date.now()), {
				secrets: [OTHER_SECRET],
			});
			expect(result.status).toBe(500);
			expect(
				env.workflow.executions.map(({ mode, items, error }) => ({ mode, items, error })),
			).toEqual([
				{
					mode: 'manual',
					items: [],
					error: {
						message: expect.stringContaining(`checked 1 value(s) against the ${CHECKED}`),
						description: expect.stringContaining('In production, this request is answered 401'),
					},
				},
			]);
		});
	});

	describe('the normalised fields, whatever the kind of alert', () => {
		const fields = async (alert: FlareAlert) => {
			await push(alert);
			const json = { ...env.workflow.executions.at(-1)!.items[0].json };
			delete json.received_at;
			delete json.alert;
			return json;
		};

		it('risk.score 1–5 as Sentinel maps it: info, low, medium, high, critical; other scores give null', async () => {
			await start({});
			const seen = [];
			for (const [k, score] of [1, 2, 3, 4, 5, 7, '4'].entries()) {
				seen.push(await fields({ uid: `chat_message/tg/${k}`, risk: { score } }));
			}
			expect(seen.map((json) => [json.severity, json.risk_score, json.event_type])).toEqual([
				['info', 1, 'chat_message'],
				['low', 2, 'chat_message'],
				['medium', 3, 'chat_message'],
				['high', 4, 'chat_message'],
				['critical', 5, 'chat_message'],
				[null, null, 'chat_message'],
				['high', 4, 'chat_message'],
			]);
		});

		it("the tenant's own score comes before Flare's", async () => {
			await start({});
			expect(
				await fields({ uid: 'paste/pastebin/9', risk: { score: 2 }, user_risk_score: 5 }),
			).toMatchObject({ severity: 'critical', risk_score: 5 });
		});

		it("a feed item: metadata's uid, type, severity (the tenant's override first) and Flare link", async () => {
			await start({});
			const item = env.fake.feed.feedAll(101, { order: 'asc' })[0];
			const overridden = {
				...item,
				tenant_metadata: { severity: { original: 'low', override: 'Critical' } },
			};
			expect(await fields(overridden as never)).toEqual({
				uid: item.metadata.uid,
				event_type: item.metadata.type,
				severity: 'critical',
				risk_score: 5,
				flare_url: item.metadata.flare_url,
				occurred_at: item.metadata.estimated_created_at,
			});
		});

		it('a full event (activity): its header and metadata', async () => {
			await start({});
			const uid = env.fake.feed.feedAll(101, { order: 'asc' })[1].metadata.uid;
			const full = env.fake.events.fullEvent(uid, 101)!;
			expect(await fields(full as never)).toEqual({
				uid,
				event_type: full.activity.header.type,
				severity: ['info', 'low', 'medium', 'high', 'critical'][
					(full.activity.header.user_risk_score ?? full.activity.header.risk.score) - 1
				],
				risk_score: full.activity.header.user_risk_score ?? full.activity.header.risk.score,
				flare_url: full.activity.metadata.flare_url,
				occurred_at: full.activity.header.timestamp,
			});
		});

		it('an unknown kind passes through: what it lacks is null, nothing fails', async () => {
			await start({});
			const alert = {
				kind: 'brand_new',
				url: 'https://source.example/post/1',
				nested: { deep: [1, 2] },
			};
			expect(await fields(alert)).toEqual({
				uid: null,
				event_type: null,
				severity: null,
				risk_score: null,
				flare_url: null,
				occurred_at: null,
			});
			expect(env.workflow.executions.at(-1)!.items[0].json.alert).toEqual(alert);
		});
	});

	describe('leaked values', () => {
		const kinds = ['leaked_credential', 'stealer_log', 'paste', 'source_code_secret'] as const;
		const received = async (options: IDataObject) => {
			await start({ options });
			const alerts = kinds.map((type) => env.fake.newAlerts(1, { type })[0]);
			await push(alerts, {});
			return { alerts, items: env.workflow.executions[0].items.map((item) => item.json) };
		};

		it("masked by default: a password, a stealer log's cookies, a secret in code, a credential line of a paste", async () => {
			const { alerts, items } = await received({});
			expect(alerts.every((alert) => JSON.stringify(alert).includes(PLANTED_MARKER))).toBe(true);
			expect(JSON.stringify(items)).not.toContain(PLANTED_MARKER);
			expect(items.map((item) => item.alert)).toEqual(
				maskedView(alerts, env.fake.events.plantedValues()),
			);
		});

		it('as sent with Leaked Value Output Full; digests with SHA-256; left out with Omit', async () => {
			const full = await received({ leakedValueOutput: 'full' });
			expect(full.items.map((item) => item.alert)).toEqual(full.alerts);
			await env.workflow.stop();
			const digests = await received({ leakedValueOutput: 'sha256' });
			const password = (digests.alerts[0].data as { password: string }).password;
			expect((digests.items[0].alert as { data: { password: string } }).data.password).toBe(
				sha256(password),
			);
			await env.workflow.stop();
			const omitted = await received({ leakedValueOutput: 'omit' });
			expect((omitted.items[0].alert as { data: IDataObject }).data).not.toHaveProperty('password');
			expect(JSON.stringify(omitted.items)).not.toContain(PLANTED_MARKER);
		});
	});

	describe('the credential test', () => {
		it('OK when the signing secret is set, an explanation when it is empty', async () => {
			const test = new FlareAlertTrigger().methods.credentialTest.signingSecretIsSet;
			const run = async (signingSecret: string) =>
				await test.call({} as never, {
					id: '1',
					name: 'x',
					type: 'flareAlertWebhookApi',
					data: { signingSecret },
				});
			expect(await run(ALERT_SECRET)).toEqual({
				status: 'OK',
				message:
					"The signing secret is set. Press Test in Flare's alert channel to send a signed sample alert.",
			});
			expect(await run('')).toEqual({ status: 'Error', message: 'The signing secret is empty' });
		});
	});
});
