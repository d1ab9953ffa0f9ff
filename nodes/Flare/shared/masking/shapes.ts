/**
 * Secrets known by their shape where no name stands beside them (docs/api-contract.md, "Masking",
 * rule 9, with each vendor's documentation of its format), and private keys:
 *
 *   AKIAIOSFODNN7EXAMPLE   → AKIA********     an AWS access key ID (AKIA long-term, ASIA temporary)
 *   ghp_… gho_… ghu_… ghs_… ghr_… github_pat_…  GitHub's tokens;   glpat-…  GitLab's
 *   xoxb-… xoxp-… xoxa-… xoxr-… xoxs-… xoxe-… xapp-…               Slack's tokens
 *   sk_live_… rk_live_… sk_test_… whsec_…                           Stripe's secret keys
 *   npm_…                  npm's tokens;      AIza…  Google's API keys;   SG.….…  SendGrid's
 *   sk-proj-… sk-ant-…     OpenAI's and Anthropic's keys
 *   123456789:AA…          a Telegram bot's token (the bot's number kept)
 *   eyJ….eyJ….…            a JSON Web Token, whole
 *   -----BEGIN RSA PRIVATE KEY----- … -----END …   a PEM private key's body (OpenSSH's, PGP's too)
 *
 * The prefix that names the kind is kept (it says what leaked), the rest masked. Each shape is read
 * on one run of name characters, which the reader consumes.
 */
import { SOFT, isAsciiLetter, isDigit, isSpace } from './chars';
import type { Reader } from './reader';

/** Prefixes and the least number of characters after each (the vendors' formats). */
const PREFIXED: Array<[prefix: string, least: number]> = [
	['ghp_', 36],
	['gho_', 36],
	['ghu_', 36],
	['ghs_', 36],
	['ghr_', 36],
	['github_pat_', 40],
	['glpat-', 20],
	['xoxb-', 10],
	['xoxp-', 10],
	['xoxa-', 10],
	['xoxr-', 10],
	['xoxs-', 10],
	['xoxe-', 10],
	['xoxe.xoxp-', 10],
	['xapp-', 10],
	['sk_live_', 16],
	['sk_test_', 16],
	['rk_live_', 16],
	['rk_test_', 16],
	['whsec_', 24],
	['npm_', 36],
	['AIza', 35],
	['sk-proj-', 20],
	['sk-svcacct-', 20],
	['sk-admin-', 20],
	['sk-ant-', 20],
	['SG.', 40],
];
/** AWS access key IDs: a prefix, then 16 upper-case letters and digits (IAM's "unique identifiers"). */
const AWS_KEY_PREFIXES = new Set(['AKIA', 'ASIA', 'ABIA', 'ACCA']);

/** The range to mask of a token of a known shape that the run `at`…`end` is, or undefined. */
export function tokenShape(
	plain: string,
	at: number,
	end: number,
	lineEnd: number,
): [number, number] | undefined {
	const length = end - at;
	const first = plain.charCodeAt(at);
	if (isDigit(first) || first === 0x62 /* b */) return telegramToken(plain, at, end, lineEnd);
	if (length < 20) return undefined;
	if (first === 0x65 /* e */ && plain.startsWith('eyJ', at)) return jsonWebToken(plain, at, end);
	if (
		length === 20 &&
		AWS_KEY_PREFIXES.has(plain.slice(at, at + 4)) &&
		/^[A-Z0-9]{16}$/.test(plain.slice(at + 4, end))
	) {
		return [at + 4, end];
	}
	for (const [prefix, least] of PREFIXED) {
		if (
			plain.charCodeAt(at) === prefix.charCodeAt(0) &&
			length >= prefix.length + least &&
			plain.startsWith(prefix, at)
		) {
			return [at + prefix.length, end];
		}
	}
	// OpenAI's older keys: sk- and 48 letters and digits.
	if (
		plain.startsWith('sk-', at) &&
		length >= 43 &&
		/^[A-Za-z0-9]+$/.test(plain.slice(at + 3, end))
	)
		return [at + 3, end];
	return undefined;
}

/** `eyJ<header>.eyJ<payload>.<signature>`: header and payload are base64url JSON objects. */
function jsonWebToken(plain: string, at: number, end: number): [number, number] | undefined {
	const run = plain.slice(at, end);
	const second = run.indexOf('.');
	if (second === -1 || !run.startsWith('.eyJ', second) || run.indexOf('.', second + 1) === -1)
		return undefined;
	return [at, end];
}

/**
 * A Telegram bot's token (Telegram's Bot API: `<bot id>:<35 characters>`), also in a Bot API URL's
 * path (`/bot123456789:AA…/sendMessage`); the bot's id is kept.
 */
function telegramToken(
	plain: string,
	at: number,
	end: number,
	lineEnd: number,
): [number, number] | undefined {
	let digits = at;
	if (plain.startsWith('bot', at)) digits += 3;
	const length = end - digits;
	if (length < 8 || length > 10 || plain.charCodeAt(end) !== 0x3a) return undefined;
	for (let index = digits; index < end; index++)
		if (!isDigit(plain.charCodeAt(index))) return undefined;
	let tokenEnd = end + 1;
	while (tokenEnd < lineEnd && tokenEnd - end <= 36 && isTokenCode(plain.charCodeAt(tokenEnd)))
		tokenEnd++;
	return tokenEnd - end - 1 === 35 ? [end + 1, tokenEnd] : undefined;
}

const isTokenCode = (code: number) =>
	isAsciiLetter(code) || isDigit(code) || code === 0x5f || code === 0x2d;

/**
 * A PEM block that starts at `at` (`-----BEGIN …`): when it is a private key's (`RSA PRIVATE KEY`,
 * `OPENSSH PRIVATE KEY`, `ENCRYPTED PRIVATE KEY`, PGP's `PRIVATE KEY BLOCK`), its body is masked to
 * its `-----END` or the end of the text. Returns where reading goes on.
 */
export function privateKey(reader: Reader, at: number): number {
	const { plain } = reader;
	const labelStart = at + 11;
	const label = plain.slice(labelStart, labelStart + 53);
	const labelLength = label.indexOf('-----');
	if (labelLength === -1) return labelStart;
	if (!/^[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?$/.test(label.slice(0, labelLength)))
		return labelStart + labelLength;
	const body = labelStart + labelLength + 5;
	const segmentEnd = reader.segmentEnd(body);
	// Where the next `-----END` is: looked for once per stretch of text.
	if (reader.keyEndAt < body) {
		const found = plain.indexOf('-----END', body);
		reader.keyEndAt = found === -1 ? Infinity : found;
	}
	// The body, without the line ends around it.
	let start = body;
	let end = Math.min(reader.keyEndAt, segmentEnd);
	const blank = (code: number) => isSpace(code) || code === SOFT;
	while (start < end && blank(plain.charCodeAt(start))) start++;
	while (end > start && blank(plain.charCodeAt(end - 1))) end--;
	reader.mask(start, end);
	return Math.min(reader.keyEndAt, segmentEnd);
}
