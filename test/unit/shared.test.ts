import { createHash } from 'crypto';
import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { getAllOperation as astpUrlsOperation } from '../../nodes/Flare/resources/astpUrl/getAll';
import { searchTenantFeedOperation } from '../../nodes/Flare/resources/event/searchTenantFeed';
import { searchOperation } from '../../nodes/Flare/resources/leakedCredential/search';
import { flareApiError, itemsText } from '../../nodes/Flare/shared/errors';
import { describeBody, failureFromError, mayHaveApplied, retryAfterMs } from '../../nodes/Flare/shared/failure';
import { tenantField } from '../../nodes/Flare/shared/descriptions';
import { FlareItem } from '../../nodes/Flare/shared/item';
import { buildPath } from '../../nodes/Flare/shared/operation';
import { maskValue, protectLeakedValues } from '../../nodes/Flare/shared/masking';
import { tenantOf } from '../../nodes/Flare/shared/runner';
import { APPLIED_WRITES_BOUND, AppliedWrites, appliedWritesKept } from '../../nodes/Flare/shared/applied';
import { moveClock } from '../support/clock';

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
		await expect(failureFromError(tokenFailure, 'https://api.flare.io/x')).resolves.toEqual({ code: 'TOKEN_EXCHANGE', message: 'The API key was rejected by Flare (HTTP 401).', refused: false });
		// Whether Flare refused the key for the tenant (the tenant is then worth checking), or did not answer.
		const refused = { cause: Object.assign(new Error('rejected'), { name: 'FlareTokenError', refused: true }) };
		await expect(failureFromError(refused, 'https://api.flare.io/x')).resolves.toEqual({ code: 'TOKEN_EXCHANGE', message: 'rejected', refused: true });
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

	// Test values, built from parts so that they are not taken for hardcoded secrets.
	const AWS_KEY = ['AKIA', 'XYZ0123456789ABC'].join('');
	const STRIPE_KEY = ['sk', 'live', '0123456789'].join('_');

	/**
	 * A full event of each kind that holds a secret (docs/event-types/*.mdx), shortened; each under a
	 * key of its own (a key named like a secret, `leakedCredential`, would be masked whole).
	 */
	const fullEvents = () => ({
		combolist: {
			data: { uid: 'leaked_credential/combolists/1', identity_name: 'jane@acme.com', password: 'Winter2024!!', imported_at: '2025-01-01T00:00:00+00:00' },
			header: { uid: 'leaked_credential/combolists/1', title: 'Leaked credential of jane@acme.com', password: 'Winter2024!!', content_preview: 'jane@acme.com Winter2024!!' },
		},
		stealerLog: {
			data: {
				credentials: [{ url: 'https://login.acme.com/signin', username: 'jane@acme.com', password: 'raf-secret-1', application: 'Browser/Logins/Chrome_Default.txt' }],
				cookies: [{ host_key: '.acme.com', path: '/', expires_utc: '2026-03-04T02:22:08', name: 'session', value: 'c00kie-value-0123456789' }],
				user_information: { ip_address: '198.51.100.1', username: 'jane', hwid: 'HWID-1' },
			},
			header: { content_preview: '1 credentials', title: '' },
		},
		sourceCode: {
			data: { content: `AWS_REGION = "us-east-1"\nkey = "${AWS_KEY}"` },
			header: { contains_secrets: true, secrets_metadata: [{ rule: 'aws', line: 2, secret: AWS_KEY }] },
		},
	});

	it('protect secrets at any depth, by what they are, and leave what workflows need', () => {
		const events = fullEvents();
		protectLeakedValues(events, 'masked');
		expect(events.combolist.data).toEqual({ uid: 'leaked_credential/combolists/1', identity_name: 'jane@acme.com', password: 'W********!', imported_at: '2025-01-01T00:00:00+00:00' });
		expect(events.combolist.header).toEqual({ uid: 'leaked_credential/combolists/1', title: 'Leaked credential of jane@acme.com', password: 'W********!', content_preview: 'jane@acme.com ********' });
		expect(events.stealerLog.data.credentials).toEqual([{ url: 'https://login.acme.com/signin', username: 'jane@acme.com', password: 'r********1', application: 'Browser/Logins/Chrome_Default.txt' }]);
		expect(events.stealerLog.data.cookies).toEqual([{ host_key: '.acme.com', path: '/', expires_utc: '2026-03-04T02:22:08', name: 'session', value: 'c********9' }]);
		expect(events.stealerLog.data.user_information).toEqual({ ip_address: '198.51.100.1', username: 'jane', hwid: 'HWID-1' });
		expect(events.sourceCode).toEqual({
			data: { content: 'AWS_REGION = "us-east-1"\nkey = "********"' },
			header: { contains_secrets: true, secrets_metadata: [{ rule: 'aws', line: 2, secret: 'A********C' }] },
		});
		const kept = {
			id: 7, uid: 'a/b/c', credential_hash: 'a1b2c3d4e5f67890', hash_type: 'md5', known_password_id: 'kp_1', identity_name: 'jane@acme.com',
			urls: ['https://login.acme.com/'], value: { keywords: ['acme'] }, cookie_names: ['session'], has_password: true, contains_secrets: false,
		};
		expect(protectLeakedValues(structuredClone(kept), 'masked')).toEqual(kept);
		expect(protectLeakedValues({ data: { type: 'secret', secret: STRIPE_KEY }, name: 'Secret' }, 'masked')).toEqual({ data: { type: 'secret', secret: 's********9' }, name: 'Secret' });
		expect(protectLeakedValues({ params: { api_key: 'k', api_token: 't', token: 't2', basic_auth: { password: 'p' } } }, 'masked')).toEqual({
			params: { api_key: '********', api_token: '********', token: '********', basic_auth: '********' },
		});
		// A cookie known by its shape, wherever it is.
		expect(protectLeakedValues({ found: [[{ host_key: '.x.io', name: 'sid', value: 'v' }]] }, 'masked')).toEqual({ found: [[{ host_key: '.x.io', name: 'sid', value: '********' }]] });
	});

	it("mask in free text and URLs the record's own secret values of 6 characters or more", () => {
		const record = { hash: 'hunter2', highlights: { content: ['said hunter2 twice: hunter2'] }, title: 'hunter2!', url: 'https://x.io/hunter2' };
		expect(protectLeakedValues(record, 'masked')).toEqual({ hash: '********', highlights: { content: ['said ******** twice: ********'] }, title: '********!', url: 'https://x.io/********' });
		expect(protectLeakedValues({ password: 'abcde', content: 'abcde is short' }, 'masked')).toEqual({ password: '********', content: 'abcde is short' });
	});

	it.each([
		['<mark>admin@vpn.com</mark>:hunter2\nsee vpn and 203.0.113.14', '<mark>admin@vpn.com</mark>:********\nsee vpn and 203.0.113.14'],
		['combo: jane.doe@acme.com:Summer2024! and more', 'combo: jane.doe@acme.com:******** and more'],
		// The password runs to the end of its word, tags included (the comma could be part of it).
		['admin@acme.com:<mark>hunter2</mark>, leaked', 'admin@acme.com:******** leaked'],
		['<mark>admin@vpn.com:hunter2</mark>', '<mark>admin@vpn.com:********</mark>'],
		['see https://login.acme.com/signin:jdoe:s3cr3t here', 'see https://login.acme.com/signin:jdoe:******** here'],
		['https://sso.acme.com:8443/login:jdoe@acme.com:pw1', 'https://sso.acme.com:8443/login:jdoe@acme.com:********'],
		['dump\njdoe:qwerty123\n  root:toor  \n', 'dump\njdoe:********\n  root:********  \n'],
		['DB_PASSWORD=letmein42\napi_key: "sk_live_9"\nAuthorization: Bearer eyJ0eXAi.x.y', 'DB_PASSWORD=********\napi_key: "********"\nAuthorization: Bearer ********'],
	])('mask the password of a credential line or a secret assignment: %j', (text, expected) => {
		expect(protectLeakedValues({ content: text }, 'masked')).toEqual({ content: expected });
	});

	it.each([
		'Meeting at 10:30:00 on 2025-03-12T09:15:00Z about ratio 3:1',
		'Open https://acme.com/path and http://vpn.acme.com:8080/x or [2001:db8::1]:443',
		'Note: text, vpn.acme.com:443 is open, passport: 123, tokens: 5, Author: Jane',
		'Email / Username: jane@acme.com (acme.com)',
		'Stealer log with saved logins for password: admin@password.com',
	])('leave other colons alone: %j', (text) => {
		expect(protectLeakedValues({ content: text }, 'masked')).toEqual({ content: text });
	});

	it('apply SHA-256 and Omit to secrets at any depth, and mask free text in both', () => {
		const record = () => ({ data: { password: 'hunter22', content: 'x hunter22 y' }, cookies: [{ name: 'a', value: 'hunter33' }] });
		expect(protectLeakedValues(record(), 'sha256')).toEqual({
			data: { password: createHash('sha256').update('hunter22').digest('hex'), content: 'x ******** y' },
			cookies: [{ name: 'a', value: createHash('sha256').update('hunter33').digest('hex') }],
		});
		expect(protectLeakedValues(record(), 'omit')).toEqual({ data: { content: 'x ******** y' }, cookies: [{ name: 'a' }] });
		const full = fullEvents();
		expect(protectLeakedValues(full, 'full')).toBe(full);
		expect(full).toEqual(fullEvents());
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

describe('the Tenant is read once per item', () => {
	it('decides every request of the item, and its items’ tenantId, from one reading of the expression', () => {
		let readings = 0;
		// An expression whose value changes from one reading to the next (e.g. one of $now).
		const context = {
			getNode: () => ({ parameters: { tenant: { __rl: true, mode: 'id', value: '={{ $now.second }}' } } }),
			getNodeParameter: (name: string, index: number) => (name === 'tenant' ? { __rl: true, mode: 'id', value: 200 + index * 100 + readings++ } : undefined),
		} as unknown as IExecuteFunctions;
		const properties = [tenantField];

		const item0 = FlareItem.ofInput(context, 0, properties);
		expect([tenantOf(item0), tenantOf(item0), tenantOf(FlareItem.ofInput(context, 0, properties))]).toEqual([200, 200, 200]);
		expect(tenantOf(FlareItem.ofInput(context, 1, properties))).toBe(301);
		expect(readings).toBe(2);
		// A poll's items (the trigger's, its walks', its full events') share the poll's reading; the
		// next poll, through the same context (n8n polls every tick of an activation with one), reads
		// it again.
		const pollContext = { ...context, getNodeParameter: () => ({ __rl: true, mode: 'id', value: String(400 + readings++) }) } as unknown as IPollFunctions;
		const poll = FlareItem.ofNode(pollContext, properties);
		expect([tenantOf(poll), tenantOf(poll.withCancel(new AbortController().signal))]).toEqual([402, 402]);
		expect(tenantOf(FlareItem.ofNode(pollContext, properties))).toBe(403);
	});

	it('a poll that failed to read it leaves nothing behind: the next poll of the same context reads it again', () => {
		let readings = 0;
		const context = {
			getNode: () => ({ name: 'Flare Trigger', parameters: { tenant: '={{ $now }}' } }),
			getNodeParameter: () => (readings++ === 0 ? '' : 202),
		} as unknown as IPollFunctions;

		expect(() => tenantOf(FlareItem.ofNode(context, [tenantField]))).toThrow(`'Tenant' is an expression that gave no tenant ID for this item (""), so nothing was sent [item 0]`);
		expect(tenantOf(FlareItem.ofNode(context, [tenantField]))).toBe(202);
	});

	it('fails the same way at each read of an expression that gave nothing', () => {
		let readings = 0;
		const context = {
			getNode: () => ({ name: 'Flare', parameters: { tenant: '={{ $json.id }}' } }),
			getNodeParameter: () => (readings++ === 0 ? '' : 202),
		} as unknown as IExecuteFunctions;
		const item = FlareItem.ofInput(context, 3, [tenantField]);

		const message = `'Tenant' is an expression that gave no tenant ID for this item (""), so nothing was sent [item 3]`;
		expect(() => tenantOf(item)).toThrow(message);
		expect(() => tenantOf(item)).toThrow(message);
		expect(readings).toBe(1);
	});
});

describe("writes applied in a node run are kept for n8n's Retry On Fail, within their bound", () => {
	/** A node run as n8n gives it to the node: its execution, node, run index and input items. */
	const run = (execution: string, runIndex: number, inputs: IDataObject[], node = 'Flare') =>
		({
			getExecutionId: () => execution,
			getWorkflowDataProxy: () => ({ $runIndex: runIndex }),
			getNode: () => ({ name: node, parameters: { resource: 'tenant', operation: 'create', name: '={{ $json.name }}' } }),
			getInputData: () => inputs.map((json) => ({ json })),
		}) as unknown as IExecuteFunctions;
	const outputs = (json: IDataObject): INodeExecutionData[] => [{ json, pairedItem: { item: 0 } }];

	it("gives a write's outcome again to the same item of a retry of the same node run, and to nothing else", () => {
		const inputs = [{ name: 'Globex' }, { name: 'Initech' }];
		AppliedWrites.of(run('e-1', 0, inputs), true).applied(0, { outputs: outputs({ id: 9901 }) });
		const failure = new NodeOperationError({ name: 'Flare' } as INode, 'Tenant 9902 was created, but …');
		AppliedWrites.of(run('e-1', 0, inputs), true).applied(1, { error: failure });

		const retry = AppliedWrites.of(run('e-1', 0, inputs), true);
		expect(retry.replayed(0)).toEqual(outputs({ id: 9901 }));
		expect(() => retry.replayed(1)).toThrow(failure);
		expect([
			AppliedWrites.of(run('e-2', 0, inputs), true).replayed(0),
			AppliedWrites.of(run('e-1', 1, inputs), true).replayed(0),
			AppliedWrites.of(run('e-1', 0, inputs, 'Flare1'), true).replayed(0),
			AppliedWrites.of(run('e-1', 0, [{ name: 'Hooli' }]), true).replayed(0),
			AppliedWrites.of(run('e-1', 0, inputs), false).replayed(0),
			AppliedWrites.of(run('__UNKNOWN__', 0, inputs), true).replayed(0),
		]).toEqual([undefined, undefined, undefined, undefined, undefined, undefined]);
	});

	it('keeps at most 10,000 writes and 16 Mi characters of their outcomes, the oldest dropped first', () => {
		const inputs = Array.from({ length: 10_001 }, (_, index) => ({ name: `Tenant ${index}` }));
		const writes = AppliedWrites.of(run('e-many', 0, inputs), true);
		inputs.forEach((_, index) => writes.applied(index, { outputs: outputs({ id: index }) }));
		expect([writes.replayed(0), writes.replayed(1)?.[0].json, appliedWritesKept().entries]).toEqual([undefined, { id: 1 }, 10_000]);

		const large = AppliedWrites.of(run('e-large', 0, inputs), true);
		for (let index = 0; index < 17; index++) large.applied(index, { outputs: outputs({ text: 'x'.repeat(1024 * 1024) }) });
		expect(appliedWritesKept().characters).toBeLessThanOrEqual(APPLIED_WRITES_BOUND.characters);
		expect([large.replayed(0), large.replayed(16)?.length]).toEqual([undefined, 1]);
	});

	it('keeps a write 6 hours: a retry later than that sends it again', () => {
		const inputs = [{ name: 'Globex' }];
		AppliedWrites.of(run('e-old', 0, inputs), true).applied(0, { outputs: outputs({ id: 9901 }) });

		moveClock(6 * 3_600_000 - 1);
		expect(AppliedWrites.of(run('e-old', 0, inputs), true).replayed(0)).toEqual(outputs({ id: 9901 }));
		moveClock(2);
		expect(AppliedWrites.of(run('e-old', 0, inputs), true).replayed(0)).toBeUndefined();
	});
});
