/**
 * The fake plants a recognisable leaked value in every shape it serves (planted.ts): the leaked-value
 * scan (test/harness/collect.ts) relies on it, and on nothing else holding the marker.
 */
import { FullEvent, PublicIdentifier, TokenResponse } from '../contract';
import { NOTATIONS } from '../support/notations';
import { FREE_TEXT_FIELDS, PLANTED_NOTATIONS } from './events';
import {
	FakeFlare,
	holdsPlanted,
	planted,
	PLANTED_MARKER,
	SECRET_IDENTIFIER_ID,
	type StoredEvent,
} from './index';
import { PLANTED_FORMS, PLANTED_NUMBER_PREFIX } from './planted';
import { HEADER_NAMES, PLURAL_SECRET_NAMES, plantUnderSecretNames, SECRET_NAMES, WORD_NAMES } from './secret-names';

const TENANT = 101;

let fake: FakeFlare;
let token: string;
beforeAll(async () => {
	fake = await FakeFlare.start({ credentials: 2_000 });
});
afterAll(async () => fake.stop());
beforeEach(async () => {
	fake.reset();
	const answer = await fetch(`${fake.url}/tokens/generate`, { method: 'POST', headers: { authorization: fake.apiKeys.full } });
	token = TokenResponse.parse(await answer.json()).token;
});

async function get(path: string): Promise<unknown> {
	const answer = await fetch(fake.url + path, { headers: { authorization: `Bearer ${token}` } });
	expect(answer.status).toBe(200);
	return await answer.json();
}

/**
 * `text` with every planted value the fake reports removed, also percent-encoded: no marker may remain.
 * Those in clear are found by their markers (thousands of them: one reading), the others (base64) one
 * by one.
 */
const withoutPlanted = (text: string) => {
	const forms = fake
		.plantedValues()
		.flatMap((value) => [value, encodeURIComponent(value)])
		.map((form) => JSON.stringify(form).slice(1, -1));
	const marked = new Set(forms.filter((form) => form.startsWith(`${PLANTED_MARKER}~`)));
	const encoded = forms.filter((form) => !marked.has(form) && PLANTED_FORMS.some((planted) => form.includes(planted)));
	const inClear = new RegExp(`${PLANTED_MARKER}~[^~]{0,256}~${PLANTED_MARKER}`, 'g');
	return encoded
		.sort((a, b) => b.length - a.length)
		.reduce((rest, form) => rest.split(form).join(''), text.replace(inClear, (found) => (marked.has(found) ? '' : found)));
};

const activity = async (uid: string) =>
	FullEvent.parse(await get(`/firework/v2/activities/?uid=${encodeURIComponent(uid)}`)).activity as unknown as {
		data: Record<string, unknown>;
		header: Record<string, unknown>;
	};
const firstOf = (type: string): StoredEvent => fake.events.feed(TENANT).find((event) => event.type === type)!;

describe('planted leaked values', () => {
	it('every credential password and hash is planted, and the registry lists them', () => {
		const values = new Set(fake.plantedValues());
		for (let index = 0; index < fake.dataset.size; index++) {
			const { hash } = fake.dataset.credential(index);
			expect([index, holdsPlanted(hash), values.has(hash)]).toEqual([index, true, true]);
		}
		expect(fake.dataset.passwords().every(holdsPlanted)).toBe(true);
	});

	it('a leaked credential event: its password in data and header', async () => {
		const event = firstOf('leaked_credential');
		const { data, header } = await activity(event.uid);
		expect(data.password).toBe(event.credentials[0].password);
		expect(header.password).toBe(event.credentials[0].password);
		expect(holdsPlanted(String(data.password))).toBe(true);
	});

	it('a stealer log: its saved passwords, a URL with userinfo, a reset link and its session cookies', async () => {
		const event = firstOf('stealer_log');
		const { data } = await activity(event.uid);
		const credentials = data.credentials as Array<Record<string, string>>;
		const cookies = data.cookies as Array<Record<string, string>>;
		expect(credentials.map((entry) => holdsPlanted(entry.password))).toEqual([true, true]);
		expect(credentials[1].url).toBe(`https://${credentials[1].username}:${credentials[1].password}@intranet.${new URL(credentials[0].url).host.slice('login.'.length)}/`);
		const [reset] = (data.features as { urls: string[] }).urls;
		expect(reset).toMatch(new RegExp(`^https://[a-z.]+/reset\\?token=${PLANTED_MARKER}~[0-9a-f]{20}~${PLANTED_MARKER}&lang=en$`));
		expect(cookies.map((cookie) => [cookie.name, holdsPlanted(cookie.value)])).toEqual([
			['session', true],
			['ESTSAUTH', true],
		]);
		expect(cookies.every((cookie) => typeof cookie.host_key === 'string')).toBe(true);
	});

	it('a paste: a login:password line in its content, its preview and the highlights of a search', async () => {
		const event = firstOf('paste');
		const [login, rest] = event.content.split(':');
		const password = rest.split('\n')[0];
		expect(holdsPlanted(password)).toBe(true);
		const { data, header } = await activity(event.uid);
		expect(data.content).toBe(`${login}:${password}\n${event.content.split('\n')[1]}`);
		expect(header.content_preview).toContain(`${login}:${password}`);
		const [item] = fake.feed.feedAll(TENANT, { query: { type: 'keyword', keyword: login } }).filter((entry) => entry.metadata.uid === event.uid);
		expect(item.highlights!.content[0]).toContain(`</mark>:${password}`);
	});

	it('a paste whose password holds its brand: a search for the brand marks inside the password', () => {
		const event = fake.events.feed(TENANT).filter((entry) => entry.type === 'paste')[1];
		const [login, rest] = event.content.split(':');
		const password = rest.split('\n')[0];
		const brand = password.split('~')[1].replace(/\d+!$/, '');
		expect(password).toBe(planted(`${brand}${password.split('~')[1].slice(brand.length)}`));
		const [item] = fake.feed.feedAll(TENANT, { query: { type: 'keyword', keyword: brand.toLowerCase() } }).filter((entry) => entry.metadata.uid === event.uid);
		expect(item.highlights!.content[0]).toContain(`${login.slice(0, login.indexOf('@') + 1)}`);
		expect(item.highlights!.content[0]).toContain(`:${PLANTED_MARKER}~<mark>${brand}</mark>`);
	});

	it('every free-text field of every event type quotes a planted value, in every notation of a leak', async () => {
		const events = fake.events.feed(TENANT);
		const activities = await Promise.all(events.map(async (event) => [event, await activity(event.uid)] as const));
		for (const [event, { data }] of activities) {
			for (const field of FREE_TEXT_FIELDS[event.type]) {
				expect([event.uid, field, holdsPlanted(JSON.stringify(data[field]))]).toEqual([event.uid, field, true]);
			}
		}
		const texts = activities.flatMap(([event, { data }]) => FREE_TEXT_FIELDS[event.type].map((field) => JSON.stringify(data[field])));
		// Every notation a leak is written in (test/support/notations.ts) is among what the fake serves.
		expect([...PLANTED_NOTATIONS].sort()).toEqual(NOTATIONS.map((notation) => notation.family).sort());
		// The base64 of an authorization header holds the marker only encoded.
		const basic = texts.find((text) => /Authorization: Basic [A-Za-z0-9+/=]+/.test(text))!;
		expect(basic).not.toContain(PLANTED_MARKER);
		expect(PLANTED_FORMS.slice(1).some((form) => basic.includes(form))).toBe(true);
		// Analysts' notes, of the tenant and of the event.
		const notes = activities.map(([, { header }]) => `${String(header.notes)} ${String(header.user_notes)}`);
		expect(notes.filter(holdsPlanted).length).toBeGreaterThan(events.length / 5);
	});

	it('a threat report quotes planted values in its summary, its content and a highlight', async () => {
		const answer = await fetch(`${fake.url}/firework/v4/threat_flow/reports/requests`, {
			method: 'POST',
			headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
			body: JSON.stringify({ report_title: 'Weekly', time_range_type: 'all' }),
		});
		const { request_id: id } = (await answer.json()) as { request_id: string };
		await get(`/firework/v4/threat_flow/reports/requests/${id}`);
		const { report } = (await get(`/firework/v4/threat_flow/reports/requests/${id}`)) as { report: Record<string, unknown> };
		expect([holdsPlanted(String(report.summary)), holdsPlanted(String(report.content)), holdsPlanted(JSON.stringify(report.highlights))]).toEqual([true, true, true]);
		expect(withoutPlanted(JSON.stringify(report))).not.toContain(PLANTED_MARKER);
	});

	it('a source (Source → Get) quotes a planted sample in its description', async () => {
		const [source] = fake.dataset.sources();
		const answer = (await get(`/astp/sources/${encodeURIComponent(source.id)}`)) as { description: string };
		expect(answer.description).toMatch(new RegExp(`:${PLANTED_MARKER}~[0-9a-f]{20}~${PLANTED_MARKER}$`));
		expect(withoutPlanted(answer.description)).not.toContain(PLANTED_MARKER);
	});

	it('a source-code secret (added): in the findings of its header and in its content', async () => {
		const [item] = fake.addEvents(1, { type: 'source_code_secret' });
		const { data, header } = await activity(item.metadata.uid);
		const [finding] = header.secrets_metadata as Array<Record<string, unknown>>;
		expect(header.contains_secrets).toBe(true);
		expect(holdsPlanted(String(finding.secret))).toBe(true);
		expect(data.content).toContain(`AWS_SECRET_ACCESS_KEY = "${String(finding.secret)}"`);
		expect(fake.plantedValues()).toContain(finding.secret);
		// Found by the v4 filter value of its kind.
		expect(fake.feed.feedAll(TENANT, { filters: { type: ['source_code_secrets'] } }).map((entry) => entry.metadata.uid)).toEqual([item.metadata.uid]);
	});

	it('a secret identifier: its secret, planted, and one created through the API without a name, named by its secret', async () => {
		const identifier = PublicIdentifier.parse(await get(`/firework/v4/identifiers/${SECRET_IDENTIFIER_ID}`));
		expect(identifier.data.type).toBe('secret');
		const secret = (identifier.data as { secret: string }).secret;
		expect(holdsPlanted(secret)).toBe(true);
		expect(holdsPlanted(identifier.name)).toBe(false);
		expect(fake.plantedValues()).toContain(secret);
		const own = planted('own-api-key-0001');
		const created = await fetch(`${fake.url}/firework/v4/identifiers/`, {
			method: 'POST',
			headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
			body: JSON.stringify({ data: { type: 'secret', secret: own }, categories: ['leak'], emerging_categories: [], severities: ['high'] }),
		});
		expect(created.status).toBe(200);
		const record = PublicIdentifier.parse(await created.json());
		expect([record.data, record.name]).toEqual([{ type: 'secret', secret: own }, own]);
		expect(fake.plantedValues()).toContain(own);
		// No event matches it on its own: a feed item would name it by its secret.
		fake.addEvents(20);
		expect(fake.events.feed(TENANT).some((event) => event.identifierIds.includes(record.id))).toBe(false);
	});

	it('two blog posts in three (Event → Get) quote a planted credential line or a URL with its userinfo', async () => {
		const posts = fake.dataset.events();
		const quoting = posts.filter((post) => holdsPlanted(post.data.content));
		expect(quoting.length).toBe(posts.length - Math.ceil(posts.length / 3));
		expect(quoting.filter((post) => post.data.content.includes('ftp://backup:PlAnTeD~')).length).toBe(Math.floor((posts.length + 1) / 3));
		const answer = await get(`/firework/v4/events/?uid=${encodeURIComponent(quoting[0].metadata.uid)}`);
		expect(withoutPlanted(JSON.stringify(answer))).not.toContain(PLANTED_MARKER);
		expect(JSON.stringify(answer)).toContain(PLANTED_MARKER);
	});

	it('values under secret names: every name of the rule, in every spelling and nesting, across a tenant\'s feed', async () => {
		const events = fake.events.feed(TENANT);
		const planted = await Promise.all(events.map(async (event) => (await activity(event.uid)).data.leaked_data as Record<string, unknown>));
		const keysOf = (value: unknown): string[] =>
			value !== null && typeof value === 'object'
				? Object.entries(value).flatMap(([key, entry]) => [key, ...(Array.isArray(entry) ? [] : keysOf(entry))])
				: [];
		const keys = new Set(planted.flatMap(keysOf));
		const pairs = new Set(planted.flatMap((fields) => (fields.header_list as Array<{ name: string }>).map((pair) => pair.name)));
		const text = JSON.stringify(planted);
		expect(SECRET_NAMES.filter((name) => !keys.has(name))).toEqual([]);
		expect(HEADER_NAMES.filter((name) => !keys.has(name) && !pairs.has(name))).toEqual([]);
		expect(PLURAL_SECRET_NAMES.filter((name) => !keys.has(name))).toEqual([]);
		expect(WORD_NAMES.filter((name) => !text.includes(`export ${name}=PlAnTeD~`))).toEqual([]);
		expect(WORD_NAMES.filter((name) => !text.includes(`&${name}=PlAnTeD~p%40ss`))).toEqual([]);
		// Each nesting: a string, a number, a list and an object under a name; headers, pairs, a
		// configuration, a plural, an assignment, JSON quoted as text, URL parameters encoded.
		const [first] = planted;
		expect(Object.values(first).map((value) => (Array.isArray(value) ? 'list' : value === null ? 'null' : typeof value))).toEqual(
			expect.arrayContaining(['string', 'number', 'list', 'object']),
		);
		expect(first.callback_url).toMatch(new RegExp(`=${PLANTED_MARKER}~p%40ss%20w0rd%23[0-9a-f]{12}~${PLANTED_MARKER}&next=${PLANTED_MARKER}~own%20secret%26[0-9a-f]{12}~${PLANTED_MARKER}&lang=en&redirect=https://idp\\.example\\.org/cb\\?[\\w.-]+=${PLANTED_MARKER}~[0-9a-f]{20}~${PLANTED_MARKER}&then=%2Fcb%3F[\\w.-]+%3D${PLANTED_MARKER}~[0-9a-f]{20}~${PLANTED_MARKER}$`));
		// Pairs of other spellings, source code, an object of secrets under a plural.
		expect(first.tags).toEqual(expect.arrayContaining([{ Key: 'Name', Value: 'backup-db' }, { Key: expect.any(String), Value: expect.stringMatching(/^PlAnTeD~/) }]));
		expect(first.header_tuples).toEqual(expect.arrayContaining([['Accept', '*/*'], [expect.any(String), expect.stringMatching(/^PlAnTeD~/)]]));
		expect(String(first.code).split('\n')).toHaveLength(5);
		expect(Object.values(first.vault as object)).toEqual([{ DB_MAIN: expect.stringMatching(/^PlAnTeD~/) }]);
		expect(first.note).toBe(`The new code ${String(first.own_secret)} was sent by text message.`);
		expect(String(first.pin)).toMatch(new RegExp(`^${PLANTED_NUMBER_PREFIX}[0-9]{6}$`));
		expect(holdsPlanted(String(first.pin))).toBe(true);
		// All planted: the registry lists them (numbers written out), and they are in the alert pushed.
		const values = new Set(fake.plantedValues());
		expect(events.flatMap((event) => event.underNames.secrets).every((value) => values.has(value) && holdsPlanted(value))).toBe(true);
		expect(fake.newAlerts(1)[0].data).toMatchObject({ leaked_data: expect.objectContaining({ headers: expect.any(Object) }) });
		// Without a turn, one planting holds every name.
		expect(Object.keys(plantUnderSecretNames('all').fields).length).toBeGreaterThan(SECRET_NAMES.length);
	});

	it('nothing else holds the marker: every occurrence in what the fake serves is a listed planted value', async () => {
		fake.addEvents(3, { type: 'source_code_secret' });
		const feed = JSON.stringify(fake.feed.feedAll(TENANT, { query: { type: 'keyword', keyword: '@' } }));
		expect(feed).toContain(PLANTED_MARKER);
		expect(withoutPlanted(feed)).not.toContain(PLANTED_MARKER);
		const activities = await Promise.all(fake.events.feed(TENANT).map((event) => activity(event.uid)));
		const text = JSON.stringify(activities);
		expect(text.split(PLANTED_MARKER).length).toBeGreaterThan(fake.events.feed(TENANT).length / 3);
		expect(PLANTED_FORMS.some((form) => withoutPlanted(text).includes(form))).toBe(false);
		const identifiers = JSON.stringify(fake.dataset.identifiers(TENANT));
		expect(identifiers.split(PLANTED_MARKER).length).toBe(3);
	});
});
