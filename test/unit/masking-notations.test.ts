/**
 * Notations the one reader reads (docs/api-contract.md, "Masking"), from the hostile review of issue
 * 38 (RV-1 to RV-8): a private key after its name, links in angle brackets, values that hold `;`,
 * quotes or `<`, labels of several words, tables with a row number's column, a record's own secret
 * with markup's characters at its edge, YAML block scalars, no-break spaces, command lines and SQL;
 * and the ordinary text that stays as it is.
 */
import { maskFreeText, protectLeakedValues } from '../../nodes/Flare/shared/masking';

// Test values built from parts, so that they are not taken for hardcoded secrets.
const PW = ['Hunter', '2024', 'x'].join('');
const masked = <T extends object>(record: T): string =>
	JSON.stringify(protectLeakedValues(structuredClone(record) as never, 'masked'));

describe('a private key written after a secret’s name has its body masked (RV-1)', () => {
	const BODY = ['MIIEvQIBADANBgkqhkiG9w0BAQEFAASC', 'BKcwggSjAgEAAoIBAQC7'];
	const KEY = `-----BEGIN PRIVATE KEY-----\n${BODY.join('\n')}\n-----END PRIVATE KEY-----\n`;
	it.each([
		// A Google Cloud service account's JSON, the most leaked key file there is.
		['service-account JSON', JSON.stringify({ type: 'service_account', private_key: KEY, client_email: 'ci@p.iam.gserviceaccount.com' })],
		['.env with \\n escapes', `PRIVATE_KEY="${KEY.replace(/\n/g, '\\n')}"`],
		['YAML label', `private_key: ${KEY}`],
		['INI', `ssh_key = ${KEY}`],
		['JSON in a JSON string', JSON.stringify({ log: JSON.stringify({ private_key: KEY }) })],
	])('%s: the key’s body is masked', (_shape, text) => {
		for (const output of [maskFreeText(text), masked({ data: { content: text } })]) {
			for (const line of BODY) expect(output).not.toContain(line);
		}
	});
});

describe('a URL in angle brackets (Markdown autolink, Slack’s <url|text>) is read as a URL (RV-2)', () => {
	it.each([
		['Markdown autolink, userinfo', `Check <https://jane:${PW}@acme.com/db> now`, PW],
		['Slack link, webhook path', '<https://hooks.slack.com/services/T0ACME/B0ACME/Zq9Rt7Xk2Pm4Ws8Lb1Nc|hook>', 'Zq9Rt7Xk2Pm4Ws8Lb1Nc'],
		['autolink, webhook path', '<https://hooks.slack.com/services/T0ACME/B0ACME/Zq9Rt7Xk2Pm4Ws8Lb1Nc>', 'Zq9Rt7Xk2Pm4Ws8Lb1Nc'],
		// Here the node masks the port and path instead: the output looks masked.
		['postgres autolink', `<postgres://app:${PW}@db.acme.com:5432/app>`, PW],
	])('%s: the secret is masked', (_shape, text, secret) => {
		expect(maskFreeText(text)).not.toContain(secret);
	});

	it('the Slack link’s label and the URL’s host stay', () => {
		const output = maskFreeText(`<https://acme.com/reset?token=${PW}|reset link>`);
		expect(output).not.toContain(PW);
		expect(output).toContain('|reset link>');
	});
});

describe('a value that holds ;, quotes, a backtick or < is masked whole (RV-3)', () => {
	// Characters of generated passwords (password managers' symbol sets); the generator never writes them.
	const TAIL = 'Zq9Rt';
	it.each([
		['stealer-log block', `URL: https://acme.com/login\nUsername: jane@acme.com\nPassword: Ab3Qw;${TAIL}\nApplication: Chrome`],
		['label', `Password: xK9;${TAIL}`],
		['X-Api-Key header', `X-Api-Key: Ab3Qw;${TAIL}`],
		['Bearer header', `Authorization: Bearer Ab3Qw1234;${TAIL}`],
		['.env', `PASSWORD=Ab3Qw;${TAIL}`],
		['assignment with an apostrophe', `set PASSWORD=Ab3Qw'${TAIL}`],
		['export with a double quote', `export DB_PASSWORD=Ab3Qw"${TAIL}`],
		['mysql -p', `mysql -u root -pAb3Qw'${TAIL} app`],
		['curl -u', `curl -u jane:Ab3Qw'${TAIL} https://acme.com`],
		['URL:login:password with "', `https://acme.com/login:jane:Ab3Qw"${TAIL}`],
		['URL:login:password with <', `https://acme.com/login:jane:Ab3Qw<${TAIL}`],
		['URL:login:password with a backtick', `https://acme.com/login:jane:Ab3Qw\`${TAIL}`],
	])('%s: no part of the password shows', (_shape, text) => {
		expect(maskFreeText(text)).not.toContain(TAIL);
	});
});

describe('a label of several words whose secret word is not the last has its value masked (RV-4)', () => {
	it.each([
		`Password for the VPN: ${PW}`,
		`Password for jane@acme.com: ${PW}`,
		`Password (case-sensitive): ${PW}`,
		`New password (temporary): ${PW}`,
		`Password 2: ${PW}`,
		`VPN password for jane: ${PW}`,
		`Пароль от почты: ${PW}`,
		`Contraseña del correo: ${PW}`,
	])('%s', (text) => {
		const output = maskFreeText(text);
		expect(output).not.toContain(PW);
		expect(output).toBe(text.replace(PW, '********'));
	});
});

describe('tables with a row number’s column, an empty header cell or a name with a colon are read (RV-5)', () => {
	it.each([
		['Markdown table with a # column', `| # | Email | Password |\n|---|---|---|\n| 1 | jane@acme.com | ${PW} |`],
		['CSV with a # column', `#,email,password\n1,jane@acme.com,${PW}`],
		['CSV with an empty first header cell', `,email,password\n1,jane@acme.com,${PW}`],
		['vertical HTML table, name with a colon', `<table><tr><td>Password:</td><td>${PW}</td></tr></table>`],
		['vertical Markdown table, name with a colon', `| Password: | ${PW} |`],
	])('%s: the password is masked', (_shape, text) => {
		const output = maskFreeText(text);
		expect(output).not.toContain(PW);
		if (text.includes('jane@acme.com')) expect(output).toContain('jane@acme.com');
	});

	it('the Markdown table’s delimiter row is not masked', () => {
		const text = `| # | Email | Password |\n|---|---|---|\n| 1 | jane@acme.com | ${PW} |`;
		expect(maskFreeText(text)).toContain('|---|---|---|');
	});
});

describe('a record’s own secret with markup’s characters at its edge is masked where the text repeats it (RV-6)', () => {
	it.each([
		['Qwerty123*', 'jane@acme.com used Qwerty123* on the VPN'],
		['_Summer2024_', 'reused _Summer2024_ everywhere'],
		['~Winter2024~', 'reused ~Winter2024~ everywhere'],
		['Secr3t**', 'typed Secr3t** at the prompt'],
		['abc\\ndef99', 'typed abc\\ndef99 at the prompt'],
	])('password %s repeated in the record’s free text is masked', (password, content) => {
		const output = protectLeakedValues({ password, content }, 'masked') as { content: string };
		expect(output.content).not.toContain(password);
	});
});

describe('YAML block scalars, no-break spaces, Clave, a password input, command lines and SQL (RV-7)', () => {
	it.each([
		['YAML block scalar', `password: |\n  ${PW}\nuser: jane`],
		['YAML folded scalar', `password: >-\n  ${PW}`],
		['French typography (no-break space before the colon)', `Mot de passe\u00a0: ${PW}`],
		['narrow no-break space', `Mot de passe\u202f: ${PW}`],
		['Spanish "Clave" (LATAM leaks)', `Usuario: jane\nClave: ${PW}`],
		['HTML password input', `<input type="password" value="${PW}">`],
		['docker login -p', `docker login -u ci -p ${PW} registry.acme.com`],
		['PsExec -p', `psexec \\\\10.0.0.5 -u ACME\\admin -p ${PW} cmd`],
		['impacket target', `impacket-psexec acme.local/admin:${PW}@10.0.0.5`],
		['SQL IDENTIFIED BY', `CREATE USER 'app'@'%' IDENTIFIED BY '${PW}';`],
		['mongosh -p', `mongosh -u admin -p ${PW}`],
		['typographic quotes after an unclosed one', `Note:\u201cdraft. password=\u2018my ${PW} pass\u2019`],
	])('%s', (_shape, text) => {
		expect(maskFreeText(text)).not.toContain(PW);
	});
});

describe('ordinary text stays as it is (RV-8)', () => {
	it('a word:word line masks the word there, not wherever the record repeats it', () => {
		const output = masked({ content: 'Classification:Confidential\nThe Confidential report is attached.' });
		expect(output).toContain('The Confidential report is attached.');
	});

	it('"Bearer authentication" is prose', () => {
		expect(maskFreeText('The API uses Bearer authentication over HTTPS.')).toBe('The API uses Bearer authentication over HTTPS.');
	});

	it('a link to Flare after a label is kept (nothing of a link to Flare is masked)', () => {
		const text = 'Session: https://app.flare.io/#/events/stealer_log/123';
		expect(maskFreeText(text)).toBe(text);
	});

	it('an authorization scheme with nothing after it (a preview cut there) is kept; its credential is masked', () => {
		expect(maskFreeText('try: curl -H "Authorization: Basic')).toBe('try: curl -H "Authorization: Basic');
		expect(maskFreeText('"Authorization": "Bearer"')).toBe('"Authorization": "Bearer"');
		expect(maskFreeText(`Authorization: Basic ${PW}`)).toBe('Authorization: Basic ********');
		expect(maskFreeText(`Authorization: token`)).toBe('Authorization: ********');
	});

	it.each(['Lockbit - part 3: ', 'Vpn - part 3: Update 2: '])('a Markdown table after "%s" on its line masks its password column', (title) => {
		const text = `${title}| # | Email | Password |\n|---|---|---|\n| 1 | admin@lockbit.com | ${PW} |`;
		expect(maskFreeText(text)).toBe(`${title}| # | Email | Password |\n|---|---|---|\n| 1 | admin@lockbit.com | ******** |`);
	});

	it.each([
		['Password database for sale: Password for the VPN: ', 'Password database for sale: ******** for the VPN: ********'],
		['Token dump: Analyst: `Contraseña del correo:` ', 'Token dump: Analyst: `Contraseña del correo:` ********'],
		["Password database for sale: 'password' => ", "Password database for sale: 'password' => ********"],
		['Token dump: password - ', 'Token dump: password - ********'],
		['Token dump: | password: | ', 'Token dump: | password: | ********'],
	])('a title naming a secret before a label leaves the label its value: %s', (text, expected) => {
		expect(maskFreeText(`${text}${PW}`)).toBe(expected);
	});

	it("a quote then a tag of no element inside a value is the value's (X-Api-Key: P~'<j>~x)", () => {
		expect(maskFreeText("X-Api-Key: Zq9~'<j>~Rt")).toBe('X-Api-Key: ********');
		expect(maskFreeText('Password: ab"<j>cd')).toBe('Password: ********');
	});

	// The second hostile review of issue 38 (review-38c): F1–F6.
	it.each([
		['Password for the VPN: Tr0ub4dor Username: jane', 'Password for the VPN: ******** Username: jane'],
		['Password 2: hunter2zz Expires: never', 'Password 2: ******** Expires: never'],
		['Пароль от почты: qwerty123 Логин: jane', 'Пароль от почты: ******** Логин: jane'],
		['Password 1: abc123xy Password 2: hunter2zz', 'Password 1: ******** Password 2: ********'],
		['Password (old): Abc!123x Password (new): hunter2zz', 'Password (old): ******** Password (new): ********'],
		['Password for VPN: n/a! Password for mail: hunter2zz', 'Password for VPN: ******** Password for mail: ********'],
		['Password 2: pin|9981', 'Password 2: ********'],
		['<password>pass:1234xyz</password>', '<password>********</password>'],
		['<password>hunter2zz (note: old)</password>', '<password>********</password>'],
	])('a label of several words keeps its value masked, whatever follows on its line: %s', (text, expected) => {
		expect(maskFreeText(text)).toBe(expected);
	});

	it('a block element after a quote ends the line: the label after it takes the rest of its own', () => {
		expect(maskFreeText('<p>He said "hi"<div>Password: correct horse battery</div>')).toBe('<p>He said "hi"<div>Password: ********</div>');
		expect(maskFreeText('<p>Hi "all"<li>Password: correct horse battery</li>')).toBe('<p>Hi "all"<li>Password: ********</li>');
	});

	it("a title's words after a label of several words are masked in place, not wherever the record repeats them", () => {
		const record = {
			title: 'Password dump of Microsoft: Microsoft accounts targeted',
			content: 'Microsoft confirmed the attack on Microsoft 365 tenants.',
			url: 'https://learn.microsoft.com/Microsoft/x',
		};
		expect(JSON.parse(masked(record))).toEqual({ ...record, title: 'Password dump of Microsoft: ********' });
		expect(maskFreeText('Password spraying campaign: Microsoft accounts targeted')).toBe('Password spraying campaign: Microsoft accounts targeted');
	});

	it('Authorization: Basic at a line’s end: a folded credential on the next line is masked, another header kept', () => {
		expect(maskFreeText('Authorization: Basic\n  dXNlcjpwYXNzd29yZA==')).toBe('Authorization: Basic\n  ********');
		expect(maskFreeText('Authorization: Basic\nHost: x.com')).toBe('Authorization: Basic\nHost: x.com');
	});

	it('an e-mail address followed by | and another label keeps that label', () => {
		expect(maskFreeText('Contact: jane@acme.com|Phone: 555-0100')).toBe('Contact: jane@acme.com|Phone: 555-0100');
	});
});

describe('what the new rules leave alone', () => {
	it.each([
		'docker run -p 8080:80 nginx',
		'Session 3: Introduction to threat hunting',
		'Password reset instructions: click the link in the e-mail',
		'Password policy: 12 characters or more',
		'Auth for the API: OAuth 2.0',
		'at 10/12:30 jane@acme.com wrote',
		'see /home/jane:x@y',
		'<user>jane</user><password-hint>none</password-hint>',
	])('%s', (text) => {
		expect(maskFreeText(text)).toBe(text);
	});

	it('a value after a label takes ";name:" without a blank (Bearer abc;a:x), and "; name=" ends a connection string’s', () => {
		expect(maskFreeText(`Authorization: Bearer ${PW};a:Zq9Rt`)).toBe('Authorization: Bearer ********');
		expect(maskFreeText(`mysql -u root -p${PW};a=Zq9Rt app`)).toBe('mysql -u root -p******** app');
		expect(maskFreeText(`Server=db;Password=${PW};User Id=sa`)).toBe('Server=db;Password=********;User Id=sa');
	});

	it('a tag of no HTML element inside a password is the password’s (Ab3<F>x); a known one is markup', () => {
		expect(maskFreeText(`mysql -u root -p${PW}<F>Zq9Rt app`)).toBe('mysql -u root -p******** app');
		expect(maskFreeText(`Password: <b>${PW}</b>`)).toBe('Password: <b>********</b>');
	});

	it('a word after a login on a line of its own is masked there, and only there (Classification:Confidential)', () => {
		const output = masked({ content: 'jane:Confidential\nThe Confidential report is attached.' });
		expect(output).toBe(JSON.stringify({ content: 'jane:********\nThe Confidential report is attached.' }));
	});

	it('a YAML block scalar masks the lines indented more than its label, and no further', () => {
		expect(maskFreeText(`db:\n  password: |\n    ${PW}\n    second\n\n    third\n  user: jane`)).toBe(
			'db:\n  password: |\n    ********\n    ********\n\n    ********\n  user: jane',
		);
	});
});
