/**
 * Masking by what a name means (docs/api-contract.md, "Masking"): one rule for JSON keys, the names
 * of assignments in free text, URL parameters and header names. The hostile review of 2026-11-28,
 * finding M2 (secrets under keys outside an exact, case-sensitive table), its assertions turned to
 * what is promised; then the rule itself, and Flare's documented fields on either side of it.
 */
import { maskFreeText, protectLeakedValues } from '../../nodes/Flare/shared/masking';
import { cpuMsOf } from '../support/cpu';

// Test values, built from parts so that they are not taken for hardcoded secrets.
const PW = ['Winter', '2025', 'Globex!'].join('');
const MASKED_PW = 'W********!';
const masked = <T extends object>(record: T, mode: 'masked' | 'omit' | 'sha256' = 'masked'): T =>
	protectLeakedValues(structuredClone(record) as never, mode) as T;

describe('M2: secret-named keys outside the exact key table', () => {
	it('the same secret after a secret name in free text', () => {
		expect(maskFreeText(`db_password=${PW}`)).toBe('db_password=********');
		expect(maskFreeText(`"Password": "${PW}"`)).toBe('"Password": "********"');
		expect(maskFreeText(`Authorization: Bearer ${PW}`)).toBe('Authorization: Bearer ********');
		expect(maskFreeText(`X-Api-Key: ${PW}`)).toBe('X-Api-Key: ********');
	});

	it.each([
		['db_password (snake_case, a prefix)', 'db_password'],
		['Password (capitalised)', 'Password'],
		['PASSWORD (upper case)', 'PASSWORD'],
		['passwd', 'passwd'],
		['pwd', 'pwd'],
		['pass', 'pass'],
		['userPassword (camelCase)', 'userPassword'],
		['apiKey (camelCase)', 'apiKey'],
		['accessToken (camelCase)', 'accessToken'],
		['clientSecret (camelCase)', 'clientSecret'],
		['session_id (ends in _id, but names a session)', 'session_id'],
		['password_digest (ends in _digest, but names a password)', 'password_digest'],
		['auth_token', 'auth_token'],
		['aws_secret_access_key', 'aws_secret_access_key'],
		['Authorization (a header object, value "Bearer …")', 'Authorization'],
		['X-Api-Key (a header object)', 'X-Api-Key'],
	])('a record with %s: the value is masked', (_name, key) => {
		const value = key === 'Authorization' ? `Bearer ${PW}` : PW;
		const record = { uid: 'source_code/github/1', data: { [key]: value } };
		expect(masked(record)).toEqual({ uid: 'source_code/github/1', data: { [key]: key === 'Authorization' ? 'B********!' : MASKED_PW } });
	});
});

describe('the rule: every spelling of a secret name', () => {
	/** The names of the rule's vocabulary (README, "Leaked values"), each in its usual spellings. */
	const NAMES = [
		'password', 'passwd', 'passphrase', 'passcode', 'pwd', 'pass', 'pw', 'pin', 'otp',
		'secret', 'token', 'jwt', 'auth', 'authorization', 'cookie', 'session', 'sid', 'credential', 'signature', 'sig',
		'key', 'hash',
		'db_password', 'DB_PASSWORD', 'dbPassword', 'DbPassword', 'db-password', 'db.password', 'db password', 'dbpassword', 'password2',
		'api_key', 'apiKey', 'API_KEY', 'api-key', 'X-Api-Key', 'apikey', 'api key', 'x_api_key',
		'access_key', 'accessKey', 'private_key', 'privateKey', 'secret_key', 'secretKey', 'shared_key', 'signing_key', 'encryption_key', 'master_key', 'client_key', 'app_key',
		'access_token', 'accessToken', 'refresh_token', 'id_token', 'csrftoken', 'XSRF-TOKEN', 'X-Auth-Token', 'x-csrf-token', 'bearerToken',
		'client_secret', 'clientSecret', 'CLIENT_SECRET', 'entra_secret', 'webhookSecret',
		'Cookie', 'Set-Cookie', 'set_cookie', 'session_id', 'sessionId', 'sessionid', 'PHPSESSID', 'JSESSIONID', 'session_token',
		'Authorization', 'Proxy-Authorization', 'basic_auth', 'authToken', 'oauth_token',
		'credential', 'aws_credential', 'X-Amz-Signature', 'hub_signature',
		'pin_code', 'PIN', 'otp_code', 'jwt_token', 'cello_jwt',
	];

	it.each(NAMES)('%s: its value is masked, whatever its type', (name) => {
		expect(masked({ [name]: PW })).toEqual({ [name]: MASKED_PW });
		expect(masked({ [name]: 88442211 })).toEqual({ [name]: '********' });
		expect(masked({ [name]: [PW, PW] })).toEqual({ [name]: '********' });
		expect(masked({ [name]: { user: 'lucia', value: PW } })).toEqual({ [name]: '********' });
		expect(masked({ [name]: null })).toEqual({ [name]: null });
	});

	it.each(NAMES.filter((name) => !/\s/.test(name)))('%s: after it in free text, and in a URL, the value is masked', (name) => {
		expect(maskFreeText(`${name}=${PW}`)).toBe(`${name}=********`);
		expect(maskFreeText(`"${name}": "${PW}"`)).toBe(`"${name}": "********"`);
		expect(masked({ url: `https://app.globex.io/cb?${name}=${encodeURIComponent(PW)}&lang=en` })).toEqual({ url: `https://app.globex.io/cb?${name}=********&lang=en` });
	});

	it('a header object, a header list of name/value pairs (HAR), nested anywhere', () => {
		const record = {
			request: {
				headers: { Authorization: `Basic ${PW}`, 'X-Api-Key': PW, Accept: 'application/json' },
				header_list: [
					{ name: 'Cookie', value: `sid=${PW}` },
					{ name: 'Accept', value: 'text/html' },
					{ name: 'X-Auth-Token', value: PW },
				],
			},
			// A matching policy (OpenAPI v4 MatchingPolicy): its value is what it matches, whatever its name.
			policy: { name: 'CEO password watch', policy_type: 'INCLUDED_KEYWORDS', value: { keywords: ['ceo'] } },
		};
		expect(masked(record)).toEqual({
			request: {
				headers: { Authorization: 'B********!', 'X-Api-Key': MASKED_PW, Accept: 'application/json' },
				header_list: [
					{ name: 'Cookie', value: 's********!' },
					{ name: 'Accept', value: 'text/html' },
					{ name: 'X-Auth-Token', value: MASKED_PW },
				],
			},
			policy: { name: 'CEO password watch', policy_type: 'INCLUDED_KEYWORDS', value: { keywords: ['ceo'] } },
		});
	});

	it('a plural (passwords, tokens, cookies, api_keys): its strings are secrets, its objects are read, a count is kept', () => {
		const record = {
			passwords: [PW, { id: 7, hash: PW, hash_type: 'plain' }],
			tokens: PW,
			api_keys: [PW],
			cookies: [{ name: 'li_at', value: PW, domain: '.linkedin.com' }],
			credentials: 3,
			has_tokens: true,
		};
		expect(masked(record)).toEqual({
			passwords: [MASKED_PW, { id: 7, hash: MASKED_PW, hash_type: 'plain' }],
			tokens: MASKED_PW,
			api_keys: [MASKED_PW],
			cookies: [{ name: 'li_at', value: MASKED_PW, domain: '.linkedin.com' }],
			credentials: 3,
			has_tokens: true,
		});
		expect(masked(record, 'omit')).toEqual({
			passwords: [{ id: 7, hash_type: 'plain' }],
			api_keys: [],
			cookies: [{ name: 'li_at', domain: '.linkedin.com' }],
			credentials: 3,
			has_tokens: true,
		});
	});

	it('words that merely contain a secret word are not secret names', () => {
		const kept = {
			passport: 'X1234567',
			passenger: 'jane',
			bypass: 'none',
			compass: 'north',
			author: 'jane',
			authors: ['jane'],
			keyword: 'acme',
			keywords: ['acme'],
			monkey: 'banana',
			host_key: '.acme.com',
			project_key: 'SEC',
			sort_key: 'name',
			spinner: 'dots',
			signal: 'SIGTERM',
			design: 'flat',
			possession: 'none',
			tokenizer: 'words',
		};
		expect(masked(kept)).toEqual(kept);
	});
});

describe("Flare's documented fields (Flared/docs-api: OpenAPI v2, v3, v4 and the event pages)", () => {
	// Every documented property whose name holds a word of the rule, on either side of it.
	const SECRETS = {
		password: PW,
		hash: PW,
		secret: PW,
		api_key: PW,
		api_token: PW,
		entra_secret: PW,
		shared_key: PW,
		cello_jwt: PW,
		basic_auth: { username: 'lucia', password: PW },
		cookies: [{ host_key: '.globex.io', path: '/', name: 'sid', value: PW }],
	};
	const NOT_SECRETS = {
		credential_hash: 'a1b2c3d4e5f67890',
		known_password_id: 12,
		has_password: true,
		has_pin: false,
		password_type: 'plain',
		hash_type: 'md5',
		host_key: '.globex.io',
		cookie_names: ['sid', 'li_at'],
		auth_domains: ['globex.io'],
		authorization_status: 'authorized',
		authorization_request_status: 'pending',
		credential_count: 4,
		leaked_credential_count: 4,
		contains_secrets: true,
		secrets_metadata: [{ rule: 'aws-access-key', file: 'config.py', line: 2 }],
		number_of_leaked_secrets: 1,
		secret_detection_rule_id: 'aws-access-key',
		is_secret_detection_rule_match: true,
		api_key_id: 12,
		refresh_token_exp: 3600,
		project_key: 'SEC',
		keyword: 'globex',
		included_keywords: ['globex'],
		available_keyboards: ['en'],
		is_bypass: false,
		author_name: 'jane',
	};

	it('the secret ones are masked', () => {
		expect(masked(SECRETS)).toEqual({
			password: MASKED_PW,
			hash: MASKED_PW,
			secret: MASKED_PW,
			api_key: MASKED_PW,
			api_token: MASKED_PW,
			entra_secret: MASKED_PW,
			shared_key: MASKED_PW,
			cello_jwt: MASKED_PW,
			basic_auth: '********',
			cookies: [{ host_key: '.globex.io', path: '/', name: 'sid', value: MASKED_PW }],
		});
	});

	it('those that identify or describe a secret are kept, in any spelling', () => {
		expect(masked(NOT_SECRETS)).toEqual(NOT_SECRETS);
		const camel = { credentialHash: 'a1b2c3d4e5f67890', knownPasswordId: 12, hasPassword: true, passwordType: 'plain', secretsMetadata: [] };
		expect(masked(camel)).toEqual(camel);
	});
});

describe('the rule stays linear on attacker-written names', () => {
	/** Milliseconds of CPU to mask a record (another process keeping the machine busy does not count). */
	const took = async (make: () => unknown) => {
		const record = make();
		return await cpuMsOf(() => protectLeakedValues(record as never, 'masked'));
	};
	const distinctNames = () => Array.from({ length: 80_000 }, (_, k) => `n${k.toString(36)}x=v`).join(' ');

	// About 1 MiB each; the masking needs at most about 300 ms of CPU for one, a quadratic reading
	// minutes: a bound ten times what it needs (speed goals live in bench/).
	it.each([
		['80,000 distinct assignment names, 1 MiB', () => ({ data: { content: distinctNames() } })],
		// Each name holds `key`: every one is split into words (about 100 ms); half a MiB, for the bound.
		['35,000 distinct names holding "key", 0.5 MiB', () => ({ data: { content: Array.from({ length: 35_000 }, (_, k) => `keyx${k.toString(36)}=v`).join(' ') } })],
		['25,000 distinct keys holding "token", 0.6 MiB', () => ({ data: Object.fromEntries(Array.from({ length: 25_000 }, (_, k) => [`token_count_${k}`, k])) })],
		['"password=" then "a," repeated, 1 MiB', () => ({ data: { content: `password=${'a,'.repeat(524_288)}` } })],
		['"password=x" then 63 letters and a comma, repeated, 1 MiB', () => ({ data: { content: `password=x${`,${'a'.repeat(63)}`.repeat(16_384)}` } })],
		['"token=x, " repeated, 1 MiB', () => ({ data: { content: 'token=x, '.repeat(116_508) } })],
		['20,000 distinct keys, a third of them secret', () => ({ data: Object.fromEntries(Array.from({ length: 20_000 }, (_, k) => [k % 3 ? `field_${k}_value` : `field_${k}_password`, `value-${k}`])) })],
		['10,000 secrets alike and 1 MiB of text', () => ({ passwords: Array.from({ length: 10_000 }, (_, k) => `aaaaaa${k}`), content: 'a'.repeat(1_048_576) })],
	])('%s: under 3 s of CPU', async (_name, make) => {
		expect(await took(make)).toBeLessThan(3_000);
	});
});
