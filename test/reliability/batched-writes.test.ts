/**
 * Batched writes (Event → Take Action, Leaked Credential → Take Action; runner.ts `runBatched`):
 * Flare applies them in input order (a new action starts a new request), a target repeated within a
 * request is sent once and every item still gets its confirmation, and when a request fails — the
 * second of three here, refused (4xx) or unconfirmed (5xx after Flare applied it) — each of its items
 * gets an error of its own, paired with its input, saying whether Flare may have applied it; without
 * Continue On Fail the error says which items Flare applied before. Exact requests, items, errors.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { FakeFlare } from '../fake-flare';
import { Harness, withoutRatePacing } from '../harness/engine';
import { apiRequests } from '../integration/support';
import { CANARY_API_KEY } from './secret-scan';
import { CANARY_OPTIONS, Recorder, type BatchRow } from './support';

const TENANT = 101;
const EVENT_ACTIONS = '/firework/v4/events/actions';
const CREDENTIAL_ACTIONS = '/firework/v4/credentials/actions';
const NOT_SENT_AGAIN = 'The request was not sent again because Flare may already have applied it. Check the result in Flare before running the workflow again.';

type Result = Awaited<ReturnType<Harness['runNode']>>;

describe('Batched writes: input order, repeated targets, a failed request among others', () => {
	let fake: FakeFlare;
	let harness: Harness;
	const recorder = new Recorder('batched-writes');

	beforeAll(async () => {
		// What is sent and what each item is told are tested here, not the pace (pacing.test.ts).
		await withoutRatePacing();
		fake = await FakeFlare.start(CANARY_OPTIONS);
		harness = await Harness.create();
	});
	afterAll(async () => {
		recorder.save();
		await fake.stop();
	});
	beforeEach(() => {
		fake.reset({ credentials: 400, eventsPerTenant: 40 });
		harness.addFlareCredential({ apiKey: CANARY_API_KEY, baseUrl: fake.url });
	});

	/** Uids of the tenant's feed (none ignored or remediated: the default search leaves those out). */
	const uids = (count: number) => fake.feed.feedAll(TENANT, {}).slice(0, count).map((item) => item.metadata.uid);
	const eventActions = (extra: IDataObject = {}) => ({ resource: 'event', operation: 'takeAction', uid: '={{ $json.uid }}', actionType: '={{ $json.action ?? "remediate" }}', ...extra });
	const sentBodies = (path: string) => apiRequests(fake).filter((request) => request.path === path).map((request) => [request.body, request.status]);
	const remediated = (uid: string) => fake.events.state(TENANT, uid)?.remediatedMs !== null;
	/** Each output or error item: its JSON, its pairing, and an error's own item index. */
	const itemsOf = (items: INodeExecutionData[]) => items.map((item) => [item.json, item.pairedItem, item.error?.context.itemIndex]);

	function record(row: Omit<BatchRow, 'kind'>): void {
		recorder.add({ kind: 'batch', ...row });
	}

	it('remediate X, unremediate X, remediate X: three requests in order, X ends remediated', async () => {
		const [x] = uids(1);
		const items = [{ uid: x, action: 'remediate' }, { uid: x, action: 'unremediate' }, { uid: x, action: 'remediate' }];

		const result = await harness.runNode({ parameters: eventActions() }, { items });

		expect(sentBodies(EVENT_ACTIONS)).toEqual(items.map(({ uid, action }) => [{ action: { type: action }, targets: [{ uid }] }, 200]));
		expect(itemsOf(result.output)).toEqual(items.map(({ uid, action }, index) => [{ uid, action, done: true }, { item: index }, undefined]));
		expect(remediated(x)).toBe(true);
		expect(fake.state.writes.map((write) => (write.body as IDataObject).action)).toEqual(items.map(({ action }) => ({ type: action })));
		record({ operation: 'Event → Take Action', scenario: 'remediate X, unremediate X, remediate X', items: 3, requests: 3, inOrder: true, paired: 3, toldApplied: 0, failed: 0, outcome: 'X ends remediated' });
	});

	it('a new action starts a new request; a full request starts the next one', async () => {
		const all = uids(17);
		const items = all.map((uid, index) => ({ uid, action: index >= 12 && index < 15 ? 'ignore' : 'remediate' }));

		const result = await harness.runNode({ parameters: eventActions() }, { items });

		const body = (action: string, from: number, to: number) => [{ action: { type: action }, targets: all.slice(from, to).map((uid) => ({ uid })) }, 200];
		expect(sentBodies(EVENT_ACTIONS)).toEqual([body('remediate', 0, 10), body('remediate', 10, 12), body('ignore', 12, 15), body('remediate', 15, 17)]);
		expect(itemsOf(result.output)).toEqual(items.map(({ uid, action }, index) => [{ uid, action, done: true }, { item: index }, undefined]));
		record({ operation: 'Event → Take Action', scenario: '12 remediate, 3 ignore, 2 remediate', items: 17, requests: 4, inOrder: true, paired: 17, toldApplied: 0, failed: 0, outcome: 'applied in input order' });
	});

	it('repeated targets: each sent once per request, every item confirmed', async () => {
		const all = uids(11);
		// 10 distinct events, then two of them again: still one request of 10 targets; then an 11th.
		const order = [0, 1, 0, 2, 3, 4, 5, 6, 7, 8, 9, 1, 9, 10];
		const items = order.map((k) => ({ uid: all[k] }));

		const result = await harness.runNode({ parameters: eventActions() }, { items });

		expect(sentBodies(EVENT_ACTIONS)).toEqual([
			[{ action: { type: 'remediate' }, targets: all.slice(0, 10).map((uid) => ({ uid })) }, 200],
			[{ action: { type: 'remediate' }, targets: [{ uid: all[10] }] }, 200],
		]);
		expect(itemsOf(result.output)).toEqual(items.map(({ uid }, index) => [{ uid, action: 'remediate', done: true }, { item: index }, undefined]));
		record({ operation: 'Event → Take Action', scenario: '14 items, 11 events (three repeated)', items: 14, requests: 2, inOrder: true, paired: 14, toldApplied: 0, failed: 0, outcome: 'each event sent once, every item confirmed' });
	});

	it('Leaked Credential → Take Action: the same order and repeated targets', async () => {
		const [a, b] = [fake.dataset.credentialHash(3), fake.dataset.credentialHash(4)];
		const items = [{ hash: a, action: 'ignore' }, { hash: b, action: 'ignore' }, { hash: a, action: 'ignore' }, { hash: a, action: 'unignore' }, { hash: b.toUpperCase(), action: 'unignore' }];

		const result = await harness.runNode({ parameters: { resource: 'leakedCredential', operation: 'takeAction', credentialHash: '={{ $json.hash }}', actionType: '={{ $json.action }}' } }, { items });

		expect(sentBodies(CREDENTIAL_ACTIONS)).toEqual([
			[{ action: { type: 'ignore' }, targets: [{ credential_hash: a }, { credential_hash: b }] }, 200],
			[{ action: { type: 'unignore' }, targets: [{ credential_hash: a }, { credential_hash: b }] }, 200],
		]);
		expect(itemsOf(result.output)).toEqual(items.map(({ hash, action }, index) => [{ credential_hash: hash.toLowerCase(), action, done: true }, { item: index }, undefined]));
		expect([a, b].map((hash) => fake.feed.credentialState(TENANT, hash).ignored_at)).toEqual([null, null]);
		record({ operation: 'Leaked Credential → Take Action', scenario: 'ignore A, B, A, then unignore A, B', items: 5, requests: 2, inOrder: true, paired: 5, toldApplied: 0, failed: 0, outcome: 'A and B end unignored' });
	});

	describe('Identifier Recommendation → Accept and Reject (100 to a request)', () => {
		const ACTIONS = '/firework/v4/identifier-recommendations/actions';
		const ids = () => fake.playbook.recommendationsOf(TENANT).map((recommendation) => recommendation.id);
		const statusOf = (id: number) => fake.playbook.recommendationsOf(TENANT).find((recommendation) => recommendation.id === id)?.status;
		const run = (operation: 'accept' | 'reject', items: IDataObject[], onError?: 'continueRegularOutput') =>
			harness.runNode({ parameters: { resource: 'identifierRecommendation', operation, recommendationId: '={{ $json.id }}' }, onError }, { items });

		it('130 accepts: two requests in input order (100, then 30), every item confirmed and paired', async () => {
			const all = ids();

			const result = await run('accept', all.map((id) => ({ id })));

			expect(sentBodies(ACTIONS)).toEqual([
				[{ action: { type: 'accept' }, targets: all.slice(0, 100).map((id) => ({ id })) }, 200],
				[{ action: { type: 'accept' }, targets: all.slice(100).map((id) => ({ id })) }, 200],
			]);
			expect(itemsOf(result.output)).toEqual(all.map((id, index) => [{ id, action: 'accept', done: true }, { item: index }, undefined]));
			expect(all.map(statusOf)).toEqual(all.map(() => 'accepted'));
			record({ operation: 'Identifier Recommendation → Accept', scenario: '130 recommendations', items: 130, requests: 2, inOrder: true, paired: 130, toldApplied: 0, failed: 0, outcome: 'all accepted, 100 to a request' });
		});

		it('an unknown recommendation in the second request, with Continue On Fail: that request\'s items each told, the first applied', async () => {
			const all = ids().slice(0, 110);
			all[105] = 4242;
			const before = all.slice(100).map(statusOf);

			const result = await run('reject', all.map((id) => ({ id })), 'continueRegularOutput');

			expect(sentBodies(ACTIONS)).toEqual([
				[{ action: { type: 'reject' }, targets: all.slice(0, 100).map((id) => ({ id })) }, 200],
				[{ action: { type: 'reject' }, targets: all.slice(100).map((id) => ({ id })) }, 404],
			]);
			expect(result.output.slice(0, 100).map((item) => item.json)).toEqual(all.slice(0, 100).map((id) => ({ id, action: 'reject', done: true })));
			expect(itemsOf(result.output.slice(100))).toEqual(
				all.slice(100).map((id, k) => [
					{ error: id === 4242 ? 'Identifier recommendation 4242 was not found in Flare' : `Identifier recommendation ${id} was not changed: Flare refused its request because of item 105` },
					{ item: 100 + k },
					100 + k,
				]),
			);
			expect(all.slice(0, 100).map(statusOf)).toEqual(all.slice(0, 100).map(() => 'rejected'));
			// Flare refused the second request whole: those recommendations stand as they were.
			expect(all.slice(100).map(statusOf)).toEqual(before);
			record({ operation: 'Identifier Recommendation → Reject', scenario: 'HTTP 404 in request 2 of 2, with Continue On Fail', items: 110, requests: 2, inOrder: true, paired: result.output.length, toldApplied: 10, failed: 10, outcome: 'each failed item told, the others confirmed' });
		});

		it.each([
			['Recommendation 4242 not found in tenant 101', [1]],
			['recommendations #4242 and #9002 are unknown (limit 100)', [1, 2]],
			['{"id": 4242} not found', [1]],
			['ids=[4242, 9002] not found for tenant 101', [1, 2]],
			['Not found in tenant 101 (page 9002)', []],
		])('Flare refusing a request with %p: only the numbers it names as recommendations blame an item (hostile review of issue 34, #6)', async (message, blamed) => {
			fake.faults.add({ path: ACTIONS, method: 'POST', fault: { status: 404, body: { error: { code: 'NOT_FOUND', message } } } });
			const items = [101, 4242, 9002];

			const result = await run('accept', items.map((id) => ({ id })), 'continueRegularOutput');

			// No item named: each is told that Flare refused the request, naming none.
			expect(result.output.map((item) => item.json.error)).toEqual(
				items.map((id, index) =>
					(blamed as number[]).includes(index)
						? `Identifier recommendation ${id} was not found in Flare`
						: blamed.length === 0
							? `Flare refused the request with Identifier recommendation ${id} (HTTP 404)`
							: `Identifier recommendation ${id} was not changed: Flare refused its request because of item${blamed.length > 1 ? 's' : ''} ${blamed.join('–')}`,
				),
			);
		});
	});

	describe('a failure in the second of three requests (25 items: 10, 10, 5)', () => {
		const UNKNOWN = 'leak/nowhere/14';
		/** The 25 items, item 14 an event Flare does not know. */
		function withUnknown() {
			const all = uids(25);
			all[14] = UNKNOWN;
			return all;
		}
		const bodiesOf = (all: string[], statuses: number[]) =>
			statuses.map((status, k) => [{ action: { type: 'remediate' }, targets: all.slice(k * 10, k * 10 + 10).map((uid) => ({ uid })) }, status]);
		const confirmed = (all: string[], from: number, to: number) =>
			all.slice(from, to).map((uid, k) => [{ uid, action: 'remediate', done: true }, { item: from + k }, undefined]);
		const flareSays = `Flare says: "event ${UNKNOWN} not found".`;
		const refused = 'Flare refused the whole request of items 10–19: none of them was changed.';
		const mayHave = 'The same request carried items 10–19: Flare may have applied any of them.';

		/** The row of a scenario whose items were each asserted above: paired, and told what happened. */
		function recordFailure(scenario: string, result: Result, all: string[], requests: number, failed: number) {
			record({
				operation: 'Event → Take Action',
				scenario,
				items: all.length,
				requests,
				inOrder: true,
				paired: result.output.length + result.errorOutput.length,
				toldApplied: failed,
				failed,
				outcome: result.status === 'success' ? 'each failed item told, the others confirmed' : 'stopped; the error says what was applied',
			});
		}

		it('HTTP 404, without Continue On Fail: the error names the event and says items 0–9 were applied, 10–24 not', async () => {
			const all = withUnknown();

			const result = await harness.runNode({ parameters: eventActions() }, { items: all.map((uid) => ({ uid })) });

			expect(sentBodies(EVENT_ACTIONS)).toEqual(bodiesOf(all, [200, 404]));
			expect([result.error?.name, result.error?.message, result.error?.description, (result.error as { context?: IDataObject }).context?.itemIndex]).toEqual([
				'NodeApiError',
				`Event '${UNKNOWN}' was not found in Flare`,
				`Check the ID, and that it belongs to the tenant selected in the credential. ${flareSays} ${refused} Items 0–9 were applied in Flare before this; items 10–24 were not.`,
				14,
			]);
			expect(all.map((uid) => uid !== UNKNOWN && remediated(uid))).toEqual(all.map((_uid, index) => index < 10));
			recordFailure('HTTP 404 in request 2 of 3, without Continue On Fail', result, all, 2, 1);
		});

		it('HTTP 404, with Continue On Fail: items 10–19 fail, each with its own error; 0–9 and 20–24 are confirmed', async () => {
			const all = withUnknown();

			const result = await harness.runNode({ parameters: eventActions(), onError: 'continueRegularOutput' }, { items: all.map((uid) => ({ uid })) });

			expect(sentBodies(EVENT_ACTIONS)).toEqual(bodiesOf(all, [200, 404, 200]));
			expect(itemsOf(result.output)).toEqual([
				...confirmed(all, 0, 10),
				...all.slice(10, 20).map((uid, k) =>
					uid === UNKNOWN
						? [{ error: `Event '${UNKNOWN}' was not found in Flare` }, { item: 14 }, 14]
						: [{ error: `Event '${uid}' was not changed: Flare refused its request because of item 14` }, { item: 10 + k }, 10 + k],
				),
				...confirmed(all, 20, 25),
			]);
			expect(result.output.slice(10, 20).map((item) => item.error?.description)).toEqual(
				all.slice(10, 20).map((uid) =>
					uid === UNKNOWN
						? `Check the ID, and that it belongs to the tenant selected in the credential. ${flareSays} ${refused}`
						: `Correct or remove item 14, then run the others again. ${flareSays} ${refused}`,
				),
			);
			expect(all.map((uid) => uid !== UNKNOWN && remediated(uid))).toEqual(all.map((_uid, index) => index < 10 || index >= 20));
			recordFailure('HTTP 404 in request 2 of 3, with Continue On Fail', result, all, 3, 10);
		});

		it('HTTP 422 naming no event, without Continue On Fail: refused, nothing of it changed', async () => {
			const all = uids(25);
			fake.faults.add({ path: EVENT_ACTIONS, skip: 1, fault: { status: 422, body: { detail: [{ loc: ['body', 'targets'], msg: 'too many requests of this kind', type: 'value_error' }] } } });

			const result = await harness.runNode({ parameters: eventActions() }, { items: all.map((uid) => ({ uid })) });

			expect(sentBodies(EVENT_ACTIONS)).toEqual(bodiesOf(all, [200, 422]));
			expect([result.error?.message, result.error?.description, (result.error as { context?: IDataObject }).context?.itemIndex]).toEqual([
				"Flare rejected the value of 'Event UID'",
				`too many requests of this kind. Correct 'Event UID' and try again. ${refused} Items 0–9 were applied in Flare before this; items 10–24 were not.`,
				10,
			]);
			expect(all.map(remediated)).toEqual(all.map((_uid, index) => index < 10));
			recordFailure('HTTP 422 in request 2 of 3, without Continue On Fail', result, all, 2, 1);
		});

		it('HTTP 502 after Flare applied it, without Continue On Fail: may have applied 10–19, 20–24 not sent', async () => {
			const all = uids(25);
			fake.faults.add({ path: EVENT_ACTIONS, skip: 1, phase: 'after', fault: { status: 502, rawBody: 'Bad Gateway' } });

			const result = await harness.runNode({ parameters: eventActions() }, { items: all.map((uid) => ({ uid })) });

			expect(sentBodies(EVENT_ACTIONS)).toEqual(bodiesOf(all, [200, 502]));
			expect([result.error?.message, result.error?.description, (result.error as { context?: IDataObject }).context?.itemIndex]).toEqual([
				'Flare did not confirm the request to take an action on events',
				`Flare answered HTTP 502. ${NOT_SENT_AGAIN} ${mayHave} Items 0–9 were applied in Flare before this; Flare may have applied items 10–19, and items 20–24 were not sent.`,
				10,
			]);
			// Flare applied the second request before answering 502; the third was not sent.
			expect(all.map(remediated)).toEqual(all.map((_uid, index) => index < 20));
			recordFailure('HTTP 502 after processing, in request 2 of 3, without Continue On Fail', result, all, 2, 1);
		});

		it('HTTP 502 after Flare applied it, with Continue On Fail: 10–19 each told Flare may have applied it; the rest confirmed', async () => {
			const all = uids(25);
			fake.faults.add({ path: EVENT_ACTIONS, skip: 1, phase: 'after', fault: { status: 502, rawBody: 'Bad Gateway' } });

			const result = await harness.runNode({ parameters: eventActions(), onError: 'continueErrorOutput' }, { items: all.map((uid) => ({ uid })) });

			expect(sentBodies(EVENT_ACTIONS)).toEqual(bodiesOf(all, [200, 502, 200]));
			expect(itemsOf(result.output)).toEqual([...confirmed(all, 0, 10), ...confirmed(all, 20, 25)]);
			expect(itemsOf(result.errorOutput)).toEqual(
				all.slice(10, 20).map((_uid, k) => [{ error: 'Flare did not confirm the request to take an action on events' }, { item: 10 + k }, 10 + k]),
			);
			expect(result.errorOutput.map((item) => item.error?.description)).toEqual(all.slice(10, 20).map(() => `Flare answered HTTP 502. ${NOT_SENT_AGAIN} ${mayHave}`));
			expect(all.map(remediated)).toEqual(all.map(() => true));
			expect(fake.state.writes).toHaveLength(3);
			recordFailure('HTTP 502 after processing, in request 2 of 3, with Continue On Fail', result, all, 3, 10);
		});
	});
});
