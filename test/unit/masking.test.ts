/**
 * Masking of free text (docs/api-contract.md, "Masking"): the reproductions of the hostile review of
 * issue 22 (findings 1–4), their assertions turned to what is promised.
 */
import {
	maskFreeText,
	protectLeakedValues,
	protectLeakedValuesWith,
} from '../../nodes/Flare/shared/masking';

// Test values, built from parts so that they are not taken for hardcoded secrets.
const PW = ['Summer', '2024', 'Acme!'].join('');
const STRIPE_KEY = ['sk', 'live', '4eC39HqLyjWDarjtT1zdp7dc'].join('_');
const BASIC = Buffer.from(`jane:${PW}`).toString('base64');

const masked = <T extends object>(record: T): T => protectLeakedValues(structuredClone(record) as never, 'masked') as T;

describe('free text is every string but the structured ones (finding 2)', () => {
	it.each([
		['a paste in English (paste.mdx, forum-post.mdx, bucket-object.mdx)', { data: { content: 'x', content_en: `combo jane@acme.com:${PW}` } }, { data: { content: 'x', content_en: 'combo jane@acme.com:********' } }],
		['a chat message in English (OpenAPI v4 ConversationMessage)', { conversation_messages: [{ message: 'x', message_en: `jane@acme.com:${PW}` }] }, { conversation_messages: [{ message: 'x', message_en: 'jane@acme.com:********' }] }],
		['a ransomleak document (document.mdx)', { main: `admin@acme.com:${PW}` }, { main: 'admin@acme.com:********' }],
		['the tenant notes of a feed item (FeedItemTenantMetadata.notes)', { tenant_metadata: { notes: `reset jane@acme.com:${PW}` } }, { tenant_metadata: { notes: 'reset jane@acme.com:********' } }],
		['user notes of a full event', { header: { user_notes: `DB_PASSWORD=${PW}` } }, { header: { user_notes: 'DB_PASSWORD=********' } }],
		['a listing (listing.mdx)', { description_preview: [`jane@acme.com:${PW}`], about_en: `pass: ${PW}` }, { description_preview: ['jane@acme.com:********'], about_en: 'pass: ********' }],
		['a forum topic (forum-topic.mdx)', { topic_title_en: `free combo jane@acme.com:${PW}` }, { topic_title_en: 'free combo jane@acme.com:********' }],
		['a domain (domain.mdx)', { subject: `login jane@acme.com:${PW}` }, { subject: 'login jane@acme.com:********' }],
		['a key Flare adds later', { ai_summary_de: `Zugang jane@acme.com:${PW}` }, { ai_summary_de: 'Zugang jane@acme.com:********' }],
	])('%s', (_name, record, expected) => {
		expect(masked(record)).toEqual(expected);
	});

	it('keeps what workflows need: ids, uids, dates, digests, hash types, logins, URLs without userinfo, cookie names, kinds', () => {
		const kept = {
			id: 7,
			uid: 'paste/pastebin/1:2',
			es_id: 'paste_site/example_paste_12345',
			credential_hash: 'a1b2c3d4e5f67890',
			content_hash: 'sha1:0123abcd',
			payload_digest: 'sha256:abc123',
			digest: 'sha256:abc123def456ghi789',
			hash_type: 'md5',
			known_password_id: 'kp_1',
			identity_name: 'jane@acme.com',
			username: 'admin:root',
			emails: ['jane@acme.com'],
			domain: 'acme.com',
			imported_at: '2025-03-12T09:15:00.123000+00:00',
			expires_utc: '2026-03-04T02:22:08',
			timestamp: '2025-03-12T09:15:00Z',
			ip_address: '2001:db8::1',
			host: 'vpn.acme.com:443',
			url: 'https://login.acme.com:8443/signin?next=/home',
			flare_url: 'https://app.flare.io/#/paste/pastebin/1',
			urls: ['mailto:jane@acme.com', 'https://acme.com/a?page=2'],
			cookies: [{ host_key: '.acme.com', path: '/', name: 'session', value: 'x' }],
			metadata: { type: 'paste', severity: 'critical', source: 'pastebin' },
			tags: ['vip'],
		};
		expect(masked(kept)).toEqual({ ...kept, cookies: [{ host_key: '.acme.com', path: '/', name: 'session', value: '********' }] });
	});
});

describe('shapes of leaked values inside free text and URLs (finding 3)', () => {
	it.each([
		['the userinfo of a URL in content', `mirror at ftp://backup:${PW}@files.acme.com/db.sql`, 'mirror at ftp://backup:********@files.acme.com/db.sql'],
		['a password with @ in the userinfo', `https://jane@acme.com:p@ss${PW}@intranet.acme.com/x`, 'https://jane@acme.com:********@intranet.acme.com/x'],
		['Authorization: Basic with base64 of login:password', `Authorization: Basic ${BASIC}`, 'Authorization: Basic ********'],
		['an HTTP request dump', `GET / HTTP/1.1\r\nAuthorization: Digest ${BASIC}\r\nHost: acme.com`, 'GET / HTTP/1.1\r\nAuthorization: Digest ********\r\nHost: acme.com'],
		['a Cookie header', `Cookie: PHPSESSID=${PW}; csrftoken=abc123`, 'Cookie: PHPSESSID=********; csrftoken=********'],
		['a Set-Cookie header: its attributes kept', `Set-Cookie: sid=${PW}; Path=/; HttpOnly`, 'Set-Cookie: sid=********; Path=/; HttpOnly'],
		['a JSON string inside another (escaped quotes)', JSON.stringify({ log: JSON.stringify({ password: PW }) }), JSON.stringify({ log: JSON.stringify({ password: '********' }) })],
		// A URL of the text is read as a URL: the parameter's value ends at `&`.
		['a token in a URL of the text', `reset at https://app.acme.com/reset?token=${PW}&lang=en now`, 'reset at https://app.acme.com/reset?token=********&lang=en now'],
	])('%s', (_name, content, expected) => {
		expect(masked({ content })).toEqual({ content: expected });
	});

	it.each([
		['a password split by a highlight (a search on "acme")', `jane@acme.com:Summer2024<mark>Acme</mark>!`, 'jane@acme.com:********'],
		['a login and a password both marked', `<mark>jane</mark>@acme.com:<mark>Summer</mark>2024Acme!`, '<mark>jane</mark>@acme.com:********'],
		// A label at the line's head takes the rest of its line, and the mark closed after it.
		['a mark that opens in the password and closes after it', `pass: Summer<mark>2024Acme! rest</mark>`, 'pass: ********'],
		['a mark that opens in the password and closes after it, mid-line', `jane, pass: Summer<mark>2024Acme! rest</mark>`, 'jane, pass: ********<mark> rest</mark>'],
		['a mark that opens before the password and closes in it', `<mark>jane@acme.com:Summer</mark>2024Acme! x`, '<mark>jane@acme.com:********</mark> x'],
		['a record secret split by a mark', `said Summer2024<mark>Acme!</mark> twice`, 'said ******** twice'],
	])('highlights: %s', (_name, highlight, expected) => {
		expect(masked({ password: PW, highlights: { content: [highlight] } })).toEqual({ password: 'S********!', highlights: { content: [expected] } });
	});

	it('URL fields: the password of their userinfo and the values of secret-named parameters', () => {
		const record = {
			credentials: [{ url: `https://jane:${PW}@intranet.acme.com/`, username: 'jane', password: 'x' }],
			features: { urls: [`https://app.acme.com/reset?token=${PW}`, `https://acme.com/cb#access_token=${PW}&state=1`, `https://acme.com/?api_key=${PW}&sig=abc`] },
			external_netloc: `backup:${PW}@files.acme.com`,
			browser_url: `http://forum.onion/t?page=2&session=${PW}`,
		};
		expect(masked(record)).toEqual({
			credentials: [{ url: 'https://jane:********@intranet.acme.com/', username: 'jane', password: '********' }],
			features: { urls: ['https://app.acme.com/reset?token=********', 'https://acme.com/cb#access_token=********&state=1', 'https://acme.com/?api_key=********&sig=********'] },
			external_netloc: 'backup:********@files.acme.com',
			browser_url: 'http://forum.onion/t?page=2&session=********',
		});
	});
});

describe('alert channels and rules (issue 34)', () => {
	it("a channel's or a rule's Slack, Discord or Teams webhook URL is a secret: whoever has it can post", () => {
		const hook = `https://hooks.slack.com/services/T0FLARE/B0FLARE/${['x9Kq', 'Zr2m', 'Lp7w'].join('')}`;
		const record = { type: 'slack', params: { type: 'slack', webhook_url: hook }, teams: { teams_webhook_url: `${hook}/t` }, feed_url: '/firework/v2/assets/7001/feed' };

		expect(masked(record)).toEqual({ type: 'slack', params: { type: 'slack', webhook_url: 'h********w' }, teams: { teams_webhook_url: 'h********t' }, feed_url: '/firework/v2/assets/7001/feed' });
	});

	it.each([
		['Slack', 'https://hooks.slack.com/services/T0FLARE/B0FLARE/', 'https://hooks.slack.com/services/********'],
		['a Slack workflow', 'https://hooks.slack.com/workflows/T0FLARE/A0FLARE/1/', 'https://hooks.slack.com/workflows/********'],
		['Discord', 'https://discord.com/api/webhooks/123456789/', 'https://discord.com/api/webhooks/********'],
		['Discord (legacy host)', 'https://discordapp.com/api/webhooks/123456789/', 'https://discordapp.com/api/webhooks/********'],
		['Teams', 'https://acme.webhook.office.com/webhookb2/0a1b-2c3d@4e5f/IncomingWebhook/', 'https://acme.webhook.office.com/webhookb2/********'],
	])('a %s webhook URL quoted in free text or in a URL field is masked past its prefix (hostile review of issue 34, finding 7)', (_name, prefix, shown) => {
		const hook = `${prefix}${['x9Kq', 'Zr2m', 'Lp7w'].join('')}`;

		expect(masked({ state: { status: 'error', message: `POST ${hook} failed: 404 no_service` }, link_url: hook })).toEqual({
			state: { status: 'error', message: `POST ${shown} failed: 404 no_service` },
			link_url: shown,
		});
	});

	it('other URLs of those hosts, and other hosts, are kept', () => {
		const kept = { note: 'see https://hooks.slack.com and https://discord.com/channels/1/2 or https://api.slack.com/messaging/webhooks' };
		expect(masked(structuredClone(kept))).toEqual(kept);
	});
});

describe('a value a rule finds, repeated elsewhere in prose (hostile review of issue 34, finding 4)', () => {
	it('is masked wherever the record repeats it: another field, the same text, a URL', () => {
		const record = {
			prompt: `Login: jane@acme.com\nPassword: ${PW}`,
			response: `The account jane@acme.com with the password ${PW} works. Reset ${PW} today.`,
			notes: `jane@acme.com:${STRIPE_KEY} was reused; ${STRIPE_KEY} is live`,
			url: `https://vpn.acme.com/login?hint=${PW}`,
		};

		expect(masked(record)).toEqual({
			prompt: 'Login: jane@acme.com\nPassword: ********',
			response: 'The account jane@acme.com with the password ******** works. Reset ******** today.',
			notes: 'jane@acme.com:******** was reused; ******** is live',
			url: 'https://vpn.acme.com/login?hint=********',
		});
	});

	it('in a single text (an error message) too', () => {
		expect(maskFreeText(`password=${PW} refused: ${PW} is too old`)).toBe('password=******** refused: ******** is too old');
	});

	it("an error's own marks are not taken for a value: `[redacted]` stays where the transport put it", () => {
		expect(maskFreeText('rejected Authorization: Bearer [redacted] (key [redacted])')).toBe('rejected Authorization: Bearer [redacted] (key [redacted])');
		expect(maskFreeText(`rejected Authorization: Bearer ${PW}; retried with [redacted]`)).toBe('rejected Authorization: Bearer ********; retried with [redacted]');
	});

	it('a value under 6 characters is not looked for elsewhere: it would match ordinary words', () => {
		expect(masked({ a: 'jdoe:admin', b: 'the admin team' })).toEqual({ a: 'jdoe:********', b: 'the admin team' });
	});
});

describe('monitored secrets (finding 4)', () => {
	it('the name of a secret identifier that is its secret is masked as the secret; a name of its own is kept', () => {
		expect(masked({ id: 7031, name: STRIPE_KEY, data: { type: 'secret', secret: STRIPE_KEY } })).toEqual({ id: 7031, name: 's********c', data: { type: 'secret', secret: 's********c' } });
		expect(masked({ id: 7031, name: `Stripe ${STRIPE_KEY}`, data: { type: 'secret', secret: STRIPE_KEY } })).toEqual({ id: 7031, name: 'Stripe ********', data: { type: 'secret', secret: 's********c' } });
		expect(masked({ id: 7032, name: 'Payments key', data: { type: 'secret', secret: 'abc' } })).toEqual({ id: 7032, name: 'Payments key', data: { type: 'secret', secret: '********' } });
		expect(masked({ id: 7033, name: 'abc', data: { type: 'secret', secret: 'abc' } })).toEqual({ id: 7033, name: '********', data: { type: 'secret', secret: '********' } });
	});

	it('the secret a search looks for is masked where its results quote it, also bare in a highlight', () => {
		const item = { metadata: { uid: 'paste/pastebin/1', type: 'paste' }, highlights: { content: [`STRIPE_KEY <mark>${STRIPE_KEY}</mark> in prod`] } };
		expect(protectLeakedValuesWith(structuredClone(item), 'masked', [STRIPE_KEY])).toEqual({ ...item, highlights: { content: ['STRIPE_KEY <mark>********</mark> in prod'] } });
		expect(protectLeakedValuesWith(structuredClone(item), 'full', [STRIPE_KEY])).toEqual(item);
	});
});

describe('a long text of credential-like lines (finding 1; its time: masking-time.test.ts)', () => {
	it('maskFreeText masks a long text once, whatever it holds', () => {
		const text = `${'jdoe:x '.repeat(3)}\nroot:toor\n`;
		expect(maskFreeText(text)).toBe('jdoe:x jdoe:x jdoe:x \nroot:********\n');
	});
});
