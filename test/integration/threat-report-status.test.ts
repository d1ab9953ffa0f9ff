/**
 * Issue #8: Threat Report → Get Request Status closes the loop of Create Request: the status object as
 * Flare returns it, `processing` until the report is ready, then `completed` with the report.
 */
import type { IDataObject, INode } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { ApiReport, ReportRequestStatus } from '../contract';
import { PACKAGE_NAME } from '../harness/engine';
import { apiRequests, jsonOf, maskedView, useFakeFlare } from './support';

const STATUS_PATH = (id: string) => `/firework/v4/threat_flow/reports/requests/${id}`;
const rl = (value: string): IDataObject => ({ __rl: true, mode: 'id', value });
const statusOf = (requestId: string | IDataObject) => ({ resource: 'threatReport', operation: 'getRequestStatus', requestId });

describe('Threat Report → Get Request Status', () => {
	const env = useFakeFlare({ credentials: 100 });

	/** Creates a report request through the node and returns its ID. */
	async function createRequest(reportTitle = 'Ransomware this week'): Promise<string> {
		const created = await env.harness.runNode({
			parameters: {
				resource: 'threatReport',
				operation: 'createRequest',
				reportTitle,
				timeRangeType: 'last_7d',
				additionalFields: { includedKeywords: 'ransomware, lockbit' },
			},
		});
		expect(created.status).toBe('success');
		env.fake.clearLog();
		return created.output[0].json.request_id as string;
	}

	it('answers processing, then completed with the report, one GET per run', async () => {
		const requestId = await createRequest();

		const first = await env.harness.runNode({ parameters: statusOf(rl(requestId)) });
		const second = await env.harness.runNode({ parameters: statusOf(rl(requestId)) });

		expect(apiRequests(env.fake).map((request) => [request.method, request.path, request.query, request.body])).toEqual([
			['GET', STATUS_PATH(requestId), {}, undefined],
			['GET', STATUS_PATH(requestId), {}, undefined],
		]);
		expect(jsonOf(first.output)).toEqual([{ status: 'processing', report: null }]);
		// The fake plants credential lines in the report's summary and highlights: masked as any output.
		const report = maskedView(env.fake.state.reportRequests[0].report, env.fake.plantedValues());
		expect(jsonOf(second.output)).toEqual([{ status: 'completed', report }]);
		expect(JSON.stringify(report)).toContain('ftp://backup:********@files.initech.com/');
		expect(second.output[0].pairedItem).toEqual({ item: 0 });
		const parsed = ReportRequestStatus.parse(second.output[0].json);
		expect(ApiReport.parse(parsed.report)).toMatchObject({
			title: 'Ransomware this week',
			tags: ['ransomware', 'lockbit'],
			tenant_id: 101,
		});
	});

	it('accepts the plain string of a hand-written workflow, and an upper-case UUID', async () => {
		env.fake.reset({ credentials: 100, reportProcessingPolls: 0 });
		env.harness.addFlareCredential({ apiKey: env.fake.apiKeys.full, baseUrl: env.fake.url });
		const requestId = await createRequest();

		const plain = await env.harness.runNode({ parameters: statusOf(requestId) });
		const upper = await env.harness.runNode({ parameters: statusOf(rl(` ${requestId.toUpperCase()} `)) });

		expect(apiRequests(env.fake).map((request) => request.path)).toEqual([STATUS_PATH(requestId), STATUS_PATH(requestId)]);
		const completed = { status: 'completed', report: maskedView(env.fake.state.reportRequests[0].report, env.fake.plantedValues()) };
		expect(jsonOf(plain.output)).toEqual([completed]);
		expect(jsonOf(upper.output)).toEqual([completed]);
	});

	it('maps the request ID from Create Request in one workflow, for each item', async () => {
		const flare = (name: string, parameters: INode['parameters'], x: number): INode => ({
			id: name,
			name,
			type: `${PACKAGE_NAME}.flare`,
			typeVersion: 1,
			position: [x, 0],
			parameters,
			credentials: { flareApi: { id: 'cred-1', name: 'Flare' } },
		});
		const items: INode = {
			id: 'items',
			name: 'Items',
			type: 'harness.items',
			typeVersion: 1,
			position: [0, 0],
			parameters: { items: JSON.stringify([{ title: 'First' }, { title: 'Second' }]) },
		};
		const main = (node: string) => ({ main: [[{ node, type: NodeConnectionTypes.Main, index: 0 }]] });

		const result = await env.harness.runWorkflow(
			[
				items,
				flare('Create', { resource: 'threatReport', operation: 'createRequest', reportTitle: '={{ $json.title }}' }, 200),
				flare('Status', statusOf(rl('={{ $json.request_id }}')) as INode['parameters'], 400),
			],
			{ Items: main('Create'), Create: main('Status') },
		);

		expect(result.status).toBe('success');
		const ids = env.fake.state.reportRequests.map((stored) => stored.request_id);
		expect(env.fake.state.reportRequests.map((stored) => (stored.body as { report_title: string }).report_title)).toEqual(['First', 'Second']);
		expect(apiRequests(env.fake).filter((request) => request.method === 'GET').map((request) => request.path)).toEqual(ids.map(STATUS_PATH));
		expect(result.node('Status').outputs[0].map((item) => [item.json, item.pairedItem])).toEqual([
			[{ status: 'processing', report: null }, { item: 0 }],
			[{ status: 'processing', report: null }, { item: 1 }],
		]);
	});

	it('passes a failed report through as Flare says it', async () => {
		const requestId = await createRequest();
		env.fake.failReport(requestId);

		await env.harness.runNode({ parameters: statusOf(rl(requestId)) });
		const failed = await env.harness.runNode({ parameters: statusOf(rl(requestId)) });

		expect(failed.status).toBe('success');
		expect(jsonOf(failed.output)).toEqual([{ status: 'error', report: null }]);
	});

	it('names an unknown request in the 404 message', async () => {
		const unknown = '00000000-0000-4000-8000-000000000000';

		const result = await env.harness.runNode({ parameters: statusOf(rl(unknown)) });

		expect(apiRequests(env.fake).map((request) => [request.path, request.status])).toEqual([[STATUS_PATH(unknown), 404]]);
		expect(result.status).toBe('error');
		expect(result.error?.message).toBe(`Threat report request ${unknown} was not found in Flare`);
	});

	it('a request of another tenant is not found either', async () => {
		const requestId = await createRequest();
		env.harness.addFlareCredential({ apiKey: env.fake.apiKeys.full, baseUrl: env.fake.url, tenantId: 202 }, 'cred-202');

		const result = await env.harness.runNode({ parameters: statusOf(rl(requestId)) }, { credentialId: 'cred-202' });

		expect(result.error?.message).toBe(`Threat report request ${requestId} was not found in Flare`);
		expect(env.fake.state.reportRequests[0].status_reads).toBe(0);
	});

	it('explains a missing threat intelligence entitlement', async () => {
		const requestId = await createRequest();
		env.harness.addFlareCredential({ apiKey: env.fake.apiKeys.noThreatIntel, baseUrl: env.fake.url }, 'cred-no-ti');

		const result = await env.harness.runNode({ parameters: statusOf(rl(requestId)) }, { credentialId: 'cred-no-ti' });

		expect(apiRequests(env.fake).map((request) => request.status)).toEqual([403]);
		expect(result.error?.message).toBe(
			'Your Flare account has no access to Threat Flow, needed to get the status of the threat report request',
		);
	});

	it('checks the request ID before anything is sent', async () => {
		const fromExpression = await env.harness.runNode({ parameters: statusOf(rl('={{ $json.id }}')) }, { items: [{ id: 'abc' }] });
		expect(fromExpression.error?.message).toBe(`'Report Request' is not a UUID: "abc" [item 0]`);
		expect(fromExpression.error?.description).toBe(
			'Use the request_id that Create Request returned, e.g. 3fa85f64-5717-4562-b3fc-2c963f66afa6.',
		);
		const empty = await env.harness.runNode({ parameters: statusOf('={{ "" }}') });
		expect(empty.error?.message).toBe(`'Report Request' is required [item 0]`);
		await expect(env.harness.runNode({ parameters: statusOf(rl('abc')) })).rejects.toMatchObject({
			name: 'WorkflowHasIssuesError',
			message: "The 'Flare' node has issues:\n- Enter the request_id that Create Request returned, e.g. 3fa85f64-5717-4562-b3fc-2c963f66afa6",
		});
		expect(env.fake.requests).toEqual([]);
	});
});
