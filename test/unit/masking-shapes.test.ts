/**
 * Masking (docs/api-contract.md, "Masking"): the hostile review of issue 30 (R1–R6), its reproductions
 * turned into what is promised. Secrets in name/value pairs of any spelling, in source code's
 * assignments, in a URL inside a URL, under names the vocabulary missed, nested thousands deep; and
 * a record's own values masked where they are whole, not inside unrelated words, hosts or links.
 */
import { maskFreeText, protectLeakedValues } from '../../nodes/Flare/shared/masking';

// Test values, built from parts so that they are not taken for hardcoded secrets.
const S = ['Hunter', '2', 'Xyzzy'].join('');
const MASKED_S = 'H********y';
type Mode = 'masked' | 'sha256' | 'omit';
const masked = <T extends object>(record: T, mode: Mode = 'masked'): T =>
	protectLeakedValues(structuredClone(record) as never, mode) as T;

describe('R1: name/value pairs, whatever the spelling of name and value', () => {
	it.each([
		['{key, value} (Postman, HAR exports, .NET appSettings)', { headers: [{ key: 'Authorization', value: `Bearer ${S}` }] }, { headers: [{ key: 'Authorization', value: 'B********y' }] }],
		['{Key, Value} (AWS tags, CloudFormation)', { tags: [{ Key: 'DB_PASSWORD', Value: S }] }, { tags: [{ Key: 'DB_PASSWORD', Value: MASKED_S }] }],
		['{Name, Value} (AWS and Azure environments)', { env: [{ Name: 'DB_PASSWORD', Value: S }] }, { env: [{ Name: 'DB_PASSWORD', Value: MASKED_S }] }],
		['{header, value}', { headers: [{ header: 'X-Api-Key', value: S }] }, { headers: [{ header: 'X-Api-Key', value: MASKED_S }] }],
		['{name, value: [..]} (a list value)', { env: [{ name: 'DB_PASSWORD', value: [S] }] }, { env: [{ name: 'DB_PASSWORD', value: '********' }] }],
		['{NAME, VALUE: number}', { env: [{ NAME: 'PIN', VALUE: 4711 }] }, { env: [{ NAME: 'PIN', VALUE: '********' }] }],
		['[name, value] header tuples', { headers: [['Authorization', `Bearer ${S}`], ['Accept', 'text/html']] }, { headers: [['Authorization', 'B********y'], ['Accept', 'text/html']] }],
	])('%s: the value is masked, the name kept', (_label, record, expected) => {
		expect(masked(record)).toEqual(expected);
		for (const mode of ['sha256', 'omit'] as const) expect(JSON.stringify(masked(record, mode))).not.toContain(S);
	});

	it('Omit leaves the value out, the name kept', () => {
		expect(masked({ tags: [{ Key: 'DB_PASSWORD', Value: S }] }, 'omit')).toEqual({ tags: [{ Key: 'DB_PASSWORD' }] });
		expect(masked({ headers: [['Authorization', `Bearer ${S}`]] }, 'omit')).toEqual({ headers: [['Authorization']] });
	});

	it('pairs whose name is no secret are kept, and so is a `key` beside a value; a `key` alone is a secret', () => {
		const kept = {
			tags: [{ Key: 'Name', Value: 'prod-db' }, { key: 'env', value: 'staging' }],
			headers: [['Accept', 'text/html']],
			// A matching policy is named in words, its value an object: it is read field by field.
			policy: { name: 'CEO password watch', value: { keywords: ['ceo'] } },
			watch: { name: 'password_watch', value: { keywords: ['ceo'] } },
		};
		expect(masked(kept)).toEqual(kept);
		expect(masked({ license: { key: S } })).toEqual({ license: { key: MASKED_S } });
	});
});

describe('R2: assignments as source code and configuration write them', () => {
	it.each([
		[`'password' => '${S}',`, `'password' => '********',`],
		[`password := "${S}"`, 'password := "********"'],
		[`if (password == "${S}")`, 'if (password == "********")'],
		[`define('DB_PASSWORD', '${S}');`, "define('DB_PASSWORD', '********');"],
		[`$cfg['password'] = '${S}';`, "$cfg['password'] = '********';"],
		[`<password>${S}</password>`, '<password>********</password>'],
		[`<add key="Password" value="${S}"/>`, '<add key="Password" value="********"/>'],
		[`{"key": "Authorization", "value": "Bearer ${S}"}`, '{"key": "Authorization", "value": "Bearer ********"}'],
		[`mysql -u root --password ${S} -h db`, 'mysql -u root --password ******** -h db'],
		[`-----BEGIN RSA PRIVATE KEY-----\nMIIEow${S}AAKCAQEA\n-----END RSA PRIVATE KEY-----\nafter`, '-----BEGIN RSA PRIVATE KEY-----\n********\n-----END RSA PRIVATE KEY-----\nafter'],
		[`-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn${S}`, '-----BEGIN OPENSSH PRIVATE KEY-----\n********'],
		// A quoted value runs to its closing quote: a passphrase with spaces, a quote of the other kind.
		['password="correct horse battery staple" user=jane', 'password="********" user=jane'],
		[`password: "it's ${S}"`, 'password: "********"'],
		['{\\"password\\": \\"a b c\\", \\"u\\": 1}', '{\\"password\\": \\"********\\", \\"u\\": 1}'],
	])('%s', (text, expected) => {
		expect(maskFreeText(text)).toBe(expected);
	});

	it.each([
		'<add key="Name" value="prod"/>',
		'<user>jane</user>',
		'docker login --password-stdin -u jane',
		"define('WP_DEBUG', 'false');",
		'-----BEGIN PUBLIC KEY-----\nMIIBIjAN\n-----END PUBLIC KEY-----',
	])('kept: %s', (text) => {
		expect(maskFreeText(text)).toBe(text);
	});
});

describe('R3: a secret-named parameter inside another parameter of a URL field', () => {
	it.each([
		[`https://acme.test/login?redirect=https://sso.acme.test/cb?token=${S}&lang=en`, 'https://acme.test/login?redirect=https://sso.acme.test/cb?token=********&lang=en'],
		[`https://acme.test/login?next=%2Fcb%3Ftoken%3D${S}%26lang%3Den&x=1`, 'https://acme.test/login?next=%2Fcb%3Ftoken%3D********%26lang%3Den&x=1'],
		[`https://acme.test/#/cb?access_token=${S}`, 'https://acme.test/#/cb?access_token=********'],
	])('%s', (url, expected) => {
		expect(masked({ url })).toEqual({ url: expected });
	});
});

describe('R4: names the vocabulary missed', () => {
	it.each(['ssh_key', 'hmac_key', 'license_key', 'licenseKey', 'creds', 'mnemonic', 'seed_phrase', 'recoveryPhrase', 'userpwd', 'userpass', 'bearer', 'BEARER'])(
		'%s: its value is masked',
		(key) => {
			expect(masked({ [key]: S })).toEqual({ [key]: MASKED_S });
		},
	);

	it('keys and hashes in the plural: their strings are masked one by one', () => {
		expect(masked({ keys: [S, S], hashes: [S] })).toEqual({ keys: [MASKED_S, MASKED_S], hashes: [MASKED_S] });
	});

	it('an object under a plural secrets name (GitHub secrets context, a Kubernetes Secret): its strings are secrets, its ids and counts kept', () => {
		const record = { secrets: { DB: S, SLACK: `x${S}`, nested: { TOKEN_2: S } }, credentials: { id: 'c-1', count: 3, note: S } };
		expect(masked(record)).toEqual({
			secrets: { DB: MASKED_S, SLACK: 'x********y', nested: { TOKEN_2: MASKED_S } },
			credentials: { id: 'c-1', count: 3, note: MASKED_S },
		});
	});

	it('names that describe a secret are kept: its kind, count, expiry, a key id', () => {
		const kept = { token_type: 'Bearer', refresh_token_exp: 3600, api_key_id: 7, pin_count: 2, tokenExpiresAt: '2026-11-28T00:00:00Z' };
		expect(masked(kept)).toEqual(kept);
	});
});

describe('R5: a record nested thousands deep', () => {
	const deep = (depth: number) => JSON.parse('{"a":'.repeat(depth) + `{"password":"${S}","note":"x"}` + '}'.repeat(depth));
	const deepList = (depth: number) => JSON.parse(`{"a":${'['.repeat(depth)}"${S}"${']'.repeat(depth)}}`);

	it.each(['masked', 'sha256', 'omit'] as const)('%s: masked below the cap, not a RangeError', (mode) => {
		for (const record of [deep(3_000), deepList(3_000)]) {
			const out = protectLeakedValues(record, mode);
			expect(JSON.stringify(out)).not.toContain(S);
		}
	});

	it('Masked: what lies 100 levels down is masked whole; what lies above is read as ever', () => {
		const out = protectLeakedValues(deep(150), 'masked');
		let at: unknown = out;
		for (let depth = 0; depth < 100; depth++) at = (at as { a: unknown }).a;
		expect(at).toEqual({ a: '********' });
		expect(protectLeakedValues(deep(40), 'masked')).toEqual(JSON.parse('{"a":'.repeat(40) + '{"password":"H********y","note":"x"}' + '}'.repeat(40)));
	});
});

describe("R6: a record's own values masked where they are whole, not in unrelated words, hosts or links", () => {
	it('a common password leaves the Flare link of its own record alone', () => {
		const record = { hash: '123456', flare_url: 'https://app.flare.io/#/events/leak/91234567', uid: '91234567', title: 'Leak 91234567: 123456 reused' };
		expect(masked(record)).toEqual({ ...record, hash: '********', title: 'Leak 91234567: ******** reused' });
	});

	it('a password that is a word of the rule ("password") is masked as a whole text, not in every sentence', () => {
		const out = masked({ password: 'password', title: 'Leaked password of a VPN account', note: 'password' });
		expect(out).toEqual({ password: '********', title: 'Leaked password of a VPN account', note: '********' });
	});

	it("a secret-named object notes its secret leaves only: the cookie's domain stays in the URL and the title", () => {
		const record = { cookie: { domain: 'acme-corp.com', value: 'Zq9w8e7r6t5y' }, url: 'https://acme-corp.com/login', title: 'Session of jane@acme-corp.com (Zq9w8e7r6t5y)' };
		expect(masked(record)).toEqual({ cookie: '********', url: 'https://acme-corp.com/login', title: 'Session of jane@acme-corp.com (********)' });
	});

	it('token_type "Bearer" leaves "Bearer" in other texts', () => {
		const record = { token_type: 'Bearer', note: 'Bearer tokens of the service account' };
		expect(masked(record)).toEqual(record);
	});

	it("a password equal to the site's name leaves the host; a whole path segment or parameter value is masked", () => {
		const record = { password: 'acme4corp', url: 'https://acme4corp.com/u/acme4corp/x?site=acme4corp&q=acme4corp2' };
		expect(masked(record)).toEqual({ password: '********', url: 'https://acme4corp.com/u/********/x?site=********&q=acme4corp2' });
	});
});

/**
 * Hostile review of 2026-12-07, R-M3: a record's own values are looked for in its URLs and prose
 * only where they could not be ordinary words (values.ts): a stealer log whose saved passwords are
 * `login`, `password` or `1` keeps every URL it holds, its own Flare link included.
 */
describe("R-M3: a record's short or common passwords leave its URLs whole", () => {
	const stealerLog = () => ({
		data: {
			credentials: [
				{ url: 'https://www.epicgames.com/id/login', username: 'user1@example.com', password: 'login' },
				{ url: 'https://x.example/', username: 'user2', password: 'password' },
				{ url: 'https://y.example/', username: 'user3', password: '1' },
				{ url: 'https://z.example/monkey', username: 'user4', password: 'monkey' },
			],
			features: {
				urls: ['https://www.roblox.com/login', 'https://myaccount.google.com/signinoptions/password', 'https://bitly.com/a/sign_up?step=1'],
			},
		},
		metadata: { flare_url: 'https://app.flare.io/#/stealer_log/stealer_logs/1' },
	});

	it('every URL is kept whole, the passwords masked', () => {
		const out = masked(stealerLog());
		expect(out.data.credentials.map((credential) => credential.password)).toEqual(['********', '********', '********', '********']);
		expect({ credentials: out.data.credentials.map((credential) => credential.url), urls: out.data.features.urls, flareUrl: out.metadata.flare_url }).toEqual({
			credentials: stealerLog().data.credentials.map((credential) => credential.url),
			urls: stealerLog().data.features.urls,
			flareUrl: stealerLog().metadata.flare_url,
		});
	});

	it('a password that could be no ordinary word is still masked where a URL repeats it whole, but never in a Flare link', () => {
		const record = { password: 'Zq9w8e7r6t5y', url: 'https://acme.test/u/Zq9w8e7r6t5y', flare_url: 'https://app.flare.io/#/leak/Zq9w8e7r6t5y' };
		expect(masked(record)).toEqual({ password: 'Z********y', url: 'https://acme.test/u/********', flare_url: 'https://app.flare.io/#/leak/Zq9w8e7r6t5y' });
	});
});

