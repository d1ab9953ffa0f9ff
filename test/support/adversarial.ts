/**
 * Texts written to make masking slow (docs/api-contract.md, "Masking", "Speed"): each shape repeats
 * a unit that starts some notation and never finishes it, or finishes it in the most expensive way,
 * up to any size. The time property (test/unit/masking-time.test.ts) masks each at n and 4n bytes
 * and compares the CPU time; the bench (bench/sections/masking.ts) prints their speed.
 */
import { randomBytes } from 'crypto';

/** A text of about `bytes` bytes: `unit` repeated. */
const fill = (unit: string, bytes: number) => unit.repeat(Math.max(1, Math.ceil(bytes / unit.length)));

/** Each shape, by what it tries: a text of about `bytes` bytes. */
export const ADVERSARIAL: Record<string, (bytes: number) => string> = {
	// Tags.
	'<mark> tags around one value (R-M1)': (bytes) => `jane@acme.com:${'<mark>'.repeat(Math.ceil(bytes / 14))}${'a</mark>'.repeat(Math.ceil(bytes / 14))}`,
	'<mark> tags around every character': (bytes) => `jane@acme.com:${fill('<mark>a</mark>', bytes)}`,
	'inline tags never closed': (bytes) => `Password: ${fill('<b><span class="x">', bytes)}x`,
	'tags never ended (<a b="…)': (bytes) => fill('<a b="', bytes),
	'tags with > in quotes': (bytes) => fill('<a b=">">', bytes),
	'BBCode never ended': (bytes) => fill('[url=', bytes),
	'table cells': (bytes) => `<table><tr><th>User</th><th>Password</th></tr>${fill('<tr><td>a</td><td>b</td></tr>', bytes)}</table>`,
	'comments never closed': (bytes) => fill('<!-- password: ', bytes),
	// Quotes.
	'quoted values never closed': (bytes) => fill('password="a ', bytes),
	'quotes of both kinds, alternating': (bytes) => fill('password="a password=\'a ', bytes),
	'typographic quotes never closed': (bytes) => fill('password=“a “b ', bytes),
	'typographic quotes after a colon (RV-9)': (bytes) => fill(':\u201c', bytes),
	'typographic quotes of both kinds, no blank': (bytes) => fill('x\u201c:\u2018', bytes),
	'quotes escaped 32 times': (bytes) => fill(`:${'\\'.repeat(32)}"`, bytes),
	'&quot; escaped 16 times': (bytes) => fill(`:${'\\'.repeat(16)}&quot;`, bytes),
	'JSON escapes of every depth': (bytes) => fill('"password": \\"a \\\\\\"b ', bytes),
	'strings opened on one line': (bytes) => fill(':"a ', bytes),
	'pairs never closed': (bytes) => fill('key="password" value="a ', bytes),
	'calls never closed': (bytes) => fill("define('password', 'a", bytes),
	// Separators without values, labels without values.
	'separators without values': (bytes) => fill('password= password: token:= ', bytes),
	'labels without values, a line each': (bytes) => fill('Password:\n', bytes),
	'names of several words': (bytes) => fill('API Key Secret Key ', bytes),
	'labels of several words, a line each': (bytes) => fill('Password for the VPN (prod) 2:\n', bytes),
	'YAML block scalars': (bytes) => fill('password: |\n  a\n', bytes),
	'cells without values': (bytes) => fill('| Password | ', bytes),
	// Nesting and encodings.
	'JSON nested deep': (bytes) => `${fill('{"a":', bytes)}"x"`,
	'BBCode nested': (bytes) => fill('[b][i][u]', bytes),
	'entities': (bytes) => fill('&#58;&quot;&amp;', bytes),
	'percent-encoded parameters': (bytes) => `https://a.test/?${fill('x=%3Ftoken%3D', bytes)}`,
	'nested parameters': (bytes) => `https://a.test/?${fill('token=?', bytes)}`,
	'escaped newlines': (bytes) => fill('\\\\n\\u003d', bytes),
	// One huge line.
	'base64 after a label': (bytes) => `Payload:\n${randomBytes(Math.ceil((bytes * 3) / 4)).toString('base64')}`,
	'"a:" without blanks': (bytes) => fill('a:', bytes),
	'"jdoe:x " on one line': (bytes) => fill('jdoe:x ', bytes),
	// The Flare Alert Trigger's F0 shapes (alert-trigger-masking.test.ts), here as a ratio too.
	'a run of "_password"': (bytes) => `x${fill('_password', bytes)}`,
	'"ab:cd " tokens on one line': (bytes) => fill('ab:cd ', bytes),
	'e-mail addresses without passwords': (bytes) => fill('a@b.co:', bytes),
	'hosts in one chunk': (bytes) => fill('a.com/', bytes),
	'one dotted name (hosts.ts)': (bytes) => `${fill('a.', bytes)}flare.io/x`,
	'dotted numbers before a combo': (bytes) => `${fill('1.', bytes)}:jdoe:x`,
	'URLs with a port, one after another (fourth review, R4-1)': (bytes) => fill('http://a.b:1 ', bytes),
	'URLs with two colons, a line each': (bytes) => fill('https://x.y:1:\n', bytes),
	'URLs with a userinfo and a colon after the host': (bytes) => fill('https://a:b@c:d ', bytes),
	'Impacket targets without a host': (bytes) => fill('a/b:', bytes),
	'combos followed by labels': (bytes) => fill('a@b.co|Phone: ', bytes),
	'tags inside words': (bytes) => fill('a<F>', bytes),
	'URL schemes': (bytes) => fill('ftp://', bytes),
	'webhook prefixes': (bytes) => fill('https://hooks.slack.com/services/ ', bytes),
	'cookie pairs': (bytes) => `Cookie: ${fill('a=b;', bytes)}`,
	'spaces between credential lines': (bytes) => `jdoe:x${' '.repeat(bytes)}jdoe:y`,
	'a CSV header of many columns': (bytes) => `${fill('password,', bytes)}\n${fill('a,', bytes)}`,
	// Families' own look-ups.
	'elements never closed': (bytes) => fill('<password>aaaa', bytes),
	'options without values': (bytes) => fill('--password --token ', bytes),
	'private keys never ended': (bytes) => fill('-----BEGIN RSA PRIVATE KEY-----x', bytes),
	'.netrc machines': (bytes) => fill('machine ', bytes),
	'one-letter options of a command': (bytes) => `mysql ${fill('-p ', bytes)}`,
	'SQL without values': (bytes) => fill('IDENTIFIED BY WITH PASSWORD ', bytes),
	'values beside cookie fields': (bytes) => fill('"value": "a", "httpOnly": ', bytes),
	'token prefixes': (bytes) => fill('eyJ.eyJ ghp_ 123456789:AA ', bytes),
};

/** Fragments that start a notation and leave it open, for shapes fast-check composes. */
export const FRAGMENTS: readonly string[] = [
	'<mark>', '</mark>', '<b>', '<a b="', '[b]', '[url=', '**', '`', "'''", '&#58;', '&quot;', '\\"', '\\\\n',
	'password=', 'Password: ', 'token="', "'secret', '", 'key="password" value="', ' | Password | ', ',password',
	'\t', '{"a":', '[', '(', 'a@b.co:', 'a.com/', 'https://a.test/?token=', '%3Ftoken%3D', 'ftp://u:',
	'-----BEGIN RSA PRIVATE KEY-----', 'machine a ', 'mysql -p', '--password ', 'Cookie: a=', 'eyJ', 'ghp_', '\n',
	'\u201c', '\u2018', ':', `${'\\'.repeat(33)}"`, '\\&quot;', 'Password for the VPN:', 'password: |\n ',
	'a/b:', ' IDENTIFIED BY ', '| ', '\u00a0', '<F>',
];
