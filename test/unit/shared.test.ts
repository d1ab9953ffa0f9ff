import { describeBody, failureFromError, retryAfterMs } from '../../nodes/Flare/shared/errors';
import { buildPath } from '../../nodes/Flare/shared/operation';
import { maskValue, protectLeakedValues } from '../../nodes/Flare/shared/output';

describe('error bodies are read in the decided order', () => {
	it.each([
		[{ error: { code: 'FORBIDDEN', message: 'no astp' }, detail: [{ msg: 'ignored' }], message: 'ignored' }, { code: 'FORBIDDEN', message: 'no astp' }],
		[{ detail: [{ loc: ['body', 'size'], msg: 'too big' }, { loc: ['query', 'from'], msg: 'bad' }], message: 'ignored' }, { message: 'too big; bad', details: [{ loc: ['body', 'size'], msg: 'too big' }, { loc: ['query', 'from'], msg: 'bad' }] }],
		[{ message: 'Activity not found', code: 'not_found' }, { message: 'Activity not found', code: 'not_found' }],
		['{"error":{"code":"X","message":"from text"}}', { code: 'X', message: 'from text' }],
		['<html>502</html>', {}],
		[undefined, {}],
	])('%j → %j', (body, expected) => {
		expect(describeBody(body)).toEqual(expected);
	});

	it('reads Retry-After as seconds, decimals or an HTTP date, past dates as negative', () => {
		expect(retryAfterMs('3')).toBe(3000);
		expect(retryAfterMs('0.25')).toBe(250);
		expect(retryAfterMs('-5')).toBe(-5000);
		expect(retryAfterMs(undefined)).toBeUndefined();
		expect(retryAfterMs('soon')).toBeUndefined();
		const inFiveSeconds = new Date(Date.now() + 5_000).toUTCString();
		expect(retryAfterMs(inFiveSeconds)).toBeGreaterThan(3_000);
		expect(retryAfterMs('Fri, 31 Dec 2100 23:59:59 GMT')).toBeGreaterThan(2_000_000_000_000);
		expect(retryAfterMs('Thu, 01 Jan 1970 00:00:00 GMT')).toBeLessThan(0);
	});

	it('tells a failed token exchange, a network error, a redirect and an answered error apart', async () => {
		const tokenFailure = { cause: Object.assign(new Error('The API key was rejected by Flare (HTTP 401).'), { name: 'FlareTokenError' }) };
		await expect(failureFromError(tokenFailure, 'https://api.flare.io/x')).resolves.toEqual({ code: 'TOKEN_EXCHANGE', message: 'The API key was rejected by Flare (HTTP 401).' });
		await expect(failureFromError({ cause: { code: 'ECONNRESET' } }, 'https://api.flare.io/x')).resolves.toEqual({ code: 'ECONNRESET' });
		const redirect = { cause: { response: { status: 307, headers: { location: 'https://evil.example:8443/collect' } } } };
		await expect(failureFromError(redirect, 'https://api.flare.io/x')).resolves.toMatchObject({ status: 307, code: 'REDIRECT', location: 'evil.example:8443' });
		const relative = { cause: { response: { status: 301, headers: { location: '/elsewhere' } } } };
		await expect(failureFromError(relative, 'https://api.flare.io/x')).resolves.toMatchObject({ code: 'REDIRECT', location: 'api.flare.io' });
		// n8n 1.x keeps only the status and the body of an error answer.
		const fromN8nOne = { httpCode: '404', context: { data: { error: { code: 'NOT_FOUND', message: 'identifier 7999 not found' } } } };
		await expect(failureFromError(fromN8nOne, 'https://api.flare.io/x')).resolves.toEqual({ status: 404, code: 'NOT_FOUND', message: 'identifier 7999 not found' });
		await expect(failureFromError({ httpCode: '307' }, 'https://api.flare.io/x')).resolves.toEqual({ status: 307, code: 'REDIRECT', location: 'an unknown host' });
		const answered = { cause: { response: { status: 429, headers: { 'retry-after': '2' }, data: { error: { code: 'RATELIMIT_REACHED' } } } } };
		await expect(failureFromError(answered, 'https://api.flare.io/x')).resolves.toMatchObject({ status: 429, code: 'RATELIMIT_REACHED', retryAfterMs: 2000 });
	});
});

describe('leaked values', () => {
	it('hide the length: eight stars, and the first and last characters only from 12 characters on', () => {
		expect(maskValue('123456')).toBe('********');
		expect(maskValue('password')).toBe('********');
		expect(maskValue('Summer2024!')).toBe('********');
		expect(maskValue('Summer2024!!')).toBe('S********!');
		expect(maskValue('ab')).toBe('********');
		expect(maskValue('')).toBe('********');
		expect(maskValue(`a${'b'.repeat(98)}c`)).toBe('a********c');
		expect(maskValue('été€🔑xyz12345')).toBe('é********5');
		expect(maskValue('🔑'.repeat(11) + 'x')).toBe('🔑********x');
		expect(maskValue('\uD83D')).toBe('********');
	});

	it('mask values that are not strings, and keep null', () => {
		expect(maskValue(123456)).toBe('********');
		expect(maskValue(['Summer2024!'])).toBe('********');
		expect(maskValue({ value: 'CorrectHorseBatteryStaple' })).toBe('********');
		expect(maskValue(true)).toBe('********');
		expect(maskValue(null)).toBeNull();
	});

	it('protect the hash of a credential and of every password of an identity, not the credential_hash', () => {
		const identity = { name: 'a@b.c', passwords: [{ hash: 'secret1', credential_hash: 'abc' }, { hash: 'xy' }] };
		expect(protectLeakedValues(identity, 'omit')).toEqual({ name: 'a@b.c', passwords: [{ credential_hash: 'abc' }, {}] });
		expect(protectLeakedValues({ hash: 'p', credential_hash: 'abc' }, 'masked')).toEqual({ hash: '********', credential_hash: 'abc' });
		expect(protectLeakedValues({ hash: 123456 }, 'sha256')).toEqual({ hash: '8d969eef6ecad3c29a3a629280e686cf0c3f5d5a86aff3ca12020c923adc6c92' });
		expect(protectLeakedValues({ hash: 'x' }, 'full')).toEqual({ hash: 'x' });
	});
});

describe('paths', () => {
	it('put the segment in and encode every path parameter into one segment', () => {
		expect(buildPath('/{segment}/v4/identifiers/{identifier_id}', 'firework', { identifier_id: 7 })).toBe('/firework/v4/identifiers/7');
		expect(buildPath('/leaksdb/identities/by_password/{password}', 'x', { password: '../a b?#%+/é' })).toBe(
			'/leaksdb/identities/by_password/..%2Fa%20b%3F%23%25%2B%2F%C3%A9',
		);
		expect(() => buildPath('/astp/sources/{source_id}', 'x', {})).toThrow('No value for the path parameter {source_id}');
	});
});
