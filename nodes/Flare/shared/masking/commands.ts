/**
 * Command lines (docs/api-contract.md, "Masking", rule 5), as shells, scripts and attack logs write
 * them:
 *
 *   mysql -u root --password hunter2        docker login --password-stdin (kept: no secret follows)
 *   mysql -uroot -phunter2 db               sshpass -p 'hunter2' ssh admin@host
 *   curl -u admin:hunter2 https://…         smbclient //host/c$ -U admin%hunter2
 *   Connect-X -Credential … -Password …     xfreerdp /u:admin /p:hunter2 /v:host
 *   net user backup hunter2 /add            redis-cli -a hunter2
 *
 * A long option named like a secret takes the next word (`--password …`, PowerShell's `-Password
 * …`; `--password=…` is an assignment); `-u`, `--user` and `-U` a `user:password` (curl, wget) or
 * `user%password` (Samba); a one-letter option takes a password only after a command whose manual
 * says so ({@link PASSWORD_OPTIONS}): attached (`-phunter2`) or as the next word.
 */
import { isBlank, isQuote } from './chars';
import { SECRET_NAME, nameKind } from './names';
import { readValue } from './assignments';
import type { Reader } from './reader';

/**
 * Commands and the letters of their options that take a password, from each one's manual: MySQL and
 * MariaDB clients `-p`, sshpass `-p`, 7-Zip and RAR `-p`, Info-ZIP's zip and unzip `-P`, THC Hydra,
 * Medusa, NetExec/CrackMapExec and Evil-WinRM `-p`, FreeRDP and rdesktop `-p` (FreeRDP also `/p:`),
 * redis-cli `-a`, Microsoft's sqlcmd and bcp `-P`, `docker login` and `podman login` `-p`, Sysinternals'
 * PsExec and PAExec `-p`, MongoDB's shells and tools `-p`.
 */
const PASSWORD_OPTIONS: Record<string, string> = {
	mysql: 'p',
	mysqldump: 'p',
	mysqladmin: 'p',
	mysqlimport: 'p',
	mysqlshow: 'p',
	mariadb: 'p',
	'mariadb-dump': 'p',
	sshpass: 'p',
	'7z': 'p',
	'7za': 'p',
	rar: 'p',
	unrar: 'p',
	zip: 'P',
	unzip: 'P',
	hydra: 'p',
	medusa: 'p',
	crackmapexec: 'p',
	cme: 'p',
	nxc: 'p',
	netexec: 'p',
	'evil-winrm': 'p',
	xfreerdp: 'p',
	wfreerdp: 'p',
	rdesktop: 'p',
	'redis-cli': 'a',
	sqlcmd: 'P',
	bcp: 'P',
	docker: 'p',
	podman: 'p',
	psexec: 'p',
	psexec64: 'p',
	paexec: 'p',
	mongo: 'p',
	mongosh: 'p',
	mongodump: 'p',
	mongorestore: 'p',
	mongoexport: 'p',
	mongoimport: 'p',
};
/** Commands whose `-p` takes a password only in their `login` command. */
const LOGIN_COMMANDS = new Set(['docker', 'podman']);
/** What follows `machine` in a `.netrc`: a host, then `login` or `password`. */
const NETRC = /^\s+\S+\s+(?:login|password)\s/;
/** Options named like secrets that take none (`--password-stdin`, `--token-file`). */
const OPTION_WITHOUT_SECRET = /[-_.](?:stdin|file|prompt|env|command|cmd)$/i;
/** Options whose value is `user:password` or `user%password`. */
const USER_OPTIONS = new Set(['-u', '-U', '--user', '--proxy-user', '--username']);

/** Whether the run `at`…`end` is `word` (lower case), in any case. */
function isWord(reader: Reader, at: number, end: number, word: string): boolean {
	return end - at === word.length && (reader.plain.charCodeAt(at) | 0x20) === word.charCodeAt(0) && reader.plain.slice(at, end).toLowerCase() === word;
}

/**
 * What a word says of the line: `net user <name> <password>` (its second argument is masked, to
 * the next blank), or a `.netrc` (`machine <host> login <user> password <password>`). Cheap for the
 * words that say nothing: their length and first letter.
 */
export function commandWord(reader: Reader, at: number, end: number): void {
	if (reader.command === 'net user') {
		if (at < reader.argumentEnd) return;
		let chunkEnd = end;
		while (chunkEnd < reader.lineEnd && !isBlank(reader.plain.charCodeAt(chunkEnd))) chunkEnd++;
		reader.argumentEnd = chunkEnd;
		if (++reader.arguments === 2 && reader.plain.slice(at, chunkEnd) !== '*') reader.mask(at, chunkEnd);
		return;
	}
	if (isWord(reader, at, end, 'net')) reader.command = 'net';
	else if (reader.command === 'net' && isWord(reader, at, end, 'user')) {
		reader.command = 'net user';
		reader.arguments = 0;
	} else if (isWord(reader, at, end, 'machine') && NETRC.test(reader.plain.slice(end, end + 160))) {
		reader.netrc = true;
	}
}

/**
 * The command before `at` on its line whose options take a password (`mysql`, `/usr/bin/mysql`,
 * `mysql.exe`, after `sudo` or a prompt), found once per line: each word is read once.
 */
function commandBefore(reader: Reader, at: number): string | undefined {
	const { plain } = reader;
	if (reader.commandLine !== reader.lineStart) {
		reader.commandLine = reader.lineStart;
		reader.commandScan = reader.lineStart;
		reader.lineCommand = undefined;
	}
	for (let index = reader.commandScan; index < at && reader.lineCommand === undefined; ) {
		const end = reader.runEnd(index);
		if (end === index) {
			index++;
			continue;
		}
		if (end - index <= 16) {
			const word = plain.slice(index, end).toLowerCase().replace(/\.exe$/, '');
			// `docker login -p …`, but `docker run -p 8080:80`: a port.
			const login = !LOGIN_COMMANDS.has(word) || /^[ \t]+login\b/.test(plain.slice(end, end + 16));
			if (PASSWORD_OPTIONS[word] !== undefined && login) reader.lineCommand = word;
		}
		index = end;
		reader.commandScan = end;
	}
	return reader.lineCommand;
}

/** An option at `at`…`end` (it starts with `-`, or follows a `/`): masks what it takes; -1 when nothing. */
export function option(reader: Reader, at: number, end: number): number {
	const { plain } = reader;
	const run = plain.slice(at, end);
	if (plain.charCodeAt(at - 1) === 0x2f) {
		// FreeRDP's /p:password
		if (
			run === 'p' &&
			plain.charCodeAt(end) === 0x3a &&
			PASSWORD_OPTIONS[commandBefore(reader, at) ?? ''] === 'p'
		) {
			return readValue(reader, end + 1, {});
		}
		return -1;
	}
	const dashes = run.startsWith('--') ? 2 : 1;
	const name = run.slice(dashes);
	if (name === '') return -1;
	if (USER_OPTIONS.has(run)) return userPassword(reader, end);
	const letters = dashes === 1 ? PASSWORD_OPTIONS[commandBefore(reader, at) ?? ''] : undefined;
	if (letters !== undefined && letters.includes(name[0])) {
		// -phunter2, or -p hunter2
		if (name.length > 1) return readValue(reader, at + 2, {});
		return nextWord(reader, end);
	}
	if (dashes === 1 && name.length < 3) return -1;
	if (nameKind(name) !== SECRET_NAME || OPTION_WITHOUT_SECRET.test(name)) return -1;
	return nextWord(reader, end);
}

/** The word after an option, unless another option follows (`--password --user jane` takes nothing). */
function nextWord(reader: Reader, end: number): number {
	const { plain } = reader;
	if (!isBlank(plain.charCodeAt(end))) return -1;
	const value = reader.skipBlanks(end);
	if (value >= reader.lineEnd || plain.charCodeAt(value) === 0x2d) return end;
	return readValue(reader, value, {});
}

/** `-u user:password`, `-U user%password`: what follows the first `:` or `%`. */
function userPassword(reader: Reader, end: number): number {
	const { plain } = reader;
	let at = reader.skipBlanks(end);
	let limit = reader.lineEnd;
	if (isQuote(plain.charCodeAt(at))) {
		const close = reader.closingQuote(at);
		if (close !== -1) limit = close;
		at++;
	}
	let valueEnd = at;
	while (
		valueEnd < limit &&
		!isBlank(plain.charCodeAt(valueEnd)) &&
		!(isQuote(plain.charCodeAt(valueEnd)) && reader.endsString(valueEnd))
	)
		valueEnd++;
	for (let index = at; index < valueEnd; index++) {
		const code = plain.charCodeAt(index);
		if (code === 0x3a || code === 0x25) {
			reader.mask(index + 1, valueEnd);
			break;
		}
	}
	return valueEnd;
}
