/**
 * The reproductions of the hostile review of the Flare Trigger (issue 24, findings F1 to F9, L1 and
 * L2), run as the review ran them, with their assertions turned to what the trigger now promises
 * (docs/trigger.md, docs/api-contract.md "Flare Trigger"), on virtual time.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { FakeFlare } from '../fake-flare';
import { Harness } from '../harness/engine';
import { TriggerWorkflow } from '../harness/poll';
import { type N8nLine, N8N_LINES } from '../harness/static-data';
import { moveClock, useVirtualTime } from '../support/clock';
import { diagnosticsChannel, nextTurn } from '../support/node';
import { loggedSince, logSize } from './support';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const DAY = 24 * 60 * MINUTE;
const SEARCH = '/firework/v4/credentials/global/_search';
const FEED = '/firework/v4/events/tenant/_search';
const ACTIVITY = '/firework/v2/activities/';

const iso = (ms: number) => new Date(Math.floor(ms / SECOND) * SECOND).toISOString();
const keysOf = (items: INodeExecutionData[] | null | undefined) =>
	(items ?? []).map((item) => String(item.json.id ?? ((item.json as IDataObject).metadata as IDataObject).uid));
const twice = (keys: string[]) => [...new Set(keys.filter((key, index) => keys.indexOf(key) !== index))];

describe('Flare Trigger: each record once under hard conditions (hostile review of issue 24, F1–F9, L1, L2)', () => {
	const clock = useVirtualTime();
	let fake: FakeFlare;
	let harness: Harness;
	beforeAll(async () => {
		fake = await FakeFlare.start();
		harness = await Harness.create();
	});
	afterAll(async () => await fake.stop());

	const start = (options: Parameters<FakeFlare['reset']>[0] = {}) => {
		fake.reset({ credentials: 50, domains: ['acme.com', 'example.com'], startTime: iso(Date.now() - 60 * DAY), ...options });
		harness.addFlareCredential({ apiKey: fake.apiKeys.full, baseUrl: fake.url });
	};
	const trigger = (parameters: IDataObject, spec: { budgetMs?: number; n8n?: N8nLine } = {}) =>
		new TriggerWorkflow(harness, { parameters, ...spec });
	const acme = (options: IDataObject = {}, spec: { n8n?: N8nLine } = {}) => trigger({ queryType: 'domain', fqdn: 'acme.com', options }, spec);
	const events = async (options: IDataObject = {}) => {
		start({ credentials: 10 });
		const workflow = trigger({ event: 'newEvent', options });
		expect((await workflow.activate()).items).toBeNull();
		return workflow;
	};
	/** `n` polls a minute apart (`each` first); what each emitted, and its error. */
	const polls = async (workflow: TriggerWorkflow, n: number, each?: (poll: number) => void) => {
		const out: Array<{ keys: string[]; error?: string; items: INodeExecutionData[] }> = [];
		for (let poll = 0; poll < n; poll++) {
			each?.(poll);
			moveClock(MINUTE);
			const result = await workflow.poll();
			out.push({ keys: keysOf(result.items), error: result.error?.message, items: result.items ?? [] });
		}
		return out;
	};

	it('F1: the page at the saved cursor comes back empty and the poll runs out of time after it: nothing of that page comes twice', async () => {
		start();
		for (let group = 0; group < 8; group++) fake.addCredentials(5, iso(fake.now() - (20 - 2 * group) * 60 * MINUTE), { domain: 'acme.com' });
		const workflow = acme({ backfill: 'last24Hours' });
		const backfill = keysOf((await workflow.activate()).items);
		const added = fake.addCredentials(2, iso(fake.now()), { domain: 'acme.com' });
		// The first answer of the next poll takes 30 s: the poll has no time for another page.
		const after = await polls(workflow, 5, (poll) => poll === 0 && fake.faults.add({ path: SEARCH, fault: { delayMs: 30_000 } }));

		expect(backfill).toHaveLength(40);
		expect(after.map((poll) => poll.error)).toEqual(Array(5).fill(undefined));
		expect(after.flatMap((poll) => poll.keys)).toEqual([added, added + 1].map((index) => String(fake.dataset.credential(index).id)));
	});

	describe('F2: the workflow saved, or n8n restarted, while a poll is under way', () => {
		it('the trigger saved changed: n8n 2.41 registers it again and drops that poll; its events come with the new activation, once', async () => {
			const workflow = await events();
			const added = fake.addEvents(3).map((event) => event.metadata.uid);
			fake.faults.add({ path: FEED, fault: { delayMs: 20_000 } });
			moveClock(MINUTE);
			const inFlight = workflow.poll();
			await nextTurn();
			const activation = workflow.reactivate({ event: 'newEvent', requestOptions: { timeout: 40_000 } });
			const dropped = await inFlight;
			const next = [...keysOf((await activation)!.items), ...(await polls(workflow, 5)).flatMap((poll) => poll.keys)];

			expect(dropped).toEqual({ items: null, discarded: true });
			expect(next).toEqual(added);
		});

		it('a restart: the poll is lost with the process; its events come after the restart, once', async () => {
			const workflow = await events();
			const added = fake.addEvents(3).map((event) => event.metadata.uid);
			fake.faults.add({ path: FEED, fault: { delayMs: 20_000 } });
			moveClock(MINUTE);
			const inFlight = workflow.poll();
			await nextTurn();
			const restarted = workflow.restart();
			const next = [...keysOf((await restarted).items), ...(await polls(workflow, 5)).flatMap((poll) => poll.keys)];

			expect(await inFlight).toEqual({ items: null, discarded: true });
			expect(next).toEqual(added);
		});

		it('n8n 1.x emits that poll and stores its state over the new activation’s: nothing is lost; its events may come once more (docs/trigger.md)', async () => {
			start({ credentials: 10 });
			const workflow = trigger({ event: 'newEvent' }, { n8n: '1.123' });
			await workflow.activate();
			const added = fake.addEvents(3).map((event) => event.metadata.uid);
			fake.faults.add({ path: FEED, fault: { delayMs: 20_000 } });
			moveClock(MINUTE);
			const inFlight = workflow.poll();
			await nextTurn();
			// n8n 1.123 removes and adds the workflow again at every save, the trigger unchanged too.
			const activation = (await workflow.reactivate({ event: 'newEvent' }))!;
			const superseded = keysOf((await inFlight).items);
			const later = (await polls(workflow, 5)).flatMap((poll) => poll.keys);

			expect(activation.items).toBeNull();
			expect(superseded).toEqual(added);
			expect(later).toEqual(added);
		});
	});

	/**
	 * An activation still under way when the user deactivates or saves the workflow (test/harness/README.md,
	 * "Activation, save and deactivation one after the other"): n8n 2.41 runs the publications of a
	 * workflow one after the other (`WorkflowPublicationLifecycleLock`), so the activation ends, its
	 * baseline saved, before the deactivation or save; n8n 1.123 carries on with it after the removal
	 * (`ActiveWorkflowManager.add`): its cron is registered and ticks until a restart, and it saves its
	 * baseline (hostile review of issue 39, F5).
	 */
	describe('an activation under way when the workflow is deactivated or saved', () => {
		it.each(N8N_LINES)('n8n %s: deactivated: the activation poll ends, and n8n saves the baseline it noted', async (n8n) => {
			start();
			const workflow = acme({}, { n8n });

			const activation = workflow.activate();
			const deactivation = workflow.deactivate();
			const result = await activation;
			await deactivation;

			expect(result).toEqual({ items: null });
			expect(workflow.saved).toEqual({ 'node:Flare Trigger': expect.objectContaining({ rev: 1, seen: expect.any(Object) }) });
		});

		it('n8n 2.41, deactivated: no cron is left, and a restart activates nothing', async () => {
			start();
			const workflow = acme({}, { n8n: '2.41' });
			const activation = workflow.activate();
			await workflow.deactivate();
			await activation;

			expect(workflow.active).toBe(false);
			expect(await workflow.restart()).toEqual({ items: null, notActivated: true });
		});

		it('n8n 1.123, deactivated: the cron registered after the removal polls the unpublished workflow, a second deactivation does not stop it, a restart does', async () => {
			start();
			const workflow = acme({}, { n8n: '1.123' });
			const activation = workflow.activate();
			await workflow.deactivate();
			await activation;
			const added = fake.addCredentials(3, iso(fake.now()), { domain: 'acme.com' });
			const ticks = await polls(workflow, 2);
			await workflow.deactivate();
			const stillActive = workflow.active;

			expect(ticks.flatMap((poll) => poll.keys)).toEqual([0, 1, 2].map((offset) => String(fake.dataset.credential(added + offset).id)));
			expect([workflow.published, stillActive]).toEqual([false, true]);
			expect(await workflow.restart()).toEqual({ items: null, notActivated: true });
			expect(workflow.active).toBe(false);
		});

		it.each(N8N_LINES)('n8n %s: saved changed during the activation poll: each credential imported later comes once', async (n8n) => {
			start();
			const workflow = acme({}, { n8n });
			fake.faults.add({ path: SEARCH, fault: { delayMs: 20_000 } });
			const activation = workflow.activate();
			await nextTurn();
			const save = workflow.reactivate({ ...workflow.parameters, options: { leakedValueOutput: 'sha256' } });
			const results = [await activation, await save];
			const added = fake.addCredentials(3, iso(fake.now()), { domain: 'acme.com' });
			const emitted = (await polls(workflow, 3)).flatMap((poll) => poll.keys);

			expect(results).toEqual([{ items: null }, { items: null }]);
			expect(emitted).toEqual([0, 1, 2].map((offset) => String(fake.dataset.credential(added + offset).id)));
		});
	});

	describe('F3: an activation that cannot read all of the last 15 minutes (300 credentials; a poll reads 225)', () => {
		const activate = async (flareClock: number) => {
			start();
			fake.setClockOffset(flareClock);
			fake.addCredentials(300, iso(fake.now() - 8 * MINUTE), { domain: 'acme.com' });
			const workflow = acme();
			const flareAtActivation = fake.now();
			expect((await workflow.activate()).items).toBeNull();
			// Flare's time at its first answer (its Date header, whole seconds), not n8n's.
			const baseline = Date.parse(workflow.state.baseline as string);
			expect(baseline).toBeGreaterThanOrEqual(Date.parse(iso(flareAtActivation)));
			expect(baseline).toBeLessThanOrEqual(flareAtActivation + 2 * SECOND);
			moveClock(MINUTE);
			return workflow;
		};
		const idsFrom = (first: number, count: number) => Array.from({ length: count }, (_, offset) => String(fake.dataset.credential(first + offset).id));

		it.each([
			['4 minutes behind n8n', -4 * MINUTE],
			['on time', 0],
			['4 minutes ahead of n8n', 4 * MINUTE],
		])('Flare’s clock %s: the baseline is Flare’s time; what it imports afterwards is emitted, none of the 300', async (_name, flareClock) => {
			const workflow = await activate(flareClock);
			const added = idsFrom(fake.addCredentials(3, iso(fake.now()), { domain: 'acme.com' }), 3);

			const emitted = (await polls(workflow, 30)).flatMap((poll) => poll.keys);

			expect(emitted).toEqual(added);
			expect(workflow.state.baseline).toBeUndefined();
		});

		it('the stated limit: one that becomes searchable late, dated before the activation, while the baseline stands, is taken as existing then', async () => {
			const workflow = await activate(0);
			fake.addCredentials(3, iso(fake.now() - 4 * MINUTE), { domain: 'acme.com' });

			const emitted = (await polls(workflow, 30)).flatMap((poll) => poll.keys);

			expect(emitted).toEqual([]);
		});

		it('once the activation has read everything, such a late one is emitted (by a sweep)', async () => {
			start();
			fake.addCredentials(30, iso(fake.now() - 8 * MINUTE), { domain: 'acme.com' });
			const workflow = acme();
			await workflow.activate();
			expect(workflow.state.baseline).toBeUndefined();
			moveClock(MINUTE);
			const added = idsFrom(fake.addCredentials(3, iso(fake.now() - 4 * MINUTE), { domain: 'acme.com' }), 3);

			const emitted = (await polls(workflow, 15)).flatMap((poll) => poll.keys);

			expect(emitted).toEqual(added);
		});
	});

	/**
	 * Flare down (5xx, no answer) as n8n activates the trigger at its start or for a save: with a state
	 * to go on from, the activation poll returns nothing and says so in n8n's log; n8n keeps the
	 * trigger, and the next poll goes on (lifecycle.ts). Else n8n 2.41 would try 5 times within 15
	 * seconds and leave the trigger off for good, a restart included (hostile review of issue 39, F2).
	 * A first activation, and the user's own errors, still fail it.
	 */
	describe('Flare down as n8n activates the trigger (hostile review of issue 39, F2)', () => {
		const down = (fault: { status: number; body?: unknown } | { reset: true }) => fake.faults.add({ path: SEARCH, times: Infinity, fault });
		const idsFrom = (first: number, count: number) => Array.from({ length: count }, (_, offset) => String(fake.dataset.credential(first + offset).id));
		/** An active trigger that has polled once; the credentials added after that poll. */
		const running = async (n8n: N8nLine) => {
			start();
			const workflow = acme({}, { n8n });
			expect((await workflow.activate()).items).toBeNull();
			moveClock(MINUTE);
			expect((await workflow.poll()).error).toBeUndefined();
			return { workflow, added: idsFrom(fake.addCredentials(3, iso(fake.now()), { domain: 'acme.com' }), 3) };
		};

		it.each([
			['2.41', '503', { status: 503 }],
			['1.123', '503', { status: 503 }],
			['2.41', 'no answer (the connection reset)', { reset: true }],
			['2.41', 'its quota used up (429)', { status: 429, body: { error: { code: 'QUOTA_EXCEEDED', message: 'global search quota exceeded' } } }],
		] as const)('n8n %s restarted while Flare answers %s: the trigger stays active, says so in n8n\'s log, and once Flare answers, emits what arrived, once', async (n8n, _what, fault) => {
			const { workflow, added } = await running(n8n);
			const saved = workflow.saved;
			const logged = logSize();
			down(fault);

			const restarted = await workflow.restart();
			const savedAtRestart = workflow.saved;
			const log = await loggedSince(logged, 'Flare could not be read as n8n activated the workflow');
			fake.faults.clear();
			const after = (await polls(workflow, 3)).flatMap((poll) => poll.keys);

			expect(restarted).toEqual({ items: null });
			expect(workflow.active).toBe(true);
			expect(log).toContain('The trigger stays active and goes on from its saved state at the next poll: nothing is lost.');
			expect(savedAtRestart).toEqual(saved);
			expect(after).toEqual(added);
		});

		it.each(['2.41', '1.123'] as const)('n8n %s: the trigger saved changed while Flare answers 503: it stays active; once Flare answers, what arrived comes, once', async (n8n) => {
			const { workflow, added } = await running(n8n);
			down({ status: 503 });

			const saved = await workflow.reactivate({ ...workflow.parameters, options: { leakedValueOutput: 'sha256' } });
			fake.faults.clear();
			const after = (await polls(workflow, 3)).flatMap((poll) => poll.keys);

			expect(saved).toEqual({ items: null });
			expect([workflow.active, workflow.published]).toEqual([true, true]);
			expect(after).toEqual(added);
		});

		it('n8n 2.41, a first activation while Flare answers 503: it fails after 5 tries, with the error; a restart does not activate it (its activation failed), a publish does', async () => {
			start();
			const workflow = acme();
			down({ status: 503 });

			const activation = await workflow.activate();
			const restarted = await workflow.restart();
			fake.faults.clear();
			const published = await workflow.activate();

			expect(activation.error?.message).toMatch(/^Flare is temporarily unavailable \(HTTP 503\)/);
			expect(restarted).toEqual({ items: null, notActivated: true });
			expect([published, workflow.active]).toEqual([{ items: null }, true]);
		});

		it.each(N8N_LINES)('n8n %s: a restart activates a published workflow only: deactivated, nothing', async (n8n) => {
			const { workflow } = await running(n8n);
			await workflow.deactivate();

			expect(await workflow.restart()).toEqual({ items: null, notActivated: true });
			expect(workflow.active).toBe(false);
		});

		it.each(['2.41', '1.123'] as const)('n8n %s restarted while Flare refuses the API key (401): the activation fails, as the user\'s error it is', async (n8n) => {
			const { workflow } = await running(n8n);
			fake.faults.add({ path: SEARCH, times: Infinity, fault: { status: 401, body: { error: 'invalid token' } } });

			const restarted = await workflow.restart();
			fake.faults.clear();

			expect(restarted.error?.message).toMatch(/^Flare refused the credentials/);
			expect(workflow.active).toBe(false);
		});
	});

	it('F4: 2,100 events with one timestamp, then a refused cursor: each once; the floor keeps the restarted search after that second', async () => {
		const workflow = await events();
		const second = iso(fake.now());
		const added = fake.addEvents(2_100, { materializedAt: second }).map((event) => event.metadata.uid);
		const emitted = (await polls(workflow, 5)).flatMap((poll) => poll.keys);
		fake.expireCursors();
		const later = fake.addEvents(2).map((event) => event.metadata.uid);
		emitted.push(...(await polls(workflow, 3)).flatMap((poll) => poll.keys));

		expect(twice(emitted)).toEqual([]);
		expect(emitted.sort()).toEqual([...added, ...later].sort());
		expect(Object.keys(workflow.state.seen as IDataObject).length).toBeLessThanOrEqual(2_000);
		expect(Date.parse(workflow.state.floor as string)).toBe(Date.parse(second) + SECOND);
	});

	it('F5: Get Full Event down for 30 minutes, one event a minute: after 2 failing polls, each goes out at once, marked', async () => {
		const workflow = await events({ fetchFullEvent: true });
		fake.faults.add({ path: ACTIVITY, times: Infinity, fault: { status: 500 } });
		const out = await polls(workflow, 30, () => fake.addEvents(1));
		fake.faults.clear();
		const after = await polls(workflow, 2, (poll) => poll === 0 && fake.addEvents(1));

		expect(out.map((poll) => poll.error)).toEqual([
			expect.stringMatching(/\(try 1 of 3\)$/),
			expect.stringMatching(/\(try 2 of 3\)$/),
			...Array(28).fill(undefined),
		]);
		expect(out.map((poll) => poll.keys.length)).toEqual([0, 0, 3, ...Array(27).fill(1)]);
		for (const item of out.flatMap((poll) => poll.items)) {
			expect(item.json).toMatchObject({ fullEvent: null, fullEventError: { status: 500 } });
		}
		// Flare answers again: the next event has its full event.
		expect(after[0].items.map((item) => typeof item.json.fullEvent)).toEqual(['object']);
		expect(after[0].items[0].json.fullEvent).not.toBeNull();
	});

	it('F6: a feed page slower than the poll: the events before it go out with their full events; no try is spent without asking', async () => {
		const workflow = await events({ fetchFullEvent: true });
		const added = fake.addEvents(15).map((event) => event.metadata.uid);
		const out = await polls(workflow, 3, () => fake.faults.add({ path: FEED, skip: 1, fault: { delayMs: 60_000 } }));

		expect(out.map((poll) => poll.error)).toEqual([undefined, undefined, undefined]);
		expect(out.flatMap((poll) => poll.keys)).toEqual(added);
		expect(out.flatMap((poll) => poll.items).every((item) => item.json.fullEvent !== null)).toBe(true);
		expect(fake.requests.filter((request) => request.path === ACTIVITY)).toHaveLength(15);
	});

	it('F7: the host clock steps back 5 minutes: the next poll runs at once and emits what is new', async () => {
		const workflow = await events();
		await polls(workflow, 1);
		moveClock(-5 * MINUTE);
		const added = fake.addEvents(1).map((event) => event.metadata.uid);
		const started = clock.time.now;

		const result = await workflow.poll();

		expect(keysOf(result.items)).toEqual(added);
		expect(clock.time.now - started).toBeLessThan(5 * SECOND);
		moveClock(5 * MINUTE);
	});

	it('F8: a 429 asking for 100 s: the poll ends at its 45-second limit', async () => {
		const workflow = await events();
		moveClock(MINUTE);
		fake.faults.add({ path: FEED, fault: { status: 429, headers: { 'retry-after': '100' }, body: { error: { code: 'RATELIMIT_REACHED', message: 'Too many requests' } } } });
		const started = clock.time.now;

		const result = await workflow.poll();

		// Out of time while it waited: nothing emitted, nothing failed; the next poll goes on.
		expect(clock.time.now - started).toBe(45 * SECOND);
		expect(result).toEqual({ items: null });
	});

	describe('F9: Fetch Test Event behind a long run of pages the filters leave empty', () => {
		const fetchTest = async (lowEvents: number) => {
			moveClock(2 * MINUTE); // past any rate-limit pause of the tests before
			start({ credentials: 10 });
			const critical = fake.addEvents(2, { severity: 'critical', materializedAt: iso(Date.now() - 60 * MINUTE) }).map((event) => event.metadata.uid);
			fake.addEvents(lowEvents, { severity: 'low', materializedAt: iso(Date.now() - 30 * MINUTE) });
			const started = clock.time.now;
			const result = await trigger({ event: 'newEvent', severityFilter: 'minimum', minimumSeverity: 'critical' }).poll('manual');
			return { critical, result, seconds: (clock.time.now - started) / SECOND, pages: fake.requests.filter((request) => request.path === FEED).map((request) => (request.body as IDataObject).size) };
		};

		it('1,000 low events first: pages of 10; both critical events are found, the newest first', async () => {
			const { critical, result, pages } = await fetchTest(1_000);

			// Then 3 older critical events of the seeded feed.
			expect(keysOf(result.items)).toHaveLength(5);
			expect(keysOf(result.items).slice(0, 2).sort()).toEqual(critical.sort());
			expect(new Set(pages)).toEqual(new Set([10]));
		});

		it('6,000 low events first: it stops at 45 seconds and says what it went through', async () => {
			const { result, seconds, pages } = await fetchTest(6_000);

			expect(seconds).toBeLessThanOrEqual(45);
			expect(result.items).toBeNull();
			const [, read] = /^No match among the newest events of this feed that Flare went through \((\d+) pages, newest first\)$/.exec(result.error?.message ?? '') ?? [];
			// Every page answered within the 45 seconds (the one under way then is not counted).
			expect(Number(read)).toBeGreaterThanOrEqual(pages.length - 1);
			expect(Number(read)).toBeLessThanOrEqual(pages.length);
			expect(result.error?.description).toMatch(/^Flare's filters left each of those pages empty, and a test stops after 45 seconds or a long run of empty pages\. Once active/);
		});
	});

	it('L1: at the poll’s deadline its request is aborted, not only abandoned', async () => {
		const workflow = await events();
		fake.addEvents(1);
		fake.faults.add({ path: FEED, fault: { delayMs: 120_000 } });
		let open = 0;
		const onRequest = (message: unknown) => {
			const { request } = message as { request: { once(event: string, listener: () => void): void } };
			open++;
			request.once('close', () => open--);
		};
		diagnosticsChannel.subscribe('http.client.request.start', onRequest);
		try {
			moveClock(MINUTE);
			const started = clock.time.now;
			const result = await workflow.poll();
			await nextTurn();

			expect(result.items).toBeNull();
			expect(clock.time.now - started).toBe(45 * SECOND);
			// The fake still holds its answer (120 s): the client closed the connection.
			expect(open).toBe(0);
		} finally {
			diagnosticsChannel.unsubscribe('http.client.request.start', onRequest);
		}
	});

	it('L2: Flare refuses the saved cursor another way (a 400): the error names the saved search and the way out, which works', async () => {
		const workflow = await events();
		fake.addEvents(12);
		const first = (await polls(workflow, 1)).flatMap((poll) => poll.keys);
		fake.faults.add({ path: FEED, times: 2, fault: { status: 400, body: { detail: 'Invalid pagination token' } } });
		const refused = await polls(workflow, 2);
		// The way out: the search changed and saved, then back.
		await workflow.reactivate({ event: 'newEvent', severityFilter: 'minimum', minimumSeverity: 'info' });
		await workflow.reactivate({ event: 'newEvent' });
		const added = fake.addEvents(2).map((event) => event.metadata.uid);
		const after = (await polls(workflow, 3)).flatMap((poll) => poll.keys);

		expect(first).toHaveLength(12);
		expect(refused.map((poll) => poll.error)).toEqual(Array(2).fill(expect.stringMatching(/^Flare refused to go on with the trigger's saved search \(HTTP 400\): /)));
		expect(after).toEqual(added);
	});
});
