/**
 * The reproductions of the hostile review of the "walks and writes" change (issue 23), run as the
 * review ran them, with their assertions turned to what the node now promises (docs/api-contract.md,
 * "Paging", "Errors").
 */
import type { INode } from 'n8n-workflow';

import { getAllOperation as astpUrls } from '../../nodes/Flare/resources/astpUrl/getAll';
import { getFullEventOperation } from '../../nodes/Flare/resources/event/getFullEvent';
import { getOperation as identifierGet } from '../../nodes/Flare/resources/identifier/get';
import { searchOperation } from '../../nodes/Flare/resources/leakedCredential/search';
import { getAllOperation as tenants } from '../../nodes/Flare/resources/tenant/getAll';
import { flareApiError, type FailureContext } from '../../nodes/Flare/shared/errors';
import type { FlareOperation } from '../../nodes/Flare/shared/operation';
import { FakeFlare } from '../fake-flare';
import { Harness, withoutRatePacing } from '../harness/engine';
import { apiRequests } from './support';

const TENANT = 101;
const ACTIONS = '/firework/v4/events/actions';
const SEARCH = '/firework/v4/credentials/global/_search';
/** What FastAPI sends for a handler that returns nothing: Flare documents these answers' schema as `{}`. */
const NULL_BODY = { status: 200, rawBody: 'null', headers: { 'content-type': 'application/json' } };

describe('Walks and writes: confirmations, bounds and hints (hostile review of issue 23)', () => {
	let fake: FakeFlare;
	let harness: Harness;
	beforeAll(async () => {
		await withoutRatePacing();
		fake = await FakeFlare.start();
		harness = await Harness.create();
	});
	afterAll(async () => await fake.stop());
	beforeEach(() => {
		fake.reset({ credentials: 5_000, eventsPerTenant: 40 });
		harness.addFlareCredential({ apiKey: fake.apiKeys.full, baseUrl: fake.url });
	});

	it('F1: Take Action, Flare confirms each request with null: every item confirmed, every request sent', async () => {
		const uids = fake.feed.feedAll(TENANT, {}).slice(0, 12).map((item) => item.metadata.uid);
		fake.faults.add({ path: ACTIONS, phase: 'after', times: Infinity, fault: NULL_BODY });

		const result = await harness.runNode(
			{ parameters: { resource: 'event', operation: 'takeAction', uid: '={{ $json.uid }}', actionType: 'remediate' } },
			{ items: uids.map((uid) => ({ uid })) },
		);

		expect([result.status, result.error?.message]).toEqual(['success', undefined]);
		expect(result.output.map((item) => item.json)).toEqual(uids.map((uid) => ({ uid, action: 'remediate', done: true })));
		expect(apiRequests(fake).map((request) => (request.body as { targets: unknown[] }).targets.length)).toEqual([10, 2]);
		expect(uids.filter((uid) => fake.events.state(TENANT, uid)?.remediatedMs !== null)).toEqual(uids);
	});

	it('F1: Identifier Delete, Flare confirms with 202 and null: deleted', async () => {
		const id = { __rl: true, mode: 'id', value: '7001' };
		fake.faults.add({ path: '/firework/v4/identifiers/7001', method: 'DELETE', phase: 'after', fault: { ...NULL_BODY, status: 202 } });

		const result = await harness.runNode({ parameters: { resource: 'identifier', operation: 'delete', identifierId: id } });

		expect([result.status, result.error?.message]).toEqual(['success', undefined]);
		expect(result.output.map((item) => item.json)).toEqual([{ deleted: true, identifierId: 7001 }]);
	});

	it('F2: Leaked Credential Search, empty pages with fresh cursors after the first: stopped after 3, not 1,000', async () => {
		fake.reset({ credentials: 5_000, quotaReading: 'requested' });
		fake.faults.add({ path: SEARCH, skip: 1, times: Infinity, fault: { freshEmptyPages: true } });

		const result = await harness.runNode({
			parameters: { resource: 'leakedCredential', operation: 'search', queryType: 'domain', fqdn: 'acme.com', returnAll: true },
		});

		expect(result.error?.message).toBe('Flare returned 3 pages in a row without a new result while trying to search leaked credentials');
		// The first page of 100, then the walk of pages of 10,000: 3 empty pages (100 units each, asked for).
		expect(apiRequests(fake).map((request) => (request.body as { size: number }).size)).toEqual([100, 10_000, 10_000, 10_000]);
		expect(fake.quotaUsed()).toBe(1 + 3 * 100);
	});
});

describe('Walks: each hint names what the operation has (hostile review of issue 23)', () => {
	const node = { name: 'Flare' } as INode;
	/** The operation as the runner describes it to the error messages (no item: no 404 target). */
	const contextOf = (operation: FlareOperation): FailureContext => ({ ...operation, target: undefined });

	it.each([
		['Get Full Event', getFullEventOperation],
		['Identifier Get', identifierGet],
		['Tenant Get Many', tenants],
	])('%s, an answer over 256 MiB: no Limit to lower', (_name, operation) => {
		const { description } = flareApiError(node, { code: 'TOO_LARGE', status: 200 }, contextOf(operation));
		expect(description).toBe(
			'The answer was cut off at 256 MiB and nothing of it was used. Run the workflow again later; if it persists, report it to Flare.',
		);
	});

	it('Search, an answer over 256 MiB: Limit and its own narrowing', () => {
		const { description } = flareApiError(node, { code: 'TOO_LARGE', status: 200 }, contextOf(searchOperation));
		expect(description).toBe(
			'The answer was cut off at 256 MiB and nothing of it was used. Ask for fewer results at once (Limit), or narrow the search (e.g. set Imported From/To under Options).',
		);
	});

	it('ASTP URLs, pages without a new URL: not blamed on filters it does not have', () => {
		const { description } = flareApiError(node, { code: 'NO_PROGRESS', status: 200, pages: 50 }, contextOf(astpUrls));
		expect(description).toBe(
			'The walk was stopped after 50 pages that were empty or held only results already returned, and nothing was returned for this item. Run the workflow again later; if it persists, report it to Flare.',
		);
	});
});
