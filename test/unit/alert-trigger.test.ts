import fc from 'fast-check';

import { signatureHeader } from '../fake-flare/push';
import {
	admit,
	type DeliveryState,
	deliveryKey,
	MAX_REMEMBERED,
	WINDOW_MS,
} from '../../nodes/FlareAlertTrigger/deliveries';
import { verifySignature } from '../../nodes/FlareAlertTrigger/signature';

const NOW = Date.parse('2026-11-25T12:00:00Z');
const T = Math.floor(NOW / 1000);

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
					expect(verifySignature(header, raw, key, 300, NOW)).toEqual({ valid: true });
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
		});
		expect(verifySignature([t, first], raw, 'old-secret', 300, NOW)).toEqual({ valid: true });
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
