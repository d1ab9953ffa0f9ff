/**
 * Masking: the hostile review of 2026-11-28, findings M1 and M3–M6 (outputs and errors where a leaked
 * value stayed in clear by default), their assertions turned to what is promised (docs/api-contract.md,
 * "Masking").
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { expandStealerLogOperation } from '../../nodes/Flare/resources/event/expandStealerLog';
import { searchOperation as cookieSearch } from '../../nodes/Flare/resources/leakedCookie/search';
import { requestOptions } from '../../nodes/Flare/shared/descriptions';
import { maskFailure } from '../../nodes/Flare/shared/failure';
import { FlareItem } from '../../nodes/Flare/shared/item';
import { maskFreeText, protectLeakedValues, protectLeakedValuesWith } from '../../nodes/Flare/shared/masking';
import { outputProtectionOf } from '../../nodes/Flare/shared/runner';

// Test values, built from parts so that they are not taken for hardcoded secrets.
const COOKIE = ['AQEDAR', 'x9Zk2', 'sessionvalue', '7731'].join('');
const PW = ['Winter', '2025'].join('');

/** An input item of the Flare node with these parameters (what the runner reads). */
function itemWith(parameters: IDataObject, properties: INodeProperties[]): FlareItem {
	const context = {
		getNodeParameter(name: string, _index: number, fallback?: unknown) {
			const value = name.split('.').reduce<unknown>((at, key) => (at as IDataObject | undefined)?.[key], parameters);
			return value === undefined ? fallback : value;
		},
		getNode: () => ({ name: 'Flare', type: 'n8n-nodes-flareio.flare', typeVersion: 1, parameters: {}, id: 'n', position: [0, 0] }),
	} as unknown as IExecuteFunctions;
	return FlareItem.ofInput(context, 0, [...properties, requestOptions]);
}

describe('M1: Expand Stealer Log (List: Cookies) without host_key', () => {
	const properties = [...expandStealerLogOperation.properties, requestOptions];
	const protect = (record: IDataObject) => {
		const item = itemWith({ uid: 'stealer_log/russian_market/1', expandField: 'cookies' }, expandStealerLogOperation.properties);
		const [output] = expandStealerLogOperation.output(item, [record], undefined as never);
		return outputProtectionOf(item, properties, expandStealerLogOperation.outputsCookies)(output);
	};

	it("a cookie entry without host_key (Flare leaving out a field, as the cookie search was found to): its value is masked", () => {
		expect(protect({ path: '/', expires_utc: null, name: 'li_at', value: COOKIE })).toEqual({
			path: '/',
			expires_utc: null,
			name: 'li_at',
			value: 'A********1',
			event_uid: 'stealer_log/russian_market/1',
		});
	});

	it('a credential of the same operation keeps its URL and login, its password masked', () => {
		expect(protect({ url: 'https://app.globex.io/login', username: 'lucia', password: PW, application: 'Chrome' })).toEqual({
			url: 'https://app.globex.io/login',
			username: 'lucia',
			password: '********',
			application: 'Chrome',
			event_uid: 'stealer_log/russian_market/1',
		});
	});
});

describe('M6: the password field of Leaked Cookie → Search sits in a collection', () => {
	it("its value is one of the item's secrets, masked where Flare's error quotes it", () => {
		const item = itemWith({ domain: 'globex.io', filters: { value: COOKIE } }, cookieSearch.properties);
		expect(item.secretValues()).toEqual([COOKIE]);
		const failure = maskFailure({ status: 422, message: `no cookie ${COOKIE} for this tenant` }, item.secretValues());
		expect(failure.message).toBe('no cookie ******** for this tenant');
	});

	it('an empty collection gives no secret', () => {
		expect(itemWith({ domain: 'globex.io', filters: {} }, cookieSearch.properties).secretValues()).toEqual([]);
	});
});

describe('M3: a secret that is not a string', () => {
	it("a numeric password is masked in its field and where the record's free text repeats its digits", () => {
		const record = { data: { password: 88442211, content: 'vpn.globex.io admin 88442211 (works)' } };
		expect(protectLeakedValues(structuredClone(record), 'masked')).toEqual({
			data: { password: '********', content: 'vpn.globex.io admin ******** (works)' },
		});
	});

	it('a list or an object under a secret name is masked whole, and its strings in free text', () => {
		const record = {
			api_key: ['sk_live_a1b2c3d4', 'sk_live_e5f6a7b8'],
			credential: { user: 'lucia', password: PW },
			content: `rotated sk_live_e5f6a7b8 and ${PW}`,
		};
		expect(protectLeakedValues(structuredClone(record), 'masked')).toEqual({
			api_key: '********',
			credential: '********',
			content: 'rotated ******** and ********',
		});
	});
});

describe("a record's many secrets, alike, each found in its free text", () => {
	it('20 keys that start the same (sk_live_…), each quoted once', () => {
		const keys = Array.from({ length: 20 }, (_, k) => `sk_live_${String(k).padStart(2, '0')}a1b2c3d4`);
		const record = { api_keys: keys, content: keys.map((key, k) => `#${k} ${key}`).join('\n') };
		expect(protectLeakedValues(record, 'masked').content).toBe(keys.map((_, k) => `#${k} ********`).join('\n'));
	});

	it('a value inside a longer one, and two that overlap, are masked as one', () => {
		const values = Array.from({ length: 10 }, (_, k) => `value-${k}-xyz`);
		const record = { passwords: [...values, 'ab3defgh', '3defghij'], content: 'x ab3defghij y value-3-xyz z' };
		expect(protectLeakedValues(record, 'masked').content).toBe('x ******** y ******** z');
	});
});

describe('M4: an assigned secret with a comma', () => {
	it.each([
		['DB_PASSWORD=Winter2025,Globex!', 'DB_PASSWORD=********'],
		['password=a,b,c done', 'password=******** done'],
		// A comma that a space or another assignment follows ends the value.
		['token=abc123, user=jane', 'token=********, user=jane'],
		['token=abc123,user=jane', 'token=********,user=jane'],
		['{"password":"Winter,2025","user":"jane"}', '{"password":"********","user":"jane"}'],
	])('%s', (text, expected) => {
		expect(maskFreeText(text)).toBe(expected);
	});
});

describe("M5: a record's own secret, URL-encoded in its URL", () => {
	const password = 'p@ss word#2025!';

	it.each([
		['percent-encoded, under a parameter named like a secret (pw)', `https://intranet.globex.io/login?u=lucia&pw=${encodeURIComponent(password)}`, 'https://intranet.globex.io/login?u=lucia&pw=********'],
		['percent-encoded, under any other parameter', `https://intranet.globex.io/login?u=lucia&x=${encodeURIComponent(password)}&lang=en`, 'https://intranet.globex.io/login?u=lucia&x=********&lang=en'],
		['form-encoded (a space as +)', `https://intranet.globex.io/login?x=${encodeURIComponent(password).replace(/%20/g, '+')}`, 'https://intranet.globex.io/login?x=********'],
	])('%s', (_name, url, expected) => {
		const record = { url, username: 'lucia', password };
		expect(protectLeakedValuesWith(structuredClone(record), 'masked', [])).toEqual({ url: expected, username: 'lucia', password: 'p********!' });
	});

	it('the secret an item was given, percent-encoded in a URL of its output', () => {
		const record = { url: `https://globex.io/cb?q=${encodeURIComponent(password)}` };
		expect(protectLeakedValuesWith(record, 'masked', [password])).toEqual({ url: 'https://globex.io/cb?q=********' });
	});
});

describe("a record's many values, found at once by an automaton or one by one, alike (values.ts)", () => {
	it('fast-check: the automaton finds what indexOf finds, for any values and text', async () => {
		const { SecretValues } = await import('../../nodes/Flare/shared/masking/values');
		const fc = (await import('fast-check')).default;
		const unit = fc.constantFrom(...'ab1!A_-');
		fc.assert(
			fc.property(fc.array(fc.string({ unit, minLength: 6, maxLength: 12 }), { minLength: 9, maxLength: 20 }), fc.string({ unit, maxLength: 400 }), (values, filler) => {
				const text = `${filler}${values.join(filler)}${filler}`;
				const spans = (ranges: number[]) => {
					const covered = new Set<number>();
					for (let index = 0; index < ranges.length; index += 2) for (let at = ranges[index]; at < ranges[index + 1]; at++) covered.add(at);
					return [...covered].sort((a, b) => a - b);
				};
				const byAutomaton: number[] = [];
				const oneByOne: number[] = [];
				new SecretValues(values, Infinity).find(text, byAutomaton);
				new SecretValues(values, 0).find(text, oneByOne);
				expect(spans(byAutomaton)).toEqual(spans(oneByOne));
			}),
			{ numRuns: 300, seed: 20261207 },
		);
	});
});

describe("a stealer log's line in a URL field without a scheme (host:login:password), and addresses that are none", () => {
	const protect = (record: IDataObject) => protectLeakedValues(record, 'masked');
	const slashed = ['Zq9/', 'xW2Ab'].join('');

	it.each([
		['an IP address', `10.0.0.7:lucia:${PW}`, '10.0.0.7:lucia:********'],
		['a host name', `intranet.globex.io:lucia:${PW}`, 'intranet.globex.io:lucia:********'],
		['a host and a path', `intranet.globex.io/login:lucia:${PW}`, 'intranet.globex.io/login:lucia:********'],
		['a password with a /', `intranet.globex.io:lucia:${slashed}`, 'intranet.globex.io:lucia:********'],
		['a port and a password with a /', `10.0.0.7:8080:lucia:${slashed}`, '10.0.0.7:8080:lucia:********'],
		['localhost', `localhost:lucia:${PW}`, 'localhost:lucia:********'],
		['a .pgpass line', `localhost:5432:app:lucia:${PW}`, 'localhost:5432:app:********'],
		['a host without a dot, its port and a path', `intranet:8080/login:lucia:${PW}`, 'intranet:8080/login:lucia:********'],
		['a host without a dot and a path', `router/login:lucia:${PW}`, 'router/login:lucia:********'],
		['a protocol-relative URL', `//intranet.globex.io/login:lucia:${PW}`, '//intranet.globex.io/login:lucia:********'],
		['an e-mail address for a login', `accounts.google.com:lucia.rossi@gmail.com:${PW}`, 'accounts.google.com:lucia.rossi@gmail.com:********'],
		['a password with an @', `accounts.google.com:lucia.rossi:P@${PW}`, 'accounts.google.com:lucia.rossi:********'],
		['a blank before the host', ` intranet.globex.io:lucia:${PW}`, ' intranet.globex.io:lucia:********'],
		['a wildcard host', `*.globex.io:lucia:${PW}`, '*.globex.io:lucia:********'],
		['an e-mail address and its password', `lucia.rossi@globex.io:${PW}`, 'lucia.rossi@globex.io:********'],
		['a site without a dot and an e-mail address (R5-3)', `intranet:lucia@globex.io:${PW}`, 'intranet:lucia@globex.io:********'],
		['a password of digits and a ; (sixth review, F1)', `globex.io:lucia@mail.com:4711;${PW}`, 'globex.io:lucia@mail.com:********'],
		['a password of digits and a ,', `globex.io:lucia@mail.com:2024,${PW}`, 'globex.io:lucia@mail.com:********'],
		['a byte order mark before the host', `\ufeffintranet.globex.io:lucia:${PW}`, '\ufeffintranet.globex.io:lucia:********'],
	])('%s: the password is masked, in a record without a password field of its own', (_name, url, expected) => {
		expect(protect({ url })).toEqual({ url: expected });
	});

	it("a userinfo without a scheme (sip:, or a login and a password) is masked where it is the record's own password", () => {
		expect(protect({ url: `lucia:${PW}@intranet.globex.io`, password: PW })).toEqual({ url: 'lucia:********@intranet.globex.io', password: '********' });
		expect(protect({ url: `sip:lucia:${PW}@globex.io`, password: PW })).toEqual({ url: 'sip:lucia:********@globex.io', password: '********' });
	});

	it("a password with a / after an e-mail address is masked where it is the record's own password", () => {
		const password = ['Zq9/', PW].join('');
		expect(protect({ url: `lucia.rossi@gmail.com:${password}`, password }).url).toBe('lucia.rossi@gmail.com:********');
	});

	it("a userinfo in a network-path reference, or before a later URL, is masked where it is the record's own password", () => {
		expect(protect({ url: `//lucia:${PW}@files.globex.io/share`, password: PW })).toEqual({ url: '//lucia:********@files.globex.io/share', password: '********' });
		expect(protect({ url: `lucia:${PW}@intranet.globex.io/?next=http://x.io/`, password: PW })).toEqual({ url: 'lucia:********@intranet.globex.io/?next=http://x.io/', password: '********' });
	});

	it.each([
		['a host', 'https://facebook.com/login', 'facebook.com'],
		['a host and its port', 'https://server01:8080/a', 'server01'],
		['an IP address', 'http://192.168.0.1/', '192.168.0.1'],
	])("a record's own password that is %s of its URL leaves the host as it is", (_name, url, password) => {
		expect(protect({ url, password }).url).toBe(url);
	});

	it.each([
		['an e-mail address for a login', `https://www.netflix.com:lucia.rossi@gmail.com:${PW}`, 'https://www.netflix.com:********@gmail.com:********'],
		['a port and an e-mail address', `https://www.netflix.com:443:lucia@globex.io:${PW}`, 'https://www.netflix.com:********@globex.io:********'],
		['a password with an @', `https://accounts.google.com:lucia.rossi:P@${PW}`, 'https://accounts.google.com:********'],
		['a four-digit password', 'https://globex.io:lucia:1234', 'https://globex.io:lucia:********'],
		['a password with an @ before a dotted end (R5-2)', 'https://globex.io:lucia:P@ss.word', 'https://globex.io:********'],
		['an e-mail address and a password of digits and a ;', `https://globex.io:lucia@mail.com:4711;${PW}`, 'https://globex.io:********@mail.com:********'],
		['a site without a dot and an e-mail address', `https://intranet:lucia@globex.io:${PW}`, 'https://intranet:********@globex.io:********'],
		['an e-mail address and a password with a #', `https://www.netflix.com:lucia@globex.io:Zq9#${PW}`, 'https://www.netflix.com:********@globex.io:********'],
	])('with a scheme, a stealer log line with %s has its password masked', (_name, url, expected) => {
		expect(protect({ url })).toEqual({ url: expected });
	});

	it('with a scheme too, a password with a / after the host is masked whole', () => {
		expect(protect({ url: `https://intranet.globex.io:lucia:${slashed}` })).toEqual({ url: 'https://intranet.globex.io:lucia:********' });
	});

	it.each([
		['a userinfo whose login has a dot, a port and a path', `postgres://app.user:${PW}@db.globex.io:5432/appdb`, 'postgres://app.user:********@db.globex.io:5432/appdb'],
		['the same in https', `https://lucia.rossi:${PW}@globex.io:8443/login?next=/a:b`, 'https://lucia.rossi:********@globex.io:8443/login?next=/a:b'],
		['a password with a colon before a host and a port', `https://lucia.rossi:pa:${PW}@globex.io:8443/path`, 'https://lucia.rossi:********@globex.io:8443/path'],
		['a port before a query (fifth review, R5-1)', `redis://default:${PW}@redis.globex.io:6379?db=0`, 'redis://default:********@redis.globex.io:6379?db=0'],
		['a port before a fragment', `https://lucia:${PW}@globex.io:8443#section`, 'https://lucia:********@globex.io:8443#section'],
		['an empty port before a path', `https://lucia:${PW}@globex.io:/path/x`, 'https://lucia:********@globex.io:/path/x'],
		['a list of hosts and ports', `mongodb://app.user:${PW}@db1.globex.io:27017,db2.globex.io:27017/app?replicaSet=rs0`, 'mongodb://app.user:********@db1.globex.io:27017,db2.globex.io:27017/app?replicaSet=rs0'],
	])('%s: the password only is masked', (_name, url, expected) => {
		expect(protect({ url })).toEqual({ url: expected });
	});

	it.each([
		'mailto:lucia@globex.io',
		'sip:lucia@globex.io',
		'acct:lucia.rossi@mastodon.social',
		'ssh:lucia@globex.io',
		'lucia@globex.io:8080/path',
		'git@github.com:globex/repo.git',
		'postgres@db.globex.io:5432/app',
		'lucia@10.0.0.5:22',
		'urn:isbn:0451450523',
		'magnet:?xt=urn:btih:c12fe1c06bba254a9dc9f519b335aa7c1367a88a&dn=report',
		'accounts.google.com',
		'acme.com:8443/login',
		'www.globex.io/a:b',
		'/wiki/File:Logo:Acme.png',
	])('%s is kept as it is', (url) => {
		expect(protect({ url })).toEqual({ url });
	});

	it('a combo whose host is glued to a long prefix (no bound on a host\'s length hides it)', () => {
		const text = `${'x'.repeat(300)}.acme.com:lucia:${PW}`;
		expect(maskFreeText(text)).toBe(`${'x'.repeat(300)}.acme.com:lucia:********`);
	});
});

describe('a secret nested deeper than JSON.stringify goes (review of issue 30, R5, with SHA-256)', () => {
	it('its digest is made from its first 100 levels, the same wherever it is made, rather than an error', () => {
		let deep: IDataObject = { leaf: 'x' };
		for (let level = 0; level < 20_000; level++) deep = { level: deep };
		const digest = () => (protectLeakedValues({ password: deep, user: 'lucia' }, 'sha256') as IDataObject).password;
		const deeper = (frames: number): unknown => (frames === 0 ? digest() : deeper(frames - 1));
		expect(digest()).toMatch(/^[0-9a-f]{64}$/);
		expect(deeper(2_000)).toBe(digest());
	});
});
