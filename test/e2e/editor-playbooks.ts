/**
 * A playbook that acts, in n8n's editor (editor test): the Entra ID playbook opens on the canvas with
 * its notes, Execute workflow runs it against the sandbox's stand-ins as a dry run (review of issue
 * 41, F5): Microsoft Graph (its stand-in, through the proxy) receives a lookup per person and nothing
 * else, no request it would refuse, and Would act on (dry run) lists who a published workflow would
 * sign out. The picture of the executed canvas goes to the README.
 */
import type { Page } from 'playwright-core';

import { check, closeToasts, screenshot, testId } from './browser';
import type { Sandbox } from './sandbox';
import { say } from './suite';

const PLAYBOOK = 'playbooks/leaked-credentials-entra-id.json';
const LAST_NODE = 'Mark remediated in Flare';
/** Where a run by hand ends: the dry run's list. */
const DRY_RUN_END = 'Would act on (dry run)';

export async function entraIdPlaybook(page: Page, sandbox: Sandbox, artefacts: string) {
	say('Playbook: leaked credentials → Entra ID');
	const workflow = sandbox.workflows.find((candidate) => candidate.file === PLAYBOOK);
	if (!workflow) throw new Error(`The sandbox did not import workflows/${PLAYBOOK}`);
	await page.goto(`${sandbox.url}/workflow/${workflow.id}`);
	const node = (name: string) => page.locator(`${testId('canvas-node')}[data-node-name="${name}"]`);
	await node(LAST_NODE).waitFor();
	const stickies = await page.locator(testId('sticky')).count();
	check(
		(await node('Find the user in Entra ID').getAttribute('data-node-type')) ===
			'n8n-nodes-base.microsoftEntra' && stickies === 2,
		`"${workflow.name}" opens with n8n's Microsoft Entra ID node and its two notes`,
		`  notes on the canvas: ${stickies}`,
	);
	const mark = sandbox.tools.log.entries.length;
	await page.locator(testId('execute-workflow-button')).click();
	await node(DRY_RUN_END).locator(testId('canvas-node-status-success')).waitFor({ timeout: 120_000 });
	const graph = sandbox.tools.received('graph', mark);
	const kinds = (method: string) => graph.filter((entry) => entry.method === method).length;
	const problems = sandbox.tools.problemsSince(mark);
	check(
		kinds('GET') > 0 && kinds('PATCH') === 0 && kinds('POST') === 0 && problems.length === 0,
		`Execute workflow is a dry run: Entra ID (its stand-in) received ${kinds('GET')} lookups, ${kinds('PATCH')} new passwords required and ${kinds('POST')} sign-outs, none it would refuse`,
		`  received: ${graph.map((entry) => `${entry.method} ${entry.path} ${entry.status}`).join(', ')}; ${problems.join('; ')}`,
	);
	await closeToasts(page);
	await screenshot(page, artefacts, '01b-entra-id-playbook.png', {
		docsImage: 'playbook-entra-id.png',
		margin: 40, // the nodes' names are wider than the nodes
		around: ['sticky', 'canvas-node', 'edge-label', 'execute-workflow-button'].map((id) =>
			page.locator(testId(id)),
		),
	});
}
