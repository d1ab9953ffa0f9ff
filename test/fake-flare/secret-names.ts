/**
 * Values planted under secret names. The masking decides by what a name means (README, "Leaked
 * values"): a name is a secret's when, split into words at `_ - .`, spaces and camelCase, one of its
 * words is one of the rule's, whatever the spelling. So the fake plants values under names made of
 * every word of that rule, in every spelling and nesting that Flare's data, an alert or a leaked
 * configuration may use, and the leaked-value scan (test/harness/collect.ts) finds any the masking
 * left in clear: a word dropped from the masking's rule fails the run.
 *
 * This is the fake's own copy of the rule's words, written from the README, not taken from the
 * masking's code (nodes/Flare/shared/output.ts): a word missing there leaves the values here in clear.
 */
import { createHash } from 'crypto';

import { planted, plantedNumber, plantedSecret } from './planted';

/**
 * The names of secrets, as words: each word of the rule alone and with the words beside which it is
 * usually met (`db_password`, `client_secret`, `x-api-key`), and `key` after the words that make it
 * a secret's. A name must be a secret's by its own words: `db` and `client` are not.
 */
const NAMES_AS_WORDS: readonly string[][] = [
	['password'],
	['db', 'password'],
	['user', 'password'],
	['passwd'],
	['smtp', 'passwd'],
	['passphrase'],
	['ssh', 'passphrase'],
	['passcode'],
	['pwd'],
	['admin', 'pwd'],
	['pass'],
	['mail', 'pass'],
	['pw'],
	['pin'],
	['vpn', 'pin'],
	['otp'],
	['mfa', 'otp'],
	['secret'],
	['client', 'secret'],
	['webhook', 'secret'],
	['aws', 'secret', 'access', 'key'],
	['token'],
	['access', 'token'],
	['refresh', 'token'],
	['auth', 'token'],
	['csrf', 'token'],
	['id', 'token'],
	['jwt'],
	['jwt', 'assertion'],
	['auth'],
	['basic', 'auth'],
	['authorization'],
	['proxy', 'authorization'],
	['cookie'],
	['set', 'cookie'],
	['session'],
	['session', 'id'],
	['sid'],
	['user', 'sid'],
	['credential'],
	['aws', 'credential'],
	['signature'],
	['hub', 'signature'],
	['sig'],
	['url', 'sig'],
	['api', 'key'],
	['x', 'api', 'key'],
	['app', 'key'],
	['access', 'key'],
	['private', 'key'],
	['shared', 'key'],
	['signing', 'key'],
	['encryption', 'key'],
	['master', 'key'],
	['client', 'key'],
	['key'],
	['hash'],
];

/**
 * Names written as one word, which the rule knows by their ending (`password`, `passwd`, `passphrase`,
 * `secret`, `token`, `cookie`, `sessid`, `sessionid`, `apikey`, `accesskey`, `privatekey`, `secretkey`).
 */
const ONE_WORD_NAMES: readonly string[] = [
	'dbpassword',
	'PHPSESSID',
	'JSESSIONID',
	'sessionid',
	'csrftoken',
	'authtoken',
	'clientsecret',
	'apikey',
	'privatekey',
	'accesskey',
	'secretkey',
	'setcookie',
	'masterpassphrase',
	'rootpasswd',
];

/** Secret names in the plural: their strings are secrets. */
export const PLURAL_SECRET_NAMES: readonly string[] = [
	'passwords',
	'tokens',
	'secrets',
	'apiKeys',
	'ACCESS_TOKENS',
	'credentials',
	'pins',
];

const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** The spellings of a name: snake, upper, camel, Pascal, kebab, Train (headers), dotted, spaced. */
const SPELLINGS: ReadonlyArray<(words: readonly string[]) => string> = [
	(words) => words.join('_'),
	(words) => words.join('_').toUpperCase(),
	(words) => words[0] + words.slice(1).map(capital).join(''),
	(words) => words.map(capital).join(''),
	(words) => words.join('-'),
	(words) => words.map(capital).join('-'),
	(words) => words.join('.'),
	(words) => words.join(' '),
];

const unique = (names: string[]) => [...new Set(names)];

/** Every secret name the fake plants under, in every spelling (JSON keys of any depth). */
export const SECRET_NAMES: readonly string[] = unique([
	...NAMES_AS_WORDS.flatMap((words) => SPELLINGS.map((spell) => spell(words))),
	...ONE_WORD_NAMES,
]);

/** The names as HTTP headers write them (`X-Api-Key`, `Proxy-Authorization`). */
export const HEADER_NAMES: readonly string[] = unique(
	NAMES_AS_WORDS.map((words) => words.map(capital).join('-')),
);

/** The names an assignment in free text or a URL parameter may have: a single word, without spaces. */
export const WORD_NAMES: readonly string[] = SECRET_NAMES.filter((name) => !name.includes(' '));

/** Names the masking treats as a secret's (the oracle of `maskedView`, test/integration/support.ts). */
export const SECRET_NAME_SET: ReadonlySet<string> = new Set([...SECRET_NAMES, ...HEADER_NAMES]);

/**
 * How many names of the lists one planting takes (a tenant's feed of 80 events plants under each of
 * the 360 names and the 325 without a space).
 */
const KEYS_PER_PLANTING = 8;
const WORDS_PER_PLANTING = 5;

/** Values planted under secret names, and every planted value among them (numbers written out). */
export interface PlantedUnderNames {
	fields: Record<string, unknown>;
	secrets: string[];
}

/**
 * An object of values planted under secret names, in every nesting: a string, a number, a list and
 * an object under a name; a header object and a list of
 * name/value pairs; a name deep in a configuration; a plural; an assignment in free text and in
 * JSON quoted as text; URL parameters, percent-encoded, under a secret name and under another; the
 * record's own secret quoted bare in free text.
 * `turn` picks the names, in turn: consecutive turns take the next names of each list, so that a
 * few dozen turns (a tenant's feed) plant under every name; without it, every name is planted.
 */
export function plantUnderSecretNames(seed: string, turn?: number): PlantedUnderNames {
	const secrets: string[] = [];
	const value = (what: string) => {
		const secret = plantedSecret('', `${seed}/${what}`);
		secrets.push(secret);
		return secret;
	};
	const take = (names: readonly string[], count: number, offset: number) =>
		turn === undefined
			? names
			: Array.from({ length: count }, (_, k) => names[(turn * count + k + offset) % names.length]);
	const fields: Record<string, unknown> = {};
	const keys = take(SECRET_NAMES, KEYS_PER_PLANTING, 0);
	keys.forEach((name, k) => {
		switch ((k + (turn ?? 0)) % 4) {
			case 0:
				fields[name] = value(name);
				break;
			case 1: {
				const number = plantedNumber(`${seed}/${name}`);
				secrets.push(String(number));
				fields[name] = number;
				break;
			}
			case 2:
				fields[name] = [value(`${name}/0`), value(`${name}/1`)];
				break;
			default:
				fields[name] = { user: 'svc-backup', value: value(name) };
		}
	});
	const [header, pair, deep, word, quoted, parameter, plural] = [
		take(HEADER_NAMES, 2, 0),
		take(HEADER_NAMES, 2, 2),
		take(SECRET_NAMES, 1, 3),
		take(WORD_NAMES, WORDS_PER_PLANTING, 0),
		take(WORD_NAMES, 2, 1),
		take(WORD_NAMES, WORDS_PER_PLANTING, 2),
		take(PLURAL_SECRET_NAMES, 1, 0),
	];
	fields.headers = {
		Accept: 'application/json',
		...Object.fromEntries(header.map((name) => [name, `Bearer ${value(`header/${name}`)}`])),
	};
	fields.header_list = [
		{ name: 'Accept', value: '*/*' },
		...pair.map((name) => ({ name, value: value(`pair/${name}`) })),
	];
	fields.config = { database: { host: 'db.internal', ...Object.fromEntries(deep.map((name) => [name, value(`deep/${name}`)])) } };
	fields.recovery = Object.fromEntries(plural.map((name) => [name, [value(`${name}/0`), value(`${name}/1`)]]));
	fields.env = word.map((name) => `export ${name}=${value(`env/${name}`)}`).join('\n');
	fields.log = JSON.stringify(Object.fromEntries(quoted.map((name) => [name, value(`log/${name}`)])));
	// A value with characters a URL encodes, under a secret parameter's name; the record's own secret
	// (under its name above) repeated encoded under a parameter of another name.
	const encoded = parameter.map((name) => {
		const special = planted(`p@ss w0rd#${hex(`${seed}/url/${name}`)}`);
		secrets.push(special);
		return `${name}=${encodeURIComponent(special)}`;
	});
	const own = planted(`own secret&${hex(`${seed}/own`)}`);
	secrets.push(own);
	fields.own_secret = own;
	fields.callback_url = `https://sso.example.org/cb?state=af31&${encoded.join('&')}&next=${encodeURIComponent(own)}&lang=en`;
	// A number under a secret's name; the record's own secret quoted bare in free text (not the
	// number: a test that turns every number of an answer into text parts them).
	const pin = plantedNumber(`${seed}/pin`);
	secrets.push(String(pin));
	fields.pin = pin;
	fields.note = `The new code ${own} was sent by text message.`;
	return { fields, secrets };
}

function hex(seed: string): string {
	return createHash('sha1').update(seed).digest('hex').slice(0, 12);
}
