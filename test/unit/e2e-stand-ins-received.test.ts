import { planted } from '../fake-flare/planted';
import { ToolStandIns } from '../e2e/stand-ins';
import { type Received, ReceivedLog } from '../e2e/stand-ins/http';
import { CANARY_API_KEY, CANARY_TOKEN_PREFIX } from '../reliability/secret-scan';

/** What the e2e suite and the editor test look for in what the tools' stand-ins received. */
describe("the check of what the tools' stand-ins received", () => {
	const received = (tool: string, body: unknown, where: Partial<Received> = {}): Received => ({
		tool,
		method: 'POST',
		path: '/rest/api/3/issue',
		query: {},
		...where,
		body,
		status: 201,
		at: 0,
	});
	const hitsIn = (...entries: Received[]) => {
		const log = new ReceivedLog();
		for (const entry of entries) log.record(entry);
		return ToolStandIns.prototype.plantedSince.call({ log } as unknown as ToolStandIns, 0).map((hit) => hit.source);
	};

	it("finds a planted leaked value, Flare's API key and a Flare token, naming the tool (hostile review 49)", () => {
		expect(
			hitsIn(
				received('jira', { fields: { description: `password ${planted('hunter2')}` } }),
				received('slack', { text: `key ${CANARY_API_KEY}` }),
				received('smtp', { text: `Authorization: Bearer ${CANARY_TOKEN_PREFIX}${'ab12'.repeat(10)}` }),
				received('okta', { text: 'key fk_full_demo_0001 of the sandbox' }),
				received('graph', {}, { query: { note: CANARY_API_KEY } }),
				received('entra', {}, { path: `/v1.0/users/${planted('hunter3')}` }),
			),
		).toEqual(['jira', 'slack', 'smtp', 'okta', 'graph', 'entra']);
	});

	it('finds nothing in what a playbook legitimately sends: masked values and the tools\' own words', () => {
		expect(
			hitsIn(
				received('jira', { fields: { summary: 'Leaked credential for jane@acme.com', description: 'password h********2' } }),
				received('graph', { body: { passwordProfile: { forceChangePasswordNextSignIn: true } } }),
			),
		).toEqual([]);
	});
});
