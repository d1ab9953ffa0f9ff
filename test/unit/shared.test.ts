import { describeBody, failureFromError, retryAfterMs } from '../../nodes/Flare/shared/errors';
import { maskValue, protectLeakedValues } from '../../nodes/Flare/shared/output';
import { buildPath } from '../../nodes/Flare/shared/pagination';

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

	it('reads Retry-After as seconds, decimals or an HTTP date', () => {
		expect(retryAfterMs('3')).toBe(3000);
		expect(retryAfterMs('0.25')).toBe(250);
		expect(retryAfterMs(undefined)).toBeUndefined();
		expect(retryAfterMs('soon')).toBeUndefined();
		const inFiveSeconds = new Date(Date.now() + 5_000).toUTCString();
		expect(retryAfterMs(inFiveSeconds)).toBeGreaterThan(3_000);
	});

	it('tells a failed token exchange from a network error', () => {
		const tokenFailure = { cause: new Error('The API key was rejected by Flare (HTTP 401).') };
		expect(failureFromError(tokenFailure)).toMatchObject({ code: 'TOKEN_EXCHANGE', message: 'The API key was rejected by Flare (HTTP 401).' });
		expect(failureFromError({ cause: { code: 'ECONNRESET' } })).toMatchObject({ code: 'ECONNRESET', status: undefined });
		const answered = { httpCode: '429', cause: { response: { status: 429, headers: { 'retry-after': '2' }, data: { error: { code: 'RATELIMIT_REACHED' } } } } };
		expect(failureFromError(answered)).toMatchObject({ status: 429, code: 'RATELIMIT_REACHED', retryAfterMs: 2000 });
	});
});

describe('leaked values', () => {
	it('keeps only the first and last characters, counting characters, not bytes', () => {
		expect(maskValue('Summer2024!')).toBe('S*********!');
		expect(maskValue('été€🔑x')).toBe('é****x');
		expect(maskValue('ab')).toBe('**');
		expect(maskValue('')).toBe('');
		expect(maskValue(`a${'b'.repeat(98)}c`)).toBe(`a${'*'.repeat(98)}c`);
		expect(maskValue('\uD83D')).toBe('*');
	});

	it('protects the hash of a credential and of every password of an identity, not the credential_hash', () => {
		const identity = { name: 'a@b.c', passwords: [{ hash: 'secret1', credential_hash: 'abc' }, { hash: 'xy' }] };
		expect(protectLeakedValues(identity, 'omit')).toEqual({ name: 'a@b.c', passwords: [{ credential_hash: 'abc' }, {}] });
		expect(protectLeakedValues({ hash: 'p', credential_hash: 'abc' }, 'masked')).toEqual({ hash: '*', credential_hash: 'abc' });
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
