/**
 * A mail server for n8n's Send Email node (nodemailer behind the SMTP credential, whose host and port
 * are the credential's: 127.0.0.1 here). It speaks ESMTP as RFC 5321 describes it (EHLO, AUTH PLAIN
 * and LOGIN as RFC 4954, MAIL FROM, RCPT TO, DATA with dot-stuffing, RSET, NOOP, QUIT), refuses mail
 * before the credential's user and password authenticated (530), reads each message as RFC 5322 and
 * MIME write it (folded headers, encoded words, multipart bodies, quoted-printable and base64) and
 * records it with its envelope. No STARTTLS is offered: the credential has SSL/TLS off, on 127.0.0.1.
 */
import { net } from '../../support/node';
import { listen, type ReceivedLog } from './http';

export const SMTP_USER = 'flare-n8n@acme.example';
/** The password of the stand-in's credential (a placeholder, built from parts: no real password). */
export const SMTP_PASSWORD = ['smtp', 'FAKE', 'standin', '0001'].join('-');

export interface Email {
	/** The envelope: MAIL FROM and every RCPT TO. */
	envelope: { from: string; to: string[] };
	/** Headers by lowercased name (the last one of a name), unfolded and decoded. */
	headers: Record<string, string>;
	subject: string;
	/** The text/plain and text/html parts, decoded. */
	text?: string;
	html?: string;
}

/** A whole message is at most this long (552 beyond). */
const MAX_MESSAGE = 10 * 1_048_576;

export class SmtpStandIn {
	readonly emails: Email[] = [];
	private readonly server: net.Server;
	port = 0;

	constructor(private readonly log: ReceivedLog) {
		this.server = net.createServer((socket) => this.session(socket));
	}

	async start(port = 0): Promise<void> {
		this.port = await listen(this.server, port);
	}

	async stop(): Promise<void> {
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}

	private session(socket: net.Socket): void {
		let authed = false;
		let from: string | undefined;
		let to: string[] = [];
		let pending = '';
		let data: string[] | undefined;
		let dataSize = 0;
		let auth: { method: 'PLAIN' | 'LOGIN'; user?: string } | undefined;
		const reply = (line: string) => socket.write(`${line}\r\n`);
		const check = (user: string, password: string) => {
			authed = user === SMTP_USER && password === SMTP_PASSWORD;
			reply(
				authed
					? '235 2.7.0 Authentication successful'
					: '535 5.7.8 Authentication credentials invalid',
			);
		};
		const decode64 = (text: string) => Buffer.from(text, 'base64').toString('utf8');
		const command = (line: string) => {
			if (auth) {
				if (auth.method === 'PLAIN') {
					const [, user, password] = decode64(line).split('\0');
					auth = undefined;
					return check(user ?? '', password ?? '');
				}
				if (auth.user === undefined) {
					auth.user = decode64(line);
					return reply('334 UGFzc3dvcmQ6');
				}
				const user = auth.user;
				auth = undefined;
				return check(user, decode64(line));
			}
			const [verb, ...rest] = line.split(' ');
			const argument = rest.join(' ');
			switch (verb.toUpperCase()) {
				case 'EHLO':
					return reply('250-mail.stand-in\r\n250-AUTH PLAIN LOGIN\r\n250-8BITMIME\r\n250 SMTPUTF8');
				case 'HELO':
					return reply('250 mail.stand-in');
				case 'AUTH': {
					const [method, initial] = argument.split(' ');
					if (method?.toUpperCase() === 'PLAIN') {
						if (initial) {
							const [, user, password] = decode64(initial).split('\0');
							return check(user ?? '', password ?? '');
						}
						auth = { method: 'PLAIN' };
						return reply('334 ');
					}
					if (method?.toUpperCase() === 'LOGIN') {
						auth = { method: 'LOGIN', user: initial ? decode64(initial) : undefined };
						return reply(initial ? '334 UGFzc3dvcmQ6' : '334 VXNlcm5hbWU6');
					}
					return reply('504 5.5.4 Unrecognized authentication type');
				}
				case 'MAIL': {
					if (!authed) {
						this.refuse('MAIL FROM before authentication');
						return reply('530 5.7.0 Authentication required');
					}
					from = /^FROM:\s*<([^>]*)>/i.exec(argument)?.[1];
					to = [];
					return reply(
						from === undefined ? '501 5.5.4 Syntax: MAIL FROM:<address>' : '250 2.1.0 Ok',
					);
				}
				case 'RCPT': {
					if (from === undefined) return reply('503 5.5.1 Error: need MAIL command');
					const address = /^TO:\s*<([^>]+)>/i.exec(argument)?.[1];
					if (!address) return reply('501 5.5.4 Syntax: RCPT TO:<address>');
					to.push(address);
					return reply('250 2.1.5 Ok');
				}
				case 'DATA':
					if (to.length === 0) return reply('503 5.5.1 Error: need RCPT command');
					data = [];
					dataSize = 0;
					return reply('354 End data with <CR><LF>.<CR><LF>');
				case 'RSET':
					from = undefined;
					to = [];
					return reply('250 2.0.0 Ok');
				case 'NOOP':
					return reply('250 2.0.0 Ok');
				case 'QUIT':
					reply('221 2.0.0 Bye');
					return socket.end();
				default:
					return reply('502 5.5.2 Error: command not recognized');
			}
		};
		const dataLine = (line: string): void => {
			if (line !== '.') {
				dataSize += line.length + 2;
				if (dataSize <= MAX_MESSAGE) data!.push(line.startsWith('..') ? line.slice(1) : line);
				return;
			}
			const lines = data!;
			data = undefined;
			if (dataSize > MAX_MESSAGE) {
				reply('552 5.3.4 Message too big');
				return;
			}
			const email = { envelope: { from: from!, to }, ...readMessage(lines) };
			this.emails.push(email);
			const missing = ['from', 'to', 'date', 'subject'].filter((name) => !(name in email.headers));
			this.log.record({
				tool: 'smtp',
				method: 'SMTP',
				path: 'DATA',
				query: {},
				body: email,
				status: 250,
				problem: missing.length ? `headers missing: ${missing.join(', ')}` : undefined,
				at: Date.now(),
			});
			from = undefined;
			to = [];
			reply(`250 2.0.0 Ok: queued as ${this.emails.length}`);
		};
		socket.on('error', () => socket.destroy());
		socket.on('data', (chunk: Buffer) => {
			pending += chunk.toString('utf8');
			let end: number;
			while ((end = pending.indexOf('\r\n')) !== -1) {
				const line = pending.slice(0, end);
				pending = pending.slice(end + 2);
				if (data) dataLine(line);
				else command(line);
			}
			if (!data && pending.length > 4096) {
				reply('500 5.5.6 Line too long');
				socket.end();
			}
		});
		reply('220 mail.stand-in ESMTP');
	}

	private refuse(what: string): void {
		this.log.record({
			tool: 'smtp',
			method: 'SMTP',
			path: 'MAIL',
			query: {},
			body: undefined,
			status: 530,
			problem: what,
			at: Date.now(),
		});
	}
}

/** RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`) of a header, decoded. */
function decodeWords(value: string): string {
	return value
		.replace(/\?=\s+=\?/g, '?==?')
		.replace(
			/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g,
			(_all, _charset: string, kind: string, text: string) =>
				kind.toUpperCase() === 'B'
					? Buffer.from(text, 'base64').toString('utf8')
					: decodeQuotedPrintable(text.replace(/_/g, ' ')),
		);
}

function decodeQuotedPrintable(text: string): string {
	const bytes = text
		.replace(/=\r?\n/g, '')
		.replace(/=([0-9A-Fa-f]{2})/g, (_all, hex: string) => String.fromCharCode(parseInt(hex, 16)));
	return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** Headers (unfolded, decoded, by lowercased name) and the body lines after them. */
function split(lines: string[]): { headers: Record<string, string>; body: string[] } {
	const headers: Record<string, string> = {};
	let index = 0;
	let last = '';
	for (; index < lines.length && lines[index] !== ''; index++) {
		const line = lines[index];
		if (/^[ \t]/.test(line) && last) headers[last] += ` ${line.trim()}`;
		else {
			const colon = line.indexOf(':');
			last = line.slice(0, colon).trim().toLowerCase();
			headers[last] = line.slice(colon + 1).trim();
		}
	}
	for (const name of Object.keys(headers)) headers[name] = decodeWords(headers[name]);
	return { headers, body: lines.slice(index + 1) };
}

/** The text and HTML of a MIME entity (recursively through multipart bodies). */
function parts(headers: Record<string, string>, body: string[]): { text?: string; html?: string } {
	const type = (headers['content-type'] ?? 'text/plain').toLowerCase();
	const boundary = /boundary="?([^";]+)"?/i.exec(headers['content-type'] ?? '')?.[1];
	if (type.startsWith('multipart/') && boundary) {
		const found: { text?: string; html?: string } = {};
		let current: string[] | undefined;
		for (const line of body) {
			if (line === `--${boundary}` || line === `--${boundary}--`) {
				if (current) {
					const part = split(current);
					const got = parts(part.headers, part.body);
					found.text ??= got.text;
					found.html ??= got.html;
				}
				current = line === `--${boundary}` ? [] : undefined;
			} else current?.push(line);
		}
		return found;
	}
	const encoding = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
	const raw = body.join('\r\n');
	const decoded =
		encoding === 'base64'
			? Buffer.from(raw.replace(/\s+/g, ''), 'base64').toString('utf8')
			: encoding === 'quoted-printable'
				? decodeQuotedPrintable(raw)
				: raw;
	return type.startsWith('text/html') ? { html: decoded } : { text: decoded };
}

function readMessage(lines: string[]): Omit<Email, 'envelope'> {
	const { headers, body } = split(lines);
	return { headers, subject: headers.subject ?? '', ...parts(headers, body) };
}
