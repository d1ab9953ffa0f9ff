import { BlogPostEvent, MatchingPolicyAssignment, PolicyAssignmentBody, ReportRequestBody, ReportRequestResponse } from '../contract';
import { apiRequests, jsonOf, useFakeFlare } from './support';

describe('Matching policies, identifiers, events and threat reports', () => {
	const flare = useFakeFlare({ credentials: 100 });

	it('Matching Policy → Assign sends the IDs as integers and confirms', async () => {
		const policy = flare.fake.dataset.policies()[2];
		const [first, second] = flare.fake.dataset.identifierIds();

		const result = await flare.harness.runNode({
			parameters: {
				resource: 'matchingPolicy',
				operation: 'assign',
				policyUuid: policy.uuid.toUpperCase(),
				identifierIds: ` ${first}, ${second},${first} `,
				cleanPastEvents: true,
			},
		});

		expect(result.status).toBe('success');
		const [request] = apiRequests(flare.fake);
		expect(request).toMatchObject({ method: 'POST', path: `/firework/v4/matching-policies/${policy.uuid}/assignments`, status: 200 });
		expect(request.body).toEqual({ identifier_ids: [first, second], clean_past_events: true });
		PolicyAssignmentBody.parse(request.body);
		expect(jsonOf(result.output)).toEqual([
			{ assigned: true, policyUuid: policy.uuid, identifierIds: [first, second], cleanPastEvents: true },
		]);
		expect(flare.fake.dataset.assignmentsFor(first).map((assignment) => assignment.matching_policy.uuid)).toContain(policy.uuid);
	});

	it('Matching Policy → Assign accepts an array of IDs from an expression', async () => {
		const policy = flare.fake.dataset.policies()[0];
		const ids = flare.fake.dataset.identifierIds().slice(0, 3);

		const result = await flare.harness.runNode(
			{ parameters: { resource: 'matchingPolicy', operation: 'assign', policyUuid: policy.uuid, identifierIds: '={{ $json.ids }}' } },
			{ items: [{ ids: ids.map(String) }] },
		);

		expect(result.status).toBe('success');
		expect(apiRequests(flare.fake)[0].body).toEqual({ identifier_ids: ids, clean_past_events: false });
	});

	it('Matching Policy → Get by Identifier emits one item per assignment', async () => {
		const identifierId = flare.fake.dataset.identifierIds().find((id) => flare.fake.dataset.assignmentsFor(id).length > 1)!;

		const result = await flare.harness.runNode({
			parameters: { resource: 'matchingPolicy', operation: 'getByIdentifier', identifierId: String(identifierId) },
		});

		expect(apiRequests(flare.fake).map((request) => [request.method, request.path])).toEqual([
			['GET', `/firework/v4/matching-policies/by_identifier_id/${identifierId}`],
		]);
		expect(jsonOf(result.output)).toEqual(flare.fake.dataset.assignmentsFor(identifierId));
		for (const item of result.output) MatchingPolicyAssignment.parse(item.json);
	});

	it('Identifier → Delete confirms, and Flare then no longer knows the identifier', async () => {
		const identifierId = flare.fake.dataset.identifierIds()[4];

		const result = await flare.harness.runNode({ parameters: { resource: 'identifier', operation: 'delete', identifierId } });
		const again = await flare.harness.runNode({ parameters: { resource: 'identifier', operation: 'delete', identifierId } });

		expect(jsonOf(result.output)).toEqual([{ deleted: true, identifierId }]);
		expect(apiRequests(flare.fake).map((request) => [request.method, request.path, request.status])).toEqual([
			['DELETE', `/firework/v4/identifiers/${identifierId}`, 202],
			['DELETE', `/firework/v4/identifiers/${identifierId}`, 404],
		]);
		expect(again.error?.message).toBe(`Identifier ${identifierId} was not found in Flare`);
	});

	it('Event → Get sends the UID as a query value, slashes and spaces included', async () => {
		const event = flare.fake.dataset.events().find((candidate) => / /.test(candidate.metadata.uid)) ?? flare.fake.dataset.events()[0];

		const result = await flare.harness.runNode({ parameters: { resource: 'event', operation: 'get', uid: event.metadata.uid } });

		const [request] = apiRequests(flare.fake);
		expect([request.method, request.path, request.query]).toEqual(['GET', '/firework/v4/events/', { uid: event.metadata.uid }]);
		expect(jsonOf(result.output)).toEqual([event]);
		BlogPostEvent.parse(result.output[0].json);
	});

	it('Threat Report → Create Request sends a custom range and keywords, and emits the request ID', async () => {
		const result = await flare.harness.runNode({
			parameters: {
				resource: 'threatReport',
				operation: 'createRequest',
				reportTitle: 'Leaks for example.com',
				timeRangeType: 'range',
				timeRangeFrom: '2025-01-01T00:00:00Z',
				timeRangeTo: '2025-02-01T00:00:00Z',
				additionalFields: { question: 'Who leaked?', includedKeywords: 'xss, phishing', excludedKeywords: 'canada' },
			},
		});

		expect(result.status).toBe('success');
		const [request] = apiRequests(flare.fake);
		expect(request).toMatchObject({ method: 'POST', path: '/firework/v4/threat_flow/reports/requests' });
		expect(request.body).toEqual({
			report_title: 'Leaks for example.com',
			time_range_type: 'range',
			time_range_from: '2025-01-01T00:00:00.000Z',
			time_range_to: '2025-02-01T00:00:00.000Z',
			question: 'Who leaked?',
			included_keywords: ['xss', 'phishing'],
			excluded_keywords: ['canada'],
		});
		ReportRequestBody.parse(request.body);
		const { request_id } = flare.fake.state.reportRequests[0];
		expect(jsonOf(result.output)).toEqual([{ request_id }]);
		ReportRequestResponse.parse(result.output[0].json);
	});

	it('Threat Report → Create Request sends no bounds for a preset range', async () => {
		await flare.harness.runNode({
			parameters: { resource: 'threatReport', operation: 'createRequest', reportTitle: 'Weekly', timeRangeType: 'last_7d', timeRangeFrom: '2025-01-01T00:00:00Z' },
		});

		expect(apiRequests(flare.fake)[0].body).toEqual({ report_title: 'Weekly', time_range_type: 'last_7d' });
	});
});
