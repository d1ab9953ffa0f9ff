/**
 * The fake plants a recognisable leaked value in every shape it serves (planted.ts): the leaked-value
 * scan (test/harness/collect.ts) relies on it, and on nothing else holding the marker.
 */
import { FullEvent, PublicIdentifier, TokenResponse } from '../contract';
import {
	FakeFlare,
	holdsPlanted,
	planted,
	PLANTED_MARKER,
	SECRET_IDENTIFIER_ID,
	type StoredEvent,
} from './index';

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

/** `text` with every planted value the fake reports removed: no marker may remain. */
const withoutPlanted = (text: string) =>
	fake
		.plantedValues()
		.sort((a, b) => b.length - a.length)
		.reduce((rest, value) => rest.split(JSON.stringify(value).slice(1, -1)).join(''), text);

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

	it('a stealer log: its saved passwords and its session cookies', async () => {
		const event = firstOf('stealer_log');
		const { data } = await activity(event.uid);
		const credentials = data.credentials as Array<Record<string, string>>;
		const cookies = data.cookies as Array<Record<string, string>>;
		expect(credentials.map((entry) => holdsPlanted(entry.password))).toEqual([true]);
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

	it('a secret identifier: its secret, planted, and one created through the API', async () => {
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
		expect(PublicIdentifier.parse(await created.json()).data).toEqual({ type: 'secret', secret: own });
		expect(fake.plantedValues()).toContain(own);
	});

	it('every third blog post (Event → Get) quotes a planted credential line', async () => {
		const posts = fake.dataset.events();
		const quoting = posts.filter((post) => holdsPlanted(post.data.content));
		expect(quoting.length).toBe(Math.ceil((posts.length - 1) / 3));
		const answer = await get(`/firework/v4/events/?uid=${encodeURIComponent(quoting[0].metadata.uid)}`);
		expect(withoutPlanted(JSON.stringify(answer))).not.toContain(PLANTED_MARKER);
		expect(JSON.stringify(answer)).toContain(PLANTED_MARKER);
	});

	it('nothing else holds the marker: every occurrence in what the fake serves is a listed planted value', async () => {
		fake.addEvents(3, { type: 'source_code_secret' });
		const feed = JSON.stringify(fake.feed.feedAll(TENANT, { query: { type: 'keyword', keyword: '@' } }));
		expect(feed).toContain(PLANTED_MARKER);
		expect(withoutPlanted(feed)).not.toContain(PLANTED_MARKER);
		const activities = await Promise.all(fake.events.feed(TENANT).map((event) => activity(event.uid)));
		const text = JSON.stringify(activities);
		expect(text.split(PLANTED_MARKER).length).toBeGreaterThan(fake.events.feed(TENANT).length / 3);
		expect(withoutPlanted(text)).not.toContain(PLANTED_MARKER);
		// Events of other kinds hold none.
		const clean = activities.filter((_, index) => ['blog_post', 'listing', 'forum_post', 'domain', 'chat_message', 'ransomleak', 'leak'].includes(fake.events.feed(TENANT)[index].type));
		expect(clean.length).toBeGreaterThan(20);
		expect(JSON.stringify(clean)).not.toContain(PLANTED_MARKER);
		const identifiers = JSON.stringify(fake.dataset.identifiers(TENANT));
		expect(identifiers.split(PLANTED_MARKER).length).toBe(2);
	});
});
