/**
 * Unexpected answers, on every operation of the node (from its description, so that a new operation
 * is tried without writing anything here): Flare answers 200 with a body of another shape — null, a
 * number, a text, lists of odd entries, objects without what the operation reads — or with its real
 * answer whose every value is of another JSON type (numbers where strings are expected, and so on).
 * Each run must either work (each output item an object, paired with its input) or stop with the
 * node's own error saying what came; never a JavaScript error, an endless walk or a hidden answer.
 * `npm test` tries every other body on each operation (the others on the next one); the long proofs
 * every body on every operation.
 */
import { flareOperations } from '../../nodes/Flare/Flare.node';
import { FakeFlare, type LoggedRequest } from '../fake-flare';
import { call, tokenFor } from '../fake-flare/client';
import { Harness, withoutRatePacing } from '../harness/engine';
import { apiRequests } from '../integration/support';
import { LONG } from '../support/volume';
import { formOf } from './inputs';
import { baseOf, nodeProperties, operations, validValues } from './operations';
import { CANARY_API_KEY } from './secret-scan';
import { CANARY_OPTIONS, Recorder } from './support';

/** Bodies of another shape than any operation reads. */
const SHAPES: Array<[string, unknown]> = [
	['null', null],
	['a number', 42],
	['a text', 'ok'],
	['a boolean', true],
	['an empty list', []],
	['a list of non-objects', [1, 'a', null]],
	['an empty object', {}],
	['items that is a text', { items: 'x' }],
	['items holding null', { items: [null] }],
	['next that is an object', { items: [], next: {} }],
];

/** The real answer with every value of another JSON type. */
const MUTATIONS: Array<[string, (value: unknown) => unknown]> = [
	['every string a number', (value) => (typeof value === 'string' ? 12_345 : value)],
	['every number a text', (value) => (typeof value === 'number' ? '12345' : value)],
	['every value null', () => null],
	['every value an object', () => ({ unexpected: true })],
	['every list an object', (value) => (Array.isArray(value) ? { 0: 'x' } : value)],
];

/** `value` with `change` applied to every value below the top (containers first, then leaves). */
function mutated(value: unknown, change: (value: unknown) => unknown, top = true): unknown {
	const changed = top ? value : change(value);
	if (changed !== value) return changed;
	if (Array.isArray(value)) return value.map((entry) => mutated(entry, change, false));
	if (value && typeof value === 'object') {
		return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, mutated(entry, change, false)]));
	}
	return value;
}

/** Whether the operation's answer is only a confirmation, which the output does not read. */
const answerIgnored = (resource: string, operation: string) =>
	flareOperations[resource]?.[operation]?.answerIgnored === true;

/** What n8n or JavaScript says when code met a shape it did not expect. */
const CRASH = /TypeError|Cannot read|is not a function|is not iterable|undefined|\[object Object\]|NaN/;

describe('Unexpected answers: every operation works or says what came', () => {
	let fake: FakeFlare;
	let harness: Harness;
	let valid: Record<string, unknown>;
	const recorder = new Recorder('answers');

	beforeAll(async () => {
		// Hundreds of runs that test shapes, not the pace (pacing.test.ts).
		await withoutRatePacing();
		fake = await FakeFlare.start(CANARY_OPTIONS);
		harness = await Harness.create();
	}, 60_000);
	beforeEach(async () => {
		// Each operation on the same data (Delete deletes the identifier that Get and Update read).
		fake.reset({ credentials: 200, ...CANARY_OPTIONS });
		harness.addFlareCredential({ apiKey: CANARY_API_KEY, baseUrl: fake.url });
		valid = await validValues(fake, harness);
	});
	afterAll(async () => {
		recorder.save();
		await fake.stop();
	});

	/** The answer the fake gives to `request` now (replayed with a token of the same key). */
	async function answerTo(request: LoggedRequest): Promise<unknown> {
		const token = await tokenFor(fake, 'full');
		const query = new URLSearchParams(request.query).toString();
		const result = await call(fake, request.method, `${request.path}${query ? `?${query}` : ''}`, { token, body: request.body });
		return result.json;
	}

	it.each(operations().map(([resource, operation], index) => [resource, operation, index] as const))('%s → %s', async (resource, operation, index) => {
		const selectors = { resource, operation };
		const parameters = baseOf(valid, formOf(nodeProperties, selectors), selectors);
		fake.faults.clear();
		fake.clearLog();
		const clean = await harness.runNode({ parameters });
		expect([clean.status, clean.error?.message]).toEqual(['success', undefined]);
		const [first] = apiRequests(fake);
		const real = await answerTo(first);
		// `npm test`: every other body, the others for the next operation; the long proofs: every body.
		const bodies: Array<[string, unknown]> = [...SHAPES, ...MUTATIONS.map(([name, change]): [string, unknown] => [`the real answer, ${name}`, mutated(real, change)])].filter(
			(_, place) => LONG || place % 2 === index % 2,
		);

		let worked = 0;
		let failed = 0;
		for (const [shape, body] of bodies) {
			fake.faults.clear();
			fake.clearLog();
			// Every request of the operation gets the body, the token exchange excepted.
			fake.faults.add({ path: /^\/(?!tokens\/)/, times: Infinity, fault: { status: 200, rawBody: JSON.stringify(body), headers: { 'content-type': 'application/json' } } });
			const result = await harness.runNode({ parameters });
			const context = `${resource} → ${operation}, ${shape}: ${result.error?.name}: ${result.error?.message} / ${result.error?.description}`;
			// An answer that is only a confirmation (its schema empty) is never read: any body confirms.
			if (answerIgnored(resource, operation)) expect([context, result.status]).toEqual([context, 'success']);
			if (result.status === 'success') {
				worked++;
				expect(result.output.every((item) => item.json && typeof item.json === 'object' && !Array.isArray(item.json))).toBe(true);
				expect(result.output.every((item) => (item.pairedItem as { item?: number }).item === 0)).toBe(true);
			} else {
				failed++;
				expect([context, result.error?.name]).toEqual([context, 'NodeApiError']);
				expect(`${result.error?.message} ${result.error?.description}`).not.toMatch(CRASH);
				// Or, where the operation finds its record in a list it reads (Alert Rule → Update), a
				// readable list without it: that record is not found (a 404, as Flare says of a missing one).
				const notInList = (result.error as { httpCode?: string | null } | undefined)?.httpCode === '404' && / was not found in Flare$/.test(String(result.error?.message));
				if (!notInList) {
					// A write's read-back (Alert Rule → Create) says first that the write was applied.
					const readBack = /^Alert rule \d+ was (created|updated), but it could not be read back: /;
					expect(String(result.error?.message).replace(readBack, '')).toMatch(/^(Flare's answer could not be used while trying to |Flare accepted the request to .+, but its answer could not be used$|Flare returned the same page cursor twice while trying to )/);
				}
			}
			// No walk went on: a page, the next one with the same cursor, at most (Update reads twice).
			expect([context, apiRequests(fake).length <= 3]).toEqual([context, true]);
		}
		recorder.add({ kind: 'answer', operation: `${resource} → ${operation}`, shapes: bodies.length, worked, failed });
	}, 120_000);
});
