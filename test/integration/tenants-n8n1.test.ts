/* eslint-disable @typescript-eslint/no-require-imports, @n8n/community-nodes/no-restricted-imports -- n8n-core 1.x is loaded from the shared n8n 1.x install */
/**
 * A tenant's token that Flare refuses (401), under n8n 1.x and 2.x alike: sent once, one new token,
 * that one sent once (docs/api-contract.md, "Tenants of a node"). The package's transport (dist/, as
 * n8n loads it) sends through n8n-core's own `httpRequestWithAuthentication`: the project's 2.x, and
 * 1.x from the shared n8n 1.x install (test/e2e/install.ts), which ignores the node's request not to
 * renew after a 401 and sends again itself, after the credential's `preAuthentication`.
 *
 * Long-proof run only (FLARE_LONG=1): it loads a second n8n-core (about 2 s); skipped when the n8n 1.x
 * install is absent.
 */
import type { ICredentialDataDecryptedObject, IHttpRequestOptions, INode } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';
import * as core2 from 'n8n-core';

import { installDir } from '../e2e/install';
import type { FakeFlare } from '../fake-flare';
import { Harness } from '../harness/engine';
import { fs, path } from '../support/node';
import { LONG } from '../support/volume';
import { useFakeFlare } from './support';

const N8N1_HELPERS = path.join(
	installDir('1'),
	'node_modules/n8n-core/dist/execution-engine/node-execution-context/utils/request-helper-functions.js',
);
const N8N2_HELPERS = 'n8n-core/dist/execution-engine/node-execution-context/utils/request-helpers/authentication.js';
const runs = LONG && fs.existsSync(N8N1_HELPERS) ? it : it.skip;

type SendWithAuthentication = (
	this: unknown,
	type: string,
	options: IHttpRequestOptions,
	workflow: Workflow,
	node: INode,
	additionalData: unknown,
	extra: unknown,
) => Promise<unknown>;

interface Dist {
	connection: {
		readSettings(credentials: ICredentialDataDecryptedObject): { tenantId?: number };
		tokenFingerprint(settings: object): string;
	};
	token: { forgetTenantTokens(): void };
	transport: { flareRequest(ctx: unknown, request: object): Promise<{ statusCode: number }> };
}

describe('A refused tenant token under n8n 1.x and 2.x', () => {
	const flare = useFakeFlare({ credentials: 10, eventsPerTenant: 3, tenants: [101, 202, 303] });
	let fake: FakeFlare;
	let harness: Harness;
	beforeEach(() => ({ fake, harness } = flare));

	async function dist(): Promise<Dist> {
		const load = async (file: string) => (await import(path.resolve(`dist/nodes/Flare/shared/${file}.js`))) as unknown;
		return {
			connection: (await load('connection')) as Dist['connection'],
			token: (await load('token')) as Dist['token'],
			transport: (await load('transport')) as Dist['transport'],
		};
	}

	/**
	 * Three requests of a node working in tenant 303, through `send` (n8n-core's
	 * httpRequestWithAuthentication) and `httpRequest`: the first exchanges; before the second every
	 * token expires; the third meets two 401s. The fake's log of each.
	 */
	async function threeRequests(send: SendWithAuthentication, httpRequest: unknown, organization: string) {
		const { connection, token, transport } = await dist();
		token.forgetTenantTokens();
		const stored = harness.credentials.get('cred-1').data;
		const node: INode = {
			id: 'n',
			name: 'Flare',
			type: 'n8n-nodes-flareio.flare',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
			credentials: { flareApi: { id: 'cred-1', name: 'Flare cred-1' } },
		};
		const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes: harness.nodeTypes() });
		const additionalData = harness.additionalData(new core2.ExecutionLifecycleHooks('internal', 'r', {} as never));
		const context = {
			helpers: { httpRequest },
			getNode: () => node,
			getCredentials: async () => ({ ...harness.credentials.get('cred-1').data }),
			logger: { warn() {}, debug() {} },
		};
		const ctx = {
			...context,
			helpers: {
				httpRequest,
				httpRequestWithAuthentication: async (type: string, options: IHttpRequestOptions, extra: unknown) =>
					await send.call(context, type, options, workflow, node, additionalData, extra),
			},
		};
		const request = {
			options: { method: 'GET', baseURL: fake.url, url: '/firework/v2/me/tenants' },
			timeoutMs: 30_000,
			tier: 'basic',
			write: false,
			organization,
			tenant: 303,
			fingerprint: connection.tokenFingerprint({ ...connection.readSettings(stored), tenantId: 303 }),
		};
		const log = () => fake.requests.map((logged) => [logged.path, logged.status, logged.tokenValid ?? null]);
		const outcome = async () =>
			await transport.flareRequest(ctx, request).then(
				(response) => response.statusCode,
				(error: { failure?: { status?: number } }) => error.failure?.status,
			);

		fake.clearLog();
		const first = [await outcome(), log()];
		fake.expireAllTokens();
		fake.clearLog();
		const expired = [await outcome(), log()];
		fake.faults.add({ path: '/firework/v2/me/tenants', times: 2, fault: { status: 401, body: { error: { code: 'UNAUTHORIZED', message: 'token refused' } } } });
		fake.clearLog();
		const refusedTwice = [await outcome(), log()];
		return { first, expired, refusedTwice };
	}

	runs('sends each token once: the refused one, then one new one (n8n 1.x renews through preAuthentication), and stores nothing', async () => {
		harness = await Harness.create();
		harness.addFlareCredential({ apiKey: fake.apiKeys.full, baseUrl: fake.url });
		const n8n1 = require(N8N1_HELPERS) as { httpRequestWithAuthentication: SendWithAuthentication; httpRequest: unknown };
		const n8n2 = require(N8N2_HELPERS) as { httpRequestWithAuthentication: SendWithAuthentication };
		const { Container } = require('@n8n/di') as { Container: { get(type: unknown): { requests(): { request(options: unknown): Promise<unknown> } } } };
		const { OutboundHttp } = require('@n8n/backend-network') as { OutboundHttp: unknown };
		const http2 = async (options: unknown) => await Container.get(OutboundHttp).requests().request(options);

		const v2 = await threeRequests(n8n2.httpRequestWithAuthentication, http2, 'n8n2');
		const v1 = await threeRequests(n8n1.httpRequestWithAuthentication, n8n1.httpRequest, 'n8n1');

		const TENANTS = '/firework/v2/me/tenants';
		expect(v2).toEqual({
			first: [200, [['/tokens/generate', 200, null], [TENANTS, 200, true]]],
			expired: [200, [[TENANTS, 401, false], ['/tokens/generate', 200, null], [TENANTS, 200, true]]],
			refusedTwice: [401, [[TENANTS, 401, true], ['/tokens/generate', 200, null], [TENANTS, 401, true]]],
		});
		expect(v1).toEqual(v2);
		// Neither stores a tenant's token in the credential.
		expect(harness.credentials.updates).toEqual([]);
	});
});
