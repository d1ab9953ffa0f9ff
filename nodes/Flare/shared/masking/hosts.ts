/**
 * What the masking takes for a host, read in one pass over `at`…`end` without regular expressions:
 * a host's pattern backtracks, and on megabytes of `a.a.…` outgrew V8's stack and threw (CI,
 * 2026-12-07), so these hold at any length.
 */
import { isAsciiLetter, isDigit, isNameCode } from './chars';

/** Whether `at`…`end` holds a `.` (a host has; `localhost` aside, which a combo rarely names). */
export function hasDot(text: string, at: number, end: number): boolean {
	for (let index = at; index < end; index++) if (text.charCodeAt(index) === 0x2e) return true;
	return isLocalhost(text, at, end);
}

/** Whether `at`…`end` is a name a host may have: letters and digits of any script, `.`, `-`, `_`. */
export function isHostName(text: string, at: number, end: number): boolean {
	if (end <= at) return false;
	for (let index = at; index < end; index++) if (!isNameCode(text.charCodeAt(index))) return false;
	return true;
}

/** Whether `at`…`end` is a port: one digit or more. */
export function isPort(text: string, at: number, end: number): boolean {
	if (end <= at) return false;
	for (let index = at; index < end; index++) if (!isDigit(text.charCodeAt(index))) return false;
	return true;
}

/**
 * A combo's host: `localhost`, an IPv4 address, or labels of ASCII letters, digits, `_` and `-`
 * joined by dots and ending in two letters or more (`acme.com`, `vpn-2.acme.co.uk`).
 */
export function isComboHost(text: string, at: number, end: number): boolean {
	if (isLocalhost(text, at, end)) return true;
	let labels = 0;
	let labelStart = at;
	let digitsOnly = true;
	let lettersOnly = true;
	for (let index = at; index <= end; index++) {
		const code = index < end ? text.charCodeAt(index) : 0x2e;
		if (code === 0x2e) {
			const length = index - labelStart;
			if (length === 0) return false;
			labels++;
			if (index === end) {
				if (digitsOnly) return labels === 4 && length <= 3 && ipv4Labels(text, at, end);
				return labels >= 2 && lettersOnly && length >= 2;
			}
			[labelStart, digitsOnly, lettersOnly] = [index + 1, true, true];
		} else if (isAsciiLetter(code)) digitsOnly = false;
		else if (isDigit(code)) lettersOnly = false;
		else if (code === 0x5f || code === 0x2d) [digitsOnly, lettersOnly] = [false, false];
		else return false;
	}
	return false;
}

/** Whether each of the four labels of `at`…`end` has at most three digits. */
function ipv4Labels(text: string, at: number, end: number): boolean {
	let start = at;
	for (let index = at; index <= end; index++) {
		if (index < end && text.charCodeAt(index) !== 0x2e) continue;
		if (index - start > 3 || !isPort(text, start, index)) return false;
		start = index + 1;
	}
	return true;
}

/** Flare's hosts (`flare.io`, `app.flare.io`, with a port or not): its links name records by their ids. */
export function isFlareHost(text: string, at: number, end: number): boolean {
	let nameEnd = end;
	while (nameEnd > at && isDigit(text.charCodeAt(nameEnd - 1))) nameEnd--;
	if (nameEnd < end) {
		if (nameEnd === at || text.charCodeAt(nameEnd - 1) !== 0x3a) return false;
		nameEnd--;
	}
	const domain = nameEnd - 'flare.io'.length;
	if (domain < at || text.slice(domain, nameEnd).toLowerCase() !== 'flare.io') return false;
	if (domain === at) return true;
	if (text.charCodeAt(domain - 1) !== 0x2e) return false;
	// Labels of word characters and `-`, none empty.
	for (let index = at, labelStart = at; index < domain; index++) {
		const code = text.charCodeAt(index);
		if (code === 0x2e) {
			if (index === labelStart) return false;
			labelStart = index + 1;
		} else if (!(isAsciiLetter(code) || isDigit(code) || code === 0x5f || code === 0x2d)) return false;
	}
	return true;
}

const isLocalhost = (text: string, at: number, end: number) =>
	end - at === 9 && text.slice(at, end).toLowerCase() === 'localhost';
