/**
 * Every notation a leaked secret is written in (docs/api-contract.md, "Masking"), as the formats that
 * leaks really take write it: assignments and labels of source code, configuration and pastes;
 * command lines; headers; connection strings and URLs; tables; combo lists and stealer logs' blocks;
 * cookie files; private keys; tokens of known shapes. Each notation writes a planted value
 * (test/fake-flare/planted.ts) with a secret's name in any spelling of the rule, wrapped in any markup
 * (Markdown, Slack's mrkdwn, BBCode, HTML, wiki quotes, Flare's `<mark>`), quoted, escaped, indented,
 * with any line ending, inside prose.
 *
 * Two users: the masking's generation property (test/unit/masking-generated.test.ts: fast-check
 * writes every combination) and the fake Flare API (test/fake-flare/events.ts: each event's free text
 * quotes its planted values in these notations, so the run-wide leaked-value scan covers them on
 * every operation and both triggers).
 */
import fc from 'fast-check';

import { PLANTED_MARKER } from '../fake-flare/planted';

/** Who a quoted secret belongs to: an e-mail login, its user part, a host of the brand. */
export interface LeakContext {
	login: string;
	user: string;
	host: string;
}

/** Markup around a name or a value (`**Password:**`, `<b>x</b>`, `[b]Pass:[/b]`). */
export type Wrap = (text: string) => string;

/** What a value may hold in a notation: the characters that do not end it there. */
export type Alphabet = 'word' | 'wide' | 'quoted' | 'phrase' | 'cell' | 'url' | 'noSlashAt';

interface WriteParts {
	/** The value as the notation writes it (encoded where the notation encodes). */
	value: string;
	/** A secret's name, in one of the rule's spellings. */
	name: string;
	/** The name with its markup, and separator: `label(':')` gives `**Password:**` or `**Password**:`. */
	label: (separator: string) => string;
	/** The value with its markup. */
	wrapped: string;
	context: LeakContext;
}

export interface Notation {
	family: string;
	alphabet: Alphabet;
	/** Whether names and values take markup (labels and assignments of prose, not a CSV cell). */
	markup: boolean;
	/** Whether the name must be one word (an identifier, a header, a URL's parameter). */
	oneWord?: boolean;
	/** Whether the name is a label's phrase whose secret word is not the last (`Password for the VPN`). */
	phrase?: boolean;
	/** The text, and the value as it stands in it (what must not survive masking). */
	write(parts: WriteParts): [text: string, written: string];
}

const enc = encodeURIComponent;
const base64 = (text: string) => Buffer.from(text).toString('base64');
const upperSnake = (name: string) => name.replace(/([a-z])([A-Z])/g, '$1_$2').replace(/[\s.-]+/g, '_').toUpperCase();
const identifier = (name: string) => name.replace(/\s+/g, '_');

/** Notations of a name and a value. */
const named = (family: string, alphabet: Alphabet, write: Notation['write'], oneWord = false): Notation => ({
	family,
	alphabet,
	markup: true,
	oneWord,
	write,
});
/** Notations whose form is fixed (a header, a command, a table, a URL): no markup inside. */
const fixed = (family: string, alphabet: Alphabet, write: Notation['write']): Notation => ({
	family,
	alphabet,
	markup: false,
	write,
});

export const NOTATIONS: readonly Notation[] = [
	// Assignments and labels: source code, configuration, pastes, AI answers.
	named('assignment', 'word', ({ label, wrapped }) => [`${label('=')}${wrapped}`, wrapped], true),
	named('label', 'phrase', ({ label, wrapped }) => [`${label(':')} ${wrapped}`, wrapped]),
	{ ...named('label of several words', 'phrase', ({ label, wrapped }) => [`${label(':')} ${wrapped}`, wrapped]), phrase: true },
	named('label, French spacing', 'phrase', ({ name, wrapped }) => [`${name}\u00a0: ${wrapped}`, wrapped]),
	named('list label', 'phrase', ({ label, wrapped }) => [`- ${label(':')} ${wrapped}`, wrapped]),
	named('INI', 'phrase', ({ label, wrapped }) => [`${label(' =')} ${wrapped}`, wrapped]),
	named('JSON', 'quoted', ({ name, value }) => [`{"${name}": "${value}", "user": "jane"}`, value]),
	named('JSON in a string', 'quoted', ({ name, value }) => [JSON.stringify({ log: JSON.stringify({ [name]: value }) }), value]),
	named('PHP array', 'quoted', ({ name, value }) => [`'${name}' => '${value.replace(/'/g, '"')}',`, value.replace(/'/g, '"')]),
	named('Go', 'quoted', ({ name, value }) => [`${identifier(name)} := "${value}"`, value], true),
	named('.env', 'word', ({ name, value }) => [`export ${upperSnake(name)}=${value}`, value]),
	named('PHP config', 'quoted', ({ name, value }) => [`$cfg['${name}'] = "${value}";`, value]),
	named('YAML', 'phrase', ({ name, value }) => [`database:\n  host: db.internal\n  ${name}: ${value}\n  port: 5432`, value]),
	named('YAML quoted', 'quoted', ({ name, value }) => [`${name}: "${value}"`, value]),
	named('YAML block scalar', 'phrase', ({ name, value }) => [`${identifier(name)}: |\n  ${value}\nuser: jane`, value], true),
	named('YAML folded scalar', 'phrase', ({ name, value }) => [`${identifier(name)}: >-\n    ${value}`, value], true),
	named('PHP define', 'quoted', ({ name, value }) => [`define('${upperSnake(name)}', '${value.replace(/'/g, '"')}');`, value.replace(/'/g, '"')]),
	named('XML element', 'phrase', ({ name, value }) => [`<config>\n  <${identifier(name)}>${value}</${identifier(name)}>\n</config>`, value], true),
	named('.NET setting', 'quoted', ({ name, value }) => [`<add key="${name}" value="${value.replace(/"/g, "'")}"/>`, value.replace(/"/g, "'")]),
	named('header pair', 'quoted', ({ name, value }) => [`{"name": "${name}", "value": "${value}"}`, value]),
	named('Android string', 'phrase', ({ name, value }) => [`<string name="${identifier(name)}">${value}</string>`, value], true),
	named('Kubernetes env', 'word', ({ name, value }) => [`env:\n  - name: ${upperSnake(name)}\n    value: ${value}`, value]),
	named('properties', 'word', ({ name, value }) => [`db.url=jdbc:postgresql://db/app\ndb.${identifier(name)}=${value}`, value]),
	named('tab label', 'phrase', ({ name, value }) => [`Username\tjane\n${name}\t${value}`, value]),
	named('dash label', 'word', ({ label, wrapped }) => [`${label(' -')} ${wrapped}`, wrapped]),
	named('vertical table', 'cell', ({ name, value }) => [`| Field | Value |\n|---|---|\n| Username | jane |\n| ${name} | ${value} |`, value]),
	named('vertical table, name with a colon', 'cell', ({ name, value }) => [`| ${name}: | ${value} |`, value]),
	named('vertical HTML table', 'cell', ({ name, value }) => [`<table><tr><td>Username:</td><td>jane</td></tr><tr><td>${name}:</td><td>${value}</td></tr></table>`, value]),
	named('name and a private key', 'word', ({ name, value }) => [JSON.stringify({ type: 'service_account', [identifier(name)]: `-----BEGIN PRIVATE KEY-----\n${value}\n-----END PRIVATE KEY-----\n` }), value], true),
	// Stealer logs' blocks, and the formats that write a password without its name.
	fixed('stealer log', 'wide', ({ value, context }) => [`URL: https://${context.host}/login\nUsername: ${context.login}\nPassword: ${value}\nApplication: Chrome`, value]),
	fixed('stealer log, short', 'word', ({ value, context }) => [`SOFT: Chrome\nHOST: https://${context.host}\nUSER: ${context.user}\nPASS: ${value}`, value]),
	fixed('combo', 'wide', ({ value, context }) => [`${context.login}:${value}`, value]),
	fixed('combo with |', 'word', ({ value, context }) => [`${context.login}|${value}`, value]),
	fixed('combo with ;', 'word', ({ value, context }) => [`${context.login};${value}`, value]),
	fixed('URL:login:password', 'wide', ({ value, context }) => [`https://${context.host}/login:${context.login}:${value}`, value]),
	fixed('host:login:password', 'word', ({ value, context }) => [`${context.host}:${context.user}:${value}`, value]),
	fixed('android URL:login:password', 'word', ({ value, context }) => [`android://x2Vb==@com.${context.host.split('.')[0]}.app/:${context.user}:${value}`, value]),
	fixed('login:password line', 'word', ({ value, context }) => [`dump:\n${context.user}:${value}\n`, value]),
	fixed('.netrc', 'word', ({ value, context }) => [`machine ${context.host} login ${context.user} password ${value}`, value]),
	fixed('cookies.txt', 'word', ({ value, context }) => [`# Netscape HTTP Cookie File\n.${context.host}\tTRUE\t/\tTRUE\t1767225600\tsid\t${value}`, value]),
	fixed('cookie export', 'quoted', ({ value, context }) => [`[{"domain": ".${context.host}", "hostOnly": false, "name": "li_at", "value": "${value}", "path": "/"}]`, value]),
	fixed('cookie storage state', 'quoted', ({ value, context }) => [`{"cookies": [{"name": "li_at", "value": "${value}", "domain": ".${context.host}", "httpOnly": true}]}`, value]),
	// Headers.
	fixed('bearer', 'wide', ({ value }) => [`Authorization: Bearer ${value}`, value]),
	fixed('basic', 'word', ({ value, context }) => {
		const basic = base64(`${context.user}:${value}`);
		return [`curl -H "Authorization: Basic ${basic}" https://api.${context.host}/`, basic];
	}),
	fixed('API key header', 'wide', ({ value }) => [`X-Api-Key: ${value}`, value]),
	fixed('cookie header', 'word', ({ value }) => [`Cookie: sid=${value}`, value]),
	fixed('set-cookie', 'word', ({ value }) => [`Set-Cookie: sid=${value}; Path=/; HttpOnly`, value]),
	// Command lines.
	fixed('mysql -p', 'wide', ({ value }) => [`mysql -u root -p${value} app`, value]),
	fixed('--password', 'word', ({ value }) => [`mysqldump -u root --password ${value} app > app.sql`, value]),
	fixed('--password=', 'word', ({ value }) => [`wget --user=jane --password=${value} https://files.acme.test/`, value]),
	fixed('sshpass', 'quoted', ({ value, context }) => [`sshpass -p '${value.replace(/'/g, '"')}' ssh ${context.user}@${context.host}`, value.replace(/'/g, '"')]),
	fixed('curl -u', 'wide', ({ value, context }) => [`curl -u ${context.user}:${value} https://${context.host}/api`, value]),
	fixed('smbclient -U', 'word', ({ value, context }) => [`smbclient //${context.host}/c$ -U ${context.user}%${value}`, value]),
	fixed('PowerShell', 'word', ({ value }) => [`Connect-Service -User jane -Password ${value} -Force`, value]),
	fixed('xfreerdp', 'word', ({ value, context }) => [`xfreerdp /u:${context.user} /p:${value} /v:${context.host}`, value]),
	fixed('redis-cli', 'word', ({ value, context }) => [`redis-cli -h cache.${context.host} -a ${value} ping`, value]),
	fixed('net user', 'word', ({ value, context }) => [`net user ${context.user} ${value} /add`, value]),
	fixed('docker login', 'word', ({ value, context }) => [`docker login -u ci -p ${value} registry.${context.host}`, value]),
	fixed('PsExec', 'word', ({ value, context }) => [`psexec \\\\10.0.0.5 -u ${context.host.split('.')[0].toUpperCase()}\\${context.user} -p ${value} cmd`, value]),
	fixed('mongosh', 'word', ({ value }) => [`mongosh -u admin -p ${value} --authenticationDatabase admin`, value]),
	fixed('Impacket target', 'noSlashAt', ({ value, context }) => [`impacket-secretsdump ${context.host.split('.')[0]}.local/${context.user}:${value}@10.0.0.5`, value]),
	fixed('SQL IDENTIFIED BY', 'quoted', ({ value }) => [`CREATE USER 'app'@'%' IDENTIFIED BY '${value.replace(/'/g, '"')}';`, value.replace(/'/g, '"')]),
	fixed('SQL WITH PASSWORD', 'quoted', ({ value }) => [`ALTER USER app WITH PASSWORD '${value.replace(/'/g, '"')}';`, value.replace(/'/g, '"')]),
	fixed('HTML password input', 'quoted', ({ value }) => [`<input type="password" name="pw" value="${value.replace(/"/g, "'")}">`, value.replace(/"/g, "'")]),
	// Connection strings and URLs.
	fixed('connection string', 'word', ({ value, context }) => [`Server=db.${context.host};Database=app;User Id=sa;Password=${value};`, value]),
	fixed('postgres URL', 'url', ({ value, context }) => [`postgres://${context.user}:${enc(value)}@db.${context.host}:5432/app`, enc(value)]),
	fixed('mongodb URL', 'url', ({ value, context }) => [`mongodb+srv://${context.user}:${enc(value)}@cluster0.${context.host}/app`, enc(value)]),
	fixed('JDBC MySQL', 'url', ({ value, context }) => [`jdbc:mysql://db.${context.host}:3306/app?user=${context.user}&password=${enc(value)}`, enc(value)]),
	fixed('JDBC SQL Server', 'word', ({ value, context }) => [`jdbc:sqlserver://db.${context.host};user=${context.user};password=${value}`, value]),
	fixed('JDBC Oracle', 'noSlashAt', ({ value, context }) => [`jdbc:oracle:thin:${context.user}/${value}@db.${context.host}:1521:app`, value]),
	fixed('redis URL', 'url', ({ value, context }) => [`redis://:${enc(value)}@cache.${context.host}:6379/0`, enc(value)]),
	fixed('ftp URL', 'url', ({ value, context }) => [`mirror at ftp://backup:${enc(value)}@files.${context.host}/db.sql`, enc(value)]),
	fixed('autolink', 'url', ({ value, context }) => [`Check <https://${context.user}:${enc(value)}@${context.host}/db> now`, enc(value)]),
	fixed('Slack link', 'url', ({ value, context }) => [`<https://${context.host}/reset?token=${enc(value)}|reset link>`, enc(value)]),
	fixed('reset link', 'url', ({ value, context }) => [`reset at https://${context.host}/reset?token=${enc(value)}&lang=en now`, enc(value)]),
	// Tables.
	fixed('CSV', 'cell', ({ value, context }) => [`email,password,ip\n${context.login},${value},203.0.113.7`, value]),
	fixed('CSV quoted', 'quoted', ({ value, context }) => [`"email";"password"\n"${context.login}";"${value.replace(/"/g, '""')}"`, value.replace(/"/g, '""')]),
	fixed('CSV after a label', 'cell', ({ value, context }) => [`Dump: email,password\n${context.login},${value}`, value]),
	fixed('CSV with a # column', 'cell', ({ value, context }) => [`#,email,password\n1,${context.login},${value}`, value]),
	fixed('CSV with an empty first header cell', 'cell', ({ value, context }) => [`,email,password\n1,${context.login},${value}`, value]),
	fixed('Markdown table with a # column', 'cell', ({ value, context }) => [`| # | Email | Password |\n|---|---|---|\n| 1 | ${context.login} | ${value} |`, value]),
	fixed('TSV', 'cell', ({ value, context }) => [`login\tpassword\tcountry\n${context.login}\t${value}\tCA`, value]),
	fixed('Markdown table', 'cell', ({ value, context }) => [`| User | Password |\n|------|----------|\n| ${context.login} | ${value} |`, value]),
	fixed('HTML table', 'cell', ({ value, context }) => [`<table>\n  <tr><th>User</th><th>Password</th></tr>\n  <tr>\n    <td>${context.login}</td>\n    <td>${value}</td>\n  </tr>\n</table>`, value]),
	fixed('BBCode table', 'cell', ({ value, context }) => [`[table][tr][td]Login[/td][td]Pass[/td][/tr][tr][td]${context.login}[/td][td]${value}[/td][/tr][/table]`, value]),
	// Keys.
	fixed('PEM', 'word', ({ value }) => [`-----BEGIN RSA PRIVATE KEY-----\n${value}\n-----END RSA PRIVATE KEY-----`, value]),
	fixed('OpenSSH key cut', 'word', ({ value }) => [`-----BEGIN OPENSSH PRIVATE KEY-----\n${value}`, value]),
	fixed('PuTTY', 'word', ({ value }) => [`PuTTY-User-Key-File-2: ssh-rsa\nEncryption: none\nPublic-Lines: 1\nAAAAB3NzaC1yc2E\nPrivate-Lines: 1\n${value}\nPrivate-MAC: 7c2a`, value]),
];

/**
 * Tokens known by their shape, where no name stands beside them: the marker (or its upper-case hex,
 * where the shape has only upper-case letters and digits) inside the vendor's format.
 */
const MARKER_HEX = Buffer.from(PLANTED_MARKER).toString('hex').toUpperCase();
export const TOKEN_SHAPES: ReadonlyArray<(fill: string) => string> = [
	(fill) => `ghp_${PLANTED_MARKER}${fill.slice(0, 29)}`,
	(fill) => `github_pat_11AB${PLANTED_MARKER}_${fill.slice(0, 40)}`,
	(fill) => `glpat-${PLANTED_MARKER}${fill.slice(0, 13)}`,
	(fill) => `xoxb-1234567890-${PLANTED_MARKER}${fill.slice(0, 12)}`,
	(fill) => `sk_live_${PLANTED_MARKER}${fill.slice(0, 17)}`,
	(fill) => `npm_${PLANTED_MARKER}${fill.slice(0, 29)}`,
	(fill) => `AIza${PLANTED_MARKER}${fill.slice(0, 28)}`,
	(fill) => `sk-proj-${PLANTED_MARKER}${fill.slice(0, 30)}`,
	(fill) => `eyJhbGciOiJIUzI1NiJ9.eyJ${PLANTED_MARKER}${fill.slice(0, 12)}.${fill.slice(12, 40)}`,
	(fill) => `AKIA${MARKER_HEX}${fill.slice(0, 2).toUpperCase().replace(/[^A-Z0-9]/g, 'Q')}`,
	(fill) => `123456789:AA${PLANTED_MARKER}${fill.slice(0, 26)}`,
	(fill) => `https://hooks.slack.com/services/T0ACME/B0ACME/${PLANTED_MARKER}${fill.slice(0, 10)}`,
];

/** The ways the rule's names are spelt (names.ts), one word and several. */
export const SECRET_NAMES: readonly string[] = [
	'password', 'Password', 'PASSWORD', 'passwd', 'pwd', 'pass', 'Pass', 'DB_PASSWORD', 'db.password',
	'userPassword', 'user_pass', 'api_key', 'apiKey', 'API_KEY', 'X-Api-Key', 'access_token',
	'accessToken', 'auth_token', 'client_secret', 'clientSecret', 'secret', 'token', 'AWS_SECRET_ACCESS_KEY',
	'private_key', 'passphrase', 'pin', 'otp', 'session_id', 'Пароль', 'contraseña', 'senha', 'Passwort',
	'mot de passe', 'API Key', 'Secret Key', 'New Password', 'Recovery phrase', 'Clave', 'Lozinka', 'Mật khẩu',
	'Kata sandi', 'كلمة المرور',
];

/** Labels of several words whose secret word is not the last (a label's phrase). */
export const LABEL_PHRASES: readonly string[] = [
	'Password for the VPN', 'Password for jane@acme.com', 'Password (case-sensitive)', 'New password (temporary)',
	'Password 2', 'VPN password for jane', 'Пароль от почты', 'Contraseña del correo', 'API key for prod', 'Your password',
];

/** Markup a name or a value may be wrapped in. */
export const WRAPS: readonly Wrap[] = [
	(text) => text,
	(text) => `**${text}**`,
	(text) => `__${text}__`,
	(text) => `*${text}*`,
	(text) => `_${text}_`,
	(text) => `\`${text}\``,
	(text) => `~~${text}~~`,
	(text) => `'''${text}'''`,
	(text) => `[b]${text}[/b]`,
	(text) => `[color=red]${text}[/color]`,
	(text) => `<b>${text}</b>`,
	(text) => `<strong>${text}</strong>`,
	(text) => `<span class="secret">${text}</span>`,
	(text) => `<code>${text}</code>`,
	(text) => `<mark>${text}</mark>`,
];

const CHARS = {
	letters: 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
	symbols: '!@$%^*()+-.?/=:{}_',
	/** What password managers' symbol sets add: characters that end values in other notations. */
	more: ';\'"<>[]&#~`',
};

/** The characters a value may hold in each alphabet. */
export const ALPHABETS: Record<Alphabet, string> = {
	word: CHARS.letters + CHARS.symbols,
	wide: CHARS.letters + CHARS.symbols + CHARS.more,
	quoted: CHARS.letters + CHARS.symbols + ' ;,|&#<>[]',
	phrase: CHARS.letters + '!@$%^*?. ',
	cell: CHARS.letters + CHARS.symbols.replace(/[,;]/g, ''),
	url: CHARS.letters + CHARS.symbols + ' &#;,|"\'',
	noSlashAt: CHARS.letters + '!$%^*()+-.?=_',
};

/** A value to plant: the marker at both ends, so that any part of it left in clear is found. */
export function plantedIn(core: string): string {
	return `${PLANTED_MARKER}~${core}~${PLANTED_MARKER}`;
}

/** The parts of one leak, as fast-check or the fake picks them. */
export interface LeakChoice {
	notation: number;
	name: number;
	nameWrap: number;
	/** Whether the separator is inside the name's markup (`**Password:**`). */
	separatorInside: boolean;
	valueWrap: number;
	/** Split the value with Flare's `<mark>` tags at these fractions of its length (unbalanced too). */
	marks: number[];
	core: string;
	/** A label or a title first on the line ({@link LEADS}). */
	lead?: number;
}

/** A leak: the text and the value as it stands in it. */
export function writeLeak(choice: LeakChoice, context: LeakContext): [text: string, written: string] {
	return writeValue(choice, plantedIn(choice.core), context);
}

/**
 * What may come first on a leak's line: labels of no secret (`Analyst: Password: …`) and the
 * titles Flare's free text opens with (`Lockbit - part 3: | # | Email | Password |`); then titles
 * naming a secret themselves (`Password database for sale: Password for the VPN: …`), whose label
 * takes the rest of the line: the fake, whose outputs tests compare whole, writes the first only.
 */
const PLAIN_LEADS = ['', 'Analyst: ', 'Update 2: ', 'Lockbit - part 3: ', 'Leaked credential of jane@acme.com: ', 'Vpn - part 3: Update 2: '];
const LEADS = [...PLAIN_LEADS, 'Password database for sale: ', 'Token dump: Analyst: '];

/** A leak of `planted` (a value with the marker at both ends), as `choice` writes it. */
export function writeValue(
	choice: Omit<LeakChoice, 'core'>,
	planted: string,
	context: LeakContext,
): [text: string, written: string] {
	const notation = NOTATIONS[choice.notation % NOTATIONS.length];
	let value = planted;
	if (notation.alphabet === 'phrase') value = value.replace(/ +/g, ' ').trim();
	const names = notation.phrase
		? LABEL_PHRASES
		: notation.oneWord
			? SECRET_NAMES.filter((name) => !name.includes(' '))
			: SECRET_NAMES;
	const name = names[choice.name % names.length];
	const nameWrap = notation.markup ? WRAPS[choice.nameWrap % WRAPS.length] : WRAPS[0];
	const valueWrap = notation.markup ? WRAPS[choice.valueWrap % WRAPS.length] : WRAPS[0];
	const label = (separator: string) =>
		choice.separatorInside ? nameWrap(`${name}${separator}`) : `${nameWrap(name)}${separator}`;
	const marked = notation.markup && notation.alphabet !== 'quoted' ? withMarks(value, choice.marks) : value;
	const wrapped = valueWrap(marked);
	const [body, written] = notation.write({ value, name, label, wrapped, context });
	const text = `${LEADS[(choice.lead ?? 0) % LEADS.length]}${body}`;
	// The value as it stands, without the markup around it (which masking keeps around the mask).
	return [text, written === wrapped ? marked : written];
}

/** `value` with `<mark>` tags at these fractions of its length, opening and closing in turn. */
function withMarks(value: string, marks: number[]): string {
	const cuts = [...new Set(marks.map((mark) => Math.floor(mark * value.length)))].sort((a, b) => a - b);
	let result = '';
	let done = 0;
	cuts.forEach((cut, index) => {
		result += value.slice(done, cut) + (index % 2 === 0 ? '<mark>' : '</mark>');
		done = cut;
	});
	return result + value.slice(done);
}

/** The index of a notation, by its family's name. */
export function notationNamed(family: string): number {
	const index = NOTATIONS.findIndex((notation) => notation.family === family);
	if (index === -1) throw new Error(`no notation ${family}`);
	return index;
}

/**
 * The fake's leak number `k` of `planted`: every notation in turn, each time with other names,
 * markup and marks, so that what the fake serves holds every notation (test/fake-flare/events.ts).
 */
export function plantedLeak(k: number, planted: string, context: LeakContext): [text: string, written: string] {
	return writeValue(
		// Marks in pairs: a highlight inside the value, which masking takes with it.
		{ notation: k, name: k * 7, nameWrap: k * 5, separatorInside: k % 2 === 1, valueWrap: k * 3, marks: k % 4 === 0 ? [0.3, 0.6] : [], lead: k % PLAIN_LEADS.length },
		planted,
		context,
	);
}

/** A leaked token of a known shape, alone in a sentence. */
export function writeToken(shape: number, fill: string): string {
	return TOKEN_SHAPES[shape % TOKEN_SHAPES.length](fill);
}

// ---- the whole text around a leak ----

/** How the text around the leak is written. */
export interface Surroundings {
	prose: string[];
	indent: string;
	lineEnd: '\n' | '\r\n' | '\r';
	/** Inside a JSON string (`{"log": "…"}`), once or twice. */
	jsonLevels: number;
	/** `"` and `:` written as HTML entities. */
	entities: boolean;
}

const PROSE = [
	'Fresh access, enjoy',
	'Selling VPN access to acme.com, escrow accepted.',
	'The password policy requires 12 characters; tokens expire after an hour.',
	'Leaked credentials of 3 accounts below',
	'Ticket SOC-1234: rotated the keys, see runbook.',
	'Credentials: 3 found',
	'Bearer tokens of the service account',
	'Contact: jane@acme.com; phone 555-0100',
	'TLP:AMBER',
	'https://acme.com/login?next=/home',
];

/** The leak's text inside its surroundings. */
export function surround(text: string, around: Surroundings): string {
	const lines = [...around.prose.slice(0, 1), ...text.split('\n'), ...around.prose.slice(1)];
	let whole = lines.map((line) => (line === '' ? line : `${around.indent}${line}`)).join(around.lineEnd);
	// Entities in the text, not inside tags (an HTML page quoting a paste).
	if (around.entities) {
		whole = whole.replace(/(<(?:[^<>"']|"[^"]*"|'[^']*')*>)|"|(\w): /g, (match, tag: string | undefined, letter: string | undefined) =>
			tag ?? (letter !== undefined ? `${letter}&#58; ` : '&quot;'),
		);
	}
	for (let level = 0; level < around.jsonLevels; level++) whole = JSON.stringify({ log: whole });
	return whole;
}

// ---- fast-check ----

const fraction = fc.double({ min: 0.05, max: 0.95, noNaN: true });

/** A core of `alphabet`, the value's middle (the marker stands at both its ends). */
export function coreOf(alphabet: Alphabet, maxLength = 24): fc.Arbitrary<string> {
	const characters = [...ALPHABETS[alphabet]];
	return fc.string({ unit: fc.constantFrom(...characters), maxLength });
}

/** A leak written in any notation, with any name, markup and marks. */
export const leakArbitrary: fc.Arbitrary<LeakChoice> = fc
	.nat({ max: NOTATIONS.length - 1 })
	.chain((notation) =>
		fc.record({
			notation: fc.constant(notation),
			name: fc.nat({ max: SECRET_NAMES.length - 1 }),
			nameWrap: fc.nat({ max: WRAPS.length - 1 }),
			separatorInside: fc.boolean(),
			valueWrap: fc.nat({ max: WRAPS.length - 1 }),
			marks: fc.array(fraction, { maxLength: 3 }),
			core: coreOf(NOTATIONS[notation].alphabet),
			lead: fc.nat({ max: LEADS.length - 1 }),
		}),
	);

/** The text around a leak. */
export const surroundingsArbitrary: fc.Arbitrary<Surroundings> = fc.record({
	prose: fc.array(fc.constantFrom(...PROSE), { maxLength: 2 }),
	indent: fc.constantFrom('', '  ', '\t', '    '),
	lineEnd: fc.constantFrom('\n' as const, '\r\n' as const, '\r' as const),
	jsonLevels: fc.constantFrom(0, 0, 0, 1, 2),
	entities: fc.boolean(),
});

export const contextArbitrary: fc.Arbitrary<LeakContext> = fc.constantFrom(
	{ login: 'jane@acme.com', user: 'jane', host: 'acme.com' },
	{ login: 'it.admin@mail.initech.co.uk', user: 'it.admin', host: 'initech.co.uk' },
	{ login: 'b.ortiz+vpn@globex.io', user: 'b.ortiz', host: 'globex.io' },
);
