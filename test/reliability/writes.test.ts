import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { flareOperations } from '../../nodes/Flare/Flare.node';
import type { FlareOperation } from '../../nodes/Flare/shared/operation';
import { FakeFlare, type Fault } from '../fake-flare';
import { lastCollectedHits } from '../harness/collect';
import { Harness } from '../harness/engine';
import { apiRequests } from '../integration/support';
import { formOf } from './inputs';
import { baseOf, nodeProperties, operations, validValues } from './operations';
import { CANARY_API_KEY } from './secret-scan';
import { volume } from '../support/volume';
import { CANARY_OPTIONS, Recorder, type WriteRow } from './support';

interface WriteOperation {
	operation: string;
	action: string;
	path: RegExp;
	/** The write's method, where a read of the same path comes before it (an update that reads first). */
	method?: string;
	parameters(fake: FakeFlare): IDataObject;
}

const WRITES: WriteOperation[] = [
	{
		operation: 'Matching Policy → Assign',
		action: 'assign the matching policy',
		path: /\/matching-policies\/[^/]+\/assignments$/,
		parameters: (fake) => ({
			resource: 'matchingPolicy',
			operation: 'assign',
			policyUuid: fake.dataset.policies()[1].uuid,
			identifierIds: String(fake.dataset.identifierIds()[0]),
		}),
	},
	{
		operation: 'Threat Report → Create Request',
		action: 'create the threat report request',
		path: /\/threat_flow\/reports\/requests$/,
		parameters: () => ({ resource: 'threatReport', operation: 'createRequest', reportTitle: 'Reliability' }),
	},
	{
		operation: 'Identifier → Delete',
		action: 'delete the identifier',
		path: /\/identifiers\/\d+$/,
		parameters: (fake) => ({ resource: 'identifier', operation: 'delete', identifierId: String(fake.dataset.identifierIds()[0]) }),
	},
	{
		operation: 'Event → Take Action',
		action: 'take an action on events',
		path: /\/events\/actions$/,
		parameters: (fake) => ({
			resource: 'event',
			operation: 'takeAction',
			uid: fake.feed.feedAll(fake.options.tenants[0], {})[0].metadata.uid,
			actionType: 'remediate',
		}),
	},
];

/**
 * The writes added for the playbooks (issue 34): the same checks; the default run tries two of the
 * faults before and after Flare processed them, the long run every one (test/support/volume.ts).
 */
const PLAYBOOK_WRITES: WriteOperation[] = [
	{
		operation: 'Alert Rule → Create',
		action: 'create the alert rule',
		path: /\/v2\/assets\/\d+\/alerts$/,
		parameters: (fake) => ({
			resource: 'alertRule',
			operation: 'create',
			identifierId: String(fake.dataset.identifierIds()[0]),
			name: 'Reliability',
			alertChannelId: '301',
		}),
	},
	{
		operation: 'Alert Rule → Update',
		action: 'update the alert rule',
		// The PUT only: the read of the identifier's rules before it is not a write.
		path: /\/v2\/assets\/\d+\/alerts\/\d+$/,
		parameters: (fake) => ({
			resource: 'alertRule',
			operation: 'update',
			identifierId: String(fake.dataset.identifierIds()[0]),
			alertRuleId: '5101',
			updateFields: { frequency: 30 },
		}),
	},
	{
		operation: 'Identifier Recommendation → Accept',
		action: 'accept identifier recommendations',
		path: /\/identifier-recommendations\/actions$/,
		parameters: () => ({ resource: 'identifierRecommendation', operation: 'accept', recommendationId: '9001' }),
	},
];

/**
 * The writes added for MSSP operations and reporting (issue 40): the same checks, sampled as the
 * playbook's in the default run.
 */
const ADMINISTRATION_WRITES: WriteOperation[] = [
	{
		operation: 'Identifier Group → Update',
		action: 'rename the identifier group',
		path: /\/v2\/assets\/groups\/\d+$/,
		parameters: () => ({ resource: 'identifierGroup', operation: 'update', groupId: '101', name: 'Brands' }),
	},
	{
		operation: 'Tenant → Create',
		action: 'create the tenant',
		path: /\/organizations\/\d+\/tenants$/,
		method: 'POST',
		parameters: () => ({ resource: 'tenant', operation: 'create', name: 'Globex' }),
	},
	{
		operation: 'Tenant → Update',
		action: 'update the tenant',
		path: /\/v2\/tenants\/\d+$/,
		method: 'PUT',
		parameters: () => ({ resource: 'tenant', operation: 'update', targetTenantId: '101', updateFields: { name: 'Acme Corp' } }),
	},
	{
		operation: 'Tenant → Archive',
		action: 'archive the tenant',
		path: /\/v2\/tenants\/\d+\/archive$/,
		parameters: () => ({ resource: 'tenant', operation: 'archive', targetTenantId: '202' }),
	},
	{
		operation: 'Tenant User → Add',
		action: 'add the user to the tenant',
		path: /\/v2\/tenants\/\d+\/users$/,
		method: 'POST',
		parameters: () => ({ resource: 'tenantUser', operation: 'add', targetTenantId: '202', userId: '520', role: 'editor' }),
	},
	{
		operation: 'Tenant User → Remove',
		action: 'remove the user from the tenant',
		path: /\/v2\/tenants\/\d+\/users\/\d+$/,
		parameters: () => ({ resource: 'tenantUser', operation: 'remove', targetTenantId: '101', userId: '510' }),
	},
	{
		operation: 'Organization Member → Update',
		action: 'update the member',
		path: /\/members\/\d+$/,
		method: 'PUT',
		parameters: () => ({ resource: 'organizationMember', operation: 'update', userId: '510', updateFields: { surname: 'Haddad' } }),
	},
	{
		operation: 'Organization Member → Disable',
		action: 'disable the member',
		path: /\/members\/\d+\/disable$/,
		parameters: () => ({ resource: 'organizationMember', operation: 'disable', userId: '510' }),
	},
	{
		operation: 'Alert Channel → Create',
		action: 'create the alert channel',
		path: /\/v4\/alerts\/channels$/,
		method: 'POST',
		parameters: () => ({ resource: 'alertChannel', operation: 'create', name: 'SOC', channelType: 'email', email: 'soc@acme.com' }),
	},
	{
		operation: 'Threat Report → Publish',
		action: 'publish the threat report',
		path: /\/threat_flow\/reports\/\d+\/publish$/,
		parameters: () => ({ resource: 'threatReport', operation: 'publish', reportId: '870001' }),
	},
	{
		operation: 'Threat Report → Delete',
		action: 'delete the threat report',
		path: /\/threat_flow\/reports\/\d+$/,
		method: 'DELETE',
		parameters: () => ({ resource: 'threatReport', operation: 'delete', reportId: '870001' }),
	},
];

/** Every write operation of the node, from its description: [resource, operation]. */
const writeOperations = () => operations().filter(([resource, operation]) => flareOperations[resource]?.[operation]?.write === true);

/** The paths of an operation's request, as a pattern: each `{parameter}` any segment (`{+uid}` several). */
function writePath({ path, otherPaths = [] }: FlareOperation): RegExp {
	const pattern = [path, ...otherPaths]
		.map((template) => template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\+\w+\}/g, '.+').replace(/\{\w+\}/g, '[^/]+'))
		.join('|');
	return new RegExp(`^(?:${pattern})$`);
}

const SLOW_MS = 1_500;
const TIMEOUT_MS = 500;

/** The faults a write meets, each before Flare processed it and after. */
const FAULTS: Array<[string, Fault]> = [
	['HTTP 500', { status: 500, body: { error: { code: 'INTERNAL_ERROR', message: 'internal error' } } }],
	['HTTP 502', { status: 502, rawBody: '<html><body>Bad Gateway</body></html>' }],
	['HTTP 503', { status: 503, rawBody: 'Service Unavailable' }],
	['HTTP 504', { status: 504, body: {} }],
	['connection reset', { reset: true }],
	[`response slower than the Timeout (${TIMEOUT_MS} ms)`, { delayMs: SLOW_MS }],
];

describe('Writes under faults: Flare never sees the same write twice', () => {
	let fake: FakeFlare;
	let harness: Harness;
	const recorder = new Recorder('writes');

	beforeAll(async () => {
		fake = await FakeFlare.start(CANARY_OPTIONS);
		harness = await Harness.create();
	});
	afterAll(async () => {
		recorder.save();
		await fake.stop();
	});

	const run = async (write: WriteOperation, rule?: Parameters<FakeFlare['faults']['add']>[0], extra: IDataObject = {}) => {
		fake.reset();
		harness.addFlareCredential({ apiKey: CANARY_API_KEY, baseUrl: fake.url });
		if (rule) fake.faults.add({ ...rule, method: write.method });
		const result = await harness.runNode({ parameters: { ...write.parameters(fake), ...extra } });
		expect(lastCollectedHits()).toEqual([]);
		return result;
	};

	const sampleFaults = FAULTS.filter(([name]) => name === 'HTTP 502' || name === 'connection reset');
	const scenarios = [
		...WRITES.map((write) => [write, FAULTS] as const),
		...[...PLAYBOOK_WRITES, ...ADMINISTRATION_WRITES].map((write) => [write, volume(sampleFaults, FAULTS)] as const),
	].flatMap(([write, faults]) =>
		faults.flatMap(([name, fault]) => (['before', 'after'] as const).map((phase) => [write.operation, name, phase, write, fault] as const)),
	);

	it.each(scenarios)('%s, %s %s Flare processed it: not sent again', async (_operation, name, phase, write, fault) => {
		const slow = 'delayMs' in fault;
		const result = await run(write, { path: write.path, phase, fault }, slow ? { requestOptions: { timeout: TIMEOUT_MS } } : {});
		// A request the node gave up on is still processed by Flare, late.
		if (slow) await sleep(SLOW_MS);

		const sent = apiRequests(fake).filter((request) => write.path.test(request.path) && (!write.method || request.method === write.method));
		const applied = fake.state.writes.length;
		const row: WriteRow = {
			kind: 'write',
			operation: write.operation,
			fault: name,
			phase,
			requests: sent.length,
			writes: applied,
			duplicated: Math.max(0, applied - 1),
			outcome: result.status === 'success' ? 'succeeded once' : 'failed, not resent',
			error: result.error?.message,
		};
		recorder.add(row);

		expect(sent).toHaveLength(1);
		expect(applied).toBe(phase === 'after' || slow ? 1 : 0);
		expect(result.status).toBe('error');
		expect(result.error?.message).toBe(`Flare did not confirm the request to ${write.action}`);
		expect(result.error?.description).toMatch(/The request was not sent again because Flare may already have applied it/);
	});

	// n8n runs a failed node again with the same execution, run index and items (applied.ts cites
	// n8n-core): every write operation of the description, so that a new one is tried here unwritten.
	const RETRY_ON_FAIL = { maxTries: 3, waitBetweenTries: 0 };
	const retried = async (resource: string, operation: string, run: (parameters: IDataObject) => Promise<Awaited<ReturnType<Harness['runNode']>>>) => {
		fake.reset();
		harness.addFlareCredential({ apiKey: CANARY_API_KEY, baseUrl: fake.url });
		const selectors = { resource, operation };
		const parameters = baseOf(await validValues(fake, harness), formOf(nodeProperties, selectors), selectors);
		const write = flareOperations[resource][operation];
		const [calls, writes] = [harness.executeCalls, fake.state.writes.length];
		fake.clearLog();
		const result = await run(parameters);
		const sent = apiRequests(fake).filter((request) => request.method === write.method && writePath(write).test(request.path));
		expect(lastCollectedHits()).toEqual([]);
		return { result, tries: harness.executeCalls - calls, sent: sent.length, applied: fake.state.writes.length - writes, write };
	};

	it.each(writeOperations())("%s → %s under n8n's Retry On Fail (3 tries), HTTP 502 after Flare processed it: sent once, applied once, each try the same error", async (resource, operation) => {
		const { result, tries, sent, applied, write } = await retried(resource, operation, async (parameters) => {
			fake.faults.add({ path: writePath(flareOperations[resource][operation]), method: flareOperations[resource][operation].method, phase: 'after', fault: FAULTS[1][1] });
			return await harness.runNode({ parameters, retryOnFail: RETRY_ON_FAIL });
		});

		recorder.add({ kind: 'write', operation: `${resource} → ${operation}`, fault: "n8n's Retry On Fail (3 tries) after HTTP 502", phase: 'after', requests: sent, writes: applied, duplicated: Math.max(0, applied - 1), outcome: 'failed, not resent', error: result.error?.message });
		expect([tries, sent, applied]).toEqual([3, 1, 1]);
		expect([result.status, result.error?.message]).toEqual(['error', `Flare did not confirm the request to ${write.action}`]);
	});

	it.each(writeOperations())("%s → %s under n8n's Retry On Fail with continue on fail, item 0 refused before any request: n8n runs the node 3 times, item 1's write is sent once and answered the same each time", async (resource, operation) => {
		// n8n runs the node again while its first output item is an error (continue on fail).
		const { result, tries, sent, applied } = await retried(resource, operation, async (parameters) =>
			await harness.runNode(
				{ parameters: { ...parameters, requestOptions: { timeout: '={{ $json.timeout }}' } }, onError: 'continueRegularOutput', retryOnFail: RETRY_ON_FAIL },
				{ items: [{ timeout: 0 }, { timeout: 10_000 }] },
			),
		);

		recorder.add({ kind: 'write', operation: `${resource} → ${operation}`, fault: "n8n's Retry On Fail (3 tries) with continue on fail, item 0 an error", phase: 'after', requests: sent, writes: applied, duplicated: Math.max(0, applied - 1), outcome: 'succeeded once' });
		expect([tries, sent, applied]).toEqual([3, 1, 1]);
		expect(result.output.map((item) => [typeof item.json.error, item.pairedItem])).toEqual([
			['string', { item: 0 }],
			...result.output.slice(1).map(() => ['undefined', { item: 1 }]),
		]);
		expect(result.output.length).toBeGreaterThan(1);
	});

	it.each([...WRITES, ...PLAYBOOK_WRITES, ...ADMINISTRATION_WRITES].map((write) => [write.operation, write] as const))('%s, 429 rate limit: retried, applied once', async (_operation, write) => {
		const result = await run(write, {
			path: write.path,
			fault: { status: 429, body: { error: { code: 'RATELIMIT_REACHED', message: 'ratelimit reached' } }, headers: { 'Retry-After': '0' } },
		});

		const sent = apiRequests(fake).filter((request) => write.path.test(request.path) && (!write.method || request.method === write.method));
		recorder.add({
			kind: 'write',
			operation: write.operation,
			fault: '429 rate limit (Retry-After 0)',
			phase: 'before',
			requests: sent.length,
			writes: fake.state.writes.length,
			duplicated: Math.max(0, fake.state.writes.length - 1),
			outcome: result.status === 'success' ? 'succeeded once' : 'failed, not resent',
		});
		expect(result.status).toBe('success');
		expect(sent.map((request) => request.status)).toEqual([429, write.operation === 'Identifier → Delete' ? 202 : 200]);
		expect(fake.state.writes).toHaveLength(1);
	});
});
