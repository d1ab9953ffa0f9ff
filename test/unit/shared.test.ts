import type { INode } from 'n8n-workflow';

import { getAllOperation as astpUrlsOperation } from '../../nodes/Flare/resources/astpUrl/getAll';
import { searchTenantFeedOperation } from '../../nodes/Flare/resources/event/searchTenantFeed';
import { searchOperation } from '../../nodes/Flare/resources/leakedCredential/search';
import { describeBody, failureFromError, flareApiError, itemsText, mayHaveApplied, retryAfterMs } from '../../nodes/Flare/shared/errors';
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
		// Values of any JSON type where texts are expected, each read as text.
		[{ message: 'Activity not found', code: 404 }, { message: 'Activity not found', code: '404' }],
		[{ message: 42, code: null }, { message: '42', code: undefined }],
		[{ message: ['a', 'b'] }, { message: '["a","b"]', code: undefined }],
		[{ message: { en: 'x' }, code: { n: 1 } }, { message: '{"en":"x"}', code: '{"n":1}' }],
		[{ message: null, code: 'X' }, {}],
		[{ error: { code: 7, message: false } }, { code: '7', message: 'false' }],
		[{ error: 'denied', code: 403 }, { message: 'denied', code: '403' }],
		[{ error: [], message: 'flat' }, { message: 'flat', code: undefined }],
		[{ detail: 'Not Found' }, { message: 'Not Found', code: undefined }],
		[{ detail: [{ loc: 'body', msg: 5 }, { loc: [{ a: 1 }, 2, null], msg: null }, 'text'] }, { details: [{ loc: [], msg: '5' }, { loc: ['{"a":1}', 2, ''], msg: '' }, { loc: [], msg: 'text' }], message: '5; text' }],
		[{ detail: [] }, { details: [] }],
		[{ message: 'x'.repeat(600) }, { message: 'x'.repeat(500), code: undefined }],
		[[1, 2], {}],
		[42, {}],
		[null, {}],
	])('%j → %j', (body, expected) => {
		expect(describeBody(body)).toEqual(expected);
	});

	it('says items in words: one, a range, several runs', () => {
		expect(itemsText([3])).toBe('item 3');
		expect(itemsText([9, 8, 7, 6, 5, 4, 3, 2, 1, 0])).toBe('items 0–9');
		expect(itemsText([0, 1, 2, 5, 7, 8, 9, 5])).toBe('items 0–2, 5 and 7–9');
	});

	it('tells a write Flare may have applied from one it refused or never got', () => {
		expect([500, 502, 200].map((status) => mayHaveApplied({ status }))).toEqual([true, true, true]);
		expect([301, 400, 404, 422, 429].map((status) => mayHaveApplied({ status }))).toEqual([false, false, false, false, false]);
		expect(['TIMEOUT', 'ECONNRESET', 'CANCELLED'].map((code) => mayHaveApplied({ code }))).toEqual([true, true, true]);
		expect(['ECONNREFUSED', 'ENOTFOUND', 'TOKEN_EXCHANGE'].map((code) => mayHaveApplied({ code }))).toEqual([false, false, false]);
	});

	it('advises narrowing a search with the fields of the operation at hand, or none', () => {
		const node = { name: 'Flare' } as INode;
		const descriptionOf = (operation: { action: string; narrow?: string }) => flareApiError(node, { code: 'TOO_LARGE', status: 200 }, operation).description;
		expect(descriptionOf(searchTenantFeedOperation)).toBe(
			'The answer was cut off at 256 MiB and nothing of it was used. Ask for fewer results at once (Limit), or narrow the search (e.g. set Created From/To or Materialized From/To under Filters, choose Event Type Names or IDs, or a higher Severity).',
		);
		expect(descriptionOf(searchOperation)).toBe(
			'The answer was cut off at 256 MiB and nothing of it was used. Ask for fewer results at once (Limit), or narrow the search (e.g. set Imported From/To under Options).',
		);
		expect(descriptionOf(astpUrlsOperation)).toBe('The answer was cut off at 256 MiB and nothing of it was used. Ask for fewer results at once (Limit).');
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
