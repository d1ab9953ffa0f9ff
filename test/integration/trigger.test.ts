import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { GlobalSearchBody } from '../contract';
import { FakeFlare, type FakeFlareOptions, type LoggedRequest } from '../fake-flare';
import { Harness } from '../harness/engine';
import { TriggerWorkflow, type PollResult } from '../harness/poll';
import { addProbe, PROBE_NODE_TYPE } from '../harness/probe';
import { type N8nLine } from '../harness/static-data';
import { moveClock, useVirtualTime } from '../support/clock';
import { fs, os, path } from '../support/node';
import { apiRequests, jsonOf, logSize, loggedSince, masked, simplifiedCredential } from './support';

const SEARCH_PATH = '/firework/v4/credentials/global/_search';
const QUERY = { type: 'domain', fqdn: 'acme.com' };
const DOMAINS = ['acme.com', 'example.com'];
const MINUTE = 60_000;
const LOOKBACK = 15 * MINUTE;
const SWEEP_EVERY = 10 * MINUTE;
const DAY = 24 * 60 * MINUTE;

const iso = (ms: number) => new Date(ms).toISOString();
const idsOf = (items: INodeExecutionData[] | null | undefined) => (items ?? []).map((item) => item.json.id);
const bodyOf = (request: LoggedRequest) => request.body as IDataObject;
const gteOf = (body: IDataObject) => ((body.filters as IDataObject).imported_at as IDataObject).gte as string;

/**
 * The Flare Trigger's promises (README "Flare Trigger"): every new matching credential starts the
 * workflow once, whatever overlaps, restarts, clocks and late imports happen, with small, bounded
 * state — in n8n-core's real PollContext against the fake API.
 */
describe('Flare Trigger', () => {
	useVirtualTime();
	let fake: FakeFlare;
	let harness: Harness;

	const searches = () => apiRequests(fake).filter((request) => request.path === SEARCH_PATH);
	/** Every acme.com credential imported at or after `gte`, as the oracle orders them. */
	const importedSince = (gte: string) => fake.dataset.searchAll({ query: QUERY as never, filters: { imported_at: { gte } }, order: 'asc' });

	const start = (options: FakeFlareOptions = {}) => {
		fake.reset({ credentials: 1000, domains: DOMAINS, startTime: iso(Date.now() - 2 * DAY), ...options });
		harness.addFlareCredential({ apiKey: fake.apiKeys.full, baseUrl: fake.url });
	};
	const trigger = (parameters: IDataObject = {}, spec: { budgetMs?: number; workflowId?: string; n8n?: N8nLine } = {}) =>
		new TriggerWorkflow(harness, { parameters: { queryType: 'domain', fqdn: 'acme.com', ...parameters }, ...spec });

	/** Activation without backfill: a baseline of what exists, nothing emitted, the state saved. */
	const activate = async (workflow: TriggerWorkflow) => {
		const result = await workflow.activate();
		expect(result).toEqual({ items: null });
		expect(workflow.unsaved).toBe(false);
		fake.clearLog();
	};

	/** Polls until a poll emits nothing; returns every credential id emitted. */
	const drain = async (workflow: TriggerWorkflow, maxPolls = 20): Promise<unknown[]> => {
		const emitted: unknown[] = [];
		for (let poll = 0; poll < maxPolls; poll++) {
			const result: PollResult = await workflow.poll();
			expect(result.error).toBeUndefined();
			if (!result.items) return emitted;
			emitted.push(...idsOf(result.items));
		}
		throw new Error(`Still emitting after ${maxPolls} polls`);
	};

	beforeAll(async () => {
		fake = await FakeFlare.start();
		harness = await Harness.create();
	});
	afterAll(async () => await fake.stop());

	describe('the searches it sends', () => {
		it('activation: the long-lived search from 15 minutes before, pages of 5 (it reads what a sweep would: no sweep); nothing emitted', async () => {
			start();
			const workflow = trigger({ fqdn: ' ACME.com ' });
			const before = Date.now();

			const result = await workflow.activate();

			expect(result).toEqual({ items: null });
			const bodies = searches().map(bodyOf);
			expect(bodies.filter((body) => body.from === undefined)).toHaveLength(1);
			const gte = gteOf(bodies[0]);
			expect(Date.parse(gte)).toBeGreaterThanOrEqual(before - LOOKBACK);
			expect(Date.parse(gte)).toBeLessThanOrEqual(Date.now() - LOOKBACK);
			for (const body of bodies) {
				expect({ ...body, from: undefined }).toEqual({ query: QUERY, filters: { imported_at: { gte } }, order: 'asc', size: 5, from: undefined });
				expect(() => GlobalSearchBody.parse(body)).not.toThrow();
			}
			// n8n saves the static data after an activation's poll, emit or not.
			expect(workflow.saved[`node:Flare Trigger`]).toEqual(workflow.state);
		});

		it('each poll: the long-lived search, every parameter unchanged, resumed from its cursor; every 10 minutes also the sweep of recent imports', async () => {
			start();
			const workflow = trigger();
			await workflow.activate();
			const gte = gteOf(bodyOf(searches()[0]));
			fake.addCredentials(60);
			fake.clearLog();
			const polled = async (minutesLater: number) => {
				moveClock(minutesLater * MINUTE);
				const startedAt = Date.now();
				const result = await workflow.poll();
				const bodies = searches().map(bodyOf);
				fake.clearLog();
				return { startedAt, items: result.items, bodies };
			};

			const first = await polled(0);
			fake.addCredentials(10);
			const second = await polled(10);
			const third = await polled(9);
			const fourth = await polled(1);

			expect(idsOf(first.items)).toEqual(importedSince(gte).slice(0, 30).map((record) => record.id));
			expect(idsOf(second.items)).toEqual(importedSince(gte).slice(30).map((record) => record.id));
			expect([third.items, fourth.items]).toEqual([null, null]);
			for (const body of [first, second, third, fourth].flatMap((poll) => poll.bodies)) {
				expect({ ...body, from: undefined, filters: undefined }).toEqual({ query: QUERY, order: 'asc', size: 5, from: undefined, filters: undefined });
			}
			// A poll's sweep is its second walk: it starts from its first page.
			const sweepStart = (poll: typeof first) => poll.bodies.findIndex((body, index) => index > 0 && body.from === undefined);
			const longLived = (poll: typeof first) => (sweepStart(poll) === -1 ? poll.bodies : poll.bodies.slice(0, sweepStart(poll)));
			const sweep = (poll: typeof first) => poll.bodies.slice(sweepStart(poll));
			// Less than 10 minutes after the activation or the last sweep: the long-lived search alone,
			// resumed at the cursor of the last page it read (read again).
			expect([first, second, third, fourth].map(sweepStart).map((index) => index > 0)).toEqual([false, true, false, true]);
			for (const [before, after] of [[first, second], [second, third], [third, fourth]]) {
				expect(after.bodies[0].from).toBe(longLived(before).at(-1)?.from);
				expect(longLived(after).every((body) => gteOf(body) === gte)).toBe(true);
			}
			// 10 minutes on, the sweep: from 15 minutes before the last sweep began (at activation, where the
			// long-lived search starts), then from 15 minutes before the second poll.
			expect(gteOf(sweep(second)[0])).toBe(gte);
			expect(sweep(second).length).toBeGreaterThanOrEqual(7);
			expect(Date.parse(gteOf(sweep(fourth)[0]))).toBeGreaterThanOrEqual(second.startedAt - LOOKBACK);
			expect(Date.parse(gteOf(sweep(fourth)[0]))).toBeLessThan(second.startedAt - LOOKBACK + 2_000);
		}, 120_000);
	});

	describe('never twice', () => {
		it.each([
			['a null `next` at the end (Flare’s documented end)', 'null'],
			['a `next` at the end that resumes after the last record', 'resumable'],
		] as const)('emits each new credential once across polls, also credentials sharing one imported_at: %s', async (_end, endCursor) => {
			start({ sameInstantGroup: 7, endCursor });
			const workflow = trigger();
			await activate(workflow);
			fake.addCredentials(40);

			const first = await drain(workflow);
			fake.addCredentials(20);
			const second = await drain(workflow);

			const all = [...first, ...second];
			expect(new Set(all).size).toBe(all.length);
			expect(all).toHaveLength(30);
			expect(await workflow.poll()).toEqual({ items: null });
		});

		it('applies Simplify and Leaked Value Output like the Flare node', async () => {
			start();
			const workflow = trigger({ simplify: false, options: { leakedValueOutput: 'full' } });
			await activate(workflow);
			fake.addCredentials(6);

			const result = await workflow.poll();

			const expected = fake.dataset.searchAll({ query: QUERY as never }).slice(0, 3).reverse();
			expect(jsonOf(result.items ?? [])).toEqual(expected.map((record) => ({ ...record, globalSearchesRemaining: expect.any(Number) })));
		});

		it('overlapping polls (a slow page and a second tick): the second does nothing, each credential once', async () => {
			start();
			const workflow = trigger();
			await activate(workflow);
			fake.addCredentials(60);
			fake.faults.add({ path: SEARCH_PATH, fault: { delayMs: 3_000 } });

			const slow = workflow.poll();
			await sleep(500);
			const overlapping = await workflow.poll();
			const first = await slow;

			expect(overlapping).toEqual({ items: null });
			expect(idsOf(first.items)).toHaveLength(30);
			expect(await drain(workflow)).toEqual([]);
		});

		it('the trigger saved changed while a poll that emits is under way (n8n 2.41 registers it again and drops that poll): the new activation emits its credentials, once', async () => {
			start();
			const workflow = trigger();
			await activate(workflow);
			fake.addCredentials(40);
			fake.faults.add({ path: SEARCH_PATH, fault: { delayMs: 3_000 } });

			const superseded = workflow.poll();
			await sleep(500);
			const activation = (await workflow.reactivate({ queryType: 'domain', fqdn: 'acme.com', requestOptions: { timeout: 40_000 } }))!;
			const dropped = await superseded;
			const emitted = [...idsOf(activation.items), ...(await drain(workflow))];

			expect(dropped).toEqual({ items: null, discarded: true });
			expect(activation).toEqual({ items: null });
			expect(emitted).toEqual(importedSince(iso(0)).slice(-20).map((record) => record.id));
		});

		it('the workflow saved with the trigger unchanged while a poll is under way: n8n 2.41 keeps the trigger registered, the poll emits, nothing comes twice', async () => {
			start();
			const workflow = trigger();
			await activate(workflow);
			fake.addCredentials(40);
			fake.faults.add({ path: SEARCH_PATH, fault: { delayMs: 3_000 } });

			const inFlight = workflow.poll();
			await sleep(500);
			const activation = await workflow.reactivate({ queryType: 'domain', fqdn: 'acme.com' });
			const first = await inFlight;
			const emitted = [...idsOf(first.items), ...(await drain(workflow))];

			expect(activation).toBeNull();
			expect(first.discarded).toBeUndefined();
			expect(emitted).toEqual(importedSince(iso(0)).slice(-20).map((record) => record.id));
		});

		it("n8n 2.41 compares the trigger as its computeTriggerDiff does (deeply, credentials included): the same parameters in another order keep its registration; another credential registers it again", async () => {
			start();
			harness.addFlareCredential({ apiKey: fake.apiKeys.full, baseUrl: fake.url }, 'cred-2');
			const workflow = trigger({ options: { leakedValueOutput: 'sha256', backfill: 'none' } });
			await activate(workflow);

			const reordered = await workflow.reactivate({ options: { backfill: 'none', leakedValueOutput: 'sha256' }, fqdn: 'acme.com', queryType: 'domain' });
			const otherCredential = await workflow.reactivate(workflow.parameters, { credentialId: 'cred-2' });

			expect(reordered).toBeNull();
			expect(otherCredential).toEqual({ items: null });
		});

		it('a poll that fails after fetching emits nothing and keeps the state; the next poll emits everything once', async () => {
			start();
			const workflow = trigger();
			await activate(workflow);
			const before = workflow.state;
			fake.addCredentials(40);
			// The long-lived search reads some of the new credentials, then fails for good.
			fake.faults.add({ path: SEARCH_PATH, skip: 3, times: 5, fault: { status: 503 } });

			const failed = await workflow.poll();

			expect(failed.items).toBeNull();
			expect(failed.error?.message).toBe('Flare is temporarily unavailable (HTTP 503) after 5 attempts');
			expect(workflow.state).toEqual(before);
			expect(await drain(workflow)).toHaveLength(20);
		});

		it('a restart between polls: nothing emitted again', async () => {
			start();
			const workflow = trigger();
			await activate(workflow);
			fake.addCredentials(40);
			expect(await drain(workflow)).toHaveLength(20);

			// n8n's start-up activation poll: nothing new yet.
			expect(await workflow.restart()).toEqual({ items: null });
			fake.addCredentials(10);

			expect(await drain(workflow)).toEqual(importedSince(iso(0)).slice(-5).map((record) => record.id));
		});

		it('credentials without an id, or with neither id nor credential hash: each emitted once', async () => {
			start();
			const workflow = trigger();
			await activate(workflow);
			const first = fake.addCredentials(3, undefined, { domain: 'acme.com', nullId: true });
			const second = fake.addCredentials(3, undefined, { domain: 'acme.com', nullId: true, nullCredentialHash: true });

			const emitted: INodeExecutionData[] = [];
			for (let poll = 0; poll < 3; poll++) emitted.push(...((await workflow.poll()).items ?? []));

			const identities = [first, first + 1, first + 2, second, second + 1, second + 2].map((index) => fake.dataset.credential(index).identity_name);
			expect(emitted.map((item) => item.json.identity_name)).toEqual(identities);
			expect(emitted.map((item) => item.json.id)).toEqual(Array(6).fill(null));
		}, 60_000);
	});

	describe('never lost', () => {
		/**
		 * n8n saves a workflow's static data only for an id it takes as valid (`isWorkflowIdValid`:
		 * n8n 1.123 at most 16 characters, n8n 2.41 at most 21), and `n8n import:workflow` keeps the
		 * id a file gives: the limit docs/trigger.md states, said in n8n's log at such an activation.
		 */
		it.each([
			['1.123', 'saves nothing: after a restart the trigger starts anew, and what arrived while n8n was down is taken as existing', false],
			['2.41', 'saves the state: after a restart what arrived while n8n was down is emitted, once', true],
		] as const)('a workflow id of 17 characters, n8n %s: %s', async (line, _behaviour, saves) => {
			start();
			const workflowId = `flareImported017${saves ? 'a' : 'b'}`;
			const workflow = trigger({}, { workflowId, n8n: line });
			expect(await workflow.activate()).toEqual({ items: null });
			fake.addCredentials(10);
			expect(await drain(workflow)).toHaveLength(5);

			const added = fake.addCredentials(10);
			moveClock(MINUTE);
			const after = [...idsOf((await workflow.restart()).items), ...(await drain(workflow))];

			const acmeAdded = [...Array(10).keys()].map((offset) => fake.dataset.credential(added + offset)).filter((record) => record.domain === 'acme.com');
			expect(after).toEqual(saves ? acmeAdded.map((record) => record.id) : []);
			expect(Object.keys(workflow.saved)).toEqual(saves ? ['node:Flare Trigger'] : []);
		});

		it("n8n's log says so at the activation of a workflow whose state n8n will not save: an id of 17 characters on n8n 1.123, not on n8n 2.41 (which saves it)", async () => {
			start();
			const logged = logSize();
			expect(await trigger({}, { workflowId: 'flareSaved241017x', n8n: '2.41' }).activate()).toEqual({ items: null });
			expect(await trigger({}, { workflowId: 'flareUnsaved1x17x', n8n: '1.123' }).activate()).toEqual({ items: null });

			const log = await loggedSince(logged, 'flareUnsaved1x17x');

			expect(log).toContain("this one's has 17");
			expect(log).not.toContain('flareSaved241017x');
		});

		/**
		 * n8n 1.123 removes and adds the workflow again at every save, from a database that holds nothing
		 * for such an id: the trigger keeps the state of a poll that emitted in this process's memory, as
		 * n8n 1.123 emits every poll (hostile review of issue 39, F4).
		 */
		it.each([
			['flareImported017x', 'of 17 characters (n8n saves nothing)'],
			['flareImported16x', 'of 16 characters'],
		])('n8n 1.123, a workflow id %s, saved unchanged after a poll that emitted: what arrived since that poll is emitted, once', async (workflowId) => {
			start();
			const workflow = trigger({}, { workflowId, n8n: '1.123' });
			expect(await workflow.activate()).toEqual({ items: null });
			fake.addCredentials(10);
			moveClock(MINUTE);
			expect(idsOf((await workflow.poll()).items)).toHaveLength(5);
			const added = fake.addCredentials(10);
			const acmeAdded = [...Array(10).keys()].map((offset) => fake.dataset.credential(added + offset)).filter((record) => record.domain === 'acme.com');

			moveClock(MINUTE);
			const saved = idsOf((await workflow.reactivate(workflow.parameters))?.items);

			expect([...saved, ...(await drain(workflow))]).toEqual(acmeAdded.map((record) => record.id));
		});

		it('a restart before the first emit: the activation saved its baseline; nothing imported since is lost', async () => {
			start();
			const workflow = trigger();
			await activate(workflow);
			fake.addCredentials(6);

			// n8n's start-up activation poll emits them.
			const restarted = idsOf((await workflow.restart()).items);

			expect([...restarted, ...(await drain(workflow))]).toEqual(importedSince(iso(0)).slice(-3).map((record) => record.id));
		});

		it('a trigger saved by an earlier version (a cursor of pages of 10, no sweep time): Flare refuses the cursor, the search starts again where the sweep starts; nothing lost or emitted twice', async () => {
			start();
			const workflow = trigger();
			await activate(workflow);
			fake.addCredentials(30);
			const before = await drain(workflow);
			// What the earlier version saved: the cursor of its walk with pages of 10, and no sweep time.
			const saved = workflow.saved['node:Flare Trigger'] as IDataObject;
			const token = ((await (await fetch(`${fake.url}/tokens/generate`, { method: 'POST', headers: { Authorization: fake.apiKeys.full } })).json()) as IDataObject).token as string;
			const page = await fetch(`${fake.url}${SEARCH_PATH}`, {
				method: 'POST',
				headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
				body: JSON.stringify({ query: QUERY, filters: { imported_at: { gte: saved.start } }, order: 'asc', size: 10 }),
			});
			const oldCursor = ((await page.json()) as IDataObject).next;
			expect(typeof oldCursor).toBe('string');
			workflow.saved = { 'node:Flare Trigger': { ...saved, cursor: oldCursor, sweptAt: undefined } };
			fake.clearLog();
			const added = fake.addCredentials(10);

			// n8n's start-up activation poll resumes the saved search.
			const after = [...idsOf((await workflow.restart()).items), ...(await drain(workflow))];

			expect(before).toHaveLength(15);
			const acmeAdded = [...Array(10).keys()].map((offset) => fake.dataset.credential(added + offset)).filter((record) => record.domain === 'acme.com');
			expect(acmeAdded).toHaveLength(5);
			expect(after).toEqual(acmeAdded.map((record) => record.id));
			const sent = searches();
			expect(sent[0]).toMatchObject({ status: 422, body: { from: oldCursor, size: 5 } });
			expect(bodyOf(sent[1])).toEqual({ query: QUERY, filters: { imported_at: { gte: saved.since } }, order: 'asc', size: 5 });
		}, 60_000);

		it.each([
			['by import time', 'importedAt'],
			['by domain then id', 'domainThenId'],
		] as const)('a restart mid-backlog (a 30-day backfill spread over polls), results ordered %s: every credential once', async (_order, searchOrder) => {
			start({ credentials: 200, searchOrder });
			const workflow = trigger({ options: { backfill: 'last30Days' } }, { budgetMs: 4_000 });

			const first = await workflow.activate();
			const restarted = await workflow.restart();
			const rest = [...idsOf(restarted.items), ...(await drain(workflow, 40))];

			const all = [...idsOf(first.items), ...rest];
			expect(all.length).toBeGreaterThan(idsOf(first.items).length);
			expect(new Set(all).size).toBe(all.length);
			expect([...all].sort()).toEqual(importedSince(iso(Date.now() - 30 * DAY)).map((record) => record.id).sort());
		}, 120_000);

		it.each([
			['5 minutes behind n8n', -5 * MINUTE],
			['5 minutes ahead of n8n', 5 * MINUTE],
		])('Flare’s clock %s: credentials imported after activation are emitted', async (_name, skew) => {
			start();
			const workflow = trigger();
			await activate(workflow);

			fake.addCredentials(6, iso(Math.floor((Date.now() + skew) / 1000) * 1000));

			expect(await drain(workflow)).toEqual(importedSince(iso(0)).slice(-3).map((record) => record.id));
		});
	});

	describe('late and bogus import dates', () => {
		it.each([
			['by import time', 'importedAt'],
			['by domain then id', 'domainThenId'],
		] as const)('credentials that become searchable up to 10 minutes late are emitted by the next sweep, once (results ordered %s)', async (_order, searchOrder) => {
			start({ searchOrder });
			// A keyword query meets the username on several domains, so that the order by domain matters.
			const username = 'late.reader';
			const workflow = trigger({ queryType: 'keyword', fqdn: undefined, keyword: username });
			await activate(workflow);
			const onTime = fake.addCredentials(12, undefined, { domain: 'example.com', username });
			const emitted = await drain(workflow);
			// Imported 9 minutes ago, searchable only now, on a domain that sorts first: under either
			// order they sort before the saved cursor (three pages on), and only the sweep finds them.
			const late = fake.addCredentials(2, iso(Math.floor((Date.now() - 9 * MINUTE) / 1000) * 1000), { domain: 'aaa.com', username });
			const beforeSweep = await drain(workflow);
			moveClock(SWEEP_EVERY);
			emitted.push(...(await drain(workflow)));

			expect(beforeSweep).toEqual([]);
			const expected = [...Array(12).keys()].map((offset) => onTime + offset).concat(late, late + 1);
			expect(emitted).toEqual(expected.map((index) => fake.dataset.credential(index).id));
		}, 90_000);

		it('a bogus far-future imported_at does not stop later credentials', async () => {
			start();
			const workflow = trigger();
			await activate(workflow);
			const bogus = fake.addCredentials(1, '9999-12-31T23:59:59Z', { domain: 'acme.com' });
			const before = await drain(workflow);
			const later = fake.addCredentials(3, undefined, { domain: 'acme.com' });

			const after = await drain(workflow);

			expect(before).toEqual([fake.dataset.credential(bogus).id]);
			expect(after).toEqual([later, later + 1, later + 2].map((index) => fake.dataset.credential(index).id));
		}, 60_000);
	});

	describe('bounded', () => {
		it('a poll stops fetching within its time limit and emits what it has; the rest comes next poll', async () => {
			start();
			const workflow = trigger({ options: { backfill: 'last30Days' } }, { budgetMs: 2_500 });

			const started = Date.now();
			const first = await workflow.activate();
			const took = Date.now() - started;

			expect(took).toBeLessThan(2_500 + 1_500);
			expect(idsOf(first.items).length).toBeGreaterThan(0);
			expect(idsOf(first.items).length).toBeLessThan(importedSince(iso(Date.now() - 30 * DAY)).length);
		}, 30_000);
	});

	describe('manual "fetch test event"', () => {
		it("runs over a Workflow of its own, as n8n's manual run does: the active trigger's static data in memory is not touched (the lifecycle probe counts the polls it saw)", async () => {
			addProbe(harness, fs.mkdtempSync(path.join(os.tmpdir(), 'flare-probe-')));
			const probe = new TriggerWorkflow(harness, { type: PROBE_NODE_TYPE, name: 'Lifecycle Probe', parameters: { value: 'a' } });
			const staticPolls = (result: PollResult) => result.items?.map((item) => item.json.staticPolls);

			const ticks = [await probe.activate(), await probe.poll()].map(staticPolls);
			const manual = staticPolls(await probe.poll('manual'));
			const next = staticPolls(await probe.poll());

			expect({ ticks, manual, next }).toEqual({ ticks: [[1], [2]], manual: [3], next: [3] });
		});

		it('returns the newest matches and changes no state', async () => {
			start();
			const workflow = trigger();
			await activate(workflow);
			fake.addCredentials(6);
			const state = workflow.state;

			const manual = await workflow.poll('manual');

			const newest = fake.dataset.searchAll({ query: QUERY as never }).slice(0, 5);
			expect(jsonOf(manual.items ?? [])).toEqual(newest.map((record) => simplifiedCredential(record, masked(record.hash), expect.any(Number) as never)));
			expect(searches().map(bodyOf)).toEqual([{ query: QUERY, order: 'desc', size: 5 }]);
			expect(workflow.state).toEqual(state);
			// The credentials shown are still emitted by the next active poll, once.
			expect(await drain(workflow)).toHaveLength(3);
		});

		it('stores nothing before the first activation', async () => {
			start();
			const workflow = trigger();

			const manual = await workflow.poll('manual');

			expect(manual.items).toHaveLength(5);
			expect(workflow.state).toEqual({});
			expect(workflow.unsaved).toBe(false);
		});

		it("runs in n8n's manual execution and says so when nothing matches", async () => {
			start();
			const node = (fqdn: string) => ({
				id: 'trigger',
				name: 'Flare Trigger',
				type: 'n8n-nodes-flareio.flareTrigger',
				typeVersion: 1,
				position: [0, 0] as [number, number],
				parameters: { queryType: 'domain', fqdn },
				credentials: { flareApi: { id: 'cred-1', name: 'Flare' } },
			});

			const found = await harness.runWorkflow([node('acme.com')], {});
			const none = await harness.runWorkflow([node('nobody.example')], {});

			expect(found.status).toBe('success');
			expect(idsOf(found.node('Flare Trigger').outputs[0])).toEqual(fake.dataset.searchAll({ query: QUERY as never }).slice(0, 5).map((record) => record.id));
			expect(none.status).toBe('error');
			expect(none.error?.message).toBe('No leaked credential matches this query yet');
		});
	});

	describe('checks', () => {
		it('checks the query before anything is sent, and stores nothing', async () => {
			start();
			const workflow = trigger({ fqdn: 'not a domain' });

			const result = await workflow.activate();

			expect(result.error?.message).toBe(`'Domain' is not a domain name: "not a domain" [item 0]`);
			expect(fake.requests).toEqual([]);
			expect(workflow.state).toEqual({});
		});
	});
});
