import { createHash } from 'crypto';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { CredentialRecord, IdentityRecord } from '../contract';
import { FakeFlare, type FakeFlareOptions, holdsPlanted, type LoggedRequest, PLANTED_MARKER } from '../fake-flare';
import { PLURAL_SECRET_NAMES, SECRET_NAME_SET } from '../fake-flare/secret-names';
import { Harness } from '../harness/engine';
import { fs, fsp, performance, processRef } from '../support/node';

/** Requests the node made to the API itself (the token exchange left out). */
export function apiRequests(fake: FakeFlare): LoggedRequest[] {
	return fake.requests.filter((request) => !request.path.startsWith('/tokens/'));
}

/**
 * The masking the README promises, written independently of the node's code: eight stars whatever
 * the length, with the first and last characters around them for 12 characters or more.
 */
export function masked(value: string): string {
	const characters = [...value];
	return characters.length < 12
		? '********'
		: `${characters[0]}********${characters[characters.length - 1]}`;
}

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** n8n's log of this jest worker (test/support/jest-env.js). */
const logFile = () => processRef.env.N8N_LOG_FILE_LOCATION!;

/** The size of n8n's log: where what comes next starts. */
export const logSize = () => (fs.existsSync(logFile()) ? fs.statSync(logFile()).size : 0);

/** n8n's log from `offset` on. */
export function logSince(offset: number): string {
	try {
		return fs.readFileSync(logFile(), 'utf8').slice(offset);
	} catch {
		return '';
	}
}

/**
 * n8n's log from `offset` on, once it holds `text` (n8n writes its log file a moment later, each line
 * in order: once a line is there, every line logged before it is too).
 */
export async function loggedSince(offset: number, text: string): Promise<string> {
	// Real time, not the virtual clock's (which jumps when nothing is under way): each look waits for
	// a real read of the file, so n8n's logger gets its turn between them.
	const until = performance.now() + 10_000;
	while (!logSince(offset).includes(text) && performance.now() < until) {
		await fsp.readFile(logFile()).catch(() => undefined);
	}
	const log = logSince(offset);
	expect(log).toContain(text);
	return log;
}

/**
 * What default output promises for data the fake served (docs/api-contract.md, "Masking"), written
 * from the fake's planted values (test/fake-flare/planted.ts) and the names it plants under
 * (test/fake-flare/secret-names.ts), not from the node's code: a value under one of those secret
 * names is {@link masked} whole (eight stars when it is not a string; null stays null), as is the
 * `value` beside such a `name`, and each string of a list named like secrets; a string that is a
 * planted value is {@link masked}; a planted value inside other text, as it is or percent-encoded,
 * becomes eight stars, also when a highlight's `<mark>` tags split it (they go with it).
 */
export function maskedView<T>(data: T, plantedValues: Iterable<string>): T {
	const values = new Set(plantedValues);
	const forms = new Set(
		[...values].flatMap((value) => {
			const encoded = encodeURIComponent(value);
			return [value, encoded, encoded.replace(/%20/g, '+')];
		}),
	);
	// Thousands of planted values: those in clear are found by their markers, the others (base64,
	// numbers) one by one, and only in a text that holds a planted form at all.
	const inClear = new RegExp(`${PLANTED_MARKER}~[^~]{0,256}~${PLANTED_MARKER}`, 'g');
	const others = [...forms].filter((form) => !form.startsWith(`${PLANTED_MARKER}~`)).sort((a, b) => b.length - a.length);
	const plantedIn = (text: string) => [
		...new Set([...text.matchAll(inClear)].map(([found]) => found).filter((found) => forms.has(found))),
		...others.filter((form) => text.includes(form)),
	];
	const splitByTags = new Map<string, RegExp>();
	const escape = (character: string) => character.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
	const whole = (value: unknown) => (value === null ? null : typeof value === 'string' ? masked(value) : '********');
	const visit = (value: unknown): unknown => {
		if (typeof value === 'string') {
			if (values.has(value)) return masked(value);
			if (value.includes('<mark>')) {
				const plain = value.replace(/<\/?mark>/g, '');
				if (!holdsPlanted(plain)) return value;
				return plantedIn(plain)
					.sort((a, b) => b.length - a.length)
					.map((planted) => {
						if (!splitByTags.has(planted)) splitByTags.set(planted, new RegExp([...planted].map(escape).join('(?:</?mark>)*'), 'g'));
						return splitByTags.get(planted)!;
					})
					.reduce((text, pattern) => text.replace(pattern, '********'), value);
			}
			if (!holdsPlanted(value)) return value;
			return plantedIn(value)
				.sort((a, b) => b.length - a.length)
				.reduce((text, planted) => text.split(planted).join('********'), value);
		}
		if (Array.isArray(value)) return value.map(visit);
		if (value !== null && typeof value === 'object') {
			const object = value as Record<string, unknown>;
			const pairsSecret = typeof object.name === 'string' && SECRET_NAME_SET.has(object.name);
			return Object.fromEntries(
				Object.entries(object).map(([key, entry]) => {
					if (SECRET_NAME_SET.has(key) || (key === 'value' && pairsSecret)) return [key, whole(entry)];
					if (PLURAL_SECRET_NAMES.includes(key)) {
						if (typeof entry === 'string') return [key, masked(entry)];
						if (Array.isArray(entry)) return [key, entry.map((inner) => (typeof inner === 'string' || typeof inner === 'number' ? whole(inner) : visit(inner)))];
					}
					return [key, visit(entry)];
				}),
			);
		}
		return value;
	};
	return visit(data) as T;
}

/** What Simplify promises for a credential (README), with the leaked value already transformed. */
export function simplifiedCredential(
	record: CredentialRecord,
	hash: string | undefined,
	remaining?: number,
): IDataObject {
	const item: IDataObject = {
		id: record.id,
		identity_name: record.identity_name,
		hash,
		hash_type: record.hash_type ?? null,
		imported_at: record.imported_at,
		source_id: record.source_id,
		source_name: record.source?.name ?? null,
		credential_hash: record.credential_hash ?? null,
	};
	if (hash === undefined) delete item.hash;
	if (record.auth_domains) item.auth_domains = record.auth_domains;
	if (remaining !== undefined) item.globalSearchesRemaining = remaining;
	return item;
}

/** What Simplify promises for identities: one flat item per leaked password. */
export function simplifiedIdentities(
	identities: IdentityRecord[],
	transform: (hash: string) => string = masked,
) {
	return identities.flatMap((identity) =>
		identity.passwords.map((password) => ({
			identity_name: identity.name,
			id: password.id,
			hash: transform(password.hash),
			hash_type: password.hash_type ?? null,
			domain: password.domain ?? null,
			imported_at: password.imported_at,
			source_id: password.source_id,
			source_name: password.source?.name ?? null,
			credential_hash: password.credential_hash ?? null,
		})),
	);
}

export const jsonOf = (items: INodeExecutionData[]) => items.map((item) => item.json);

/**
 * Starts the fake Flare API and the harness for a test file; before each test, the fake is reset to
 * `options` and the harness gets a credential with the full demo key.
 */
export function useFakeFlare(options: FakeFlareOptions = {}): {
	fake: FakeFlare;
	harness: Harness;
} {
	const context = {} as { fake: FakeFlare; harness: Harness };
	beforeAll(async () => {
		context.fake = await FakeFlare.start();
		context.harness = await Harness.create();
	});
	afterAll(async () => await context.fake.stop());
	beforeEach(() => {
		context.fake.reset(options);
		context.harness.addFlareCredential({
			apiKey: context.fake.apiKeys.full,
			baseUrl: context.fake.url,
		});
	});
	return context;
}

/**
 * The oracle of every event of a feed walk whoever acted on it, as the Flare Trigger's New Event reads
 * them (docs/trigger.md, "New Event"): Flare's feed leaves out the events marked ignored or remediated
 * unless asked, so the trigger also asks for those; in Flare's order within each of the four searches.
 */
export function everyEvent(fake: FakeFlare, tenantId: number, body: IDataObject, identifierId?: number) {
	const filters = (body.filters ?? {}) as IDataObject;
	return [{}, { is_ignored: true }, { is_remediated: true }, { is_ignored: true, is_remediated: true }].flatMap((partition) =>
		fake.feed.feedAll(tenantId, { ...body, filters: { ...filters, ...partition } }, identifierId),
	);
}

