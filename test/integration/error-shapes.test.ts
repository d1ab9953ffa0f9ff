/**
 * Error answers of every shape, on operations of every kind (a paged read, a single read, a list
 * read as a whole, a batched write, a write after reads): wherever Flare's error bodies put a text
 * (`message`, `code`, `error`, `error.message`, `detail`, `detail[].msg`, `detail[].loc`), a number,
 * null, a list or an object may come instead, as some APIs send (`{"message": "Activity not found",
 * "code": 404}`). Each run fails with the node's message for the status, quoting what Flare said as
 * text; never a JavaScript error. The expected messages are written here from the README's promises,
 * not computed by the node's code.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Fault } from '../fake-flare';
import { withoutRatePacing } from '../harness/engine';
import { apiRequests, useFakeFlare } from './support';

const TENANT = 101;

/** Error bodies, and the text of Flare's message the node must quote (undefined: none). */
const BODIES: Array<[string, Fault, string | undefined]> = [
	['flat, numeric code', { status: 0, body: { message: 'Activity not found', code: 404 } }, 'Activity not found'],
	['flat, numeric message, null code', { status: 0, body: { message: 42, code: null } }, '42'],
	['flat, null message and code', { status: 0, body: { message: null, code: null } }, undefined],
	['flat, message a list', { status: 0, body: { message: ['a', 'b'] } }, '["a","b"]'],
	['flat, message an object', { status: 0, body: { message: { en: 'Not allowed' } } }, '{"en":"Not allowed"}'],
	['flat, message a boolean', { status: 0, body: { message: true } }, 'true'],
	['flat, code an object only', { status: 0, body: { code: { nested: true } } }, undefined],
	['error, message an object, code a number', { status: 0, body: { error: { code: 7, message: { text: 'nope' } } } }, '{"text":"nope"}'],
	['error, message a number, code null', { status: 0, body: { error: { code: null, message: 3.5 } } }, '3.5'],
	['error a text', { status: 0, body: { error: 'denied' } }, 'denied'],
	['error a list', { status: 0, body: { error: ['x'], message: 'second' } }, '["x"]'],
	['error null, flat message', { status: 0, body: { error: null, message: 'plain' } }, 'plain'],
	['error empty, flat message', { status: 0, body: { error: {}, message: 'flat' } }, 'flat'],
	['detail a text', { status: 0, body: { detail: 'Not Found' } }, 'Not Found'],
	['detail, msg a number, loc a text', { status: 0, body: { detail: [{ loc: 'body', msg: 5 }] } }, '5'],
	['detail, odd loc and msg, an entry a text', { status: 0, body: { detail: [{ loc: [{}, 3, null], msg: null }, 'x'] } }, 'x'],
	['detail an object', { status: 0, body: { detail: { loc: ['body', 'zzz'], msg: 'too big' } } }, '{"loc":["body","zzz"],"msg":"too big"}'],
	['detail empty', { status: 0, body: { detail: [] } }, undefined],
	['a list', { status: 0, body: [1, 2] }, undefined],
	['a number', { status: 0, body: 42 }, undefined],
	['null', { status: 0, body: null }, undefined],
	['not JSON', { status: 0, rawBody: 'Bad request, sorry' }, undefined],
];

interface Operation {
	name: string;
	parameters: (flare: ReturnType<typeof useFakeFlare>) => IDataObject;
	items?: (flare: ReturnType<typeof useFakeFlare>) => IDataObject[];
	/** The request that gets the error answer. */
	path: RegExp;
	method: string;
	action: string;
	/** What a 404 is about. */
	target: (flare: ReturnType<typeof useFakeFlare>) => string;
	write?: boolean;
}

const OPERATIONS: Operation[] = [
	{
		name: 'Event → Search Tenant Feed (paged read)',
		parameters: () => ({ resource: 'event', operation: 'searchTenantFeed', returnAll: true }),
		path: /\/events\/tenant\/_search$/,
		method: 'POST',
		action: 'search the tenant event feed',
		target: () => 'The requested item',
	},
	{
		name: 'Identifier → Get (single read)',
		parameters: () => ({ resource: 'identifier', operation: 'get', identifierId: { __rl: true, mode: 'id', value: '7001' } }),
		path: /\/identifiers\/7001$/,
		method: 'GET',
		action: 'get the identifier',
		target: () => 'Identifier 7001',
	},
	{
		name: 'Tenant → Get Many (list read whole)',
		parameters: () => ({ resource: 'tenant', operation: 'getAll' }),
		path: /\/me\/tenants$/,
		method: 'GET',
		action: 'list tenants',
		target: () => 'The requested item',
	},
	{
		name: 'Event → Take Action (batched write)',
		parameters: () => ({ resource: 'event', operation: 'takeAction', uid: '={{ $json.uid }}' }),
		items: (flare) => [{ uid: flare.fake.feed.feedAll(TENANT, {})[0].metadata.uid }],
		path: /\/events\/actions$/,
		method: 'POST',
		action: 'take an action on events',
		target: (flare) => `Event '${flare.fake.feed.feedAll(TENANT, {})[0].metadata.uid}'`,
		write: true,
	},
	{
		name: 'Identifier → Update (write after reads)',
		parameters: () => ({ resource: 'identifier', operation: 'update', identifierId: { __rl: true, mode: 'id', value: '7002' }, updateFields: { name: 'Renamed' } }),
		path: /\/identifiers\/7002$/,
		method: 'PUT',
		action: 'update the identifier',
		target: () => 'Identifier 7002',
		write: true,
	},
];

/** The README's message and description for each status (errors.ts is not consulted). */
function expected(operation: Operation, status: number, text: string | undefined, target: string): [string, string] {
	const says = text === undefined ? '' : ` Flare says: "${text}".`;
	switch (status) {
		case 400:
			return [`Flare could not ${operation.action} (HTTP 400)`, text ?? 'Check the parameters and try again.'];
		case 403:
			return [
				`Your Flare account has no access to this feature, needed to ${operation.action}`,
				`Ask your Flare Customer Success Manager to enable this feature, or use the API key of a user who has it.${says}`,
			];
		case 404:
			return [`${target} was not found in Flare`, `Check the ID, and that it belongs to the tenant selected in the credential.${says}`];
		case 422:
			return [`Flare rejected the request to ${operation.action}`, `${text ?? 'The request did not pass validation'}. Correct the parameters and try again.`];
		default:
			return [
				`Flare did not confirm the request to ${operation.action}`,
				`Flare answered HTTP ${status}. The request was not sent again because Flare may already have applied it. Check the result in Flare before running the workflow again.`,
			];
	}
}

describe('Error answers of every shape: the node says what happened, quoting Flare as text', () => {
	const flare = useFakeFlare({ credentials: 50, eventsPerTenant: 20 });
	beforeAll(async () => await withoutRatePacing());

	const cases = OPERATIONS.flatMap((operation) =>
		[400, 403, 404, 422, ...(operation.write ? [500] : [])].map((status) => [operation.name, status, operation] as const),
	);

	it.each(cases)('%s, HTTP %i', async (_name, status, operation) => {
		const target = operation.target(flare);
		for (const [shape, fault, text] of BODIES) {
			flare.fake.reset({ credentials: 50, eventsPerTenant: 20 });
			// As JSON text, so that null and other scalars come as sent.
			const answer = 'body' in fault ? { rawBody: JSON.stringify(fault.body), headers: { 'content-type': 'application/json' } } : fault;
			flare.fake.faults.add({ path: operation.path, method: operation.method, fault: { ...answer, status } as Fault });

			const result = await flare.harness.runNode(
				{ parameters: operation.parameters(flare) },
				{ items: operation.items?.(flare) ?? [{}] },
			);

			const [message, description] = expected(operation, status, text, target);
			expect([shape, result.error?.name, result.error?.message, result.error?.description]).toEqual([shape, 'NodeApiError', message, description]);
			// Nothing was tried again (a write never is; a read only after a 5xx or a dropped connection).
			const hit = apiRequests(flare.fake).filter((request) => request.method === operation.method && operation.path.test(request.path));
			expect([shape, hit.map((request) => request.status)]).toEqual([shape, [status]]);
			expect(result.output).toEqual([]);
		}
	}, 120_000);
});
