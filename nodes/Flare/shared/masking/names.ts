/**
 * The one rule for the names of secrets (docs/api-contract.md, "Masking", "Secret names"), for JSON
 * keys at any depth, names in free text (`DB_PASSWORD=…`, `**Password:** …`, a table's header, an
 * element `<password>`, an option `--token`), URL parameters and header names alike: a name is split
 * into words at `_ - .`, spaces, camelCase and digits, lower-cased, and is a secret's when one of its
 * words is one of {@link SECRET_WORDS}, or ends with one of {@link SECRET_WORD_ENDINGS}, or is `key`
 * after one of {@link KEY_QUALIFIERS} (`api_key`) or `phrase` after one of {@link PHRASE_QUALIFIERS},
 * or the whole name is `key` or `hash`; unless it has two words or more and the last says a kind, a
 * count or a date ({@link DESCRIBING_WORDS}: `token_type`), or it is one of Flare's documented fields
 * that describe a secret without holding one ({@link NOT_SECRET_NAMES}).
 */

/** Words that name a secret, in the languages leaks are written in (README's list is generated from it). */
export const SECRET_WORDS: readonly string[] = [
	'password',
	'passwd',
	'passphrase',
	'passcode',
	'pwd',
	'pass',
	'pw',
	'pin',
	'otp',
	'secret',
	'token',
	'jwt',
	'auth',
	'authorization',
	'cookie',
	'session',
	'sid',
	'credential',
	'creds',
	'cred',
	'signature',
	'sig',
	'bearer',
	'mnemonic',
	// The word for password in the languages of leak forums and stealer logs.
	'passwort',
	'kennwort',
	'contraseña',
	'contrasena',
	'clave',
	'senha',
	'пароль',
	'wachtwoord',
	'hasło',
	'haslo',
	'heslo',
	'lozinka',
	'salasana',
	'lösenord',
	'losenord',
	'passord',
	'adgangskode',
	'jelszó',
	'jelszo',
	'şifre',
	'sifre',
	'密码',
	'密碼',
	'パスワード',
	'비밀번호',
];
const SECRET_WORD_SET = new Set(SECRET_WORDS);
/** The word for password where a language writes it in several (`mot de passe`, `mật khẩu`, `kata sandi`, `كلمة المرور`). */
export const SECRET_PHRASES: readonly string[] = ['mot de passe', 'mật khẩu', 'kata sandi', 'كلمة المرور', 'كلمة السر'];
const PHRASES = new RegExp(SECRET_PHRASES.map((phrase) => phrase.replace(/ /g, '_')).join('|'));

/** Endings of one-word names (`dbpassword`, `csrftoken`, `PHPSESSID`, `apikey`, `userpwd`, `userpass`). */
export const SECRET_WORD_ENDINGS: readonly string[] = [
	'password',
	'passwd',
	'passphrase',
	'secret',
	'token',
	'cookie',
	'sessid',
	'sessionid',
	'apikey',
	'accesskey',
	'privatekey',
	'secretkey',
	'sshkey',
	'hmackey',
	'licensekey',
	'accountkey',
	'seedphrase',
	'pwd',
];
/** `pass` ends a secret's name after these (`userpass`, `dbpass`). */
export const PASS_PREFIXES: readonly string[] = [
	'user',
	'db',
	'admin',
	'root',
	'login',
	'mail',
	'ftp',
	'ssh',
	'sql',
	'wifi',
	'my',
];
const SECRET_WORD_ENDING = new RegExp(
	`(?:${SECRET_WORD_ENDINGS.join('|')}|(?:${PASS_PREFIXES.join('|')})pass)$`,
);

/** `key` after one of these is a secret's name (`api_key`, `X-Api-Key`, `AccountKey`, `private key`). */
export const KEY_QUALIFIERS: readonly string[] = [
	'api',
	'app',
	'access',
	'account',
	'private',
	'shared',
	'signing',
	'encryption',
	'master',
	'client',
	'ssh',
	'hmac',
	'license',
	'licence',
	'product',
	'gpg',
	'pgp',
	'rsa',
	'ssl',
	'tls',
	'wallet',
	'recovery',
	'deploy',
	'subscription',
];
const KEY_QUALIFIER_SET = new Set(KEY_QUALIFIERS);
/** `phrase` after one of these (`seed_phrase`, `recoveryPhrase`). */
export const PHRASE_QUALIFIERS: readonly string[] = [
	'seed',
	'recovery',
	'backup',
	'wallet',
	'mnemonic',
];
const PHRASE_QUALIFIER_SET = new Set(PHRASE_QUALIFIERS);
/** Names that are secrets' as a whole (a leaked password's hash); their plurals hold secrets. */
const SECRET_WHOLE_NAMES = new Set(['key', 'hash']);
const SECRETS_WHOLE_NAMES = new Set(['keys', 'hashes']);
/** A last word that says what kind, how many or until when (`token_type`, `pin_count`, `password_changed_at`). */
export const DESCRIBING_WORDS: readonly string[] = [
	'type',
	'types',
	'kind',
	'count',
	'exp',
	'expiry',
	'expires',
	'expiration',
	'length',
	'format',
	'algorithm',
	'at',
];
const DESCRIBING_WORD_SET = new Set(DESCRIBING_WORDS);
/**
 * Flare's documented fields that say something about a secret without holding one
 * (docs/api-contract.md, "Masking", with their sources), as the rule's words write them.
 */
export const NOT_SECRET_NAMES: readonly string[] = [
	'credential_hash',
	'known_password_id',
	'has_password',
	'has_pin',
	'password_type',
	'cookie_names',
	'auth_domains',
	'authorization_status',
	'authorization_request_status',
	'credential_count',
	'leaked_credential_count',
	'contains_secrets',
	'secrets_metadata',
	'number_of_leaked_secrets',
	'secret_detection_rule_id',
	'is_secret_detection_rule_match',
	'api_key_id',
];
const NOT_SECRET_NAME_SET = new Set(NOT_SECRET_NAMES);

/** What a name says of its value: nothing, a secret, or (a plural: `passwords`, `tokens`) secrets. */
export const NOT_SECRET_NAME = 0;
export const SECRET_NAME = 1;
export const SECRETS_NAME = 2;
export type NameKind = typeof NOT_SECRET_NAME | typeof SECRET_NAME | typeof SECRETS_NAME;

/** Every name the rule makes a secret's holds one of these (a fast test for the many that do not). */
export const SECRET_NAME_HINT = new RegExp(
	`pass|pw|pin|otp|secret|token|jwt|auth|cookie|sess|sid|cred|sig|key|hash|bearer|mnemonic|phrase|khẩu|sandi|كلمة|${SECRET_WORDS.slice(SECRET_WORDS.indexOf('passwort')).join('|')}`,
	'i',
);

/** Names are read once each (Flare's records and texts have few distinct names); bounded against hostile ones. */
const KINDS = new Map<string, NameKind>();
const MAX_KINDS = 10_000;

/** What `name` says of its value (the rule above). */
export function nameKind(name: string): NameKind {
	if (name.length > 128 || !SECRET_NAME_HINT.test(name)) return NOT_SECRET_NAME;
	let kind = KINDS.get(name);
	if (kind === undefined) {
		kind = kindOfWords(wordsOf(name));
		if (KINDS.size < MAX_KINDS) KINDS.set(name, kind);
	}
	return kind;
}

/** The words of a name: split at `_ - .`, spaces, camelCase and digits, lower-cased. */
export function wordsOf(name: string): string[] {
	return name
		.replace(/([a-z])(?=[A-Z0-9])|([0-9])(?=[A-Za-z])|([A-Z])(?=[A-Z][a-z])/g, '$1$2$3 ')
		.toLowerCase()
		.split(/[\s_.-]+/)
		.filter((word) => word !== '');
}

/** Whether a word names a secret, alone or as the end of a word (`dbpassword`). */
const isSecretWord = (word: string) => SECRET_WORD_SET.has(word) || SECRET_WORD_ENDING.test(word);

function kindOfWords(words: string[]): NameKind {
	const joined = words.join('_');
	if (NOT_SECRET_NAME_SET.has(joined)) return NOT_SECRET_NAME;
	if (SECRET_WHOLE_NAMES.has(joined)) return SECRET_NAME;
	if (SECRETS_WHOLE_NAMES.has(joined)) return SECRETS_NAME;
	if (words.length > 1 && DESCRIBING_WORD_SET.has(words[words.length - 1])) return NOT_SECRET_NAME;
	// Languages that write it in several words: French, Vietnamese, Indonesian, Arabic.
	if (PHRASES.test(joined)) return SECRET_NAME;
	let plural = false;
	for (let index = 0; index < words.length; index++) {
		const word = words[index];
		if (isSecretWord(word)) return SECRET_NAME;
		const qualifiers =
			word === 'key' || word === 'keys'
				? KEY_QUALIFIER_SET
				: word === 'phrase' || word === 'phrases'
					? PHRASE_QUALIFIER_SET
					: undefined;
		if (qualifiers && index > 0 && qualifiers.has(words[index - 1])) {
			if (!word.endsWith('s')) return SECRET_NAME;
			plural = true;
		} else if (word.endsWith('s') && isSecretWord(word.slice(0, -1))) plural = true;
	}
	return plural ? SECRETS_NAME : NOT_SECRET_NAME;
}

/**
 * Values that are words of the rule itself (a password `password`, a token type `Bearer`): where
 * they are not the whole text they are the words that speak of secrets.
 */
export function isRuleWord(value: string): boolean {
	const lower = value.toLowerCase();
	return (
		SECRET_WORD_SET.has(lower) ||
		SECRET_WHOLE_NAMES.has(lower) ||
		lower === 'basic' ||
		lower === 'digest'
	);
}
