/**
 * The fake Flare dataset and test oracle. Everything is a deterministic function of the seed and a
 * credential index; nothing is materialised per credential, so a million-record dataset costs nothing.
 *
 * Credential index i (id = i + 1):
 * - domain d = i % D, username u = floor(i / D) % U: identities repeat, one identity has several records;
 * - password, source and URL count come from seeded hashes of i;
 * - the generated credentials' imported_at never decreases with i, so imported_at bounds become an
 *   index range. Added credentials (`append`) follow in segments with an imported_at of their own (any
 *   date), and optionally a domain, a username, no id or no credential hash.
 * The global search sorts by (imported_at, id) or by (reversed domain, id): see search-after.ts.
 */
import { createHash } from 'crypto';

import {
	type BlogPostEvent,
	type CredentialQuery,
	type CredentialRecord,
	type CredentialUrlRecord,
	dateTimeToMs,
	type GlobalSearchBody,
	GlobalSearchBody as GlobalSearchBodySchema,
	type GlobalSearchBodyInput,
	type GlobalSource,
	type IdentityRecord,
	type IdentifierData,
	type IdentifierGroup,
	type IncludeOption,
	type LegacySource,
	type MatchingPolicy,
	type MatchingPolicyAssignment,
	type PasswordEntry,
	type PolicyAssignedIdentifier,
	type PublicIdentifier,
} from '../contract';
import {
	hash32,
	hex8,
	isoNaive,
	isoWithOffset,
	seededStream,
	seededUuid,
	shuffled,
} from './random';
import { type Quirks, shapeAfterPage } from './paging';
import { PLANTED_MARKER, planted, plantedSecret } from './planted';
import { lowerBound, type Matcher, NOTHING, scan, type ScanResult } from './scan';
import {
	type EndCursor,
	isSortKey,
	reversedDomain,
	type Run,
	type SearchOrder,
	type SortKey,
	walkAfter,
} from './search-after';
import * as words from './words';

export interface DatasetOptions {
	seed: number;
	credentials: number;
	domains: string[];
	sameInstantGroup: number;
	startTime: string;
	/** What the global search sorts by (default `importedAt`). */
	searchOrder?: SearchOrder;
	/** Identifiers (ids 7001 on), matching policies and sources: at least the defaults, 30, 8 and 20. */
	identifiers?: number;
	policies?: number;
	sources?: number;
}

/** The default list sizes; longer lists append generated entries and leave these unchanged. */
export const DEFAULT_LIST_SIZES = { identifiers: 30, policies: 8, sources: 20 };

export interface PasswordValue {
	hash: string;
	hashType: string | null;
}

/** What credentials added by {@link Dataset.append} look like; unset fields follow the formulas. */
export interface AddedCredentialOptions {
	/** Their domain (lowercased); their identity is `<username>@<domain>`. */
	domain?: string;
	/** Their username (the part of the identity before `@`). */
	username?: string;
	/** `id: null` (hostile: Flare documents an integer). They still take an index, so later ids skip. */
	nullId?: boolean;
	/** `credential_hash: null` (as Flare's OpenAPI allows). */
	nullCredentialHash?: boolean;
}

/** A run of added credentials: indices [start, start + count), all imported at `ms`. */
interface Segment extends AddedCredentialOptions {
	start: number;
	count: number;
	ms: number;
}

/** An index range of credentials that share their formulas: the generated ones, or one segment. */
interface Block {
	lo: number;
	hi: number;
	segment?: Segment;
}

export interface StoredAssignment {
	policyUuid: string;
	assigned_at: string;
	clean_past_events: boolean;
}

/** Candidates examined per request at most; the real API returns short or empty pages too. */
export const SCAN_CAP = 200_000;

const GROUP_STEP_MS = 60_000;
const URLS_OF_BIG_CREDENTIAL = 237;
const URL_COUNTS = [0, 0, 1, 1, 1, 2, 2, 3, 4, 4];
const MAX_LISTED = 100;
const EXPLICIT_RESIDUES_MAX = 4096;

// Salts keep the per-index hashes independent of each other.
const SALT = {
	password: 1,
	source: 2,
	urlCount: 3,
	urlHost: 4,
	urlPath: 5,
	hashCheck: 6,
	hashOffset: 7,
	identifier: 8,
};

/** Odd multiplier of the reversible credential hash, and its inverse modulo 2^32. */
const HASH_MULTIPLIER = 0x2545f491;
const HASH_INVERSE = (() => {
	let inverse = HASH_MULTIPLIER;
	for (let step = 0; step < 5; step++)
		inverse = Math.imul(inverse, 2 - Math.imul(HASH_MULTIPLIER, inverse));
	return inverse >>> 0;
})();

/** Dataset.passwordOf's memory, by seed. */
const PASSWORDS_BY_SEED = new Map<number, Int32Array>();

export class Dataset {
	readonly seed: number;
	readonly domainList: string[];
	/** Number of distinct usernames. */
	readonly userCount: number;

	/** Live state the server mutates: assignments per identifier and deleted identifiers. */
	readonly assignments = new Map<number, StoredAssignment[]>();
	readonly deletedIdentifiers = new Set<number>();
	/** Identifiers created or updated through the API; they replace the generated record. */
	private readonly storedIdentifiers = new Map<number, PublicIdentifier>();

	readonly searchOrder: SearchOrder;

	private readonly generated: number;
	private readonly appended: Segment[] = [];
	private readonly reversedDomains = new Map<string, string>();
	private readonly startMs: number;
	private readonly group: number;
	private readonly firstNames: string[];
	private readonly lastNames: string[];
	private readonly passwordList: PasswordValue[];
	private readonly passwordIndex = new Map<string, number>();
	private readonly globalSources: GlobalSource[];
	private readonly legacySources: LegacySource[];
	private readonly policyList: MatchingPolicy[];
	/** Identifier groups by id: 100, 101 and 102 (the identifiers' `group_id`s), then created ones. */
	private readonly groupList = new Map<number, IdentifierGroup>(
		words.GROUP_NAMES.map((name, k) => [100 + k, groupRecord(100 + k, name, 0)]),
	);
	private readonly identifierList: number[];
	/** Sources that credentials come from: the default ones (extra sources are only listed). */
	private readonly credentialSources: number;
	private readonly eventList: BlogPostEvent[];
	/** The planted passwords the blog posts quote. */
	private readonly eventPasswords: string[] = [];
	private readonly hashOffset: number;
	private lastIso = { ms: Number.NaN, text: '' };

	constructor(options: DatasetOptions) {
		this.seed = options.seed;
		this.domainList = options.domains.map((domain) => domain.toLowerCase());
		if (this.domainList.length === 0) throw new Error('FakeFlare: at least one domain is needed');
		this.generated = options.credentials;
		this.searchOrder = options.searchOrder ?? 'importedAt';
		this.group = Math.max(1, options.sameInstantGroup);
		this.startMs = dateTimeToMs(options.startTime);
		if (Number.isNaN(this.startMs))
			throw new Error(`FakeFlare: invalid startTime ${options.startTime}`);
		this.userCount = Math.max(50, Math.floor(options.credentials / (7 * this.domainList.length)));
		this.hashOffset = hash32(this.seed, SALT.hashOffset);

		const next = seededStream(this.seed);
		this.firstNames = shuffled(words.FIRST_NAMES, next);
		this.lastNames = shuffled(words.LAST_NAMES, next);
		this.passwordList = buildPasswords(next);
		this.passwordList.forEach((value, index) => this.passwordIndex.set(value.hash, index));
		[this.globalSources, this.legacySources] = buildSources(next);
		this.policyList = buildPolicies(next);
		this.identifierList = Array.from(
			{ length: DEFAULT_LIST_SIZES.identifiers },
			(_, k) => 7001 + k,
		);
		for (const id of this.identifierList)
			this.assignments.set(id, initialAssignments(next, this.policyList));
		this.eventList = buildEvents(next, this.eventPasswords);
		this.credentialSources = this.globalSources.length;

		// Longer lists come from a stream of their own: the default dataset stays exactly as it is.
		const more = seededStream(hash32(this.seed, 0x115e));
		const wanted = { ...DEFAULT_LIST_SIZES };
		for (const key of Object.keys(wanted) as Array<keyof typeof wanted>) {
			const count = options[key];
			if (count === undefined) continue;
			if (!Number.isInteger(count) || count < DEFAULT_LIST_SIZES[key]) {
				throw new Error(
					`FakeFlare: ${key} must be a whole number of at least ${DEFAULT_LIST_SIZES[key]}`,
				);
			}
			wanted[key] = count;
		}
		for (let k = this.globalSources.length; k < wanted.sources; k++) {
			const [global, legacy] = extraSource(more, k);
			this.globalSources.push(global);
			this.legacySources.push(legacy);
		}
		for (let k = this.policyList.length; k < wanted.policies; k++) {
			this.policyList.push(extraPolicy(more, k));
		}
		for (let k = this.identifierList.length; k < wanted.identifiers; k++) {
			this.identifierList.push(7001 + k);
			this.assignments.set(7001 + k, []);
		}
	}

	/** Number of credentials (generated plus appended). */
	get size(): number {
		const last = this.appended[this.appended.length - 1];
		return last ? last.start + last.count : this.generated;
	}

	// ---- per-index formulas ----

	domainOf(index: number): string {
		const chosen = index < this.generated ? undefined : this.segmentOf(index)?.domain;
		return chosen ?? this.domainList[index % this.domainList.length];
	}

	/** The username of credential `index`: `username(userOf(index))` unless it was chosen. */
	usernameOf(index: number): string {
		const chosen = index < this.generated ? undefined : this.segmentOf(index)?.username;
		return chosen ?? this.username(this.userOf(index));
	}

	/** The record id: index + 1, or null for credentials added without one. */
	idOf(index: number): number | null {
		return index >= this.generated && this.segmentOf(index)?.nullId ? null : index + 1;
	}

	/**
	 * Username u is `first.last[n]`: first = u % F, q = floor(u / F) % L, last = (q + first) % L (so
	 * neighbours differ in both names), n = floor(u / (F * L)) when > 0. Reversible by usernameIndex().
	 */
	username(u: number): string {
		const { length: firstCount } = this.firstNames;
		const { length: lastCount } = this.lastNames;
		const f = u % firstCount;
		const q = Math.floor(u / firstCount) % lastCount;
		const n = Math.floor(u / (firstCount * lastCount));
		return `${this.firstNames[f]}.${this.lastNames[(q + f) % lastCount]}${n > 0 ? n : ''}`;
	}

	/** The username index of a (lowercase) username, or -1. */
	usernameIndex(name: string): number {
		const match = /^([a-z]+)\.([a-z]+)([1-9]\d*)?$/.exec(name);
		if (!match) return -1;
		const { length: firstCount } = this.firstNames;
		const { length: lastCount } = this.lastNames;
		const f = this.firstNames.indexOf(match[1]);
		const l = this.lastNames.indexOf(match[2]);
		if (f === -1 || l === -1) return -1;
		const q = (l - f + lastCount) % lastCount;
		const u = Number(match[3] ?? 0) * firstCount * lastCount + q * firstCount + f;
		return u < this.userCount ? u : -1;
	}

	userOf(index: number): number {
		return Math.floor(index / this.domainList.length) % this.userCount;
	}

	identityOf(index: number): string {
		return `${this.usernameOf(index)}@${this.domainOf(index)}`;
	}

	passwordOf(index: number): number {
		const known = this.passwordsKnown;
		if (index < known.length && known[index] >= 0) return known[index];
		const password = hash32(this.seed, index, SALT.password) % this.passwordList.length;
		if (index < known.length) known[index] = password;
		return password;
	}

	/**
	 * The password of each generated credential once it was asked for, shared by the datasets of one
	 * seed (a lookup by password scans hundreds of thousands of them, fake after fake); -1 not yet.
	 */
	private get passwordsKnown(): Int32Array {
		let known = PASSWORDS_BY_SEED.get(this.seed);
		if (!known || known.length < this.generated) {
			known = new Int32Array(this.generated).fill(-1);
			PASSWORDS_BY_SEED.set(this.seed, known);
		}
		return known;
	}

	sourceOf(index: number): number {
		return hash32(this.seed, index, SALT.source) % this.credentialSources;
	}

	importedAtMs(index: number): number {
		if (index < this.generated)
			return this.startMs + Math.floor(index / this.group) * GROUP_STEP_MS;
		return this.segmentOf(index)?.ms ?? Number.POSITIVE_INFINITY;
	}

	/** The segment of an added credential (binary search), or undefined. */
	private segmentOf(index: number): Segment | undefined {
		const { appended } = this;
		const k = lowerBound(appended.length, (j) => appended[j].start + appended[j].count > index);
		const segment = appended[k];
		return segment && segment.start <= index ? segment : undefined;
	}

	/** imported_at as the API formats it; neighbours share it, so the last one is remembered. */
	importedAtIso(index: number): string {
		const ms = this.importedAtMs(index);
		if (ms !== this.lastIso.ms) this.lastIso = { ms, text: isoWithOffset(ms) };
		return this.lastIso.text;
	}

	/** 32 hex: 8 reversible to the index, 24 of check digits. */
	credentialHash(index: number): string {
		const head = (Math.imul(index, HASH_MULTIPLIER) + this.hashOffset) >>> 0;
		return hex8(head) + this.hashCheck(index);
	}

	/** The credential index of a credential hash, or -1 when the hash is unknown. */
	indexOfCredentialHash(credentialHash: string): number {
		if (!/^[0-9a-f]{32}$/.test(credentialHash)) return -1;
		const head = parseInt(credentialHash.slice(0, 8), 16);
		const index = Math.imul((head - this.hashOffset) >>> 0, HASH_INVERSE) >>> 0;
		if (index >= this.size || credentialHash.slice(8) !== this.hashCheck(index)) return -1;
		if (this.withoutCredentialHash(index)) return -1;
		return index;
	}

	private withoutCredentialHash(index: number): boolean {
		return index >= this.generated && this.segmentOf(index)?.nullCredentialHash === true;
	}

	private hashCheck(index: number): string {
		const part = (k: number) => hex8(hash32(this.seed, index, SALT.hashCheck, k));
		return part(0) + part(1) + part(2);
	}

	urlCount(index: number): number {
		if ((index + 1) % 50 === 0) return URLS_OF_BIG_CREDENTIAL;
		return URL_COUNTS[hash32(this.seed, index, SALT.urlCount) % URL_COUNTS.length];
	}

	/** URL j of credential `index`: hosts rotate, paths advance once per host cycle (distinct up to 288). */
	urlAt(index: number, j: number): { url: string; host: string } {
		const hosts = words.AUTH_HOSTS;
		const paths = words.URL_PATHS;
		const host = hosts[(hash32(this.seed, index, SALT.urlHost) + j) % hosts.length];
		const path =
			paths[(hash32(this.seed, index, SALT.urlPath) + Math.floor(j / hosts.length)) % paths.length];
		return { url: `https://${host}/${path}`, host };
	}

	/** Distinct hosts of the credential's URLs, in order of first use. */
	authHosts(index: number): string[] {
		const count = Math.min(this.urlCount(index), words.AUTH_HOSTS.length);
		return Array.from({ length: count }, (_, j) => this.urlAt(index, j).host);
	}

	// ---- records ----

	/** The credential record at `index`, with the optional fields that `include` asks for. */
	credential(index: number, include: readonly IncludeOption[] = []): CredentialRecord {
		const password = this.passwordList[this.passwordOf(index)];
		const source = this.globalSources[this.sourceOf(index)];
		const record: CredentialRecord = {
			id: index + 1,
			identity_name: this.identityOf(index),
			domain: this.domainOf(index),
			hash: password.hash,
			hash_type: password.hashType,
			imported_at: this.importedAtIso(index),
			source_id: source.id,
			source,
			credential_hash: this.credentialHash(index),
		};
		// Added credentials may break Flare's documented shape on purpose (hostile data).
		const hostile = record as unknown as { id: number | null; credential_hash: string | null };
		hostile.id = this.idOf(index);
		if (this.withoutCredentialHash(index)) hostile.credential_hash = null;
		if (include.includes('known_password_id')) {
			record.known_password_id =
				password.hashType === null ? `kp_${1000 + this.passwordOf(index)}` : null;
		}
		if (include.includes('auth_domains'))
			record.auth_domains = this.authHosts(index).slice(0, MAX_LISTED);
		if (include.includes('urls')) {
			const count = Math.min(this.urlCount(index), MAX_LISTED);
			record.urls = Array.from({ length: count }, (_, j) => this.urlAt(index, j).url);
		}
		return record;
	}

	/** The legacy lookups' entry; its `id` is index + 1 even for credentials added without an id. */
	passwordEntry(index: number): PasswordEntry {
		const password = this.passwordList[this.passwordOf(index)];
		const source = this.legacySources[this.sourceOf(index)];
		const entry: PasswordEntry = {
			id: index + 1,
			credential_hash: this.credentialHash(index),
			domain: this.domainOf(index),
			extra: {},
			hash: password.hash,
			hash_type: password.hashType ?? 'unknown',
			imported_at: this.importedAtIso(index),
			source,
			source_id: source.id,
			source_params: null,
		};
		if (this.withoutCredentialHash(index))
			(entry as unknown as { credential_hash: string | null }).credential_hash = null;
		return entry;
	}

	urlRecord(index: number, j: number): CredentialUrlRecord {
		const { url, host } = this.urlAt(index, j);
		return { url, domain: host, credential_hash: this.credentialHash(index) };
	}

	// ---- queries ----

	/**
	 * Index range [lo, hi) of credentials imported within the inclusive bounds; exact only while
	 * credentials were added in time order (the global search itself uses {@link searchPage}).
	 */
	importedRange(gte?: string | null, lte?: string | null): { lo: number; hi: number } {
		const size = this.size;
		const lo = gte ? lowerBound(size, (i) => this.importedAtMs(i) >= dateTimeToMs(gte)) : 0;
		const hi = lte ? lowerBound(size, (i) => this.importedAtMs(i) > dateTimeToMs(lte)) : size;
		return { lo, hi: Math.max(lo, hi) };
	}

	/** Candidates of identities `username(u)@domain(d)` for the given username and domain indices. */
	private identityMatcher(
		users: number[] | 'all',
		domains: number[],
		test?: (index: number) => boolean,
	): Matcher {
		const d = this.domainList.length;
		if (domains.length === 0 || users.length === 0) return NOTHING;
		if (users !== 'all' && users.length === this.userCount) users = 'all';
		if (users === 'all')
			return { period: d, residues: domains.slice().sort((a, b) => a - b), test };
		if (users.length * domains.length <= EXPLICIT_RESIDUES_MAX) {
			const residues = users.flatMap((u) => domains.map((k) => u * d + k)).sort((a, b) => a - b);
			return { period: this.userCount * d, residues, test };
		}
		const userOk = new Uint8Array(this.userCount);
		for (const u of users) userOk[u] = 1;
		const domainOk = new Uint8Array(d);
		for (const k of domains) domainOk[k] = 1;
		return {
			period: 1,
			residues: [0],
			test: (i) => domainOk[i % d] === 1 && userOk[this.userOf(i)] === 1 && (!test || test(i)),
		};
	}

	private domainsWhere(predicate: (domain: string) => boolean): number[] {
		return this.domainList.flatMap((domain, k) => (predicate(domain) ? [k] : []));
	}

	private allDomains(): number[] {
		return this.domainList.map((_, k) => k);
	}

	private usersWhere(predicate: (name: string) => boolean): number[] {
		const users: number[] = [];
		for (let u = 0; u < this.userCount; u++) if (predicate(this.username(u))) users.push(u);
		return users;
	}

	/** Candidates for an exact identity name (`user@domain`, case-insensitive). */
	private emailMatcher(email: string): Matcher {
		const at = email.lastIndexOf('@');
		const u = this.usernameIndex(email.slice(0, at).toLowerCase());
		if (at === -1 || u === -1) return NOTHING;
		const domain = email.slice(at + 1).toLowerCase();
		return this.identityMatcher(
			[u],
			this.domainsWhere((candidate) => candidate === domain),
		);
	}

	/** Candidates for a global-search query. */
	searchMatcher(query: CredentialQuery): Matcher {
		const matcher = this.formulaMatcher(query);
		return { ...matcher, recordTest: this.queryTest(query, matcher) };
	}

	/** Whether credential `index` answers `query`, read from its fields. */
	private queryTest(query: CredentialQuery, formula: Matcher): (index: number) => boolean {
		switch (query.type) {
			case 'domain': {
				const fqdn = query.fqdn.toLowerCase();
				return (i) => this.domainOf(i) === fqdn;
			}
			case 'email': {
				const email = query.email.toLowerCase();
				return (i) => this.identityOf(i).toLowerCase() === email;
			}
			case 'keyword': {
				const keyword = query.keyword.toLowerCase();
				return (i) => this.usernameOf(i).toLowerCase() === keyword;
			}
			default:
				// Passwords and URLs are never chosen: the formulas hold for every credential.
				return (i) => inMatcher(formula, i);
		}
	}

	private formulaMatcher(query: CredentialQuery): Matcher {
		switch (query.type) {
			case 'domain': {
				const fqdn = query.fqdn.toLowerCase();
				return this.identityMatcher(
					'all',
					this.domainsWhere((domain) => domain === fqdn),
				);
			}
			case 'email':
				return this.emailMatcher(query.email);
			case 'keyword': {
				const u = this.usernameIndex(query.keyword.toLowerCase());
				return u === -1 ? NOTHING : this.identityMatcher([u], this.allDomains());
			}
			case 'secret': {
				const p = this.passwordIndex.get(query.secret);
				if (p === undefined) return NOTHING;
				return { period: 1, residues: [0], test: (i) => this.passwordOf(i) === p };
			}
			case 'auth_domain': {
				const hosts = words.AUTH_HOSTS;
				const h = hosts.indexOf(query.fqdn.toLowerCase());
				if (h === -1) return NOTHING;
				const test = (i: number) => {
					const count = this.urlCount(i);
					const offset =
						(h - (hash32(this.seed, i, SALT.urlHost) % hosts.length) + hosts.length) % hosts.length;
					return offset < count;
				};
				return { period: 1, residues: [0], test };
			}
		}
	}

	/**
	 * Candidates for the leaked-identity lookup by password (exact). Every leaked password is stored
	 * planted; a lookup of a bare password (`hunter2`, as a user types it in the example workflow)
	 * finds the records of its planted form, which the leaked-value scan still recognises.
	 */
	passwordMatcher(password: string): Matcher {
		const secret = password.includes(PLANTED_MARKER) ? password : planted(password);
		return this.searchMatcher({ type: 'secret', secret });
	}

	/**
	 * Candidates for the leaked-identity lookup by keyword (already validated): `abc*` = identity name prefix,
	 * `*acme.com` = suffix, no wildcard = identity name or username equals. Case-insensitive.
	 */
	keywordMatcher(keyword: string): Matcher {
		const lower = keyword.toLowerCase();
		const identity = (i: number) => this.identityOf(i).toLowerCase();
		let recordTest = (i: number) => this.usernameOf(i).toLowerCase() === lower;
		if (lower.endsWith('*')) recordTest = (i) => identity(i).startsWith(lower.slice(0, -1));
		else if (lower.startsWith('*')) recordTest = (i) => identity(i).endsWith(lower.slice(1));
		else if (lower.includes('@')) recordTest = (i) => identity(i) === lower;
		return { ...this.keywordFormula(lower), recordTest };
	}

	private keywordFormula(lower: string): Matcher {
		if (lower.endsWith('*')) {
			const prefix = lower.slice(0, -1);
			const at = prefix.indexOf('@');
			if (at === -1)
				return this.identityMatcher(
					this.usersWhere((name) => name.startsWith(prefix)),
					this.allDomains(),
				);
			const u = this.usernameIndex(prefix.slice(0, at));
			const rest = prefix.slice(at + 1);
			return u === -1
				? NOTHING
				: this.identityMatcher(
						[u],
						this.domainsWhere((domain) => domain.startsWith(rest)),
					);
		}
		if (lower.startsWith('*')) {
			const suffix = lower.slice(1);
			const at = suffix.indexOf('@');
			if (at === -1)
				return this.identityMatcher(
					'all',
					this.domainsWhere((domain) => domain.endsWith(suffix)),
				);
			const userEnd = suffix.slice(0, at);
			const rest = suffix.slice(at + 1);
			return this.identityMatcher(
				this.usersWhere((name) => name.endsWith(userEnd)),
				this.domainsWhere((domain) => domain === rest),
			);
		}
		if (lower.includes('@')) return this.emailMatcher(lower);
		const u = this.usernameIndex(lower);
		return u === -1 ? NOTHING : this.identityMatcher([u], this.allDomains());
	}

	/**
	 * One page of an identity lookup: the next `size` matching credentials with id > `fromId`, ascending,
	 * grouped by identity name, groups ordered by their largest id. Never empty while matches remain.
	 */
	identityPage(matcher: Matcher, fromId: number, size: number): IdentityRecord[] {
		return this.identityGroups(this.lookupPage(matcher, fromId, size));
	}

	/**
	 * The next `size` matching indices from `start` on, ascending; a scan stopped by the cap ends the page
	 * once it found something. Credentials added with a chosen domain or username are tested one by one.
	 */
	private lookupPage(matcher: Matcher, start: number, size: number): number[] {
		const found: number[] = [];
		for (const block of this.blocks()) {
			if (block.hi <= start) continue;
			const blockMatcher = this.blockMatcher(block, matcher);
			let from: number | null = Math.max(start, block.lo);
			while (from !== null && found.length < size) {
				const result = scan(blockMatcher, block, from, 1, size - found.length, SCAN_CAP);
				found.push(...result.found);
				from = result.resume;
				if (from !== null && found.length > 0) return found;
			}
			if (found.length === size) return found;
		}
		return found;
	}

	private identityGroups(found: number[]): IdentityRecord[] {
		const groups = new Map<string, PasswordEntry[]>();
		for (const index of found) {
			const name = this.identityOf(index);
			const entries = groups.get(name) ?? [];
			if (entries.length === 0) groups.set(name, entries);
			entries.push(this.passwordEntry(index));
		}
		return [...groups.entries()]
			.sort(([, a], [, b]) => a[a.length - 1].id - b[b.length - 1].id)
			.map(([name, passwords]) => ({ name, links: {}, passwords }));
	}

	// ---- the global search: sort order, search_after pages ----

	/** The sort key of credential `index` under the dataset's order (see search-after.ts). */
	sortKey(index: number): SortKey {
		const primary =
			this.searchOrder === 'importedAt'
				? this.importedAtMs(index)
				: this.reversed(this.domainOf(index));
		return this.keyWith(primary, index);
	}

	/** Whether `value` is a sort key of the dataset's order (a cursor's `p`). */
	isSortKey(value: unknown): value is SortKey {
		return isSortKey(value, this.searchOrder === 'importedAt' ? 'number' : 'string');
	}

	/**
	 * One page of the global search: the records that sort after `cursor.p` now (from the start without
	 * a cursor), with the paging quirks, and the next cursor's position and page number (null: the end).
	 */
	searchPage(
		body: GlobalSearchBody,
		cursor: { p: SortKey | null; n: number } | undefined,
		paging: { quirks: Quirks; endCursor: EndCursor; cap: number },
	): { items: number[]; next: { p: SortKey | null; n: number } | null } {
		const after = cursor?.p ?? null;
		const pageNumber = cursor?.n ?? 1;
		const dir = body.order === 'asc' ? 1 : -1;
		const walk = walkAfter(this.searchRuns(body), after, dir, body.size + 1, paging.cap);
		const page = shapeAfterPage(
			{ after, pageNumber, ...walk, size: body.size, keyOf: (index) => this.sortKey(index) },
			paging.quirks,
			paging.endCursor,
		);
		return { items: page.positions, next: page.next };
	}

	/**
	 * The runs of a global search under the dataset's order: per block (the generated credentials, each
	 * added segment) within the imported_at bounds, and per domain under `domainThenId`.
	 */
	private searchRuns(body: GlobalSearchBody): Run[] {
		const matcher = this.searchMatcher(body.query);
		const bounds = body.filters?.imported_at;
		const gte = bounds?.gte ? dateTimeToMs(bounds.gte) : -Infinity;
		const lte = bounds?.lte ? dateTimeToMs(bounds.lte) : Infinity;
		const runs: Run[] = [];
		for (const block of this.blocks()) {
			let { lo, hi } = block;
			if (block.segment) {
				if (block.segment.ms < gte || block.segment.ms > lte) continue;
			} else {
				lo = lowerBound(hi, (i) => this.importedAtMs(i) >= gte);
				hi = Math.max(
					lo,
					lowerBound(hi, (i) => this.importedAtMs(i) > lte),
				);
			}
			const candidates = this.blockMatcher(block, matcher);
			if (lo >= hi || candidates.residues.length === 0) continue;
			if (this.searchOrder === 'importedAt') {
				runs.push({ lo, hi, matcher: candidates, keyAt: (i) => this.sortKey(i) });
				continue;
			}
			const domains = block.segment?.domain
				? [{ domain: block.segment.domain, matcher: candidates }]
				: this.domainList.map((domain, k) => ({
						domain,
						matcher: onlyResidue(candidates, this.domainList.length, k),
					}));
			for (const { domain, matcher: ofDomain } of domains) {
				if (ofDomain.residues.length === 0) continue;
				const primary = this.reversed(domain);
				runs.push({ lo, hi, matcher: ofDomain, keyAt: (i) => this.keyWith(primary, i) });
			}
		}
		return runs;
	}

	private keyWith(primary: number | string, index: number): SortKey {
		const id = this.idOf(index);
		return id === null ? [primary, null, index] : [primary, id];
	}

	private reversed(domain: string): string {
		let value = this.reversedDomains.get(domain);
		if (value === undefined) {
			value = reversedDomain(domain);
			this.reversedDomains.set(domain, value);
		}
		return value;
	}

	/** The generated credentials, then each added segment, in index order. */
	private blocks(): Block[] {
		return [
			{ lo: 0, hi: this.generated },
			...this.appended.map((segment) => ({
				lo: segment.start,
				hi: segment.start + segment.count,
				segment,
			})),
		];
	}

	/**
	 * `scan` (scan.ts) block by block (the generated credentials, then each added segment): credentials
	 * added with a chosen domain or username are matched by their own fields (`matcher.recordTest`), as
	 * the searches match them. The cap applies to each block.
	 */
	scanBlocks(
		matcher: Matcher,
		range: { lo: number; hi: number },
		start: number,
		dir: 1 | -1,
		limit: number,
		cap: number,
	): ScanResult {
		const found: number[] = [];
		const blocks = dir === 1 ? this.blocks() : this.blocks().reverse();
		for (const block of blocks) {
			const lo = Math.max(block.lo, range.lo);
			const hi = Math.min(block.hi, range.hi);
			if (lo >= hi || (dir === 1 ? hi <= start : lo > start)) continue;
			// With `limit` reached, a scan still gives where the next match is (its resume).
			const result = scan(this.blockMatcher(block, matcher), { lo, hi }, start, dir, limit - found.length, cap);
			found.push(...result.found);
			if (result.resume !== null) return { found, resume: result.resume };
		}
		return { found, resume: null };
	}

	/** The matcher within a block: the formulas, or the record's fields where a field was chosen. */
	private blockMatcher(block: Block, matcher: Matcher): Matcher {
		const chosen = block.segment?.domain !== undefined || block.segment?.username !== undefined;
		if (!chosen) return matcher;
		return matcher.recordTest ? { period: 1, residues: [0], test: matcher.recordTest } : NOTHING;
	}

	// ---- oracle: complete answers, no paging ----

	/**
	 * Every record the global search returns for `body`, in order, with its includes; with `after` (a
	 * cursor's sort key), those a walk resumed from it finds now.
	 */
	searchAll(
		body: GlobalSearchBodyInput | GlobalSearchBody,
		after: SortKey | null = null,
	): CredentialRecord[] {
		const parsed = GlobalSearchBodySchema.parse({ ...body, from: undefined });
		const dir = parsed.order === 'asc' ? 1 : -1;
		const { found } = walkAfter(this.searchRuns(parsed), after, dir, Infinity, Infinity);
		return found.map((index) => this.credential(index, parsed.include));
	}

	/** Every identity record a walk of the by-password lookup returns with page `size`. */
	identitiesByPassword(password: string, size = 100): IdentityRecord[] {
		return this.walkIdentities(this.passwordMatcher(password), size);
	}

	/** Every identity record a walk of the by-keyword lookup returns with page `size`. */
	identitiesByKeyword(keyword: string, size = 100): IdentityRecord[] {
		return this.walkIdentities(this.keywordMatcher(keyword), size);
	}

	private walkIdentities(matcher: Matcher, size: number): IdentityRecord[] {
		const all: IdentityRecord[] = [];
		let from = 0;
		for (;;) {
			const page = this.identityPage(matcher, from, size);
			if (page.length === 0) return all;
			all.push(...page);
			from = Math.max(...page[page.length - 1].passwords.map((entry) => entry.id));
		}
	}

	/** Every URL record of a credential hash (empty for an unknown hash). */
	urlsFor(credentialHash: string): CredentialUrlRecord[] {
		const index = this.indexOfCredentialHash(credentialHash);
		if (index === -1) return [];
		return Array.from({ length: this.urlCount(index) }, (_, j) => this.urlRecord(index, j));
	}

	source(id: string): LegacySource | undefined {
		return this.legacySources.find((source) => source.id === id);
	}

	sources(): LegacySource[] {
		return this.legacySources.slice();
	}

	globalSource(id: string): GlobalSource | undefined {
		return this.globalSources.find((source) => source.id === id);
	}

	/** Identifier ids that exist (not deleted). */
	identifierIds(): number[] {
		return this.identifierList.filter((id) => !this.deletedIdentifiers.has(id));
	}

	identifierExists(id: number): boolean {
		return this.identifierList.includes(id) && !this.deletedIdentifiers.has(id);
	}

	/**
	 * The identifier record of `id` (PublicIdentifierResponse), as tenant `tenantId` sees it: kinds
	 * rotate (domain, keyword, identity, IP, card BIN; {@link SECRET_IDENTIFIER_ID} watches a secret),
	 * names are what a user would type.
	 */
	identifier(id: number, tenantId: number): PublicIdentifier {
		const stored = this.storedIdentifiers.get(id);
		if (stored) return { ...structuredClone(stored), tenant_id: tenantId };
		let generated = this.generatedIdentifiers.get(id);
		if (!generated) {
			generated = this.generateIdentifier(id);
			this.generatedIdentifiers.set(id, generated);
		}
		return { ...structuredClone(generated), tenant_id: tenantId };
	}

	/** Identifiers as generated, by id: each is made once (its fields are hashes of the seed). */
	private readonly generatedIdentifiers = new Map<number, PublicIdentifier>();

	private generateIdentifier(id: number, tenantId = 0): PublicIdentifier {
		const k = id - 7001;
		const h = (salt: number) => hash32(this.seed, k, SALT.identifier, salt);
		const domain = this.domainList[k % this.domainList.length];
		let data: IdentifierData;
		let name: string;
		switch (k % 5) {
			case 0: {
				const sub = Math.floor(k / 5);
				const fqdn =
					sub === 0
						? domain
						: `${words.SUBDOMAINS[sub % words.SUBDOMAINS.length]}${sub > words.SUBDOMAINS.length ? sub : ''}.${domain}`;
				data = { type: 'domain', fqdn };
				name = fqdn;
				break;
			}
			case 1: {
				const keyword = words.POLICY_KEYWORDS[h(1) % words.POLICY_KEYWORDS.length];
				data = { type: 'keyword', keyword };
				name = `${keyword[0].toUpperCase()}${keyword.slice(1)} mentions`;
				break;
			}
			case 2: {
				const first = this.firstNames[h(2) % this.firstNames.length];
				const last = this.lastNames[h(3) % this.lastNames.length];
				data = {
					type: 'identity',
					attributes: [{ type: 'email', email: `${first}.${last}@${domain}` }],
				};
				name = `${first[0].toUpperCase()}${first.slice(1)} ${last[0].toUpperCase()}${last.slice(1)}`;
				break;
			}
			case 3: {
				const ip = `203.0.113.${(k % 254) + 1}`;
				data = { type: 'ip', ip };
				name = `Office IP ${ip}`;
				break;
			}
			default: {
				if (id === SECRET_IDENTIFIER_ID) {
					data = { type: 'secret', secret: plantedSecret('sk_live_', `identifier-${this.seed}`) };
					name = 'Payments API key';
					break;
				}
				const bin = String(400000 + (h(4) % 100000));
				data = { type: 'bin', bin };
				name = `Card BIN ${bin}`;
			}
		}
		const updated = Date.UTC(2025, h(5) % 12, 1 + (h(6) % 28), h(7) % 24, h(8) % 60);
		return {
			id,
			name,
			tenant_id: tenantId,
			data,
			categories: IDENTIFIER_CATEGORIES.filter(
				(_, c) => ((h(9) >>> c) & 1) === 1 || c === k % IDENTIFIER_CATEGORIES.length,
			),
			emerging_categories: [],
			severities: ['medium', 'high', 'critical'].slice(h(10) % 3),
			group_id: k % 4 === 0 ? null : 100 + (k % 3),
			enrichments:
				data.type === 'domain'
					? {
							domain_reachable_at: isoWithOffset(updated),
							domain_resolves_at: isoWithOffset(updated),
							usage_count: h(11) % 500,
							event_count: h(12) % 5000,
							authorization_status: 'authorized',
						}
					: null,
			is_disabled: k % 9 === 8,
			updated_at: isoWithOffset(updated),
		};
	}

	/**
	 * The identifiers List Identifiers returns (deleted ones left out), in the order asked for: by id,
	 * by name (case-insensitive, then id) or by type (then id).
	 */
	identifiers(tenantId: number, orderBy: 'id' | 'name' | 'type' = 'id'): PublicIdentifier[] {
		const records = this.identifierIds().map((id) => this.identifier(id, tenantId));
		const key = (record: PublicIdentifier) =>
			orderBy === 'name' ? record.name.toLowerCase() : orderBy === 'type' ? record.data.type : '';
		return records.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.id - b.id));
	}

	/** Stores an identifier created or updated through the API; a new id joins the list. */
	storeIdentifier(record: PublicIdentifier): void {
		if (!this.identifierList.includes(record.id)) {
			this.identifierList.push(record.id);
			this.assignments.set(record.id, []);
		}
		this.storedIdentifiers.set(record.id, structuredClone(record));
	}

	/** The id the next created identifier gets. */
	nextIdentifierId(): number {
		return Math.max(...this.identifierList) + 1;
	}

	policies(): MatchingPolicy[] {
		return this.policyList.slice();
	}

	policy(uuid: string): MatchingPolicy | undefined {
		return this.policyList.find((policy) => policy.uuid === uuid.toLowerCase());
	}

	/** Stores a policy created or updated through the API; a new uuid joins the list. */
	storePolicy(policy: MatchingPolicy): void {
		const at = this.policyList.findIndex((entry) => entry.uuid === policy.uuid);
		if (at === -1) this.policyList.push(structuredClone(policy));
		else this.policyList[at] = structuredClone(policy);
	}

	/** Deletes a policy and its assignments. */
	deletePolicy(uuid: string): void {
		const at = this.policyList.findIndex((entry) => entry.uuid === uuid);
		if (at !== -1) this.policyList.splice(at, 1);
		for (const list of this.assignments.values()) {
			const k = list.findIndex((stored) => stored.policyUuid === uuid);
			if (k !== -1) list.splice(k, 1);
		}
	}

	/**
	 * The identifiers a policy is assigned to, as List Policy Assignments returns them (by
	 * identifier id; deleted identifiers left out).
	 */
	policyAssignments(uuid: string, tenantId: number): PolicyAssignedIdentifier[] {
		return this.identifierIds().flatMap((id) =>
			(this.assignments.get(id) ?? [])
				.filter((stored) => stored.policyUuid === uuid)
				.map((stored) => ({
					identifier_id: id,
					identifier_name: this.identifier(id, tenantId).name,
					clean_past_events: stored.clean_past_events,
					assigned_at: stored.assigned_at,
				})),
		);
	}

	/** The identifier groups, as tenant `tenantId` sees them, by id. */
	identifierGroups(tenantId: number): IdentifierGroup[] {
		return [...this.groupList.values()].map((group) => ({ ...group, tenant_id: tenantId }));
	}

	identifierGroup(id: number, tenantId: number): IdentifierGroup | undefined {
		const group = this.groupList.get(id);
		return group && { ...group, tenant_id: tenantId };
	}

	/** Creates a group (the next id) and returns it. */
	addIdentifierGroup(name: string, tenantId: number): IdentifierGroup {
		const id = Math.max(...this.groupList.keys()) + 1;
		this.groupList.set(id, groupRecord(id, name, tenantId));
		return this.identifierGroup(id, tenantId)!;
	}

	/** Renames a group. */
	renameIdentifierGroup(id: number, name: string): void {
		const group = this.groupList.get(id);
		if (group) this.groupList.set(id, { ...group, name });
	}

	/** Deletes a group; its identifiers keep their `group_id` (Flare documents nothing else). */
	deleteIdentifierGroup(id: number): void {
		this.groupList.delete(id);
	}

	/** Ids of the identifiers of a group. */
	groupIdentifierIds(groupId: number, tenantId: number): number[] {
		return this.identifierIds().filter((id) => this.identifier(id, tenantId).group_id === groupId);
	}

	/** Current assignments of an identifier, as the API lists them. */
	assignmentsFor(identifierId: number): MatchingPolicyAssignment[] {
		return (this.assignments.get(identifierId) ?? []).map((stored) => ({
			matching_policy: this.policy(stored.policyUuid) as MatchingPolicy,
			assigned_at: stored.assigned_at,
			clean_past_events: stored.clean_past_events,
		}));
	}

	event(uid: string): BlogPostEvent | undefined {
		return this.eventList.find((event) => event.metadata.uid === uid);
	}

	events(): BlogPostEvent[] {
		return this.eventList.slice();
	}

	passwords(): string[] {
		return this.passwordList.map((value) => value.hash);
	}

	/**
	 * Every planted value this dataset serves (planted.ts): the credentials' passwords, the blog posts'
	 * and the secrets of the `secret` identifiers (those created through the API included).
	 */
	plantedValues(): string[] {
		const secrets = this.identifierIds().flatMap((id) => {
			const { data } = this.identifier(id, 0);
			return data.type === 'secret' ? [data.secret] : [];
		});
		const samples = words.SOURCES.map(([id]) => sourceSample(id));
		return [...this.passwords(), ...this.eventPasswords, ...secrets, ...samples];
	}

	/** All usernames (the part before `@`). */
	usernames(): string[] {
		return Array.from({ length: this.userCount }, (_, u) => this.username(u));
	}

	domains(): string[] {
		return this.domainList.slice();
	}

	/**
	 * Appends `count` credentials imported at `importedAtMs` (any time, past or future), after every
	 * other: they take the next indices (and ids). Returns the index of the first one.
	 */
	append(count: number, importedAtMs: number, options: AddedCredentialOptions = {}): number {
		const start = this.size;
		if (!Number.isInteger(count) || count < 0)
			throw new Error(`FakeFlare.addCredentials: ${count} is not a count`);
		if (!Number.isFinite(importedAtMs))
			throw new Error(`FakeFlare.addCredentials: invalid imported_at ${importedAtMs}`);
		const { domain, username } = options;
		if (domain !== undefined && !/^[^\s@]+$/.test(domain))
			throw new Error(`FakeFlare.addCredentials: invalid domain ${domain}`);
		if (username !== undefined && !/^[^\s@]+$/.test(username))
			throw new Error(`FakeFlare.addCredentials: invalid username ${username}`);
		if (count === 0) return start;
		this.appended.push({
			...options,
			domain: domain?.toLowerCase(),
			start,
			count,
			ms: importedAtMs,
		});
		return start;
	}
}

/** Whether `index` is a candidate of `matcher` that passes its test. */
function inMatcher(matcher: Matcher, index: number): boolean {
	const { period, residues, test } = matcher;
	const residue = index % period;
	const k = lowerBound(residues.length, (j) => residues[j] >= residue);
	return residues[k] === residue && (!test || test(index));
}

/** The candidates of `matcher` whose index is `residue` modulo `period`. */
function onlyResidue(matcher: Matcher, period: number, residue: number): Matcher {
	const { residues, test } = matcher;
	if (residues.length === 0) return NOTHING;
	if (matcher.period % period === 0)
		return {
			period: matcher.period,
			residues: residues.filter((r) => r % period === residue),
			test,
		};
	if (period % matcher.period === 0) {
		return residues.includes(residue % matcher.period)
			? { period, residues: [residue], test }
			: NOTHING;
	}
	return { period, residues: [residue], test: (i) => inMatcher(matcher, i) };
}

// ---- seeded builders ----

/** The seeded identifier of type `secret` (in place of a card BIN): it watches a planted secret. */
export const SECRET_IDENTIFIER_ID = 7025;

/** Categories (SearchType values) an identifier may watch. */
const IDENTIFIER_CATEGORIES = [
	'leak',
	'stealer_log',
	'forum_post',
	'paste',
	'blog_post',
	'listing',
];

function buildPasswords(next: () => number): PasswordValue[] {
	const plain = new Set<string>([...words.COMMON_PASSWORDS, ...words.AWKWARD_PASSWORDS]);
	const capitalise = (word: string) => word[0].toUpperCase() + word.slice(1);
	while (plain.size < 190) {
		const word = words.PASSWORD_WORDS[next() % words.PASSWORD_WORDS.length];
		const suffix = words.PASSWORD_SUFFIXES[next() % words.PASSWORD_SUFFIXES.length];
		plain.add((next() % 2 === 0 ? word : capitalise(word)) + suffix);
	}
	const list: PasswordValue[] = [...plain].map((hash) => ({ hash, hashType: null }));
	const digest = (algorithm: string, k: number) =>
		createHash(algorithm).update(`fake-flare-${next()}-${k}`).digest('hex');
	for (let k = 0; k < 4; k++) list.push({ hash: digest('md5', k), hashType: 'md5' });
	for (let k = 0; k < 3; k++) list.push({ hash: digest('sha1', k), hashType: 'sha1' });
	for (let k = 0; k < 3; k++) {
		list.push({ hash: `$2y$10$${digest('sha256', k).slice(0, 53)}`, hashType: 'bcrypt' });
	}
	// Every leaked value is planted (planted.ts), so that a scan finds any that an output shows.
	return list.map((value) => ({ ...value, hash: planted(value.hash) }));
}

function dateOrNull(next: () => number, fromYear: number): string | null {
	if (next() % 5 === 0) return null;
	const ms = Date.UTC(
		fromYear + (next() % 12),
		next() % 12,
		1 + (next() % 28),
		next() % 24,
		next() % 60,
	);
	return isoWithOffset(ms);
}

/** The planted password that the description of source `id` (Source → Get) quotes. */
function sourceSample(id: string): string {
	return plantedSecret('', `source-${id}`);
}

function buildSources(next: () => number): [GlobalSource[], LegacySource[]] {
	const globals: GlobalSource[] = [];
	const legacies: LegacySource[] = [];
	for (const [id, name] of words.SOURCES) {
		const breached = dateOrNull(next, 2008);
		const leaked = dateOrNull(next, 2012);
		const alerts = next() % 4 !== 0;
		const hashType = ['plaintext', 'unknown', 'md5', 'sha1', 'bcrypt'][next() % 5];
		globals.push({
			id,
			name,
			description_en: `Credentials leaked in ${name}.`,
			description_fr: `Identifiants divulgués dans ${name}.`,
			breached_at: breached,
			leaked_at: leaked,
			is_alert_enabled: alerts,
		});
		legacies.push({
			id,
			name,
			// Flare's description of a leak may quote its sample (planted.ts).
			description: `Credentials leaked in ${name}. Sample published with it: admin@${id.replace(/[^a-z0-9]+/g, '')}.example:${sourceSample(id)}`,
			description_fr: `Identifiants divulgués dans ${name}.`,
			hash_description: `Passwords stored as ${hashType}.`,
			hash_type: hashType,
			breached_at: breached,
			leaked_at: leaked,
			is_alerts_enabled: alerts,
			related_urls: next() % 2 === 0 ? [`https://news.example.org/leaks/${id}`] : [],
			url: next() % 3 === 0 ? null : `https://leaks.example.org/${id}`,
		});
	}
	return [globals, legacies];
}

/** An identifier group record (v2 `IdentifierGroup`); its feed ids follow from its id. */
function groupRecord(id: number, name: string, tenantId: number): IdentifierGroup {
	return {
		id,
		tenant_id: tenantId,
		feed_id: 50_000 + id,
		feed_owner_id: 60_000 + id,
		name,
		urn: `urn:flare:identifier_group:${id}`,
	};
}

function buildPolicies(next: () => number): MatchingPolicy[] {
	return words.POLICY_NAMES.map((name) => {
		const created = Date.UTC(2025, next() % 6, 1 + (next() % 28), next() % 24);
		const keywords = shuffled(words.POLICY_KEYWORDS, next).slice(0, 2 + (next() % 3));
		return {
			uuid: seededUuid(next),
			name,
			policy_type: name.startsWith('Exclude') ? 'EXCLUDED_KEYWORDS' : 'INCLUDED_KEYWORDS',
			value: { keywords },
			created_at: isoWithOffset(created),
			last_updated_at: isoWithOffset(created + (next() % 90) * 86_400_000),
		};
	});
}

function initialAssignments(next: () => number, policies: MatchingPolicy[]): StoredAssignment[] {
	const count = next() % 4;
	return shuffled(policies, next)
		.slice(0, count)
		.map((policy) => ({
			policyUuid: policy.uuid,
			assigned_at: isoWithOffset(
				Date.UTC(2025, 6 + (next() % 5), 1 + (next() % 28), next() % 24, next() % 60),
			),
			clean_past_events: next() % 2 === 0,
		}));
}

function buildEvents(next: () => number, quoted: string[]): BlogPostEvent[] {
	const events: BlogPostEvent[] = [];
	for (let k = 0; k < 25; k++) {
		const source = words.EVENT_SOURCES[k % words.EVENT_SOURCES.length];
		const id =
			k < words.AWKWARD_EVENT_IDS.length
				? words.AWKWARD_EVENT_IDS[k]
				: String(4200 + k * 7 + (next() % 7));
		const uid = `blog_post/${source}/${id}`;
		const created = Date.UTC(
			2025,
			next() % 12,
			1 + (next() % 28),
			next() % 24,
			next() % 60,
			next() % 60,
		);
		const slug = `${source.replace(/[^a-z]+/g, '-')}-post-${k + 1}`;
		// Every third post quotes a leaked credential line, and every third a mirror with its login:
		// the password planted (planted.ts).
		const password = planted(words.COMMON_PASSWORDS[k % words.COMMON_PASSWORDS.length]);
		if (k % 3 !== 0) quoted.push(password);
		const host = `${source.replace(/[^a-z]+/g, '')}.example`;
		const sample =
			k % 3 === 1
				? ` Sample: admin@${host}:${password}`
				: k % 3 === 2
					? ` Mirror: ftp://backup:${password}@files.${host}/dump.sql`
					: '';
		events.push({
			event_type: 'blog_post',
			metadata: {
				estimated_created_at: isoNaive(created),
				platform_url: `https://app.flare.io/#/events/${encodeURIComponent(uid)}`,
				matched_at: next() % 3 === 0 ? null : isoWithOffset(created + 3_600_000),
				severity: words.SEVERITIES[next() % words.SEVERITIES.length],
				uid,
			},
			data: {
				url: `https://blog.${source.replace(/[^a-z]+/g, '')}.example/${slug}`,
				content: `Post ${k + 1} on ${source}: leaked data mentioning ${words.POLICY_KEYWORDS[next() % words.POLICY_KEYWORDS.length]}.${sample}`,
				description: `Blog post ${k + 1} from ${source}`,
				posted_at: isoNaive(created - (next() % 86_400) * 1000),
			},
		});
	}
	return events;
}

/** Source number k (from 0) beyond the default ones: listed by List Sources, never in credentials. */
function extraSource(next: () => number, k: number): [GlobalSource, LegacySource] {
	const id = `extra-source-${k + 1}`;
	const name = `${words.EXTRA_SOURCE_KINDS[next() % words.EXTRA_SOURCE_KINDS.length]} ${k + 1}`;
	const breached = dateOrNull(next, 2015);
	const leaked = dateOrNull(next, 2016);
	const alerts = next() % 4 !== 0;
	return [
		{
			id,
			name,
			description_en: `Credentials leaked in ${name}.`,
			description_fr: `Identifiants divulgués dans ${name}.`,
			breached_at: breached,
			leaked_at: leaked,
			is_alert_enabled: alerts,
		},
		{
			id,
			name,
			description: `Credentials leaked in ${name}.`,
			description_fr: `Identifiants divulgués dans ${name}.`,
			hash_description: 'Passwords stored as plaintext.',
			hash_type: 'plaintext',
			breached_at: breached,
			leaked_at: leaked,
			is_alerts_enabled: alerts,
			related_urls: [],
			url: null,
		},
	];
}

/** Policy number k (from 0) beyond the default ones. */
function extraPolicy(next: () => number, k: number): MatchingPolicy {
	const created = Date.UTC(2025, 6 + (next() % 5), 1 + (next() % 28), next() % 24);
	return {
		uuid: seededUuid(next),
		name: `Watchlist ${k + 1}`,
		policy_type: 'INCLUDED_KEYWORDS',
		value: { keywords: shuffled(words.POLICY_KEYWORDS, next).slice(0, 2 + (next() % 3)) },
		created_at: isoWithOffset(created),
		last_updated_at: isoWithOffset(created),
	};
}
