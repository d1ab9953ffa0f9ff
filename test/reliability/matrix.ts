/**
 * The fault matrix: walks of several pages, through the real-engine harness against the fake API,
 * with one fault injected at the first, a middle or the last page. Each scenario computes the
 * expected records from the oracle, compares the delivered ones by key (set and order), counts the
 * requests against the retry bound of the contract, and records a result row.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import {
	MAX_RATE_LIMIT_RETRIES,
	MAX_TRANSIENT_RETRIES,
} from '../../nodes/Flare/shared/transport';
import { FakeFlare, type FakeFlareOptions, type Fault, type FaultRule } from '../fake-flare';
import { lastCollectedHits } from '../harness/collect';
import { Harness, withoutRatePacing } from '../harness/engine';
import { TriggerWorkflow } from '../harness/poll';
import { apiRequests } from '../integration/support';
import { volume } from '../support/volume';
import { CANARY_API_KEY } from './secret-scan';
import { CANARY_OPTIONS, compare, Recorder, type FaultRow } from './support';

export type Position = 'first' | 'middle' | 'last';

/** What one walk delivered. */
export interface WalkResult {
	keys: string[];
	error?: { name?: string; message: string; description?: string | null };
}

/** A walk made ready against a freshly reset fake. */
export interface Walk {
	/** Oracle: keys of the records the walk must deliver, in order. */
	expected(): string[];
	run(): Promise<WalkResult>;
	/**
	 * After a failed run: what must be true of the state (trigger: nothing stored, nothing emitted),
	 * and what a following run delivers once the fault is gone. Node runs have none.
	 */
	recover?(): Promise<WalkResult>;
}

export interface Subject {
	/** As the documentation names it, e.g. "Leaked Credential → Search". */
	operation: string;
	/** The n8n action, as error messages name it. */
	action: string;
	/** Path of the page requests, for fault rules and counting. */
	path: string | RegExp;
	/** Whether the global search quota applies (real quota exhaustion instead of an injected 429). */
	searchQuota: boolean;
	/** Identity lookups page by id: a repeated cursor is a page sent again, not a `next` field. */
	idCursor: boolean;
	/** Whether the oracle's answer is the same for every scenario (the fake's data does not move). */
	stableOracle: boolean;
	/** Whether the token was exchanged before the run (the trigger's activation searches already). */
	tokenBeforeRun?: boolean;
	/** Whether the Limit, not the last cursor, ends the walk (the last page's cursor is never used). */
	limited?: boolean;
	/** Prepares a walk; `fake` has just been reset with `options` (canary credentials included). */
	start(fake: FakeFlare, harness: Harness, parameters: IDataObject): Promise<Walk>;
	/** The fake's options for this walk. */
	options: FakeFlareOptions;
	/** For identity lookups: the page bodies of a clean walk, in order. */
	pages?(fake: FakeFlare): unknown[];
}

const keysOf = (items: INodeExecutionData[] | null | undefined, field: string) =>
	(items ?? []).map((item) => String(item.json[field]));

const errorOf = (error: { name?: string; message: string; description?: string | null } | undefined) =>
	error ? { name: error.name, message: error.message, description: error.description } : undefined;

/** A Flare node operation: one run of Items → Flare. */
function nodeSubject(
	definition: Omit<Subject, 'start' | 'stableOracle'> & {
		parameters(fake: FakeFlare): IDataObject;
		expected(fake: FakeFlare): string[];
		key: string;
	},
): Subject {
	return {
		...definition,
		stableOracle: true,
		async start(fake, harness, extra) {
			const parameters = { ...definition.parameters(fake), ...extra };
			return {
				expected: () => definition.expected(fake),
				async run() {
					const result = await harness.runNode({ parameters });
					return { keys: keysOf(result.output, definition.key), error: errorOf(result.error) };
				},
			};
		},
	};
}

const TRIGGER_QUERY = { type: 'domain', fqdn: 'acme.com' };

export const SUBJECTS: Record<'search' | 'urls' | 'byPassword' | 'byKeyword' | 'trigger', Subject> = {
	search: nodeSubject({
		operation: 'Leaked Credential → Search (Return All)',
		action: 'search leaked credentials',
		path: '/firework/v4/credentials/global/_search',
		searchQuota: true,
		idCursor: false,
		// 25,000 matches in pages of 10,000: a full page, an empty one (more remain), a short one, the rest.
		options: {
			credentials: 50_000,
			domains: ['example.com', 'acme.com'],
			quirks: { emptyPageEvery: 2, shortPageEvery: 3 },
		},
		parameters: () => ({
			resource: 'leakedCredential',
			operation: 'search',
			queryType: 'domain',
			fqdn: 'acme.com',
			returnAll: true,
		}),
		expected: (fake) =>
			fake.dataset.searchAll({ query: { type: 'domain', fqdn: 'acme.com' } }).map((record) => String(record.id)),
		key: 'id',
	}),
	urls: nodeSubject({
		operation: 'ASTP URL → Get Many (Limit 100)',
		action: 'get the URLs of a credential',
		path: '/astp/urls/by_credential_hash',
		searchQuota: false,
		idCursor: false,
		limited: true,
		// A credential with 237 URLs; every page comes back short, every second one empty.
		options: { credentials: 3_000, quirks: { shortPageEvery: 1, emptyPageEvery: 2 } },
		parameters: (fake) => ({
			resource: 'astpUrl',
			operation: 'getAll',
			credentialHash: fake.dataset.credentialHash(49),
			limit: 100,
		}),
		expected: (fake) =>
			fake.dataset
				.urlsFor(fake.dataset.credentialHash(49))
				.slice(0, 100)
				.map((record) => record.url),
		key: 'url',
	}),
	byPassword: nodeSubject({
		operation: 'Identity → Get by Password (Return All)',
		action: 'look up identities by password',
		path: /^\/leaksdb\/identities\/by_password\//,
		searchQuota: false,
		idCursor: true,
		// About 3,000 identities share the password. The fake scans a bounded number of candidates per
		// request (as the real API may), so pages come back short: about 1,000, 1,000, 1,000, 1, then
		// the empty page that ends the walk.
		options: { credentials: 600_000 },
		parameters: (fake) => ({
			resource: 'identity',
			operation: 'getByPassword',
			password: fake.dataset.credential(11).hash,
			returnAll: true,
		}),
		expected: (fake) =>
			fake.dataset
				.identitiesByPassword(fake.dataset.credential(11).hash, 10_000)
				.flatMap((identity) => identity.passwords.map((entry) => String(entry.id))),
		key: 'id',
		pages: (fake) => identityPages(fake, fake.dataset.passwordMatcher(fake.dataset.credential(11).hash)),
	}),
	byKeyword: nodeSubject({
		operation: 'Identity → Get by Keyword (Return All)',
		action: 'look up identities by keyword',
		path: /^\/leaksdb\/identities\/by_keyword\//,
		searchQuota: false,
		idCursor: true,
		// 24,000 leaked passwords of *@acme.com identities: pages of 10,000, then the empty page.
		options: { credentials: 120_000 },
		parameters: () => ({
			resource: 'identity',
			operation: 'getByKeyword',
			keyword: '*@acme.com',
			returnAll: true,
		}),
		expected: (fake) =>
			fake.dataset
				.identitiesByKeyword('*@acme.com', 10_000)
				.flatMap((identity) => identity.passwords.map((entry) => String(entry.id))),
		key: 'id',
		pages: (fake) => identityPages(fake, fake.dataset.keywordMatcher('*@acme.com')),
	}),
	trigger: {
		operation: 'Flare Trigger (active poll)',
		action: 'search leaked credentials',
		path: '/firework/v4/credentials/global/_search',
		searchQuota: false,
		idCursor: false,
		stableOracle: false,
		tokenBeforeRun: true,
		options: {
			credentials: 1_000,
			domains: ['acme.com', 'example.com'],
			quirks: { emptyPageEvery: 2, shortPageEvery: 3 },
		},
		async start(fake, harness, extra) {
			const workflow = new TriggerWorkflow(harness, {
				parameters: { queryType: 'domain', fqdn: 'acme.com', ...extra },
			});
			// Activation: a baseline of what exists (nothing in its window), emitted nothing, saved.
			const activation = await workflow.activate();
			if (activation.error || activation.items !== null) {
				throw new Error(`Unexpected activation: ${JSON.stringify(activation)}`);
			}
			const activated = JSON.stringify(workflow.state);
			// 30 matching credentials imported after the activation: pages of 10 of the long-lived
			// search (with an empty and a short page among them), then the sweep reads them again.
			fake.addCredentials(60);
			const expected = fake.dataset
				.searchAll({ query: TRIGGER_QUERY as never })
				.slice(0, 30)
				.reverse()
				.map((record) => String(record.id));
			return {
				expected: () => expected,
				async run() {
					const result = await workflow.poll();
					return { keys: keysOf(result.items, 'id'), error: errorOf(result.error) };
				},
				async recover() {
					// A failed poll stores nothing and emits nothing: the state is still the activation's.
					if (JSON.stringify(workflow.state) !== activated) {
						throw new Error(`A failed poll changed the state: ${JSON.stringify(workflow.state)}`);
					}
					const result = await workflow.poll();
					return { keys: keysOf(result.items, 'id'), error: errorOf(result.error) };
				},
			};
		},
	},
};

/** The bodies of the pages of a clean identity walk (pages of 10,000, ending with the empty one). */
function identityPages(fake: FakeFlare, matcher: ReturnType<FakeFlare['dataset']['passwordMatcher']>): unknown[] {
	const pages: unknown[] = [];
	let from = 0;
	for (;;) {
		const page = fake.dataset.identityPage(matcher, from, 10_000);
		pages.push(page);
		if (page.length === 0) return pages;
		from = Math.max(...page[page.length - 1].passwords.map((entry) => entry.id));
	}
}

const RATE_LIMITED = { error: { code: 'RATELIMIT_REACHED', message: 'ratelimit reached' } };
const QUOTA_EXCEEDED = {
	error: { code: 'QUOTA_EXCEEDED', message: 'global search quota exceeded: no global searches remaining' },
};

/** Which retry allowance of the contract a fault draws on. */
type RetryClass = 'rateLimit' | 'transient' | 'token' | 'none';

const RETRIES: Record<RetryClass, number> = {
	rateLimit: MAX_RATE_LIMIT_RETRIES,
	transient: MAX_TRANSIENT_RETRIES,
	// n8n refreshes an expired token once per request.
	token: 1,
	none: 0,
};

export interface FaultCase {
	/** As the table of docs/reliability.md names it. */
	name: string;
	/** The rules for a fault at page index `page` (0-based) of a walk of `pages` pages. */
	rules(subject: Subject, page: number, fake: FakeFlare): FaultRule[];
	/**
	 * Fake options the fault needs (e.g. a quota that runs out at that page); `unitsBefore`: the global
	 * search quota units the clean walk had spent before that page.
	 */
	options?(subject: Subject, page: number, unitsBefore: number): FakeFlareOptions;
	/** Node parameters the scenario needs (e.g. a short Timeout). */
	parameters?: IDataObject;
	retryClass: RetryClass;
	/** Recovered: the walk delivers everything with this many extra requests. */
	extraRequests?: number;
	extraTokenRequests?: number;
	/** Failed as decided: the error message, and how many requests the faulted page takes. */
	fails?: { message: (subject: Subject) => string; pageRequests: number | ((subject: Subject, page: number) => number) };
	/** The wait the node must leave between the fault and the retry. */
	minWaitMs?: number;
	/** Positions where the fault makes sense (a repeated cursor needs a cursor). */
	positions?: Position[];
	/** Harmless on the last page of a walk that the Limit ends: that page's cursor is never followed. */
	harmlessWhenLimitEnds?: boolean;
}

const at = (subject: Subject, page: number, fault: Fault, times = 1): FaultRule[] => [
	{ path: subject.path, skip: page, times, fault },
];

export const FAULTS = {
	retryAfter: {
		name: '429 with Retry-After (1 s)',
		rules: (subject, page) =>
			at(subject, page, { status: 429, body: RATE_LIMITED, headers: { 'Retry-After': '1' } }),
		retryClass: 'rateLimit',
		extraRequests: 1,
		minWaitMs: 1_000,
	},
	noRetryAfter: {
		name: '429 without Retry-After (waits the decided 10 s)',
		rules: (subject, page) => at(subject, page, { status: 429, body: RATE_LIMITED }),
		retryClass: 'rateLimit',
		extraRequests: 1,
		minWaitMs: 10_000,
	},
	burst: {
		name: 'burst of ten 429s (Retry-After 0)',
		rules: (subject, page) =>
			at(subject, page, { status: 429, body: RATE_LIMITED, headers: { 'Retry-After': '0' } }, 10),
		retryClass: 'rateLimit',
		extraRequests: 10,
	},
	http500: {
		name: 'HTTP 500',
		rules: (subject, page) =>
			at(subject, page, { status: 500, body: { error: { code: 'INTERNAL_ERROR', message: 'internal error' } } }),
		retryClass: 'transient',
		extraRequests: 1,
	},
	http502: {
		name: 'HTTP 502',
		rules: (subject, page) => at(subject, page, { status: 502, rawBody: '<html><body>Bad Gateway</body></html>' }),
		retryClass: 'transient',
		extraRequests: 1,
	},
	http503: {
		name: 'HTTP 503',
		rules: (subject, page) => at(subject, page, { status: 503, rawBody: 'Service Unavailable' }),
		retryClass: 'transient',
		extraRequests: 1,
	},
	http504: {
		name: 'HTTP 504',
		rules: (subject, page) => at(subject, page, { status: 504, body: {} }),
		retryClass: 'transient',
		extraRequests: 1,
	},
	http503Persistent: {
		name: 'HTTP 503 on every retry (beyond the bound)',
		rules: (subject, page) => at(subject, page, { status: 503, rawBody: 'Service Unavailable' }, 50),
		retryClass: 'transient',
		fails: {
			message: () => `Flare is temporarily unavailable (HTTP 503) after ${1 + MAX_TRANSIENT_RETRIES} attempts`,
			pageRequests: 1 + MAX_TRANSIENT_RETRIES,
		},
	},
	reset: {
		name: 'connection reset',
		rules: (subject, page) => at(subject, page, { reset: true }),
		retryClass: 'transient',
		extraRequests: 1,
	},
	slow: {
		// The Timeout covers each answer whole, its last byte included: 12 s leaves a loaded machine
		// (jest and the fake in one process) time to produce and read a page of 10,000 identities.
		name: 'response slower than the Timeout (12 s)',
		rules: (subject, page) => at(subject, page, { delayMs: 15_000 }),
		parameters: { requestOptions: { timeout: 12_000 } },
		retryClass: 'transient',
		extraRequests: 1,
	},
	malformed: {
		name: 'malformed JSON',
		rules: (subject, page) => at(subject, page, { malformedJson: true }),
		retryClass: 'transient',
		extraRequests: 1,
	},
	tokenExpiry: {
		name: 'token expiry',
		rules: (subject, page) => at(subject, page, { expireTokens: true }),
		retryClass: 'token',
		extraRequests: 1,
		extraTokenRequests: 1,
	},
	repeatedCursor: {
		name: 'repeated cursor',
		rules: (subject, page, fake) =>
			subject.idCursor
				? // The page before, sent again: its last id is the cursor just sent.
					at(subject, page, { status: 200, body: subject.pages!(fake)[page - 1] })
				: at(subject, page, { repeatCursor: true }),
		retryClass: 'none',
		fails: {
			message: (subject) => `Flare returned the same page cursor twice while trying to ${subject.action}`,
			pageRequests: 1,
		},
		// The first page is sent without a cursor: there is nothing to repeat.
		positions: ['middle', 'last'],
		harmlessWhenLimitEnds: true,
	},
	quota: {
		name: 'quota exhausted',
		// The global search quota runs out for real: it holds what the clean walk spent before the page, and
		// the page needs more. Other endpoints get the quota envelope injected.
		rules: (subject, page) => (subject.searchQuota ? [] : at(subject, page, { status: 429, body: QUOTA_EXCEEDED })),
		options: (subject, page, unitsBefore) => (subject.searchQuota ? { quota: unitsBefore } : {}),
		retryClass: 'none',
		fails: {
			message: () => 'The global search quota of your Flare organization is used up',
			// Where the quota is real, the answer before the page said that none remains: the page is
			// never asked for (docs/api-contract.md, "Quota"). The first page has no answer before it.
			pageRequests: (subject, page) => (subject.searchQuota && page > 0 ? 0 : 1),
		},
	},
} satisfies Record<string, FaultCase>;

/**
 * Runs the scenarios of one subject, after a clean baseline walk that fixes the number of pages.
 * Each scenario gets a fake of its own (a new address), so that nothing one scenario taught the
 * node's per-process rate gate carries over to the next: every scenario starts as a fresh n8n would.
 */
export class Matrix {
	private pages = 0;
	/** Quota units the clean walk had spent before each page. */
	private unitsBefore: number[] = [];
	private oracle?: string[];
	private current?: FakeFlare;

	constructor(
		private readonly harness: Harness,
		private readonly subject: Subject,
		private readonly recorder: Recorder,
	) {}

	private get fake(): FakeFlare {
		if (!this.current) throw new Error('No fake running');
		return this.current;
	}

	private async prepare(options: FakeFlareOptions, parameters: IDataObject = {}): Promise<Walk> {
		await this.close();
		this.current = await FakeFlare.start({ ...this.subject.options, ...options, ...CANARY_OPTIONS });
		this.harness.addFlareCredential({ apiKey: CANARY_API_KEY, baseUrl: this.fake.url });
		const walk = await this.subject.start(this.fake, this.harness, parameters);
		this.fake.clearLog();
		return walk;
	}

	/** Stops the fake of the last scenario. */
	async close(): Promise<void> {
		await this.current?.stop();
		this.current = undefined;
	}

	private pageRequests() {
		return apiRequests(this.fake).filter((request) =>
			typeof this.subject.path === 'string'
				? request.path === this.subject.path
				: this.subject.path.test(request.path),
		);
	}

	/** The clean walk: everything delivered once, one request per page. Returns the number of pages. */
	async baseline(): Promise<number> {
		const walk = await this.prepare({});
		const result = await walk.run();
		if (result.error) throw new Error(`Baseline failed: ${result.error.message}`);
		const expected = walk.expected();
		if (this.subject.stableOracle) this.oracle = expected;
		const comparison = compare(expected, result.keys);
		if (!comparison.exact || expected.length === 0) {
			throw new Error(`Baseline delivered the wrong records: ${JSON.stringify(comparison)}`);
		}
		const pageRequests = this.pageRequests();
		this.pages = pageRequests.length;
		let spent = 0;
		this.unitsBefore = pageRequests.map((request) => {
			const before = spent;
			spent += request.quotaCharged ?? 0;
			return before;
		});
		if (this.pages < 3) throw new Error(`Baseline walk has only ${this.pages} pages`);
		return this.pages;
	}

	pageAt(position: Position): number {
		return position === 'first' ? 0 : position === 'last' ? this.pages - 1 : Math.floor(this.pages / 2);
	}

	/** Runs one scenario, checks it, records it, and returns the row. */
	async scenario(fault: FaultCase, position: Position): Promise<FaultRow> {
		const started = Date.now();
		const page = this.pageAt(position);
		const walk = await this.prepare(fault.options?.(this.subject, page, this.unitsBefore[page]) ?? {}, fault.parameters);
		for (const rule of fault.rules(this.subject, page, this.fake)) this.fake.faults.add(rule);

		const first = await walk.run();
		const hits = [...lastCollectedHits()];
		const expected = this.oracle ?? walk.expected();
		const requests = this.pageRequests();
		const tokenRequests = this.fake.requests.filter((request) => request.path === '/tokens/generate').length;
		let delivered = first.keys;
		let outcome: FaultRow['outcome'] = 'recovered';
		let expectedRequests: number;
		let bound: number;
		const problems: string[] = [];

		const fails =
			fault.harmlessWhenLimitEnds && this.subject.limited && position === 'last' ? undefined : fault.fails;
		if (fails) {
			outcome = 'failed as decided';
			expectedRequests =
				page + (typeof fails.pageRequests === 'number' ? fails.pageRequests : fails.pageRequests(this.subject, page));
			bound = page + 1 + RETRIES[fault.retryClass];
			if (first.error?.message !== fails.message(this.subject)) {
				problems.push(`expected the error "${fails.message(this.subject)}", got ${JSON.stringify(first.error)}`);
			}
			if (first.keys.length > 0) problems.push(`a failed run delivered ${first.keys.length} records`);
			if (walk.recover) {
				this.fake.faults.clear();
				const next = await walk.recover();
				if (next.error) problems.push(`the run after the fault failed: ${next.error.message}`);
				delivered = [...first.keys, ...next.keys];
			}
		} else {
			expectedRequests = this.pages + (fault.extraRequests ?? 0);
			bound = this.pages + RETRIES[fault.retryClass];
			if (first.error) problems.push(`expected recovery, got ${JSON.stringify(first.error)}`);
			const expectedTokens = (this.subject.tokenBeforeRun ? 0 : 1) + (fault.extraTokenRequests ?? 0);
			if (tokenRequests !== expectedTokens) problems.push(`${tokenRequests} token requests, expected ${expectedTokens}`);
		}
		if (requests.length !== expectedRequests) {
			problems.push(`${requests.length} requests, expected ${expectedRequests} (bound ${bound})`);
		}
		if (requests.length > bound) problems.push(`${requests.length} requests exceed the bound ${bound}`);
		if (fault.minWaitMs) {
			const limited = requests.findIndex((request) => request.status === 429);
			const gap = limited >= 0 && requests[limited + 1] ? requests[limited + 1].at - requests[limited].at : -1;
			if (gap < fault.minWaitMs) problems.push(`retried ${gap} ms after the 429, expected at least ${fault.minWaitMs} ms`);
		}
		if (hits.length > 0) problems.push(`secrets in the run: ${JSON.stringify(hits)}`);

		const checked = outcome === 'recovered' || walk.recover ? expected.length : 0;
		const comparison = compare(expected, delivered);
		if (checked > 0 && !comparison.exact) problems.push(`records differ from the oracle: ${JSON.stringify(comparison)}`);

		const row: FaultRow = {
			kind: 'fault',
			operation: this.subject.operation,
			fault: fault.name,
			position,
			pages: this.pages,
			expected: expected.length,
			delivered: delivered.length,
			checked,
			lost: checked > 0 ? comparison.lost : 0,
			duplicated: comparison.duplicated,
			requests: requests.length,
			bound,
			tokenRequests,
			outcome,
			error: first.error?.message,
			ms: Date.now() - started,
		};
		this.recorder.add(row);
		if (problems.length > 0) {
			throw new Error(`${this.subject.operation}, ${fault.name} at the ${position} page:\n- ${problems.join('\n- ')}`);
		}
		return row;
	}
}

/** Declares the scenarios of one subject as a jest suite: a baseline, then one test per scenario. */
export function faultMatrix(
	name: string,
	subject: Subject,
	cases: Array<[FaultCase, Position[]]>,
	options: { unpaced?: boolean } = {},
): void {
	describe(`Fault matrix: ${subject.operation}`, () => {
		let matrix: Matrix;
		const recorder = new Recorder(name);

		beforeAll(async () => {
			// Records and retries are tested here; the pace, in pacing.test.ts.
			if (options.unpaced) await withoutRatePacing();
			matrix = new Matrix(await Harness.create(), subject, recorder);
			await matrix.baseline();
		}, 120_000);
		afterAll(async () => {
			recorder.save();
			await matrix.close();
		});

		// npm test: every fourth scenario (each subject still meets faults it recovers from and faults it
		// fails on as decided); the long-proof run: all of them.
		const scenarios = cases
			.flatMap(([fault, positions]) => positions.map((position) => [fault.name, position, fault] as const))
			.filter((_, index) => index % volume(4, 1) === 0);

		it.each(scenarios)('%s at the %s page', async (_name, position, fault) => {
			await matrix.scenario(fault, position);
		}, 120_000);
	});
}
