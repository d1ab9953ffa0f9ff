/**
 * End-to-end cases of the event operations (tenant and identifier feeds, full event, actions) and of
 * the "respond to critical events" playbook. The fake's feed is the oracle; the suite resets the fake
 * once per n8n line, so each case reads the feed's state as it is when the case runs.
 */
import type { FeedItem, FeedRequestBodyInput, FullEvent } from '../contract';
import type { FakeFlare, LoggedRequest } from '../fake-flare';
import { maskedView } from '../integration/support';
import type { E2eCase, Step } from './cases';
import { NotedPerFake } from './noted';
import { check, checkEqual } from './report';

/** The tenant the suite's credential acts for (the fake's first). */
const TENANT = 101;
const TENANT_FEED = '/firework/v4/events/tenant/_search';
const ACTIONS = '/firework/v4/events/actions';
const FULL_EVENT = '/firework/v2/activities/';

const one = (step: Step): Step[] => [step];

/** The pages of one feed walk: each body as `body` plus its cursor, absent first, then each new. */
function checkWalk(requests: LoggedRequest[], path: string, body: object, node: string) {
	checkEqual(
		requests.map((request) => `${request.method} ${request.path}`),
		requests.map(() => `POST ${path}`),
		node,
		'requests',
	);
	check(requests.length > 0, node, 'at least one page was requested');
	const cursors = requests.map((request) => (request.body as { from?: unknown }).from);
	checkEqual(
		requests.map((request) => {
			const copy = { ...(request.body as Record<string, unknown>) };
			delete copy.from;
			return copy;
		}),
		requests.map(() => body),
		node,
		'request bodies (without the cursor)',
	);
	check(
		cursors[0] === undefined &&
			cursors.slice(1).every((cursor) => typeof cursor === 'string') &&
			new Set(cursors.slice(1)).size === requests.length - 1,
		node,
		'the first page has no cursor, every next page a new one',
	);
}

/** The feed items as the node outputs them by default: the fake's planted leaked values masked. */
const feed = (fake: FakeFlare, body: FeedRequestBodyInput, identifierId?: number): FeedItem[] =>
	maskedView(fake.feed.feedAll(TENANT, body, identifierId), fake.plantedValues());

/** The full event as Flare serves it now, unwrapped and masked as the node outputs it by default. */
const activity = (fake: FakeFlare, uid: string): FullEvent['activity'] =>
	maskedView(fake.events.fullEvent(uid, TENANT)!.activity, fake.plantedValues());

/** The UIDs the take-action workflow ignores (12 low-severity events of the suite's dataset). */
const IGNORED_UIDS = [
	'listing/dark market/1010078',
	'blog_post/scribd/thread/1010077#p1',
	'stealer_log/russian_market/1010076',
	'domain/lookalike_domains/1010070',
	'paste/pastebin/1010069',
	'listing/dark market/1010067',
	'chat_message/telegram/1010060',
	'domain/lookalike_domains/1010059',
	'forum_post/xss/thread/1010057#p1',
	'chat_message/telegram/1010049',
	'bot/genesis_market/1010041',
	'ransomleak/lockbit/1010039',
];

/** What the playbook saw before it ran: the critical events and their full events. */
const critical = new NotedPerFake<{ events: FeedItem[]; activities: Array<FullEvent['activity']> }>();

export const EVENT_CASES: E2eCase[] = [
	{
		file: 'operations/event-search-tenant-feed.json',
		about: 'Event → Search Tenant Feed: by domain, severity at least high, Limit 5',
		steps: one({
			check(run, { fake, api }) {
				const node = 'Search the tenant event feed';
				const body = {
					query: { type: 'domain', fqdn: 'example.com' },
					filters: { severity: 'high' },
					order: 'desc',
				} as const;
				const expected = feed(fake, body);
				check(expected.length >= 5, node, 'the feed has 5 such events');
				checkEqual(run.json(node), expected.slice(0, 5), node, 'output (the feed items)');
				checkWalk(api, TENANT_FEED, { ...body, size: 5 }, node);
			},
		}),
	},
	{
		file: 'operations/event-search-identifier-feed.json',
		about: 'Event → Search Identifier Feed: identifier 7001 from the list, Return All, oldest first',
		steps: one({
			check(run, { fake, api }) {
				const node = 'Search the events of identifier 7001';
				const expected = feed(fake, { order: 'asc' }, 7001);
				check(expected.length > 1, node, 'identifier 7001 has several events');
				checkEqual(run.json(node), expected, node, 'output (the feed items)');
				checkWalk(
					api,
					'/firework/v4/events/identifiers/7001/_search',
					{ order: 'asc', size: 10 },
					node,
				);
			},
		}),
	},
	{
		file: 'operations/event-get-full-event.json',
		about: 'Event → Get Full Event: UID with characters to encode, the activity as output',
		steps: one({
			check(run, { fake, api }) {
				const node = 'Get the full event';
				const uid = 'paste/pastebin/1010003 a?b';
				checkEqual(run.json(node), [activity(fake, uid)], node, 'output (the activity)');
				checkEqual(
					api.map((request) => [request.method, request.path, request.query]),
					[['GET', FULL_EVENT, { uid }]],
					node,
					'requests',
				);
			},
		}),
	},
	{
		file: 'operations/event-take-action.json',
		about: 'Event → Take Action: 12 events ignored, 10 to a request, outputs paired',
		steps: one({
			check(run, { fake, api }) {
				const node = 'Ignore the events';
				checkEqual(
					run
						.items(node)
						.map((item) => ({ json: item.json, pairedItem: item.pairedItem })),
					IGNORED_UIDS.map((uid, index) => ({
						json: { uid, action: 'ignore', done: true },
						pairedItem: { item: index },
					})),
					node,
					'output, paired with the input items',
				);
				checkEqual(
					api.map((request) => [request.method, request.path, request.body]),
					[
						[
							'POST',
							ACTIONS,
							{
								action: { type: 'ignore' },
								targets: IGNORED_UIDS.slice(0, 10).map((uid) => ({ uid })),
							},
						],
						[
							'POST',
							ACTIONS,
							{ action: { type: 'ignore' }, targets: IGNORED_UIDS.slice(10).map((uid) => ({ uid })) },
						],
					],
					node,
					'requests',
				);
				check(
					IGNORED_UIDS.every((uid) => fake.events.state(TENANT, uid)?.ignoredMs !== null),
					node,
					'the 12 events are ignored in the fake',
				);
			},
		}),
	},
	{
		file: 'playbooks/respond-to-critical-events.json',
		about: 'Flare Trigger New Event (critical, full events; manual mode: the 5 newest) → tickets → remediated in Flare',
		manualFrom: 'New critical event',
		steps: one({
			before(fake) {
				const events = feed(fake, { filters: { severity: 'critical' }, order: 'desc' }).slice(0, 5);
				critical.set(fake, {
					events,
					activities: events.map((event) => activity(fake, event.metadata.uid)),
				});
			},
			check(run, { fake, api }) {
				const { events, activities } = critical.get(fake);
				const uids = events.map((event) => event.metadata.uid);
				const trigger = 'New critical event';
				checkEqual(uids.length, 5, trigger, 'the feed has 5 critical events or more');
				checkEqual(
					run.json(trigger),
					events.map((event, index) => ({ ...event, fullEvent: activities[index] })),
					trigger,
					'output: the 5 newest critical events, each with its full event',
				);
				const pages = api.filter((request) => request.path === TENANT_FEED);
				checkEqual(
					pages.map((request) => ({ ...(request.body as object), from: undefined })),
					pages.map(() => ({ filters: { severity: 'critical' }, order: 'desc', size: 10, from: undefined })),
					trigger,
					'feed requests: newest first, pages of 10 (the watch\'s), no date filter',
				);
				checkEqual(
					api.filter((request) => request.path === FULL_EVENT).map((request) => request.query),
					uids.map((uid) => ({ uid })),
					trigger,
					'one full event request per event, by its UID',
				);

				const tickets = events.map((event, index) => {
					const { header } = activities[index];
					return {
						uid: event.metadata.uid,
						title: `[CRITICAL] ${header.title}`,
						severity: 'critical',
						identifiers: (event.identifiers ?? []).map((identifier) => identifier.name),
						source: header.source_name,
						actor: header.actor ?? '',
						posted_at: header.timestamp,
						link: event.metadata.flare_url,
					};
				});
				checkEqual(run.json('Ticket'), tickets, 'Ticket', 'one ticket per critical event');

				const node = 'Remediate in Flare';
				checkEqual(
					run.items(node).map((item) => ({ json: item.json, pairedItem: item.pairedItem })),
					uids.map((uid, index) => ({
						json: { uid, action: 'remediate', done: true },
						pairedItem: { item: index },
					})),
					node,
					'output, paired with the tickets',
				);
				checkEqual(
					api.filter((request) => request.path === ACTIONS).map((request) => request.body),
					[{ action: { type: 'remediate' }, targets: uids.map((uid) => ({ uid })) }],
					node,
					'requests: the 5 events in one',
				);
				check(
					uids.every((uid) => fake.events.state(TENANT, uid)?.remediatedMs !== null),
					node,
					'every ticketed event is remediated in the fake',
				);
			},
		}),
	},
];
