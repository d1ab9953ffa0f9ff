/**
 * Flare Trigger → New Leaked Cookie (issue 34): the cookies of a domain that Flare imports, each once,
 * as Flare's cookie-monitoring guide reads them (a search saved by its cursor, by import time); those
 * expired when found left out unless asked for; values masked. In n8n-core's PollContext against the
 * fake, on virtual time. Exactly once under faults, restarts and late imports is the model's
 * (test/model/trigger-model.ts, kind `cookie`).
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { FakeFlare, type LoggedRequest } from '../fake-flare';
import { Harness } from '../harness/engine';
import { TriggerWorkflow } from '../harness/poll';
import { moveClock, useVirtualTime } from '../support/clock';
import { apiRequests, masked, sha256 } from './support';

const COOKIES = '/astp/v2/cookies/_search';
const DOMAIN = 'app.acme.com';
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

const iso = (ms: number) => new Date(ms).toISOString();
/** One microsecond before `ms`, as the trigger asks Flare for what came "after" it. */
const justBefore = (ms: number) => `${iso(ms - 1).slice(0, -1)}999Z`;

describe('Flare Trigger → New Leaked Cookie', () => {
	const clock = useVirtualTime();
	let fake: FakeFlare;
	let harness: Harness;

	const searches = () => apiRequests(fake).filter((request) => request.path === COOKIES);
	const bodyOf = (request: LoggedRequest) => request.body as IDataObject;
	const uuids = (items: INodeExecutionData[] | null) => (items ?? []).map((item) => item.json.uuid);
	const trigger = (parameters: IDataObject = {}) =>
		new TriggerWorkflow(harness, { parameters: { event: 'newLeakedCookie', domain: DOMAIN, ...parameters } });

	beforeAll(async () => {
		fake = await FakeFlare.start();
		harness = await Harness.create();
	});
	afterAll(async () => await fake.stop());
	beforeEach(() => {
		fake.reset({ credentials: 50, eventsPerTenant: 10 });
		harness.addFlareCredential({ apiKey: fake.apiKeys.full, baseUrl: fake.url });
	});

	it('activation: one search of the domain and names from 15 minutes before, ascending, pages of 25; nothing emitted', async () => {
		fake.addCookies(2, { domain: DOMAIN, importedAt: iso(Date.now() - 5 * MINUTE) });
		const workflow = trigger({ names: 'session, PHPSESSID' });
		const activatedAt = Date.now();

		const result = await workflow.activate();

		expect(result).toEqual({ items: null });
		expect(searches().map(bodyOf)).toEqual([
			{ domain: DOMAIN, names: ['session', 'PHPSESSID'], imported_after: justBefore(activatedAt - 15 * MINUTE), order: 'asc', size: 25 },
		]);
	});

	it('emits each new cookie of the domain once, in import order, its value masked; the expired and the other names are left out', async () => {
		const workflow = trigger({ names: 'session' });
		await workflow.activate();
		moveClock(MINUTE);
		const now = Date.now();
		const fresh = fake.addCookies(2, { domain: DOMAIN, importedAt: iso(now - 1000), expiresAt: iso(now + 30 * DAY) });
		const sessionOnly = fake.addCookies(1, { domain: DOMAIN, importedAt: iso(now - 1000) });
		fake.addCookies(1, { domain: DOMAIN, importedAt: iso(now - 1000), expiresAt: iso(now - DAY) });
		fake.addCookies(1, { domain: DOMAIN, importedAt: iso(now - 1000), name: 'remember_me' });
		fake.addCookies(1, { domain: 'acme.com', importedAt: iso(now - 1000) });

		const first = await workflow.poll();
		moveClock(MINUTE);
		const second = await workflow.poll();

		// In Flare's order (by import time, then uuid: the fake's), as the search finds them.
		const wanted = new Set([...fresh, ...sessionOnly].map((cookie) => cookie.uuid));
		const expected = fake.feed.cookiesFor({ domain: DOMAIN, names: ['session'], order: 'asc' }).filter((cookie) => wanted.has(cookie.uuid));
		expect(expected).toHaveLength(3);
		expect(first.error).toBeUndefined();
		expect(first.items?.map((item) => item.json)).toEqual(expected.map((cookie) => ({ ...cookie, value: masked(cookie.value) })));
		expect(second.items).toBeNull();
		expect(JSON.stringify(workflow.state)).not.toContain('PlAnTeD');
	});

	it('Include Expired Cookies emits the expired too; Leaked Value Output SHA-256 gives the digest', async () => {
		const workflow = trigger({ options: { includeExpired: true, leakedValueOutput: 'sha256' } });
		await workflow.activate();
		moveClock(MINUTE);
		const [expired] = fake.addCookies(1, { domain: DOMAIN, importedAt: iso(Date.now() - 1000), expiresAt: iso(Date.now() - DAY) });

		const result = await workflow.poll();

		expect(result.items?.map((item) => item.json)).toEqual([{ ...expired, value: sha256(expired.value) }]);
	});

	it('a cookie Flare makes searchable late (dated before the saved position) comes with the next sweep, once', async () => {
		const workflow = trigger();
		await workflow.activate();
		moveClock(MINUTE);
		const [onTime] = fake.addCookies(1, { domain: DOMAIN, importedAt: iso(Date.now()) });
		expect(uuids((await workflow.poll()).items)).toEqual([onTime.uuid]);
		const [late] = fake.addCookies(1, { domain: DOMAIN, importedAt: iso(Date.now() - 5 * MINUTE) });

		const emitted: unknown[] = [];
		for (let poll = 0; poll < 12; poll++) {
			moveClock(MINUTE);
			emitted.push(...uuids((await workflow.poll()).items));
		}

		expect(emitted).toEqual([late.uuid]);
	});

	it('Fetch Test Event: the 5 newest that may still open a session, newest first, without state', async () => {
		const now = Date.now();
		const added = fake.addCookies(7, { domain: DOMAIN, importedAt: iso(now - 10 * MINUTE) });
		fake.addCookies(1, { domain: DOMAIN, importedAt: iso(now - MINUTE), expiresAt: iso(now - DAY) });
		const workflow = trigger();

		const result = await workflow.poll('manual');

		expect(searches().map(bodyOf)).toEqual([{ domain: DOMAIN, order: 'desc', size: 25 }]);
		const newest = fake.feed.cookiesFor({ domain: DOMAIN, order: 'desc' }).filter((cookie) => added.some((one) => one.uuid === cookie.uuid)).slice(0, 5);
		expect(result.items?.map((item) => item.json)).toEqual(newest.map((cookie) => ({ ...cookie, value: masked(cookie.value) })));
		expect(workflow.state).toEqual({});
	});

	it('a domain with a leading dot (the cookies a domain shares with its subdomains) is watched as such', async () => {
		const workflow = trigger({ domain: ' .ACME.com ' });
		await workflow.activate();
		moveClock(MINUTE);
		const [shared] = fake.addCookies(1, { domain: '.acme.com', importedAt: iso(Date.now()) });
		fake.addCookies(1, { domain: 'acme.com', importedAt: iso(Date.now()) });

		const result = await workflow.poll();

		expect(searches().map((request) => bodyOf(request).domain)).toEqual(['.acme.com', '.acme.com']);
		expect(uuids(result.items)).toEqual([shared.uuid]);
	});

	it('a domain that is no domain is refused before any request, naming Domain', async () => {
		// The activation fails: n8n does not activate the workflow.
		const result = await trigger({ domain: 'https://app.acme.com/login' }).activate();

		expect(searches()).toEqual([]);
		expect([result.error?.name, result.error?.message]).toEqual(['NodeOperationError', `'Domain' is not a domain name: "https://app.acme.com/login" [item 0]`]);
	});

	it("n8n's clock 4 minutes ahead at activation, then stepped back: what existed before is never emitted, by the polls or the next sweeps (found by the model, seed 20261128)", async () => {
		const aheadMs = 4 * MINUTE;
		clock.time.step(aheadMs);
		fake.setClockOffset(-aheadMs);
		const flareNow = () => fake.now();
		// 300 cookies imported 14 to 3 minutes before the activation on Flare's clock: the first few
		// are older than the activation's search reaches (15 minutes on n8n's clock, 11 on Flare's).
		for (let minute = 14; minute >= 3; minute--) {
			fake.addCookies(25, { domain: DOMAIN, importedAt: iso(Math.floor((flareNow() - minute * MINUTE) / 1000) * 1000), name: 'session' });
		}
		const workflow = trigger({ names: 'session' });
		expect(await workflow.activate()).toEqual({ items: null });

		clock.time.step(-aheadMs);
		fake.setClockOffset(0);
		const emitted: unknown[] = [];
		for (let poll = 0; poll < 22; poll++) {
			moveClock(MINUTE);
			const result = await workflow.poll();
			expect(result.error).toBeUndefined();
			emitted.push(...uuids(result.items));
		}

		// Two sweeps ran after the step (each 10 minutes), neither from before where the first started.
		const sweeps = searches().filter((request) => bodyOf(request).from === undefined).map((request) => String(bodyOf(request).imported_after));
		expect(sweeps.length).toBeGreaterThanOrEqual(3);
		expect([...sweeps].sort()).toEqual(sweeps);
		expect(emitted).toEqual([]);
	});

	/**
	 * Whether a cookie has expired is judged at the earlier of n8n's clock and Flare's (its `Date`
	 * header), as the trigger keeps its positions (docs/trigger.md, "How it follows Flare"): n8n's
	 * clock stepped ahead (NTP, a VM resumed) loses no valid cookie (review of 2026-12-07, R-T1);
	 * stepped back, it may let out one that expired, never hold back one that is valid (review of issue
	 * 39, F1).
	 */
	describe("expiry judged at the earlier of n8n's clock and Flare's, n8n's clock stepped", () => {
		const HOUR = 60 * MINUTE;
		let stepped = 0;
		/** Steps n8n's clock by `ms`, Flare's going on as it was (as trigger-clock.test.ts does). */
		const stepHost = (ms: number) => {
			stepped += ms;
			clock.time.step(ms);
			fake.setClockOffset(fake.clockOffsetMs - ms);
		};
		afterEach(() => {
			stepHost(-stepped);
			stepped = 0;
		});
		/** What 12 polls a minute apart emit after the step; the activation and a first poll before it. */
		const pollsAfterStep = async (stepMs: number, cookie: (flareNow: number) => { importedAt: string; expiresAt: string }) => {
			const workflow = trigger();
			expect((await workflow.activate()).error).toBeUndefined();
			moveClock(MINUTE);
			expect((await workflow.poll()).error).toBeUndefined();
			stepHost(stepMs);
			const [added] = fake.addCookies(1, { domain: DOMAIN, ...cookie(fake.now()) });
			const emitted: unknown[] = [];
			for (let poll = 0; poll < 12; poll++) {
				moveClock(MINUTE);
				const result = await workflow.poll();
				expect(result.error).toBeUndefined();
				emitted.push(...uuids(result.items));
			}
			return { emitted, added };
		};

		it.each([
			['2 hours', 2 * HOUR, HOUR],
			['2 days', 2 * DAY, DAY],
		])("n8n's clock %s ahead: a cookie imported now that Flare says expires later is emitted, once", async (_label, ahead, validFor) => {
			const { emitted, added } = await pollsAfterStep(ahead, (flareNow) => ({ importedAt: iso(flareNow), expiresAt: iso(flareNow + validFor) }));

			expect(emitted).toEqual([added.uuid]);
		});

		it("n8n's clock 2 days behind: a cookie Flare says expired yesterday goes out, once (n8n's clock, the earlier, says valid)", async () => {
			const { emitted, added } = await pollsAfterStep(-2 * DAY, (flareNow) => ({ importedAt: iso(flareNow), expiresAt: iso(flareNow - DAY) }));

			expect(emitted).toEqual([added.uuid]);
		});

		it('the clocks agreeing: a cookie valid for an hour is emitted, once', async () => {
			const { emitted, added } = await pollsAfterStep(0, (flareNow) => ({ importedAt: iso(flareNow), expiresAt: iso(flareNow + HOUR) }));

			expect(emitted).toEqual([added.uuid]);
		});

		it.each([
			['2 hours ahead: a cookie valid for another hour is shown', 2 * HOUR, HOUR, true],
			['2 days behind: a cookie expired a day ago is shown too (the earlier clock says valid)', -2 * DAY, -DAY, true],
		])("Fetch Test Event, n8n's clock %s", async (_label, step, expiresIn, shown) => {
			stepHost(step);
			const [added] = fake.addCookies(1, { domain: DOMAIN, importedAt: iso(fake.now() - MINUTE), expiresAt: iso(fake.now() + expiresIn) });
			fake.addCookies(1, { domain: DOMAIN, importedAt: iso(fake.now() - 2 * MINUTE), expiresAt: iso(fake.now() + DAY) });

			const result = await trigger().poll('manual');

			expect(result.error).toBeUndefined();
			expect(uuids(result.items).includes(added.uuid)).toBe(shown);
		});
	});

	/**
	 * One answer whose `Date` header is wrong (a proxy's stale cache, a clock far ahead): expiry and
	 * positions are judged at the earlier of n8n's clock and Flare's, so one wrong clock never holds
	 * back a valid cookie, nor moves the trigger's positions (`since`, `sweptAt`, `reached`) ahead
	 * (clock.ts; hostile review of issue 39, F1). Without a `Date` header, n8n's clock alone.
	 */
	describe('one answer with a wrong Date header', () => {
		/** What the cookie search's answers say as `Date` (undefined: the fake's clock). */
		let dateOf: (() => string) | undefined;
		beforeAll(() => {
			type Send = (res: unknown, ctx: { rawPath: string }, reply: { headers?: Record<string, string> }) => void;
			const server = fake as unknown as { send: Send };
			const send = server.send.bind(fake);
			server.send = (res, ctx, reply) => {
				const date = ctx.rawPath.startsWith(COOKIES) ? dateOf?.() : undefined;
				send(res, ctx, date === undefined ? reply : { ...reply, headers: { ...reply.headers, date } });
			};
		});
		afterEach(() => {
			dateOf = undefined;
		});
		const YEAR = 365 * DAY;
		const dated = (offset: number) => () => new Date(Date.now() + offset).toUTCString();
		/** The positions the trigger saved, in ms. */
		const positionsOf = (workflow: TriggerWorkflow) => {
			const { since, sweptAt, reached } = workflow.state as Record<string, string>;
			return [since, sweptAt, reached].map((at) => Date.parse(at));
		};
		/** An active trigger that has polled a quarter of an hour (a sweep included). */
		const running = async () => {
			const workflow = trigger();
			expect((await workflow.activate()).error).toBeUndefined();
			for (let poll = 0; poll < 15; poll++) {
				moveClock(MINUTE);
				expect((await workflow.poll()).error).toBeUndefined();
			}
			return workflow;
		};
		const pollsOf = async (workflow: TriggerWorkflow, count: number) => {
			const emitted: unknown[] = [];
			for (let poll = 0; poll < count; poll++) {
				moveClock(MINUTE);
				const result = await workflow.poll();
				expect(result.error).toBeUndefined();
				emitted.push(...uuids(result.items));
			}
			return emitted;
		};

		it('dated a year ahead: a cookie valid for 30 days goes out, once; no saved position moves past n8n\'s clock', async () => {
			const workflow = await running();
			moveClock(MINUTE);
			const [valid] = fake.addCookies(1, { domain: DOMAIN, importedAt: iso(Date.now() - 1000), expiresAt: iso(Date.now() + 30 * DAY) });
			dateOf = dated(YEAR);
			const hostile = await workflow.poll();
			dateOf = undefined;
			const positions = positionsOf(workflow);
			const now = Date.now();

			expect(uuids(hostile.items)).toEqual([valid.uuid]);
			expect(positions.filter((at) => at > now)).toEqual([]);
			expect(await pollsOf(workflow, 15)).toEqual([]);
		});

		it('after one dated a year ahead, the Cookie Names changed (a save): a new cookie of that name goes out, once', async () => {
			const workflow = await running();
			moveClock(MINUTE);
			dateOf = dated(YEAR);
			expect(await workflow.poll()).toEqual({ items: null });
			dateOf = undefined;
			moveClock(MINUTE);
			expect(await workflow.reactivate({ event: 'newLeakedCookie', domain: DOMAIN, names: 'session' })).toEqual({ items: null });
			const [fresh] = fake.addCookies(1, { domain: DOMAIN, importedAt: iso(Date.now() - 1000), expiresAt: iso(Date.now() + 30 * DAY), name: 'session' });

			expect(await pollsOf(workflow, 15)).toEqual([fresh.uuid]);
		});

		it('dated 3 days ago (a stale cache): a cookie that expired yesterday goes out (the earlier clock says valid), once; where the sweeps and the search read from does not move back', async () => {
			const workflow = await running();
			const [since, , reached] = positionsOf(workflow);
			moveClock(MINUTE);
			const [expired] = fake.addCookies(1, { domain: DOMAIN, importedAt: iso(Date.now() - 1000), expiresAt: iso(Date.now() - DAY) });
			dateOf = dated(-3 * DAY);
			const stale = await workflow.poll();
			dateOf = undefined;
			// `sweptAt` may: the next poll sweeps again, which reads nothing twice.
			const [sinceAfter, , reachedAfter] = positionsOf(workflow);

			expect(uuids(stale.items)).toEqual([expired.uuid]);
			expect([sinceAfter >= since, reachedAfter >= reached]).toEqual([true, true]);
			expect(await pollsOf(workflow, 15)).toEqual([]);
		});

		it('Fetch Test Event, its answer dated a year ahead: the newest valid cookie is shown', async () => {
			const [valid] = fake.addCookies(1, { domain: DOMAIN, importedAt: iso(Date.now() - MINUTE), expiresAt: iso(Date.now() + 30 * DAY) });
			dateOf = dated(YEAR);

			const result = await trigger().poll('manual');

			expect(uuids(result.items)).toEqual([valid.uuid]);
		});

		it("no Date header, n8n's clock 2 days ahead: judged at n8n's clock, a cookie valid for another day on Flare's is left out (the stated limit)", async () => {
			const workflow = await running();
			clock.time.step(2 * DAY);
			fake.setClockOffset(fake.clockOffsetMs - 2 * DAY);
			dateOf = () => '';
			try {
				fake.addCookies(1, { domain: DOMAIN, importedAt: iso(fake.now() - 1000), expiresAt: iso(fake.now() + DAY) });

				expect(await pollsOf(workflow, 3)).toEqual([]);
			} finally {
				clock.time.step(-2 * DAY);
				fake.setClockOffset(fake.clockOffsetMs + 2 * DAY);
			}
		});
	});
});
