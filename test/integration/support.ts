import { createHash } from 'crypto';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { CredentialRecord, IdentityRecord } from '../contract';
import { FakeFlare, type FakeFlareOptions, type LoggedRequest } from '../fake-flare';
import { Harness } from '../harness/engine';

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
	return characters.length < 12 ? '********' : `${characters[0]}********${characters[characters.length - 1]}`;
}

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/**
 * What default output promises for data the fake served (docs/api-contract.md, "Masking"), written
 * from the fake's planted values (test/fake-flare/planted.ts), not from the node's code: a string that
 * is a planted value is {@link masked}; a planted value inside other text becomes eight stars, also
 * when a highlight's `<mark>` tags split it (they go with it).
 */
export function maskedView<T>(data: T, plantedValues: Iterable<string>): T {
	const values = new Set(plantedValues);
	const longestFirst = [...values].sort((a, b) => b.length - a.length);
	let splitByTags: RegExp[] | undefined;
	const escape = (character: string) => character.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
	const visit = (value: unknown): unknown => {
		if (typeof value === 'string') {
			if (values.has(value)) return masked(value);
			if (value.includes('<mark>')) {
				splitByTags ??= longestFirst.map((planted) => new RegExp([...planted].map(escape).join('(?:</?mark>)*'), 'g'));
				return splitByTags.reduce((text, pattern) => text.replace(pattern, '********'), value);
			}
			return longestFirst.reduce((text, planted) => (text.includes(planted) ? text.split(planted).join('********') : text), value);
		}
		if (Array.isArray(value)) return value.map(visit);
		if (value !== null && typeof value === 'object') {
			return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, visit(entry)]));
		}
		return value;
	};
	return visit(data) as T;
}

/** What Simplify promises for a credential (README), with the leaked value already transformed. */
export function simplifiedCredential(record: CredentialRecord, hash: string | undefined, remaining?: number): IDataObject {
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
export function simplifiedIdentities(identities: IdentityRecord[], transform: (hash: string) => string = masked) {
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
export function useFakeFlare(options: FakeFlareOptions = {}): { fake: FakeFlare; harness: Harness } {
	const context = {} as { fake: FakeFlare; harness: Harness };
	beforeAll(async () => {
		context.fake = await FakeFlare.start();
		context.harness = await Harness.create();
	});
	afterAll(async () => await context.fake.stop());
	beforeEach(() => {
		context.fake.reset(options);
		context.harness.addFlareCredential({ apiKey: context.fake.apiKeys.full, baseUrl: context.fake.url });
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

