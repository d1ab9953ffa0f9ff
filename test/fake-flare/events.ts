/**
 * The events of the tenant feeds: a deterministic function of the seed, per tenant, plus what tests
 * append. Each tenant's feed is a list sorted by materialization (when the event entered the feed;
 * `matched_at` shows it), so a saved cursor sees the events added later, as the docs promise; or, as
 * an option, by `estimated_created_at`, the key of the docs' example cursor, where an event that
 * arrives late sorts among old ones and a saved cursor misses it (docs/feed-endpoints.md). Cursors
 * carry the arrival rank of the event to resume at, so they stay valid when events are inserted.
 *
 * Every event matched one or two identifiers of the dataset and mentions what they watch (a domain,
 * a keyword, an email, an IP, a card BIN), so the feed queries find it. The tenant's own view of an
 * event (severity override, tags, notes, ignored/remediated) is state that the actions change.
 */
import { createHash } from 'crypto';

import {
	type ActionType,
	type ActivityModelName,
	dateTimeToMs,
	type FeedDateFilter,
	type FeedItem,
	type FeedQuery,
	type FeedRequestBody,
	type FullEvent,
	type GlobalFeedItem,
	type IdentifierData,
	type LeakedCookie,
	type PublicIdentifier,
	SEVERITY_ORDER,
	type Severity,
	type StealerLogCookie,
	type StealerLogCredential,
	type TenantMetadataBody,
	type TenantMetadataResponse,
} from '../contract';
import { NOTATIONS, notationNamed, plantedLeak, type LeakContext } from '../support/notations';
import { planted, plantedSecret } from './planted';
import { plantUnderSecretNames, type PlantedUnderNames } from './secret-names';
import { hash32, seededStream } from './random';
import * as words from './words';

/** The event types the fake generates: each is both an `ActivityModelName` and a `SearchType`. */
export const EVENT_TYPES = [
	'leaked_credential',
	'stealer_log',
	'blog_post',
	'listing',
	'forum_post',
	'paste',
	'domain',
	'chat_message',
	'ransomleak',
	'leak',
	'bot',
] as const satisfies readonly ActivityModelName[];
/**
 * Types only `addEvents` makes (the seeded feed keeps its eleven): a source-code secret, a kind whose
 * leaked value sits in neither a password nor a cookie.
 */
export const ADDED_EVENT_TYPES = [
	'source_code_secret',
] as const satisfies readonly ActivityModelName[];
export type EventType = (typeof EVENT_TYPES)[number] | (typeof ADDED_EVENT_TYPES)[number];

/** [source id, source name] per type; some source ids need encoding in a URL. */
const SOURCES: Record<EventType, Array<[string, string]>> = {
	leaked_credential: [
		['combolists', 'Combolists'],
		['telegram_combos', 'Telegram combos'],
	],
	stealer_log: [['russian_market', 'Russian Market']],
	blog_post: [
		['medium', 'Medium'],
		['scribd', 'Scribd'],
	],
	listing: [
		['apollon_market', 'Apollon Market'],
		['dark market', 'Dark Market'],
	],
	forum_post: [
		['xss', 'XSS'],
		['breachforums', 'BreachForums'],
	],
	paste: [['pastebin', 'Pastebin']],
	domain: [['lookalike_domains', 'Lookalike domains']],
	chat_message: [['telegram', 'Telegram']],
	ransomleak: [['lockbit', 'LockBit blog']],
	leak: [['leak_site', 'Leak site']],
	bot: [['genesis_market', 'Genesis Market']],
	source_code_secret: [['github', 'GitHub']],
};

/**
 * Event source filters: a category stands for its members, which may be categories too
 * (docs/advanced/event-source-filters.mdx, completed where it is silent; docs/feed-endpoints.md).
 */
export const TYPE_CATEGORIES: Record<string, string[]> = {
	illicit_networks: [
		'forum_content',
		'blog_content',
		'profile',
		'chat_message',
		'ransomleak',
		'infected_devices',
		'financial_data',
		'listing',
	],
	open_web: ['paste', 'social_media', 'source_code', 'google', 'service', 'buckets'],
	leaks: [
		'leak',
		'leaked_credential',
		'mitigated_credential',
		'valid_credential',
		'invalid_credential',
	],
	domains: ['domain'],
	buckets: ['bucket', 'bucket_object'],
	source_code: ['stack_exchange', 'source_code_files', 'source_code_secrets'],
	forum_content: ['forum_post', 'forum_topic'],
	blog_content: ['blog_post'],
	profile: ['forum_profile', 'seller'],
	infected_devices: ['bot', 'stealer_log'],
	financial_data: ['cc', 'ccbin'],
	social_media: ['social_media_account'],
};

/**
 * The filter value (`SearchType`) of an event type, where the two differ: the docs' filter table and
 * `ActivityModelName` say `source_code_secret`, `SearchType` says `source_code_secrets`.
 */
const FILTER_TYPE: Record<string, string> = { source_code_secret: 'source_code_secrets' };

/** The base types a filter value stands for (itself when it is not a category). */
export function expandType(value: string): string[] {
	const members = TYPE_CATEGORIES[value];
	return members ? members.flatMap(expandType) : [value];
}

/** Risk score of the full event (1–5) for each severity. */
const RISK_SCORE: Record<Severity, number> = { info: 1, low: 2, medium: 3, high: 4, critical: 5 };
const SEVERITY_POOL: Severity[] = [
	'info',
	'low',
	'low',
	'medium',
	'medium',
	'high',
	'high',
	'critical',
];
const TAGS = ['important', 'vip', 'triage', 'phishing', 'false-positive'];
const ACTORS = ['DarkLeakX', 'ByteWing', 'vendor_alpha', 'zer0day_trader', 'cr4cker', null];
const STEP_MS = 9 * 3_600_000;
const DAY_MS = 86_400_000;

/** An event as the fake keeps it; what a tenant did with it is in {@link EventState}. */
export interface StoredEvent {
	/** Rank of arrival in the tenant's feed (0, 1, …): what cursors carry. */
	seq: number;
	uid: string;
	type: EventType;
	source: string;
	sourceName: string;
	id: string;
	tenantId: number;
	estimatedCreatedMs: number;
	/** When it entered the tenant's feed (also `matched_at`); never decreases along the feed. */
	materializedMs: number;
	/** The original severity. */
	severity: Severity;
	identifierIds: number[];
	title: string;
	content: string;
	actor: string | null;
	url: string | null;
	features: {
		domains: string[];
		emails: string[];
		usernames: string[];
		ips: string[];
		bins: string[];
		/** Every planted leaked value of the event (planted.ts): passwords, cookie values, secrets. */
		secrets: string[];
	};
	credentials: Array<{ url: string; username: string; password: string }>;
	/** A stealer log's session cookies. */
	cookies: Array<{ host_key: string; name: string; value: string }>;
	/** The free-text fields of its type in the full event's `data` ({@link FREE_TEXT_FIELDS}). */
	texts: Record<string, string | string[]>;
	/** An analyst's note of the full event's header (`user_notes`), or null. */
	userNotes: string | null;
	/** URLs the event links to (`features.urls`), or none. */
	urls: string[];
	/**
	 * Values planted under secret names (secret-names.ts), the full event's `data.leaked_data`: the
	 * fake's stand-in for the fields Flare does not document (new event types, new alert fields).
	 */
	underNames: PlantedUnderNames;
	/**
	 * Filed again later (see {@link EventStore.refile}): this entry stays where it was, so that cursors
	 * keep their place, but no search selects it any more.
	 */
	refiled?: true;
}

export interface EventState {
	override: Severity | null;
	tags: string[];
	notes: string | null;
	remediatedMs: number | null;
	ignoredMs: number | null;
}

/** Options of {@link EventStore.append} (and of `FakeFlare.addEvents`). */
export interface AddEventsOptions {
	/** Default: the first tenant. */
	tenantId?: number;
	/** Default: the types in turn. */
	type?: EventType;
	severity?: Severity;
	/** The identifiers the events matched (default: one of the dataset's, in turn). */
	identifierIds?: number[];
	/** Default now; must not be before the tenant's last event, unless `searchableLate`. */
	materializedAt?: string;
	/**
	 * The events entered the feed at `materializedAt`, in the past, but become searchable only now:
	 * they are filed by that date, before events that came later, where a saved cursor does not see them.
	 */
	searchableLate?: boolean;
	/** Default: `materializedAt`. */
	estimatedCreatedAt?: string;
	tags?: string[];
	notes?: string | null;
	ignored?: boolean;
	remediated?: boolean;
	/** The full event's `data.leaked_data` plants under every secret name (secret-names.ts), not a few. */
	everySecretName?: boolean;
}

/** Where the identifiers come from (the dataset). */
export interface IdentifierSource {
	identifierIds(): number[];
	identifier(id: number, tenantId: number): PublicIdentifier;
}

/**
 * Which events of the tenant's feed a walk reads: all (undefined), one identifier's, or those of any
 * of several identifiers (an identifier group's).
 */
export type FeedScope = number | number[] | undefined;

/** What the feeds are sorted by (then by arrival). */
export type FeedSortKey = 'materialized_at' | 'estimated_created_at';

/**
 * What a feed search lists when it does not ask for ignored or remediated events (`is_ignored` and
 * `is_remediated` false or absent): `leftOut` (the default) leaves them out, as the OpenAPI's default
 * `false` reads; `listed` lists them, as Flare's MCP page says of `false` ("has no effect and behaves
 * the same as omitting it"). Either way `true` keeps only those (docs/feed-endpoints.md).
 */
export type ActedOnDefault = 'leftOut' | 'listed';

export interface EventStoreOptions {
	seed: number;
	tenants: number[];
	eventsPerTenant: number;
	startMs: number;
	sortBy: FeedSortKey;
	actedOnDefault?: ActedOnDefault;
}

/** Position predicates of one feed request. */
interface FeedMatch {
	/** What the search itself selects (identifier, query, types, dates). */
	selects: (event: StoredEvent) => boolean;
	/** What is filtered out afterwards, from the tenant's metadata: this is what makes pages empty. */
	keeps: (event: StoredEvent, state: EventState) => boolean;
}

type StartingEvents = Array<[Omit<StoredEvent, 'seq'>, EventState]>;

/**
 * The starting events of the stores a test file makes, by what they are made of (the options and the
 * identifiers): a store made again alike gets a copy, a fraction of the cost of making them. A kind
 * is kept from its second store on (the model's fakes start at a moving time: each kind once), and
 * only the last few kinds are.
 */
class StartingEventsCache {
	private readonly kept = new Map<string, StartingEvents>();
	private readonly seen = new Set<string>();

	take(key: string, make: () => StartingEvents): StartingEvents {
		const kept = this.kept.get(key);
		if (kept) return structuredClone(kept);
		const made = make();
		if (this.seen.has(key)) this.kept.set(key, structuredClone(made));
		this.seen.add(key);
		for (const [collection, limit] of [[this.kept, 8], [this.seen, 64]] as const) {
			if (collection.size > limit) collection.delete(collection.keys().next().value!);
		}
		return made;
	}
}

const startingEvents = new StartingEventsCache();

export class EventStore {
	private readonly feeds = new Map<number, StoredEvent[]>();
	private readonly states = new Map<number, Map<string, EventState>>();
	private readonly byUid = new Map<string, StoredEvent>();
	private readonly appended = new Map<number, number>();
	private readonly lastMaterialized = new Map<number, number>();
	/** Leaked cookies added by {@link addCookies}, beside those of the stealer logs. */
	private readonly addedCookies: LeakedCookie[] = [];

	constructor(
		private readonly options: EventStoreOptions,
		private readonly identifiers: IdentifierSource,
	) {
		for (const tenantId of options.tenants) {
			this.feeds.set(tenantId, []);
			this.states.set(tenantId, new Map());
		}
		// Every fake made or reset with the same options and identifiers starts from the same events.
		const known = options.tenants.map((tenantId) => this.knownIdentifiers(tenantId));
		const key = JSON.stringify([
			options,
			known.map((ids, index) => ids.map((id) => this.identifiers.identifier(id, options.tenants[index]))),
		]);
		const start = startingEvents.take(key, () =>
			options.tenants.flatMap((tenantId, index) => this.startingEvents(tenantId, known[index])),
		);
		for (const [generated, state] of start) this.add(generated, state);
	}

	/** The events a tenant's feed starts with, each with its tenant state, in the order they are made. */
	private startingEvents(tenantId: number, known: number[]): StartingEvents {
		const events: StartingEvents = [];
		const next = seededStream(hash32(this.options.seed, 0xfeed, tenantId));
		let materializedMs = this.options.startMs;
		for (let k = 0; k < this.options.eventsPerTenant; k++) {
			if (k % 7 !== 6) materializedMs = this.options.startMs + k * STEP_MS + (next() % (STEP_MS / 3));
			const generated = this.generate(tenantId, k, next, known, {
				type: EVENT_TYPES[(k + tenantId) % EVENT_TYPES.length],
				id: eventId(tenantId, k),
				materializedMs,
				estimatedCreatedMs: materializedMs - 3_600_000 - (next() % (30 * DAY_MS)),
			});
			events.push([generated, plantNotes(seededState(next, materializedMs), generated, k)]);
		}
		return events;
	}

	/** The tenant's feed, in order of materialization (a copy). */
	feed(tenantId: number): StoredEvent[] {
		return (this.feeds.get(tenantId) ?? []).slice();
	}

	event(uid: string): StoredEvent | undefined {
		return this.byUid.get(uid);
	}

	/** The tenant's state of an event of its feed, or undefined. */
	state(tenantId: number, uid: string): EventState | undefined {
		return this.states.get(tenantId)?.get(uid);
	}

	/** The uid of every event of every tenant. */
	allUids(): string[] {
		return [...this.byUid.keys()];
	}

	inFeed(tenantId: number, uid: string): boolean {
		return this.state(tenantId, uid) !== undefined;
	}

	/**
	 * Every planted value the events hold (planted.ts), appended events included, and the passwords
	 * and cookie values that expanding a stealer log lists.
	 */
	plantedValues(): string[] {
		return [...this.byUid.values()].flatMap((event) => [
			...event.features.secrets,
			...(this.expand(event.uid, 'credentials') ?? []).map(
				(entry) => (entry as StealerLogCredential).password,
			),
			...(this.expand(event.uid, 'cookies') ?? []).map(
				(entry) => (entry as StealerLogCookie).value,
			),
			...event.underNames.secrets,
		]).concat(this.addedCookies.map((cookie) => cookie.value));
	}

	/**
	 * Adds `count` leaked cookies imported at `importedMs` (any date: one in the past makes them
	 * searchable late, before cookies already served) of `domain`, named `name` (default `session`),
	 * expiring at `expiresMs` (null: a session cookie without expiry), their values planted; returns
	 * them as the cookie search serves them.
	 */
	addCookies(
		count: number,
		options: {
			importedMs: number;
			domain: string;
			name?: string;
			path?: string;
			expiresMs?: number | null;
			/** The stealer log they come from (default: one of no feed). */
			eventUid?: string;
		},
	): LeakedCookie[] {
		const added: LeakedCookie[] = [];
		for (let k = 0; k < count; k++) {
			const n = this.addedCookies.length;
			const cookie: LeakedCookie = {
				uuid: uuidOf(`added-cookie#${n}`),
				domain: options.domain.toLowerCase(),
				expires_at:
					options.expiresMs === null || options.expiresMs === undefined
						? null
						: isoMicrosOffset(options.expiresMs),
				imported_at: isoMicrosOffset(options.importedMs),
				name: options.name ?? 'session',
				path: options.path ?? '/',
				event_uid: options.eventUid ?? `stealer_log/stealer_logs_live/added${n}`,
				value: plantedSecret('', `added-cookie#${n}`),
			};
			this.addedCookies.push(cookie);
			added.push(cookie);
		}
		return added;
	}

	// ---- the feed ----

	/**
	 * One page of a feed walk from `start` (a position; the first page starts at an end): the search
	 * looks at `size` selected events at most, then the tenant's filters drop some, so pages may be
	 * short or empty while more remain. `resume` is where the next page starts, null at the end.
	 */
	page(
		tenantId: number,
		body: FeedRequestBody,
		identifierId: FeedScope,
		start: number,
	): { found: number[]; resume: number | null } {
		const feed = this.feeds.get(tenantId) ?? [];
		const states = this.states.get(tenantId)!;
		const { selects, keeps } = this.matcher(body, identifierId);
		const dir = body.order === 'asc' ? 1 : -1;
		const found: number[] = [];
		let looked = 0;
		for (let position = start; position >= 0 && position < feed.length; position += dir) {
			const event = feed[position];
			if (!selects(event)) continue;
			if (looked === body.size) return { found, resume: position };
			looked++;
			if (keeps(event, states.get(event.uid)!)) found.push(position);
		}
		return { found, resume: null };
	}

	/** Where a walk starts: the oldest event for `asc`, the newest for `desc`. */
	firstPosition(tenantId: number, order: 'asc' | 'desc'): number {
		return order === 'asc' ? 0 : (this.feeds.get(tenantId)?.length ?? 0) - 1;
	}

	/** The current position of the event with arrival rank `seq`, or -1. */
	positionOf(tenantId: number, seq: number): number {
		return (this.feeds.get(tenantId) ?? []).findIndex((event) => event.seq === seq);
	}

	/** The arrival rank of the event at `position`. */
	seqAt(tenantId: number, position: number): number {
		return this.feeds.get(tenantId)![position].seq;
	}

	/** The oracle: every item a walk of the feed returns, in order. */
	all(tenantId: number, body: FeedRequestBody, identifierId?: FeedScope): FeedItem[] {
		const { selects, keeps } = this.matcher(body, identifierId);
		const states = this.states.get(tenantId)!;
		const feed = this.feed(tenantId).filter(
			(event) => selects(event) && keeps(event, states.get(event.uid)!),
		);
		if (body.order !== 'asc') feed.reverse();
		return feed.map((event) => this.item(tenantId, event, body.query));
	}

	/** The feed item of an event, as the tenant sees it; `query` adds highlights. */
	item(tenantId: number, event: StoredEvent, query?: FeedQuery | null): FeedItem {
		const state = this.states.get(tenantId)?.get(event.uid) ?? emptyState();
		return {
			metadata: {
				uid: event.uid,
				estimated_created_at: isoMicrosZ(event.estimatedCreatedMs),
				matched_at: isoMicrosZ(event.materializedMs),
				type: event.type,
				severity: state.override ?? event.severity,
				flare_url: flareUrl(event.uid),
			},
			tenant_metadata: {
				severity: state.override ? { original: event.severity, override: state.override } : null,
				notes: state.notes,
				tags: state.tags.slice(),
				remediated_at: state.remediatedMs === null ? null : isoMicrosZ(state.remediatedMs),
				ignored_at: state.ignoredMs === null ? null : isoMicrosZ(state.ignoredMs),
			},
			identifiers: event.identifierIds.map((id) => ({
				id,
				name: this.identifiers.identifier(id, tenantId).name,
			})),
			highlights: highlights(event, query),
		};
	}

	private matcher(body: FeedRequestBody, identifierId: FeedScope): FeedMatch {
		const scope = identifierId === undefined ? undefined : new Set([identifierId].flat());
		const filters = body.filters;
		const types = filters?.type?.length ? new Set(filters.type.flatMap(expandType)) : undefined;
		const query = body.query ? queryTest(body.query) : undefined;
		const created = dateTest(filters?.estimated_created_at);
		const materialized = dateTest(filters?.materialized_at);
		const severity = severityTest(filters?.severity);
		const tags = filters?.tags?.length ? filters.tags : undefined;
		const ignored = filters?.is_ignored ?? false;
		const remediated = filters?.is_remediated ?? false;
		// `true` keeps only those; `false` (or none) leaves them out, or lists them too (`listed`).
		const listed = this.options.actedOnDefault === 'listed';
		const state = (asked: boolean, at: number | null) =>
			asked ? at !== null : listed || at === null;
		return {
			selects: (event) =>
				!event.refiled &&
				(!scope || event.identifierIds.some((id) => scope.has(id))) &&
				(!types || types.has(FILTER_TYPE[event.type] ?? event.type)) &&
				(!query || query(event)) &&
				created(event.estimatedCreatedMs) &&
				materialized(event.materializedMs),
			keeps: (event, tenant) =>
				state(ignored, tenant.ignoredMs) &&
				state(remediated, tenant.remediatedMs) &&
				severity(tenant.override ?? event.severity) &&
				(!tags || tags.some((tag) => tenant.tags.includes(tag))),
		};
	}

	// ---- the global search: every event of every tenant ----

	/**
	 * The oracle of a global event search by `tenantId`: every event of the fake (all tenants' feeds)
	 * that the query and filters select, by `estimated_created_at` then uid, in the order asked; the
	 * tenant's own view where it has one (its filters too: ignored and remediated events are left out
	 * unless asked for), without `identifiers`.
	 */
	globalAll(tenantId: number, body: FeedRequestBody): GlobalFeedItem[] {
		const { selects, keeps } = this.matcher(body, undefined);
		const states = this.states.get(tenantId);
		const events = [...this.byUid.values()]
			.filter((event) => selects(event) && keeps(event, states?.get(event.uid) ?? emptyState()))
			.sort(
				(a, b) =>
					a.estimatedCreatedMs - b.estimatedCreatedMs ||
					(a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0),
			);
		if (body.order !== 'asc') events.reverse();
		return events.map((event) => {
			const item: FeedItem = this.item(tenantId, event, body.query);
			delete item.identifiers;
			return item;
		});
	}

	// ---- the tenant's metadata ----

	/**
	 * Applies PATCH …/events/tenant/metadata to an event of the tenant's feed: each field given
	 * replaces the current value (null clears it). Returns `TenantMetadataResponse`, with the
	 * severity override.
	 */
	setMetadata(tenantId: number, uid: string, body: TenantMetadataBody): TenantMetadataResponse {
		const state = this.state(tenantId, uid)!;
		if (body.tags !== undefined) state.tags = unique(body.tags ?? []);
		if (body.severity !== undefined) state.override = body.severity;
		if (body.notes !== undefined) state.notes = body.notes;
		return { uid, notes: state.notes, tags: state.tags.slice(), severity: state.override };
	}

	// ---- stealer logs: their cookies and credentials ----

	/**
	 * The cookies or credentials of a stealer log (GET …/events/_expand), or undefined when the event
	 * is not a stealer log: first those of its full event, then more of the same log, their passwords
	 * and cookie values planted (planted.ts).
	 */
	expand(
		uid: string,
		field: 'cookies' | 'credentials',
	): Array<StealerLogCookie | StealerLogCredential> | undefined {
		const event = this.byUid.get(uid);
		if (!event || event.type !== 'stealer_log') return undefined;
		const next = seededStream(
			hash32(this.options.seed, 0xc00c, parseInt(digest(event.uid).slice(0, 8), 16)),
		);
		const hosts = [
			...event.features.domains.flatMap((domain) => [domain, `app.${domain}`]),
			'mail.example.org',
		];
		if (field === 'credentials') {
			const count = 1 + (next() % 30);
			return Array.from({ length: count }, (_, k) =>
				k === 0
					? { ...event.credentials[0], application: 'Browser/Logins/Chrome_Default.txt' }
					: {
							url: `https://${hosts[k % hosts.length]}/login`,
							username: event.credentials[0].username,
							password: plantedSecret('', `${uid}#password${k}`),
							application:
								k % 2 ? 'Browser/Logins/Edge_Default.txt' : 'Browser/Logins/Chrome_Default.txt',
						},
			);
		}
		const own: StealerLogCookie[] = event.cookies.map((cookie) => ({
			host_key: cookie.host_key,
			path: '/',
			expires_utc: null,
			name: cookie.name,
			value: cookie.value,
		}));
		const count = 1 + (next() % 45);
		return own.concat(
			Array.from({ length: count }, (_, k) => ({
				host_key: hosts[k % hosts.length],
				path: COOKIE_PATHS[k % COOKIE_PATHS.length],
				expires_utc:
					k % 5 === 4
						? null
						: isoMicrosZ(
								event.materializedMs + (k % 3 === 0 ? -1 : 1) * ((k + 1) * 7 * DAY_MS),
							).slice(0, 19),
				name: COOKIE_NAMES[k % COOKIE_NAMES.length],
				value: plantedSecret('', `${uid}#cookie${k}`),
			})),
		);
	}

	/**
	 * Every leaked cookie of the fake (POST /astp/v2/cookies/_search): those of every stealer log of
	 * every tenant, imported when their event entered its feed, by import time then uuid. Every
	 * seventh cookie of a log comes without `event_uid`, as a cookie Flare has from elsewhere would: the
	 * field is the MDX example's, with no schema to say it is always there.
	 */
	leakedCookies(): LeakedCookie[] {
		const cookies: LeakedCookie[] = [];
		for (const event of this.byUid.values()) {
			const list = (this.expand(event.uid, 'cookies') ?? []) as StealerLogCookie[];
			list.forEach((cookie, k) => {
				cookies.push({
					uuid: uuidOf(`${event.uid}#${k}`),
					domain: cookie.host_key,
					expires_at: cookie.expires_utc === null ? null : `${cookie.expires_utc}+00:00`,
					imported_at: isoMicrosOffset(event.materializedMs + k * 1000),
					name: cookie.name,
					path: cookie.path,
					...(k % 7 === 6 ? {} : { event_uid: event.uid }),
					value: cookie.value,
				});
			});
		}
		cookies.push(...this.addedCookies);
		return cookies.sort((a, b) =>
			a.imported_at < b.imported_at
				? -1
				: a.imported_at > b.imported_at
					? 1
					: a.uuid < b.uuid
						? -1
						: 1,
		);
	}

	// ---- the full event ----

	/**
	 * The full event of GET /{segment}/v2/activities/ for any event of the dataset; the tenant's own
	 * fields (tags, notes, risk override, states) are those of `tenantId`, empty if not in its feed.
	 */
	fullEvent(uid: string, tenantId: number): FullEvent | undefined {
		const event = this.byUid.get(uid);
		if (!event) return undefined;
		const state = this.state(tenantId, uid) ?? emptyState();
		const created = isoMicrosOffset(event.estimatedCreatedMs);
		const crawled = isoMicrosOffset(event.materializedMs - 600_000);
		const metadata = {
			estimated_created_at: created,
			event_id: null,
			first_crawled_at: crawled,
			last_crawled_at: crawled,
			payload_digest: digest(event.uid),
			scraped_at: isoMicrosOffset(event.materializedMs - 540_000),
			source: event.source,
			crawled_by: null,
			flare_url: flareUrl(event.uid),
		};
		const { features } = event;
		return {
			activity: {
				data: {
					es_id: `${event.source}/${event.id}`,
					es_score: 1,
					highlights: {},
					id: event.id,
					index: event.type,
					metadata,
					uid: event.uid,
					url: event.url,
					browser_url: null,
					actor: event.actor,
					title: event.title,
					content: event.content,
					features: {
						domains: features.domains,
						emails: features.emails.length ? features.emails : null,
						ip_addresses: features.ips.length ? features.ips : null,
						ip_addresses_cidr: null,
						reversed_domains: features.domains.map((domain) =>
							domain.split('.').reverse().join('.'),
						),
						urls: event.urls.length ? event.urls.slice() : null,
						usernames: features.usernames.length ? features.usernames : null,
						vulnerabilities: null,
					},
					...typeFields(event, created),
					...structuredClone(event.texts),
					leaked_data: structuredClone(event.underNames.fields),
				},
				duplicates: [],
				header: {
					actor: event.actor,
					actor_id: null,
					category_name: event.sourceName,
					content_hash: digest(event.content),
					content_preview: preview(event.content),
					duplicates: [],
					es_score: 1,
					highlights: {},
					id: event.id,
					parent_uid: null,
					risk: { score: RISK_SCORE[event.severity] },
					similar_items_count: 0,
					source: event.source,
					source_name: event.sourceName,
					target_name: event.sourceName,
					tags: state.tags.slice(),
					notes: state.notes,
					timestamp: created,
					title: event.title,
					type: event.type,
					uid: event.uid,
					user_risk_score: state.override ? RISK_SCORE[state.override] : null,
					user_notes: event.userNotes,
					ignored_at: state.ignoredMs === null ? null : isoMicrosOffset(state.ignoredMs),
					remediated_at: state.remediatedMs === null ? null : isoMicrosOffset(state.remediatedMs),
					verb: 'posted',
					...typeHeader(event),
				},
				history_logs: null,
				metadata,
				similar_items: [],
			},
		};
	}

	// ---- changes ----

	/** Applies an action of POST /{segment}/v4/events/actions to events of the tenant's feed. */
	act(tenantId: number, uids: string[], action: ActionType, atMs: number): void {
		for (const uid of uids) {
			const state = this.state(tenantId, uid);
			if (!state) continue;
			if (action === 'remediate') state.remediatedMs ??= atMs;
			if (action === 'unremediate') state.remediatedMs = null;
			if (action === 'ignore') state.ignoredMs ??= atMs;
			if (action === 'unignore') state.ignoredMs = null;
		}
	}

	/**
	 * Files an event of one tenant's feed in `tenantId`'s feed too, as having entered it at the same
	 * time: Flare shows one event that matched identifiers of two tenants (a parent and its subsidiary)
	 * under one uid in both feeds (a feed item is `{metadata{uid}, tenant_metadata}`). Tenant
	 * `tenantId` gets its own state, a copy of the other's. Returns its feed item there.
	 */
	share(uid: string, tenantId: number): FeedItem {
		const event = this.byUid.get(uid);
		const state = event && this.state(event.tenantId, uid);
		if (!event || !state || !this.feeds.has(tenantId) || this.inFeed(tenantId, uid)) {
			throw new Error(`FakeFlare.share: event ${uid} cannot be filed in tenant ${tenantId}'s feed`);
		}
		const generated: Omit<StoredEvent, 'seq'> & { seq?: number } = { ...event, tenantId };
		delete generated.seq;
		const shared = this.add(generated, structuredClone(state));
		// The event stays its first tenant's (full event, global search).
		this.byUid.set(uid, event);
		return this.item(tenantId, shared);
	}

	/**
	 * Files an event of the tenant's feed again, as having entered it at `atMs` (e.g. when it matches
	 * one more identifier: whether Flare does so is not documented, docs/api-contract.md): the feed
	 * lists it once, at its new place, with the new `matched_at` and the tenant's state as it was. Its
	 * old entry stays in place for the cursors, selected by no search. Returns the new feed item.
	 */
	refile(tenantId: number, uid: string, atMs: number = Math.floor(Date.now() / 1000) * 1000): FeedItem {
		const feed = this.feeds.get(tenantId) ?? [];
		const old = feed.find((event) => event.uid === uid && !event.refiled);
		const state = this.state(tenantId, uid);
		if (!old || !state) throw new Error(`FakeFlare.refile: event ${uid} is not in tenant ${tenantId}'s feed`);
		const event: Omit<StoredEvent, 'seq'> & { seq?: number } = { ...old, materializedMs: atMs };
		delete event.seq;
		old.refiled = true;
		return this.item(tenantId, this.add(event, state));
	}

	/** Appends `count` events to a tenant's feed; returns their feed items. */
	append(count: number, options: AddEventsOptions = {}): FeedItem[] {
		const tenantId = options.tenantId ?? this.options.tenants[0];
		const feed = this.feeds.get(tenantId);
		if (!feed) throw new Error(`FakeFlare.addEvents: unknown tenant ${tenantId}`);
		const materializedMs = options.materializedAt
			? dateTimeToMs(options.materializedAt)
			: Math.floor(Date.now() / 1000) * 1000;
		const estimatedCreatedMs = options.estimatedCreatedAt
			? dateTimeToMs(options.estimatedCreatedAt)
			: materializedMs;
		if (Number.isNaN(materializedMs) || Number.isNaN(estimatedCreatedMs))
			throw new Error('FakeFlare.addEvents: invalid date-time');
		if (
			!options.searchableLate &&
			materializedMs < (this.lastMaterialized.get(tenantId) ?? -Infinity)
		)
			throw new Error('FakeFlare.addEvents: materializedAt must not go backwards in time');
		const items: FeedItem[] = [];
		const known = this.knownIdentifiers(tenantId);
		for (let j = 0; j < count; j++) {
			const n = (this.appended.get(tenantId) ?? 0) + 1;
			this.appended.set(tenantId, n);
			const next = seededStream(hash32(this.options.seed, 0xadd, tenantId, n));
			const generated = this.generate(tenantId, n, next, known, {
				type: options.type ?? EVENT_TYPES[n % EVENT_TYPES.length],
				id: `new-${tenantId}-${n}`,
				materializedMs,
				estimatedCreatedMs,
				severity: options.severity,
				identifierIds: options.identifierIds,
				everySecretName: options.everySecretName,
			});
			const event = this.add(generated, {
				override: null,
				tags: options.tags?.slice() ?? [],
				notes: options.notes ?? null,
				ignoredMs: options.ignored ? materializedMs : null,
				remediatedMs: options.remediated ? materializedMs : null,
			});
			items.push(this.item(tenantId, event));
		}
		return items;
	}

	/** Files the event in its tenant's feed: after every event it does not sort before. */
	private add(generated: Omit<StoredEvent, 'seq'>, state: EventState): StoredEvent {
		const feed = this.feeds.get(generated.tenantId)!;
		const event: StoredEvent = { seq: feed.length, ...generated };
		const key = (entry: StoredEvent) =>
			this.options.sortBy === 'materialized_at' ? entry.materializedMs : entry.estimatedCreatedMs;
		let position = feed.length;
		while (position > 0 && key(feed[position - 1]) > key(event)) position--;
		feed.splice(position, 0, event);
		const last = this.lastMaterialized.get(event.tenantId) ?? -Infinity;
		this.lastMaterialized.set(event.tenantId, Math.max(last, event.materializedMs));
		this.states.get(event.tenantId)!.set(event.uid, state);
		this.byUid.set(event.uid, event);
		return event;
	}

	/**
	 * The identifiers an event may name: not one named by its secret, since a feed item names the
	 * identifiers it matched, and no client can tell that name from another (docs/api-contract.md,
	 * "Masking": what stays visible). Read once for a batch of events.
	 */
	private knownIdentifiers(tenantId: number): number[] {
		return this.identifiers.identifierIds().filter((id) => !namedBySecret(this.identifiers.identifier(id, tenantId)));
	}

	/**
	 * An event of `type` that matched one or two identifiers (`spec`'s, else some of `known`) and
	 * mentions what they watch.
	 */
	private generate(
		tenantId: number,
		k: number,
		next: () => number,
		known: number[],
		spec: {
			type: EventType;
			id: string;
			materializedMs: number;
			estimatedCreatedMs: number;
			severity?: Severity;
			identifierIds?: number[];
			everySecretName?: boolean;
		},
	): Omit<StoredEvent, 'seq'> {
		const { type, id } = spec;
		const [source, sourceName] = SOURCES[type][next() % SOURCES[type].length];
		let identifierIds = spec.identifierIds;
		if (!identifierIds) {
			const first = known[next() % known.length];
			const second = known[next() % known.length];
			identifierIds = next() % 4 === 0 && second !== first ? [first, second] : [first];
		}
		const mentions = identifierIds.map((identifierId) =>
			mention(this.identifiers.identifier(identifierId, tenantId).data),
		);
		const features = {
			domains: unique(mentions.flatMap((m) => m.domains)),
			emails: unique(mentions.flatMap((m) => m.emails)),
			usernames: unique(mentions.flatMap((m) => m.usernames)),
			ips: unique(mentions.flatMap((m) => m.ips)),
			bins: unique(mentions.flatMap((m) => m.bins)),
			secrets: [] as string[],
		};
		const brand = mentions.map((m) => m.brand).find(Boolean) ?? 'Initech';
		const subject = mentions.map((m) => m.text).join(' and ');
		const password = planted(words.COMMON_PASSWORDS[next() % words.COMMON_PASSWORDS.length]);
		const uid = `${type}/${source}/${id}`;
		const login =
			features.emails[0] ?? `${features.usernames[0] ?? 'admin'}@${brand.toLowerCase()}.com`;
		const credentials: StoredEvent['credentials'] = [];
		if (type === 'leaked_credential' || type === 'stealer_log' || type === 'bot') {
			credentials.push({
				url: `https://login.${brand.toLowerCase()}.com/signin`,
				username: login,
				password,
			});
			features.secrets.push(password);
			if (!features.emails.includes(login)) features.emails.push(login);
		}
		if (type === 'stealer_log' || type === 'bot') features.ips.push(`198.51.100.${(k % 250) + 1}`);
		// Session cookies of the infected device (from the uid: the seeded stream stays as it was).
		const cookies: StoredEvent['cookies'] =
			type === 'stealer_log' || type === 'bot'
				? [
						{
							host_key: `.${brand.toLowerCase()}.com`,
							name: 'session',
							value: plantedSecret('', `${uid}/session`),
						},
						{
							host_key: '.login.microsoftonline.com',
							name: 'ESTSAUTH',
							value: plantedSecret('', `${uid}/ests`),
						},
					]
				: [];
		const secret = type === 'source_code_secret' ? plantedSecret('AKIA', uid) : undefined;
		if (type === 'paste') features.secrets.push(password); // its content quotes login:password
		features.secrets.push(...cookies.map((cookie) => cookie.value), ...(secret ? [secret] : []));
		const actor = type === 'leaked_credential' ? null : ACTORS[next() % ACTORS.length];
		// Every other paste's password holds the brand: a search for it marks inside the password.
		const quoted = type === 'paste' && k % 2 === 1 ? planted(`${brand}${2020 + (k % 6)}!`) : password;
		if (quoted !== password) features.secrets.splice(features.secrets.indexOf(password), 1, quoted);
		const quote: ShapeContext = { login, user: login.split('@')[0], host: `${brand.toLowerCase()}.com` };
		const [title, content] = text(type, brand, subject, login, secret ?? quoted, features.bins[0], k, uid, quote, features.secrets);
		const texts: StoredEvent['texts'] = {};
		FREE_TEXT_FIELDS[type].forEach((field, index) => {
			const [said, secretOf] = SHAPES[textSlot(k, tenantId, index) % SHAPES.length](quote, plantedSecret('', `${uid}/${field}`));
			features.secrets.push(secretOf);
			texts[field] = field === 'description_preview' ? [said] : `${title}: ${said}`;
		});
		let userNotes: string | null = null;
		if (k % 4 === 2) {
			const [said, secretOf] = SHAPES[k % SHAPES.length](quote, plantedSecret('', `${uid}/user_notes`));
			features.secrets.push(secretOf);
			userNotes = `Analyst: ${said}`;
		}
		const urls: string[] = [];
		if (type === 'stealer_log' || type === 'bot') {
			// A URL with userinfo among the saved logins, and a reset link with its token.
			const inUrl = plantedSecret('', `${uid}/intranet`);
			const token = plantedSecret('', `${uid}/reset`);
			credentials.push({ url: `https://${quote.user}:${inUrl}@intranet.${quote.host}/`, username: quote.user, password: inUrl });
			urls.push(`https://${quote.host}/reset?token=${token}&lang=en`);
			features.secrets.push(inUrl, token);
		}
		return {
			uid,
			type,
			source,
			sourceName,
			id,
			tenantId,
			estimatedCreatedMs: spec.estimatedCreatedMs,
			materializedMs: spec.materializedMs,
			severity: spec.severity ?? SEVERITY_POOL[next() % SEVERITY_POOL.length],
			identifierIds,
			title,
			content,
			actor,
			url:
				type === 'leaked_credential'
					? null
					: `https://${source.replace(/[^a-z]+/g, '')}.example/${encodeURIComponent(id)}`,
			features,
			credentials,
			cookies,
			texts,
			userNotes,
			urls,
			// From the uid and the event's rank: the seeded stream stays as it was.
			underNames: plantUnderSecretNames(uid, spec.everySecretName ? undefined : k),
		};
	}
}

// ---- generation helpers ----

const COOKIE_NAMES = ['session', 'PHPSESSID', 'auth_token', 'remember_me', 'XSRF-TOKEN'];
const COOKIE_PATHS = ['/', '/login', '/app'];

/** A UUID (version 4 layout) derived from a text. */
function uuidOf(text: string): string {
	const hex = digest(text);
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Whether an identifier is a secret one named by its secret (created without a name). */
function namedBySecret(identifier: PublicIdentifier): boolean {
	return identifier.data.type === 'secret' && identifier.name === identifier.data.secret;
}

/**
 * The free-text fields each type documents in the full event's `data`, besides `title` and
 * `content` (docs/event-types/*.mdx: paste, forum-post, listing, document for ransomleak, domain,
 * blog-post, leaked-credential; chat messages: OpenAPI v4 ConversationMessage). Each quotes a
 * planted value in one of {@link SHAPES}, so that a field the masking missed is found by the scan.
 */
export const FREE_TEXT_FIELDS: Record<EventType, string[]> = {
	leaked_credential: ['description_en', 'description_fr'],
	stealer_log: [],
	blog_post: ['description', 'parent_title_en'],
	listing: ['description_en', 'description_preview', 'title_en'],
	forum_post: ['content_en', 'title_en', 'topic_title', 'topic_title_en'],
	paste: ['content_en', 'title_en'],
	domain: ['subject', 'issuer'],
	chat_message: ['message_en'],
	ransomleak: ['main', 'body', 'extracted_content'],
	leak: ['description_en'],
	bot: [],
	source_code_secret: [],
};

/** Who a quoted secret belongs to: an e-mail login, its user part, a host of the brand. */
type ShapeContext = LeakContext;

/**
 * The notation of the `index`th free-text field of a tenant's `k`th event: one slot of its own for
 * every field of every event before it, so that a feed of 80 events holds every notation
 * (planted.test.ts checks it).
 */
function textSlot(k: number, tenantId: number, index: number): number {
	const fields = EVENT_TYPES.map((_, j) => FREE_TEXT_FIELDS[EVENT_TYPES[(j + tenantId) % EVENT_TYPES.length]].length);
	let slot = Math.floor(k / EVENT_TYPES.length) * fields.reduce((sum, count) => sum + count, 0);
	for (let j = 0; j < k % EVENT_TYPES.length; j++) slot += fields[j];
	return slot + index;
}

/**
 * The shapes in which free text quotes a leaked value: every notation a leak is written in
 * (test/support/notations.ts), in turn, with other names, markup and marks each time; each gives
 * the text and the planted value as it stands in it (for an authorization header, the base64 it sends).
 */
const SHAPES: Array<(quote: ShapeContext, secret: string) => [string, string]> = NOTATIONS.map(
	(notation, index) => (quote, secret) => {
		PLANTED_NOTATIONS.add(notation.family);
		return plantedLeak(index, secret, quote);
	},
);
/** The notations the fake has planted a value in so far (test/fake-flare/planted.test.ts checks it holds them all). */
export const PLANTED_NOTATIONS = new Set<string>();
/** The shapes that chat messages quote (their highlights show them): a URL with userinfo, an authorization header. */
const CHAT_SHAPES = [notationNamed('ftp URL'), notationNamed('basic')];

/** Every other note of the SOC quotes a credential line that it reset (planted, in the event's secrets). */
function plantNotes(state: EventState, event: Omit<StoredEvent, 'seq'>, k: number): EventState {
	if (state.notes === null || k % 2 === 1) return state;
	const secret = plantedSecret('', `${event.uid}/notes`);
	event.features.secrets.push(secret);
	const login = event.features.emails[0] ?? 'admin@initech.com';
	return { ...state, notes: `${state.notes.slice(0, -1)}: reset ${login}:${secret}` };
}

/** Event ids: digits, with some that need encoding, one with a slash (uids may have several). */
function eventId(tenantId: number, k: number): string {
	const base = `${tenantId}${String(k).padStart(4, '0')}`;
	switch (k % 20) {
		case 3:
			return `${base} a?b`;
		case 8:
			return `${base}%done`;
		case 13:
			return `${base}+x&y=z`;
		case 17:
			return `thread/${base}#p1`;
		default:
			return base;
	}
}

function seededState(next: () => number, materializedMs: number): EventState {
	const roll = () => next() % 100;
	const later = (days: number) => materializedMs + days * DAY_MS + (next() % DAY_MS);
	const tag = () => TAGS[next() % TAGS.length];
	const tags = roll() < 35 ? unique([tag(), tag()].slice(0, 1 + (next() % 2))) : [];
	return {
		override: roll() < 12 ? SEVERITY_ORDER[next() % SEVERITY_ORDER.length] : null,
		tags,
		notes: roll() < 15 ? `Reviewed by the SOC (case ${1000 + (next() % 9000)}).` : null,
		ignoredMs: roll() < 10 ? later(1) : null,
		remediatedMs: roll() < 12 ? later(2) : null,
	};
}

const emptyState = (): EventState => ({
	override: null,
	tags: [],
	notes: null,
	remediatedMs: null,
	ignoredMs: null,
});

interface Mention {
	text: string;
	brand: string | null;
	domains: string[];
	emails: string[];
	usernames: string[];
	ips: string[];
	bins: string[];
}

/** What an event says about an identifier's data, so that the queries for it find the event. */
function mention(data: IdentifierData): Mention {
	const empty: Mention = {
		text: '',
		brand: null,
		domains: [],
		emails: [],
		usernames: [],
		ips: [],
		bins: [],
	};
	switch (data.type) {
		case 'domain': {
			const fqdn = data.fqdn.toLowerCase();
			return {
				...empty,
				text: fqdn,
				brand: brandOf(fqdn),
				domains: [fqdn],
				emails: [`it.admin@${fqdn}`],
				usernames: ['it.admin'],
			};
		}
		case 'identity': {
			const emails = data.attributes.flatMap((a) =>
				a.type === 'email' ? [a.email.toLowerCase()] : [],
			);
			const usernames = data.attributes.flatMap((a) =>
				a.type === 'username'
					? [a.username]
					: a.type === 'email'
						? [a.email.split('@')[0].toLowerCase()]
						: [],
			);
			const names = data.attributes.flatMap((a) =>
				a.type === 'name' ? [`${a.first_name} ${a.last_name}`] : [],
			);
			const domains = emails.map((email) => email.split('@')[1]);
			return {
				...empty,
				text: [...emails, ...names].join(' ') || usernames.join(' '),
				brand: domains[0] ? brandOf(domains[0]) : null,
				domains,
				emails,
				usernames,
			};
		}
		case 'keyword':
			return { ...empty, text: data.keyword, brand: capitalise(data.keyword) };
		case 'ip':
			return { ...empty, text: data.ip, ips: [data.ip] };
		case 'bin':
			return { ...empty, text: `BIN ${data.bin}`, bins: [data.bin] };
		case 'github_repository':
			return { ...empty, text: `github.com/${data.repo_owner}/${data.repo_name}` };
		case 'azure_tenant':
			return { ...empty, text: `tenant ${data.tenant_id}` };
		case 'search_query':
			return { ...empty, text: data.search_query };
		case 'secret':
			return { ...empty, text: 'a leaked secret' };
	}
}

function text(
	type: EventType,
	brand: string,
	subject: string,
	login: string,
	password: string,
	bin: string | undefined,
	k: number,
	uid: string,
	quote: ShapeContext,
	secrets: string[],
): [string, string] {
	switch (type) {
		case 'leaked_credential':
			return [`Leaked credential of ${login}`, `Email / Username: ${login} (${subject})`];
		case 'stealer_log':
		case 'bot':
			return [
				`Infected device with ${brand} logins`,
				`Stealer log with saved logins for ${subject}: ${login}`,
			];
		case 'blog_post':
			return [`${brand} internal guide | PDF`, `Document mentioning ${subject}, shared publicly.`];
		case 'listing':
			return bin
				? [`Fresh cards ${bin}xx`, `Selling cards of ${subject}, valid 90%.`]
				: [`Access to ${brand} network`, `Selling VPN access to ${subject}. Escrow accepted.`];
		case 'forum_post':
			return [`${brand} database for sale`, `Thread offering a dump of ${subject} with ${login}.`];
		case 'paste':
			return [`Paste #${k}`, `${login}:${password}\nsee ${subject}`];
		case 'domain':
			return [lookalike(brand), `Lookalike domain of ${subject} registered.`];
		case 'chat_message': {
			// The message quotes a URL with userinfo, or an authorization header, which highlights show.
			const [said, secretOf] = SHAPES[CHAT_SHAPES[k % 2]](quote, plantedSecret('', `${uid}/message`));
			secrets.push(secretOf);
			return [`Message in #leaks`, `anyone has ${brand} vpn creds? about ${subject}, try ${said}`];
		}
		case 'ransomleak':
			return [`${brand} - part ${1 + (k % 3)}`, `Files of ${brand} published: ${subject}.`];
		case 'leak':
			return [`${brand} customer dump`, `Dump of ${subject} including ${login}.`];
		case 'source_code_secret':
			return [
				`Secret in ${brand.toLowerCase()}-deploy/config/settings.py`,
				`# settings of ${subject}\nAWS_SECRET_ACCESS_KEY = "${password}"\nAWS_REGION = "us-east-1"`,
			];
	}
}

/** Fields of the full event's `data` that only some types have (docs/event-types/*). */
function typeFields(event: StoredEvent, created: string): Record<string, unknown> {
	const [credential] = event.credentials;
	switch (event.type) {
		case 'leaked_credential':
			return {
				identity_name: credential.username,
				// "Only shown with the appropriate permission" (leaked-credential.mdx): the fake shows it.
				password: credential.password,
				domain: credential.username.split('@')[1] ?? null,
				source_id: event.source,
				source_name: event.sourceName,
				imported_at: created,
			};
		case 'stealer_log':
		case 'bot':
			return {
				credentials: event.credentials.map((entry) => ({
					...entry,
					application: 'Browser/Logins/Chrome_Default.txt',
				})),
				cookies: event.cookies.map((cookie) => ({
					host_key: cookie.host_key,
					path: '/',
					expires_utc: '2027-01-01T00:00:00',
					name: cookie.name,
					value: cookie.value,
				})),
				user_information: {
					ip_address: event.features.ips.at(-1),
					country_code: 'CA',
					os: 'Windows 11',
				},
				malware_information: { malware_family: 'lumma', infection_date: created },
			};
		case 'listing':
			return {
				description: event.content,
				price: '75.00',
				currency: 'usd',
				seller_name: event.actor,
			};
		case 'domain':
			return { name: event.title, identifier_domain: event.features.domains };
		case 'ransomleak':
			return { victim_name: event.title.split(' - ')[0] };
		default:
			return {};
	}
}

/**
 * Fields of the full event's `header` that only some types have: a leaked credential's password
 * (leaked-credential.mdx shows it in the header too), a source-code secret's findings (source-code.mdx
 * shows `contains_secrets` and an empty `secrets_metadata`; the fake's entries are its own guess).
 */
function typeHeader(event: StoredEvent): Record<string, unknown> {
	switch (event.type) {
		case 'leaked_credential':
			return { password: event.credentials[0].password };
		case 'source_code_secret':
			return {
				contains_secrets: true,
				secrets_metadata: event.features.secrets.map((secret) => ({
					rule: 'aws-secret-access-key',
					file: 'config/settings.py',
					line: 2,
					secret,
				})),
			};
		default:
			return {};
	}
}

// ---- query semantics (simplified; docs/feed-endpoints.md) ----

const lower = (value: string) => value.toLowerCase();

function searchable(event: StoredEvent): string {
	const { features } = event;
	return lower(
		[
			event.title,
			event.content,
			event.actor ?? '',
			...features.domains,
			...features.emails,
			...features.usernames,
		].join('\n'),
	);
}

function queryTest(query: FeedQuery): (event: StoredEvent) => boolean {
	const contains = (needle: string) => (event: StoredEvent) =>
		searchable(event).includes(lower(needle));
	switch (query.type) {
		case 'query_string': {
			const terms = query.query_string
				.replace(/"/g, ' ')
				.split(/\s+/)
				.filter((term) => term !== '' && term !== 'AND')
				.map((term) => lower(term.replace(/\*+$/, '')));
			return (event) => terms.every((term) => term === '' || searchable(event).includes(term));
		}
		case 'keyword':
			return contains(query.keyword);
		case 'brand':
			return contains(query.name);
		case 'github_repository':
			return contains(`${query.repo_owner}/${query.repo_name}`);
		case 'azure_tenant':
			return contains(query.tenant_id);
		case 'name':
			return query.is_strict
				? contains(`${query.first_name} ${query.last_name}`)
				: (event) => contains(query.first_name)(event) && contains(query.last_name)(event);
		case 'domain': {
			const fqdn = lower(query.fqdn);
			return (event) =>
				event.features.domains.some((domain) => domain === fqdn || domain.endsWith(`.${fqdn}`));
		}
		case 'email':
			return (event) => event.features.emails.includes(lower(query.email));
		case 'username':
			return (event) =>
				event.features.usernames.some((name) => lower(name) === lower(query.username));
		case 'ip':
			return (event) => event.features.ips.includes(query.ip);
		case 'bin':
			return (event) => event.features.bins.includes(query.bin);
		case 'secret':
			return (event) => event.features.secrets.includes(query.secret);
		case 'credentials':
			return (event) =>
				event.credentials.some(
					(entry) =>
						lower(entry.username) === lower(query.username) && entry.password === query.password,
				);
	}
}

/**
 * The content with every occurrence of the first query term marked, as the API marks highlights
 * (a term inside a password splits it); none when the term is not in the content.
 */
function highlights(
	event: StoredEvent,
	query: FeedQuery | null | undefined,
): Record<string, string[]> {
	if (!query) return {};
	const needle = needleOf(query);
	if (!needle) return {};
	const content = lower(event.content);
	const term = lower(needle);
	let marked = '';
	let done = 0;
	for (let at = content.indexOf(term); at !== -1; at = content.indexOf(term, at + term.length)) {
		marked += `${event.content.slice(done, at)}<mark>${event.content.slice(at, at + term.length)}</mark>`;
		done = at + term.length;
	}
	return done === 0 ? {} : { content: [marked + event.content.slice(done)] };
}

/** The text a query looks for in the content (the first term of a query string). */
function needleOf(query: FeedQuery): string | undefined {
	switch (query.type) {
		case 'query_string':
			return query.query_string
				.replace(/["*]/g, '')
				.split(/\s+/)
				.find((term) => term !== '' && term !== 'AND');
		case 'keyword':
			return query.keyword;
		case 'brand':
			return query.name;
		case 'name':
			return query.last_name;
		case 'github_repository':
			return `${query.repo_owner}/${query.repo_name}`;
		case 'credentials':
			return query.username;
		case 'azure_tenant':
			return query.tenant_id;
		case 'domain':
			return query.fqdn;
		case 'email':
			return query.email;
		case 'username':
			return query.username;
		case 'ip':
			return query.ip;
		case 'bin':
			return query.bin;
		case 'secret':
			return query.secret;
	}
}

function dateTest(filter: FeedDateFilter | undefined): (ms: number) => boolean {
	if (!filter) return () => true;
	const bound = (value: string | null | undefined) => (value ? dateTimeToMs(value) : undefined);
	const [gt, gte, lt, lte] = [
		bound(filter.gt),
		bound(filter.gte),
		bound(filter.lt),
		bound(filter.lte),
	];
	return (ms) =>
		(gt === undefined || ms > gt) &&
		(gte === undefined || ms >= gte) &&
		(lt === undefined || ms < lt) &&
		(lte === undefined || ms <= lte);
}

/** One severity = that one or higher; a list = exactly those; an empty list = no filter. */
function severityTest(filter: Severity | Severity[] | undefined): (severity: Severity) => boolean {
	if (filter === undefined || (Array.isArray(filter) && filter.length === 0)) return () => true;
	if (Array.isArray(filter)) return (severity) => filter.includes(severity);
	const minimum = SEVERITY_ORDER.indexOf(filter);
	return (severity) => SEVERITY_ORDER.indexOf(severity) >= minimum;
}

// ---- small helpers ----

/** The first 120 characters of a text, to the end of the word there (a planted value is never cut). */
function preview(content: string): string {
	const end = content.slice(120).search(/\s/);
	return end === -1 ? content : content.slice(0, 120 + end);
}

function unique<T>(values: T[]): T[] {
	return [...new Set(values)];
}

function capitalise(word: string): string {
	return word ? word[0].toUpperCase() + word.slice(1) : word;
}

function brandOf(domain: string): string {
	const labels = domain.split('.');
	return capitalise(labels.length > 1 ? labels[labels.length - 2] : labels[0]);
}

function lookalike(brand: string): string {
	return `${brand.toLowerCase().replace(/e/, '3').replace(/o/, '0')}-login.com`;
}

/** `https://app.flare.io/#/<uid>`, each part of the uid encoded. */
function flareUrl(uid: string): string {
	return `https://app.flare.io/#/${uid.split('/').map(encodeURIComponent).join('/')}`;
}

/** A SHA-1 in hex, as the full events' `payload_digest` and `content_hash`. */
function digest(text: string): string {
	return createHash('sha1').update(text).digest('hex');
}

/** `2025-03-12T09:15:00.123000Z`, as the feed items carry date-times. */
export function isoMicrosZ(ms: number): string {
	return new Date(ms).toISOString().replace('Z', '000Z');
}

/** `2025-03-12T09:15:00.123000+00:00`, as the full events carry date-times. */
export function isoMicrosOffset(ms: number): string {
	return new Date(ms).toISOString().replace('Z', '000+00:00');
}
