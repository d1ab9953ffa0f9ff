import fc from 'fast-check';

import { signatureHeader } from '../fake-flare/push';
import { moveClockTo } from '../support/clock';
import { alertItem } from '../../nodes/FlareAlertTrigger/alert';
import {
	admit,
	alertsInMemory,
	type DeliveryState,
	deliveryKey,
	MAX_IN_MEMORY,
	MAX_REMEMBERED,
	rememberWhenSaved,
	WINDOW_MS,
} from '../../nodes/FlareAlertTrigger/deliveries';
import {
	acceptedBody,
	MAX_BODY_DEPTH,
	nestedDeeperThan,
	type Refusal,
	REFUSAL_LOG_INTERVAL_MS,
	refusalLogLine,
} from '../../nodes/FlareAlertTrigger/receive';
import { verifySignature } from '../../nodes/FlareAlertTrigger/signature';

const NOW = Date.parse('2026-11-25T12:00:00Z');
const T = Math.floor(NOW / 1000);
const MINUTE = 60_000;

/** The Flare Alert Trigger's pure parts: the signature check and the window of received alerts. */
describe('Flare Alert Trigger: the signature', () => {
	const secret = fc.string({ minLength: 1, maxLength: 64 });
	const body = fc.uint8Array({ maxLength: 2048 }).map((bytes) => Buffer.from(bytes));

	it('accepts exactly the body and time signed with the secret: any other byte, secret or time is refused', () => {
		fc.assert(
			fc.property(
				secret,
				secret,
				body,
				fc.nat(2047),
				fc.integer({ min: -300, max: 300 }),
				(key, other, raw, at, skew) => {
					const header = signatureHeader([key], T + skew, raw);
					expect(verifySignature(header, raw, key, 300, NOW)).toEqual({
						valid: true,
						t: String(T + skew),
					});
					if (other !== key)
						expect(verifySignature(header, raw, other, 300, NOW).valid).toBe(false);
					if (raw.length > 0) {
						const changed = Buffer.from(raw);
						changed[at % raw.length] ^= 1;
						expect(verifySignature(header, changed, key, 300, NOW).valid).toBe(false);
					}
					const later = header.replace(`t=${T + skew}`, `t=${T + skew + 1}`);
					expect(verifySignature(later, raw, key, 300, NOW).valid).toBe(false);
				},
			),
		);
	});

	it('refuses a time outside the tolerance even when the signature matches, and says how far', () => {
		const raw = Buffer.from('{}');
		expect(
			verifySignature(signatureHeader(['s3cret'], T - 301, raw), raw, 's3cret', 300, NOW),
		).toEqual({
			valid: false,
			reason: `The signature's time t=${T - 301} is 301 s old, outside the tolerance of 300 s (a replay, or clocks apart)`,
			// n8n's log gets the check alone, without the caller's t.
			check: "a signature's time outside the tolerance of 300 s",
		});
		expect(
			verifySignature(signatureHeader(['s3cret'], T + 301, raw), raw, 's3cret', 300, NOW).valid,
		).toBe(false);
	});

	it('one matching v1 among several is enough; header parts in any order, spaces around them tolerated', () => {
		const raw = Buffer.from('{"uid":"a/b/c"}');
		const header = signatureHeader(['old-secret', 'new-secret'], T, raw);
		const [t, first, second] = header.split(',');
		expect(verifySignature(` ${second} , ${t},${first}`, raw, 'new-secret', 300, NOW)).toEqual({
			valid: true,
			t: String(T),
		});
		expect(verifySignature([t, first], raw, 'old-secret', 300, NOW)).toEqual({
			valid: true,
			t: String(T),
		});
	});

	it('never puts the secret or the expected signature in its reason', () => {
		const raw = Buffer.from('{"uid":"a/b/c"}');
		const expected = signatureHeader(['the-real-secret'], T, raw).split('v1=')[1];
		const verdict = verifySignature(
			`t=${T},v1=${'0'.repeat(64)}`,
			raw,
			'the-real-secret',
			300,
			NOW,
		);
		expect(verdict.valid).toBe(false);
		const reason = (verdict as { reason: string }).reason;
		expect(reason).not.toContain('the-real-secret');
		expect(reason).not.toContain(expected);
		expect(reason).toBe(
			`No v1 signature of the X-Flare-Signature header matches: checked 1 value(s) against the HMAC-SHA256 of "<t>.<raw body>" with the signing secret, in hex (t=${T}, body of ${raw.length} bytes)`,
		);
	});
});

describe('Flare Alert Trigger: the window of received alerts', () => {
	let triggers = 0;
	const trigger = () => `unit-trigger-${++triggers}`;

	it('a key is admitted once within 24 hours, in memory and in the static data, whatever the order', () => {
		fc.assert(
			fc.property(
				fc.array(fc.array(fc.nat(30), { maxLength: 5 }), { maxLength: 20 }),
				(batches) => {
					const name = trigger();
					const state: DeliveryState = {};
					const admitted: string[] = [];
					for (const batch of batches) {
						const keys = batch.map((k) => deliveryKey(`uid/${k}`, {}));
						admit(name, state, keys, NOW).forEach(
							(fresh, index) => fresh && admitted.push(keys[index]),
						);
					}
					const all = batches.flat().map((k) => deliveryKey(`uid/${k}`, {}));
					expect(admitted.sort()).toEqual([...new Set(all)].sort());
					// Another process (no memory) reading the static data knows them all.
					expect(admit(trigger(), state, [...new Set(all)], NOW).every((fresh) => !fresh)).toBe(
						true,
					);
				},
			),
		);
	});

	it('the static data a request saves holds what another request at once saved (memory is the union)', () => {
		const name = trigger();
		const first: DeliveryState = {};
		const second: DeliveryState = {};
		admit(name, first, ['aaaaaaaaaaaaaaaa'], NOW);
		// The second request read the database before the first saved: its static data is empty.
		admit(name, second, ['bbbbbbbbbbbbbbbb'], NOW);
		expect(Object.keys(second.received!).sort()).toEqual(['aaaaaaaaaaaaaaaa', 'bbbbbbbbbbbbbbbb']);
	});

	it('bounded: at most 1,000 keys, the oldest forgotten; after 24 hours a key is new again', () => {
		const name = trigger();
		const state: DeliveryState = {};
		for (let k = 0; k <= MAX_REMEMBERED; k++)
			admit(name, state, [deliveryKey(`uid/${k}`, {})], NOW + k * 1000);
		expect(Object.keys(state.received!)).toHaveLength(MAX_REMEMBERED);
		expect(state.received![deliveryKey('uid/0', {})]).toBeUndefined();
		const later = NOW + MAX_REMEMBERED * 1000 + WINDOW_MS + 1000;
		expect(admit(name, state, [deliveryKey(`uid/${MAX_REMEMBERED}`, {})], later)).toEqual([true]);
		expect(Object.keys(state.received!)).toHaveLength(1);
	});

	it('keys: the uid and the alert as sent; 16 hex digits', () => {
		expect(deliveryKey('a/b/c', { x: 1 })).toBe(deliveryKey('a/b/c', { x: 1 }));
		// Another alert about the same event (another identifier, a raised risk) is another key.
		expect(deliveryKey('a/b/c', { x: 1 })).not.toBe(deliveryKey('a/b/c', { x: 2 }));
		expect(deliveryKey('a/b/c', { x: 1 })).not.toBe(deliveryKey('a/b/d', { x: 1 }));
		expect(deliveryKey(null, { x: 1 })).not.toBe(deliveryKey(null, { x: 2 }));
		expect(deliveryKey(null, { x: 1 })).toMatch(/^[0-9a-f]{16}$/);
	});

	it('a null key (the channel test) is new every time and never remembered', () => {
		const name = trigger();
		const state: DeliveryState = {};
		expect(admit(name, state, [null, null], NOW)).toEqual([true, true]);
		expect(state).toEqual({});
		expect(admit(name, state, [null, 'aaaaaaaaaaaaaaaa', null], NOW)).toEqual([true, true, true]);
		expect(Object.keys(state.received!)).toEqual(['aaaaaaaaaaaaaaaa']);
	});

	it('nothing new: the static data is left as it was (n8n then saves nothing)', () => {
		const name = trigger();
		const state: DeliveryState = {};
		admit(name, state, ['aaaaaaaaaaaaaaaa'], NOW);
		const saved = state.received;
		expect(admit(name, state, ['aaaaaaaaaaaaaaaa'], NOW + 1000)).toEqual([false]);
		expect(state.received).toBe(saved);
	});
});

describe('Flare Alert Trigger: the window at its edges (hostile review of 2026-11-28, A4, A5)', () => {
	let triggers = 0;
	const trigger = () => `edge-trigger-${++triggers}`;

	it('A4: a retry on the same process after 200 other triggers were served is recognised (memory is bounded by alerts, not triggers)', () => {
		const name = trigger();
		// What the database keeps when only the first request's copy is saved (n8n 2.41 did so
		// before the trigger marked its copy changed): every later request reads that copy.
		const database: DeliveryState = {};
		const first = deliveryKey('leak/a/1', { uid: 'leak/a/1' });
		const second = deliveryKey('leak/a/2', { uid: 'leak/a/2' });
		expect(admit(name, database, [first], NOW)).toEqual([true]);
		expect(admit(name, structuredClone(database), [second], NOW + MINUTE)).toEqual([true]);
		for (let k = 0; k < 200; k++)
			admit(`${trigger()} other`, {}, [deliveryKey(`x/${k}`, {})], NOW + 2 * MINUTE);
		// Flare retries the second alert, on the same process, 5 minutes later.
		expect(admit(name, structuredClone(database), [second], NOW + 5 * MINUTE)).toEqual([false]);
	});

	it(`memory holds at most ${MAX_IN_MEMORY} alerts in all: the triggers least recently served are forgotten first, the one served never`, () => {
		const names = Array.from({ length: MAX_IN_MEMORY / MAX_REMEMBERED + 1 }, () => trigger());
		const keysOf = (index: number) =>
			Array.from({ length: MAX_REMEMBERED }, (_, k) => deliveryKey(`full/${index}/${k}`, {}));
		names.forEach((name, index) => admit(name, {}, keysOf(index), NOW));
		expect(alertsInMemory()).toBeLessThanOrEqual(MAX_IN_MEMORY);
		// The last trigger served remembers all its alerts; the first served was forgotten.
		const last = names.length - 1;
		expect(admit(names[last], {}, keysOf(last), NOW).every((fresh) => !fresh)).toBe(true);
		expect(admit(names[0], {}, keysOf(0).slice(0, 1), NOW)).toEqual([true]);
		expect(alertsInMemory()).toBeLessThanOrEqual(MAX_IN_MEMORY);
	});

	it('A5: after a clock step back, with 1,000 entries stamped ahead, a new alert stays remembered and its retry starts nothing', () => {
		const name = trigger();
		const state: DeliveryState = {};
		// n8n's clock was an hour ahead while 1,000 alerts came in (a VM restored, NTP fixed later).
		for (let k = 0; k < MAX_REMEMBERED; k++)
			admit(name, state, [deliveryKey(`old/${k}`, {})], NOW + 60 * MINUTE + k);
		const fresh = deliveryKey('leak/new/1', { uid: 'leak/new/1' });
		expect(admit(name, state, [fresh], NOW)).toEqual([true]);
		expect(admit(name, state, [fresh], NOW + MINUTE)).toEqual([false]);
		// Stored times are never ahead of now.
		expect(Math.max(...Object.values(state.received!))).toBeLessThanOrEqual(
			Math.floor((NOW + MINUTE) / 1000),
		);
		// Another process reading the saved copy also keeps the new alert.
		expect(admit(trigger(), structuredClone(state), [fresh], NOW + MINUTE)).toEqual([false]);
	});

	it('a key of the request: the same Test alert signed at another t is another key, unsigned it is the alert\'s', () => {
		const sample = { uid: 'test/flare/alert-channel-test', event_type: 'test' };
		expect(deliveryKey(sample.uid, sample, '1795608000')).toBe(
			deliveryKey(sample.uid, sample, '1795608000'),
		);
		expect(deliveryKey(sample.uid, sample, '1795608000')).not.toBe(
			deliveryKey(sample.uid, sample, '1795608001'),
		);
		expect(deliveryKey(sample.uid, sample, '1795608000')).not.toBe(deliveryKey(sample.uid, sample));
	});

	it("the saved window is what n8n writes when it writes: the alerts read with it and this process's memory then", () => {
		const name = trigger();
		const [a, b] = [deliveryKey('p/a/1', {}), deliveryKey('p/b/1', {})];
		// Requests a and b each read the database before the other's was saved.
		const requestA: DeliveryState = {};
		const requestB: DeliveryState = {};
		admit(name, requestA, [a], NOW);
		admit(name, requestB, [b], NOW + MINUTE);
		moveClockTo(NOW + 2 * MINUTE);
		// As held, a's copy has a alone; written after b's (n8n keeps the last writer's), it has b too.
		expect({ ...requestA.received }).toEqual({ [a]: T });
		expect(JSON.parse(JSON.stringify(requestA))).toEqual({ received: { [a]: T, [b]: T + 60 } });
		expect(JSON.parse(JSON.stringify(requestB))).toEqual({ received: { [a]: T, [b]: T + 60 } });
		// Read again (n8n's next request), it is what was written.
		const next: DeliveryState = JSON.parse(JSON.stringify(requestA));
		expect(admit(trigger(), next, [b], NOW + 3 * MINUTE)).toEqual([false]);
	});

	it('rememberWhenSaved: the copy kept since activation writes the window as it is when n8n writes it', () => {
		const name = trigger();
		const [x, y] = [deliveryKey('p/x/1', {}), deliveryKey('p/y/1', {})];
		const activation: DeliveryState = { received: { [x]: T - 60 } };
		rememberWhenSaved(name, activation, NOW);
		moveClockTo(NOW);
		expect(JSON.parse(JSON.stringify(activation))).toEqual({ received: { [x]: T - 60 } });
		// A request of the same process (its own copy of the static data) admits y.
		admit(name, {}, [y], NOW + MINUTE);
		moveClockTo(NOW + 2 * MINUTE);
		expect(JSON.parse(JSON.stringify(activation))).toEqual({
			received: { [x]: T - 60, [y]: T + 60 },
		});
	});
});

describe('Flare Alert Trigger: a body nested too deep, and the refusals logged', () => {
	const nested = (depth: number) => Buffer.from(`${'['.repeat(depth)}${']'.repeat(depth)}`);

	it(`a body nested more than ${MAX_BODY_DEPTH} levels is refused 400 before anything reads it`, () => {
		expect(nestedDeeperThan(nested(MAX_BODY_DEPTH), MAX_BODY_DEPTH)).toBe(false);
		expect(nestedDeeperThan(nested(MAX_BODY_DEPTH + 1), MAX_BODY_DEPTH)).toBe(true);
		expect(acceptedBody('application/json', nested(20_000))).toEqual({
			status: 400,
			message: `The body nests objects or arrays more than ${MAX_BODY_DEPTH} levels deep: no alert does`,
			logged: `a body nested more than ${MAX_BODY_DEPTH} levels deep`,
		});
		const flat = Buffer.from('{"uid":"a/b/c"}');
		expect(acceptedBody('application/json', flat)).toBe(flat);
	});

	it('brackets inside strings, escaped quotes included, do not count', () => {
		fc.assert(
			fc.property(fc.array(fc.string(), { maxLength: 20 }), fc.nat(70), (texts, depth) => {
				const inner = JSON.stringify(texts.map((text) => `${text}[{"\\`));
				const raw = Buffer.from(`${'['.repeat(depth)}${inner}${']'.repeat(depth)}`);
				expect(nestedDeeperThan(raw, MAX_BODY_DEPTH)).toBe(depth + 1 > MAX_BODY_DEPTH);
			}),
		);
	});

	it("a 415's answer quotes at most 100 printable characters of the Content-Type; the log line none", () => {
		const refusal = acceptedBody(`text/${'x'.repeat(300)}\u0007`, Buffer.from('{}')) as Refusal;
		expect(refusal.status).toBe(415);
		expect(refusal.message).toBe(
			`Flare alerts are JSON: the Content-Type is "text/${'x'.repeat(95)}…", not application/json`,
		);
		expect(refusal.logged).toBe('a Content-Type other than JSON');
	});

	it('one line a minute per trigger and status, the next counting those left out', () => {
		const refusal: Refusal = { status: 401, message: 'm', logged: 'no X-Flare-Signature header' };
		const lines: Array<string | undefined> = [];
		for (let k = 0; k < 1000; k++) lines.push(refusalLogLine('wf-log node-1', refusal, NOW + k));
		expect(lines.filter(Boolean)).toEqual([
			'Flare Alert Trigger refused a request with 401: no X-Flare-Signature header',
		]);
		// Another status, another trigger: a line of their own.
		expect(refusalLogLine('wf-log node-1', { ...refusal, status: 415 }, NOW)).toBeDefined();
		expect(refusalLogLine('wf-log node-2', refusal, NOW)).toBeDefined();
		expect(refusalLogLine('wf-log node-1', refusal, NOW + REFUSAL_LOG_INTERVAL_MS - 1)).toBe(
			undefined,
		);
		expect(refusalLogLine('wf-log node-1', refusal, NOW + REFUSAL_LOG_INTERVAL_MS)).toBe(
			`Flare Alert Trigger refused a request with 401: no X-Flare-Signature header (1000 more refused with 401 since ${new Date(NOW).toISOString()})`,
		);
		// The host's clock stepped back: a line again, not silence.
		expect(refusalLogLine('wf-log node-1', refusal, NOW - 10 * MINUTE)).toBeDefined();
	});
});

describe("Flare Alert Trigger: the alert's Flare link", () => {
	const linkOf = (url: string) => alertItem({ uid: 'leak/a/1', url }, '2026-11-25T12:00:00Z').flare_url;

	it("is a url on Flare's hosts, never another host's, however its name is made", () => {
		expect(linkOf('https://app.flare.io/#/events/1')).toBe('https://app.flare.io/#/events/1');
		expect(linkOf('https://app.flare.systems')).toBe('https://app.flare.systems');
		expect(linkOf('https://app.flare.io.evil.com/x')).toBeNull();
		expect(linkOf(`https://${'x'.repeat(300)}.flare.io.evil.com/`)).toBeNull();
	});

	it('is read from the host alone: 8 MiB of a dotted name (a hostile body) gives no link, and no error', () => {
		expect(linkOf(`https://${'a.'.repeat(4 * 1024 * 1024)}evil.com/`)).toBeNull();
	});
});
