/**
 * The bad-input proof's judge (test/reliability/inputs.ts `classify`): a value refused after the
 * write read its own record passes only when it fits some records only (the refusal that says so);
 * any other refusal after a request is a value that was not checked first (found by the hostile review
 * of issue 29: Matching Policy → Update could check its Query after reading the policy, unseen).
 */
import { classify, formOf, PathCheck, type RunSummary } from '../reliability/inputs';
import { nodeProperties } from '../reliability/operations';

const UUID = '3f2a6f7e-0000-4000-8000-000000000001';
const form = formOf(nodeProperties, { resource: 'matchingPolicy', operation: 'update' });
const query = form.find((parameter) => parameter.path === 'updateFields.query')!;
const ownRecord = {
	path: PathCheck.pattern('/{segment}/v4/matching-policies/{policy_uuid}', 'firework'),
	refusal: /does not apply to a matching policy of type/,
};
const refusedAfterRead = (message: string, path = `/firework/v4/matching-policies/${UUID}`): RunSummary => ({
	status: 'error',
	error: { name: 'NodeOperationError', message },
	requests: [
		{ method: 'POST', path: '/tokens/generate', status: 200 },
		{ method: 'GET', path, status: 200 },
	] as RunSummary['requests'],
});

describe('classify: a refusal after the write read its own record', () => {
	it('passes when the value does not fit that record (its type)', () => {
		const run = refusedAfterRead("'Query' does not apply to a matching policy of type Included Keywords [item 0]");
		expect(classify(query, run, [], [], ownRecord)).toBe('rejected');
	});

	it('fails for a value refused for itself: it should have been refused before any request', () => {
		const run = refusedAfterRead("'Query' is required [item 0]");
		expect(() => classify(query, run, [], [], ownRecord)).toThrow("NodeOperationError after 2 request(s): 'Query' is required [item 0]");
	});

	it('fails after a read of another record, or with no allowance for the parameter', () => {
		const message = "'Query' does not apply to a matching policy of type Included Keywords [item 0]";
		expect(() => classify(query, refusedAfterRead(message, '/firework/v4/matching-policies'), [], [], ownRecord)).toThrow('after 2 request(s)');
		expect(() => classify(query, refusedAfterRead(message), [], [])).toThrow('after 2 request(s)');
	});
});
