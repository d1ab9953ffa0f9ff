/**
 * Feeds that Flare's filters leave with long runs of empty pages (docs/api-contract.md, "Paging":
 * "Empty pages (no results) does not mean you viewed all pages. Some filters (like ignored events)
 * will cause empty pages"). The fake selects each page's 10 events, then drops what the tenant's
 * filters remove (severity, ignored, tags), as Flare's paging page describes. Each scenario puts
 * hundreds (`npm test`) or thousands (the long run) of filtered events before, between and after the
 * matches, and more than the walk's bound where that is tested: every match is delivered
 * once; a run longer than the walk's bound ends a node walk with the decided error, and the Flare
 * Trigger's resumable walk stops there and goes on at the next poll.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { FILTERED_FEED_PAGES_WITHOUT_NEW_RECORDS } from '../../nodes/Flare/shared/paging';
import { FakeFlare, type LoggedRequest } from '../fake-flare';
import type { AddEventsOptions } from '../fake-flare/events';
import { Harness, withoutRatePacing } from '../harness/engine';
import { TriggerWorkflow } from '../harness/poll';
import { moveClock } from '../support/clock';
import { volume } from '../support/volume';
import { CANARY_API_KEY } from './secret-scan';
import { CANARY_OPTIONS, compare, Recorder } from './support';

const TENANT = 101;
const FEED = '/firework/v4/events/tenant/_search';
const DAY = 24 * 3_600_000;
const BOUND = FILTERED_FEED_PAGES_WITHOUT_NEW_RECORDS;
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The share of each scenario's filtered runs (hundreds of pages) that `npm test` adds: runs of 30 to
 * 500 empty pages walk the same way as runs of 150 to 2,500; the long run adds half of them (all of
 * them until CI's 30 minutes needed the time), runs of up to 1,500 events in empty pages.
 */
const FILLER = volume(0.1, 0.5);

/** A run of events added to the tenant's feed, in order of arrival. */
type Run = [count: number, options: AddEventsOptions];

const uidOf = (item: IDataObject) => (item.metadata as IDataObject).uid as string;
const uidsOf = (items: INodeExecutionData[] | null | undefined) => (items ?? []).map((item) => uidOf(item.json));

/** Pages read, the empty ones among them, and the longest run of them. */
function pagesOf(requests: LoggedRequest[]) {
	const pages = requests.filter((request) => request.path === FEED && request.status === 200);
	let longest = 0;
	let run = 0;
	for (const page of pages) {
		run = page.results === 0 ? run + 1 : 0;
		longest = Math.max(longest, run);
	}
	return { pages: pages.length, emptyPages: pages.filter((page) => page.results === 0).length, longestEmptyRun: longest };
}

describe('Post-filtered feeds: long runs of empty pages', () => {
	let fake: FakeFlare;
	let harness: Harness;
	const recorder = new Recorder('filtered-feeds');

	beforeAll(async () => {
		// Thousands of pages: where walks end and what they deliver is tested here, not the pace.
		await withoutRatePacing();
		fake = await FakeFlare.start(CANARY_OPTIONS);
		harness = await Harness.create();
	});
	afterAll(async () => {
		recorder.save();
		await fake.stop();
	});
	beforeEach(() => {
		fake.reset({ credentials: 50, eventsPerTenant: 0, startTime: iso(Date.now() - 60 * DAY) });
		harness.addFlareCredential({ apiKey: CANARY_API_KEY, baseUrl: fake.url });
	});

	/** Adds the runs, one minute apart, from 20 days ago; returns the uids added by each run. */
	function feedOf(runs: Run[]): string[][] {
		const start = Date.now() - 20 * DAY;
		return runs.map(([count, options], k) =>
			fake.addEvents(count, { materializedAt: iso(start + k * 60_000), ...options }).map((item) => item.metadata.uid),
		);
	}

	const low: AddEventsOptions = { severity: 'low' };
	const critical: AddEventsOptions = { severity: 'critical' };
	const criticalSearch = { severityFilter: 'minimum', minimumSeverity: 'critical' };

	it.each([
		['Severity At Least critical, oldest first', criticalSearch, 'asc', [[1_500, low], [2, critical], [2_500, low], [3, critical], [1_800, low]]],
		['Severity At Least critical, newest first', criticalSearch, 'desc', [[1_500, low], [2, critical], [2_500, low], [3, critical], [1_800, low]]],
		['ignored events left out (the default search), oldest first', {}, 'asc', [[1_200, { ignored: true }], [3, {}], [2_000, { ignored: true }], [2, {}], [900, { ignored: true }]]],
		['a tag, newest first', { filters: { tags: 'vip' } }, 'desc', [[3_000, {}], [2, { tags: ['vip'] }], [1_000, {}], [1, { tags: ['vip', 'soc'] }], [600, {}]]],
	] as Array<[string, IDataObject, 'asc' | 'desc', Run[]]>)('Search Tenant Feed, Return All, %s: every match once', async (scenario, search, order, runs) => {
		const added: Run[] = runs.map(([count, options]) => [count >= 100 ? Math.round(count * FILLER) : count, options]);
		feedOf(added);
		const body = {
			order,
			...(search.severityFilter ? { filters: { severity: 'critical' as const } } : {}),
			...(search.filters ? { filters: { tags: ['vip'] } } : {}),
		};
		const expected = fake.feed.feedAll(TENANT, body).map((item) => item.metadata.uid);
		expect(expected.length).toBe(5 - (search.filters ? 2 : 0));

		const result = await harness.runNode({ parameters: { resource: 'event', operation: 'searchTenantFeed', returnAll: true, ...search, options: { order } } });

		expect([result.status, result.error?.message]).toEqual(['success', undefined]);
		const delivered = uidsOf(result.output);
		const comparison = compare(expected, delivered);
		expect(comparison.exact).toBe(true);
		const pages = pagesOf(fake.requests);
		// Each page a new cursor; the runs of empty pages are as long as the filtered runs make them.
		expect(pages.longestEmptyRun).toBeGreaterThanOrEqual(Math.floor(Math.max(...added.map(([count]) => count)) / 10) - 1);
		expect(pages.longestEmptyRun).toBeLessThan(BOUND);
		recorder.add({ kind: 'filteredWalk', scenario: `Search Tenant Feed, Return All, ${scenario}`, ...pages, expected: expected.length, delivered: delivered.length, lost: comparison.lost, duplicated: comparison.duplicated, outcome: 'delivered all' });
	}, 120_000);

	it(`Search Tenant Feed, Return All, more than ${BOUND} empty pages in a row: the decided error, naming the feed's own fields`, async () => {
		feedOf([[2, critical], [BOUND * 10 + 50, low], [3, critical]]);

		const result = await harness.runNode({ parameters: { resource: 'event', operation: 'searchTenantFeed', returnAll: true, ...criticalSearch, options: { order: 'asc' } } });

		const pages = (BOUND).toLocaleString('en-US');
		expect([result.status, result.error?.name, result.error?.message, result.error?.description]).toEqual([
			'error',
			'NodeApiError',
			`Flare returned ${pages} pages in a row without a new result while trying to search the tenant event feed`,
			`Flare leaves a page empty when its filters (e.g. ignored events) drop every result of it, so the walk went on through ${pages} pages in a row that were empty or held only results already returned, then stopped; nothing was returned for this item. Narrow the search (e.g. set Created From/To or Materialized From/To under Filters, choose Event Type Names or IDs, or a higher Severity) and run it again.`,
		]);
		expect(result.output).toEqual([]);
		const walked = pagesOf(fake.requests);
		expect(walked).toEqual({ pages: 1 + BOUND, emptyPages: BOUND, longestEmptyRun: BOUND });
		recorder.add({ kind: 'filteredWalk', scenario: `Search Tenant Feed, Return All, ${(BOUND * 10 + 50).toLocaleString('en-US')} filtered events in a row`, ...walked, expected: 5, delivered: 0, lost: 0, duplicated: 0, outcome: 'failed as decided', error: result.error?.message });
	}, 120_000);

	// The trigger decides severity and tags itself, at its first read (docs/trigger.md); the pages
	// Flare leaves empty are those of its default search, which leaves ignored events out. Leave Out
	// Ignored Events keeps the sweep's walk of the ignored ones from emitting them.
	it(`Flare Trigger, New Event, Leave Out Ignored Events, Backfill 30 days, more than ${BOUND} empty pages in a row: stops at the bound, goes on at the next poll`, async () => {
		const [before, , after] = feedOf([[2, {}], [BOUND * 10 + 50, { ignored: true }], [3, {}]]);
		const workflow = new TriggerWorkflow(harness, { parameters: { event: 'newEvent', filters: { leaveOutIgnored: true }, options: { backfill: 'last30Days' } } });

		const activation = await workflow.activate();
		const atBound = pagesOf(fake.requests);
		fake.clearLog();
		moveClock(60_000);
		const next = await workflow.poll();
		const rest = pagesOf(fake.requests);
		fake.clearLog();
		moveClock(60_000);
		const last = await workflow.poll();

		expect([activation.error?.message, next.error?.message, last.error?.message]).toEqual([undefined, undefined, undefined]);
		expect(uidsOf(activation.items)).toEqual(before);
		expect(atBound).toEqual({ pages: 1 + BOUND, emptyPages: BOUND, longestEmptyRun: BOUND });
		expect(uidsOf(next.items)).toEqual(after);
		expect(rest.pages).toBeGreaterThan(0);
		expect(uidsOf(last.items)).toEqual([]);
		const delivered = [...uidsOf(activation.items), ...uidsOf(next.items), ...uidsOf(last.items)];
		const comparison = compare([...before, ...after], delivered);
		expect(comparison.exact).toBe(true);
		recorder.add({
			kind: 'filteredWalk',
			scenario: `Flare Trigger, New Event, Backfill, ${(BOUND * 10 + 50).toLocaleString('en-US')} filtered events in a row`,
			pages: atBound.pages + rest.pages,
			emptyPages: atBound.emptyPages + rest.emptyPages,
			longestEmptyRun: Math.max(atBound.longestEmptyRun, rest.longestEmptyRun),
			expected: 5,
			delivered: delivered.length,
			lost: comparison.lost,
			duplicated: comparison.duplicated,
			outcome: 'stopped at the bound, went on next poll',
		});
	}, 180_000);
});
