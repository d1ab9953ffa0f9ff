/**
 * Matching Policy → Create, Get, Get Many, Update, Delete, Get Assignments and Unassign (v4, beta),
 * and the onboarding chain "create identifier → create policy → assign" in one workflow, through the
 * real engine against the fake Flare API: exact requests, exact items, exact errors.
 */
import type { IConnections, IDataObject, INode } from 'n8n-workflow';

import { MatchingPolicy, MatchingPolicyCreateBody, MatchingPolicyUpdateBody, PolicyAssignedIdentifier } from '../contract';
import { PACKAGE_NAME } from '../harness/engine';
import { apiRequests, jsonOf, useFakeFlare } from './support';

const TENANT = 101;
const POLICIES = '/firework/v4/matching-policies';
const rl = (mode: 'list' | 'id', value: string): IDataObject => ({ __rl: true, mode, value });
const policy = (operation: string, extra: IDataObject = {}) => ({ parameters: { resource: 'matchingPolicy', operation, ...extra } });
const withoutDates = (record: IDataObject) => {
	const copy = { ...record };
	delete copy.uuid;
	delete copy.created_at;
	delete copy.last_updated_at;
	return copy;
};

describe('Matching policies', () => {
	const flare = useFakeFlare({ credentials: 100 });
	const first = () => flare.fake.dataset.policies()[0];

	describe('Create', () => {
		it.each([
			[{ policyType: 'EXCLUDED_KEYWORDS', keywords: 'term1, term2 ,term1' }, { type: 'EXCLUDED_KEYWORDS', value: { keywords: ['term1', 'term2'] } }],
			[{ policyType: 'INCLUDED_KEYWORDS', keywords: '={{ ["acme"] }}' }, { type: 'INCLUDED_KEYWORDS', value: { keywords: ['acme'] } }],
			[{ policyType: 'LUCENE_QUERY', query: ' acme AND NOT bank ' }, { type: 'LUCENE_QUERY', value: { query: 'acme AND NOT bank' } }],
			[{ policyType: 'ASTP_COOKIES', cookieNames: 'session', matchSubdomains: true }, { type: 'ASTP_COOKIES', value: { cookie_names: ['session'], match_subdomains: true } }],
			[{ policyType: 'ASTP_DOMAIN', matchMode: 'auth_domain_only' }, { type: 'ASTP_DOMAIN', value: { match_mode: 'auth_domain_only' } }],
		])('%j sends %j and outputs the new policy', async (parameters, sent) => {
			const result = await flare.harness.runNode(policy('create', { name: 'Terms to ignore', ...parameters }));

			const body = { name: 'Terms to ignore', ...sent };
			expect(apiRequests(flare.fake).map((request) => [request.method, request.path, request.body])).toEqual([['POST', POLICIES, body]]);
			MatchingPolicyCreateBody.parse(body);
			const [created] = jsonOf(result.output);
			MatchingPolicy.parse(created);
			expect(withoutDates(created)).toEqual({ name: 'Terms to ignore', policy_type: sent.type, value: sent.value });
			expect(flare.fake.dataset.policy(String(created.uuid))).toEqual(created);
		});

		it.each([
			[{ policyType: 'EXCLUDED_KEYWORDS', keywords: ' , ' }, `'Keywords' needs at least one entry [item 0]`],
			[{ policyType: 'LUCENE_QUERY', query: '={{ " " }}' }, `'Query' is required [item 0]`],
			[{ policyType: 'ASTP_DOMAIN', matchMode: '={{ "anywhere" }}' }, `'Match Mode' has an unknown value: "anywhere" [item 0]`],
			[{ name: ' ', policyType: 'EXCLUDED_KEYWORDS', keywords: 'a' }, `'Name' is required [item 0]`],
		])('rejects %j before anything is sent', async (parameters, message) => {
			const result = await flare.harness.runNode(policy('create', { name: 'P', ...parameters }));

			expect([result.error?.name, result.error?.message]).toEqual(['NodeOperationError', message]);
			expect(flare.fake.requests).toEqual([]);
		});
	});

	describe('Get, Get Many, Delete', () => {
		it('Get reads the policy picked', async () => {
			const result = await flare.harness.runNode(policy('get', { policyUuid: rl('list', first().uuid) }));

			expect(apiRequests(flare.fake).map((request) => [request.method, request.path])).toEqual([['GET', `${POLICIES}/${first().uuid}`]]);
			expect(jsonOf(result.output)).toEqual([first()]);
		});

		it('Get says which policy Flare does not know', async () => {
			const uuid = '1f0e4f2a-8c1d-4b6e-9a53-3c2d7e8f9a10';
			const result = await flare.harness.runNode(policy('get', { policyUuid: rl('id', uuid) }));

			expect(result.error?.message).toBe(`Matching policy ${uuid} was not found in Flare`);
		});

		it.each([
			['an empty list', [], 'Flare answered with a list, not a matching policy'],
			['{detail}', { detail: 'Not Found' }, "Flare answered with an object without 'uuid', 'policy_type', 'value', not a matching policy"],
			['a policy without its value', { uuid: '0b7b7c1e-1f5e-4c39-9d8e-2f0a6c1d4e11', name: 'P', policy_type: 'LUCENE_QUERY' }, "Flare answered with an object without 'value', not a matching policy"],
		])('Get: an answer that is not a policy (%s) fails, saying what came, never an empty or odd item', async (_name, body, what) => {
			flare.fake.faults.add({ path: `${POLICIES}/${first().uuid}`, fault: { status: 200, body } });

			const result = await flare.harness.runNode({ ...policy('get', { policyUuid: rl('id', first().uuid) }), onError: 'continueRegularOutput' });

			expect(result.output.map((item) => [item.json, item.pairedItem])).toEqual([[{ error: "Flare's answer could not be used while trying to get the matching policy" }, { item: 0 }]]);
			expect(result.output[0].error?.description).toBe(`${what}. Nothing of it was used. Run the workflow again later; if it persists, report it to Flare.`);
		});

		it('Get Many walks the list in pages of 25, in the order asked', async () => {
			flare.fake.reset({ credentials: 100, policies: 120 });
			flare.harness.addFlareCredential({ apiKey: flare.fake.apiKeys.full, baseUrl: flare.fake.url });

			const result = await flare.harness.runNode(policy('getAll', { returnAll: true, options: { order: 'desc' } }));

			const requests = apiRequests(flare.fake);
			expect(requests.map((request) => [request.query.order, request.query.size])).toEqual(requests.map(() => ['desc', '25']));
			// More requests than pages of 25 need: the walk went through the empty and short pages.
			expect(requests.length).toBeGreaterThan(Math.ceil(120 / 25));
			expect(jsonOf(result.output)).toEqual(flare.fake.dataset.policies().reverse());
		});

		it('Delete deletes the policy and its assignments', async () => {
			const { uuid } = first();
			const assigned = flare.fake.dataset.identifierIds().filter((id) => flare.fake.dataset.assignmentsFor(id).some((entry) => entry.matching_policy.uuid === uuid));

			const result = await flare.harness.runNode(policy('delete', { policyUuid: rl('id', uuid.toUpperCase()) }));

			expect(apiRequests(flare.fake).map((request) => [request.method, request.path])).toEqual([['DELETE', `${POLICIES}/${uuid}`]]);
			expect(jsonOf(result.output)).toEqual([{ deleted: true, policyUuid: uuid }]);
			expect(flare.fake.dataset.policy(uuid)).toBeUndefined();
			expect(assigned.flatMap((id) => flare.fake.dataset.assignmentsFor(id))).toEqual(
				assigned.flatMap((id) => flare.fake.dataset.assignmentsFor(id)).filter((entry) => entry.matching_policy?.uuid !== uuid),
			);
		});
	});

	describe('Update', () => {
		it('reads the policy, then sends it back whole with the changes', async () => {
			const current = first();

			const result = await flare.harness.runNode(policy('update', { policyUuid: rl('list', current.uuid), updateFields: { keywords: 'ceo, cfo' } }));

			const body = { name: current.name, value: { keywords: ['ceo', 'cfo'] } };
			expect(apiRequests(flare.fake).map((request) => [request.method, request.path, request.body])).toEqual([
				['GET', `${POLICIES}/${current.uuid}`, undefined],
				// Read again just before the write: a change made meanwhile stops it (issue 40).
				['GET', `${POLICIES}/${current.uuid}`, undefined],
				['PUT', `${POLICIES}/${current.uuid}`, body],
			]);
			MatchingPolicyUpdateBody.parse(body);
			expect(jsonOf(result.output)).toEqual([flare.fake.dataset.policy(current.uuid)]);
			expect(withoutDates(jsonOf(result.output)[0])).toEqual({ name: current.name, policy_type: current.policy_type, value: body.value });
		});

		it('renames only, keeping the value as read', async () => {
			const current = first();

			await flare.harness.runNode(policy('update', { policyUuid: rl('id', current.uuid), updateFields: { name: 'VIPs' } }));

			expect(apiRequests(flare.fake)[2].body).toEqual({ name: 'VIPs', value: current.value });
		});

		it('refuses to write when the policy changed between its read and the write (another n8n process): run it again', async () => {
			const current = first();
			flare.fake.faults.add({ path: `${POLICIES}/${current.uuid}`, method: 'GET', skip: 1, fault: { status: 200, body: { ...flare.fake.dataset.policy(current.uuid), name: 'Renamed meanwhile' } } });

			const result = await flare.harness.runNode(policy('update', { policyUuid: rl('id', current.uuid), updateFields: { keywords: 'ceo' } }));

			expect([result.error?.name, result.error?.message, result.error?.description]).toEqual([
				'NodeOperationError',
				`Matching policy ${current.uuid} changed in Flare while it was being updated [item 0]`,
				'Something else (another n8n process, or someone in Flare) changed it between the read and the write, so nothing was written. Run the node again: it reads it anew.',
			]);
			expect(apiRequests(flare.fake).map((request) => request.method)).toEqual(['GET', 'GET']);
			expect(flare.fake.state.writes).toEqual([]);
		});

		it('two updates of one policy at once in one n8n process: one after the other, both changes kept', async () => {
			const current = first();
			const [renamed, rewritten] = await Promise.all([
				flare.harness.runNode(policy('update', { policyUuid: rl('id', current.uuid), updateFields: { name: 'VIPs' } })),
				flare.harness.runNode(policy('update', { policyUuid: rl('id', current.uuid), updateFields: { keywords: 'ceo, cfo' } })),
			]);

			expect([renamed.status, rewritten.status]).toEqual(['success', 'success']);
			expect(apiRequests(flare.fake).map((request) => request.method)).toEqual(['GET', 'GET', 'PUT', 'GET', 'GET', 'PUT']);
			expect(flare.fake.dataset.policy(current.uuid)).toMatchObject({ name: 'VIPs', value: { keywords: ['ceo', 'cfo'] } });
		});

		it('refuses a field of another type, naming it, before writing anything', async () => {
			const current = first();

			const result = await flare.harness.runNode(policy('update', { policyUuid: rl('id', current.uuid), updateFields: { query: 'acme' } }));

			expect(result.error?.message).toBe(`'Query' does not apply to a matching policy of type Included Keywords [item 0]`);
			expect(result.error?.description).toBe('Change only the fields of its type: Keywords.');
			expect(apiRequests(flare.fake).map((request) => request.method)).toEqual(['GET']);
		});

		it('refuses an empty change before anything is sent', async () => {
			const result = await flare.harness.runNode(policy('update', { policyUuid: rl('id', first().uuid), updateFields: {} }));

			expect(result.error?.message).toBe(`'Update Fields' has nothing to change [item 0]`);
			expect(flare.fake.requests).toEqual([]);
		});
	});

	describe('Create and Update: an answer that is not the policy confirms nothing', () => {
		it.each([
			['create', { name: 'P', policyType: 'LUCENE_QUERY', query: 'acme' }, 'POST', POLICIES, 'create the matching policy'],
			['update', { policyUuid: rl('id', '0b7b7c1e-1f5e-4c39-9d8e-2f0a6c1d4e11'), updateFields: { name: 'Renamed' } }, 'PUT', `${POLICIES}/{uuid}`, 'update the matching policy'],
		])('%s answered with [] fails that item, saying Flare may have applied it', async (operation, parameters, method, path, action) => {
			const uuid = first().uuid;
			const target = path.replace('{uuid}', uuid);
			const withUuid = operation === 'update' ? { ...parameters, policyUuid: rl('id', uuid) } : parameters;
			flare.fake.faults.add({ path: target, method, phase: 'after', fault: { status: 200, body: [] } });

			const result = await flare.harness.runNode({ ...policy(operation, withUuid), onError: 'continueRegularOutput' });

			expect(apiRequests(flare.fake).filter((request) => request.method === method).map((request) => [request.path, request.status])).toEqual([[target, 200]]);
			expect(result.output.map((item) => [item.json, item.pairedItem])).toEqual([[{ error: `Flare accepted the request to ${action} (HTTP 200), but its answer could not be used` }, { item: 0 }]]);
			expect(result.output[0].error?.description).toBe(
				'Flare answered with a list, not a matching policy. The request was not sent again because Flare may already have applied it. Check the result in Flare before running the workflow again.',
			);
		});
	});

	describe('Get Assignments and Unassign', () => {
		/** A policy assigned to at least two identifiers. */
		const assignedPolicy = () => flare.fake.dataset.policies().find((entry) => flare.fake.dataset.policyAssignments(entry.uuid, TENANT).length >= 2)!;

		it('Get Assignments lists the identifiers the policy is assigned to', async () => {
			const { uuid } = assignedPolicy();

			const result = await flare.harness.runNode(policy('getAssignments', { policyUuid: rl('list', uuid), returnAll: true }));

			expect(apiRequests(flare.fake).map((request) => [request.path, request.query])).toEqual([[`${POLICIES}/${uuid}/assignments`, { order: 'asc', size: '25' }]]);
			const expected = flare.fake.dataset.policyAssignments(uuid, TENANT);
			for (const item of result.output) PolicyAssignedIdentifier.parse(item.json);
			expect(jsonOf(result.output)).toEqual(expected);
		});

		it('Unassign removes the policy from the identifiers given', async () => {
			const { uuid } = assignedPolicy();
			const [kept, removed] = flare.fake.dataset.policyAssignments(uuid, TENANT);

			const result = await flare.harness.runNode(policy('unassign', { policyUuid: rl('id', uuid), identifierIds: String(removed.identifier_id) }));

			expect(apiRequests(flare.fake).map((request) => [request.method, request.path, request.body])).toEqual([
				['DELETE', `${POLICIES}/${uuid}/assignments`, { identifier_ids: [removed.identifier_id] }],
			]);
			expect(jsonOf(result.output)).toEqual([{ unassigned: true, policyUuid: uuid, identifierIds: [removed.identifier_id] }]);
			const after = flare.fake.dataset.policyAssignments(uuid, TENANT).map((entry) => entry.identifier_id);
			expect(after).toContain(kept.identifier_id);
			expect(after).not.toContain(removed.identifier_id);
		});

		it('Unassign of an unknown identifier fails without a change, naming the request', async () => {
			const { uuid } = assignedPolicy();
			const before = flare.fake.dataset.policyAssignments(uuid, TENANT);

			const result = await flare.harness.runNode(policy('unassign', { policyUuid: rl('id', uuid), identifierIds: '7999' }));

			expect(result.error?.message).toBe(`Matching policy ${uuid} or one of the identifiers was not found in Flare`);
			expect(flare.fake.dataset.policyAssignments(uuid, TENANT)).toEqual(before);
		});
	});

	it('onboards in one workflow: create identifier → create policy → assign', async () => {
		const node = (name: string, parameters: INode['parameters'], x: number): INode => ({
			id: name,
			name,
			type: `${PACKAGE_NAME}.flare`,
			typeVersion: 1,
			position: [x, 0],
			parameters,
			credentials: { flareApi: { id: 'cred-1', name: 'Flare' } },
		});
		const start: INode = { id: 'start', name: 'Start', type: 'harness.items', typeVersion: 1, position: [0, 0], parameters: { items: '[{}]' } };
		const nodes = [
			start,
			node('Create identifier', { resource: 'identifier', operation: 'create', identifierType: 'domain', fqdn: 'shop.acme.com', categories: ['leak'] }, 200),
			node('Create policy', { resource: 'matchingPolicy', operation: 'create', name: 'Shop noise', policyType: 'EXCLUDED_KEYWORDS', keywords: 'coupon' }, 400),
			node(
				'Assign',
				{
					resource: 'matchingPolicy',
					operation: 'assign',
					policyUuid: { __rl: true, mode: 'id', value: '={{ $json.uuid }}' },
					identifierIds: "={{ $('Create identifier').item.json.id }}",
				},
				600,
			),
		];
		const link = (to: string) => ({ main: [[{ node: to, type: 'main' as const, index: 0 }]] });
		const connections: IConnections = { Start: link('Create identifier'), 'Create identifier': link('Create policy'), 'Create policy': link('Assign') };

		const result = await flare.harness.runWorkflow(nodes, connections);

		expect(result.status).toBe('success');
		const identifier = result.node('Create identifier').outputs[0][0].json;
		const created = result.node('Create policy').outputs[0][0].json;
		expect(jsonOf(result.node('Assign').outputs[0])).toEqual([
			{ assigned: true, policyUuid: created.uuid, identifierIds: [identifier.id], cleanPastEvents: false },
		]);
		expect(flare.fake.dataset.policyAssignments(String(created.uuid), TENANT).map((entry) => entry.identifier_id)).toEqual([identifier.id]);
		expect(apiRequests(flare.fake).map((request) => `${request.method} ${request.path}`)).toEqual([
			'POST /firework/v4/identifiers/',
			`POST ${POLICIES}`,
			`POST ${POLICIES}/${String(created.uuid)}/assignments`,
		]);
	});
});
