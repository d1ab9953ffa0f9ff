/**
 * The Flare Alert Trigger in n8n's editor (editor test): its panel shows the setup notice and the
 * webhook's URLs; "Listen for test event" waits, the fake's alert channel pushes its signed Test alert
 * to the Test URL, and the output panel shows it, normalised.
 */
import { sleep } from 'n8n-workflow';
import type { Page } from 'playwright-core';

import { pushAlert, TEST_ALERT_UID, testAlert } from '../fake-flare';
import { fs } from '../support/node';
import { check, closeToasts, screenshot, testId } from './browser';
import type { Sandbox } from './sandbox';
import { ALERT_SECRET, say } from './suite';

const WORKFLOW = 'behaviours/alert-trigger-signed.json';
const TRIGGER = 'Flare alert';

export async function alertTriggerListens(page: Page, sandbox: Sandbox, artefacts: string) {
	say('Flare Alert Trigger: listen for a test event');
	const workflow = sandbox.workflows.find((candidate) => candidate.file === WORKFLOW);
	if (!workflow) throw new Error(`The sandbox did not import workflows/${WORKFLOW}`);
	const { nodes } = JSON.parse(fs.readFileSync(workflow.absolute, 'utf8')) as {
		nodes: Array<{ name: string; webhookId?: string }>;
	};
	const webhookId = nodes.find((node) => node.name === TRIGGER)!.webhookId!;
	await page.goto(`${sandbox.url}/workflow/${workflow.id}`);
	const node = page.locator(`${testId('canvas-node')}[data-node-name="${TRIGGER}"]`);
	await node.waitFor();
	check(
		(await node.getAttribute('data-node-type')) === 'n8n-nodes-flareio.flareAlertTrigger',
		`"${workflow.name}" opens with the Flare Alert Trigger "${TRIGGER}"`,
	);
	await node.dblclick();
	const ndv = page.locator(testId('ndv'));
	await ndv.waitFor();
	const text = await ndv.innerText();
	check(
		text.includes('Team → Edit → Create a New Alert Channel → Webhook'),
		'its panel shows the steps in Flare (Team → Edit → Create a New Alert Channel → Webhook)',
		`  panel: ${text.slice(0, 600)}`,
	);
	// n8n's "Webhook URLs": the Test URL first, the Production URL behind its toggle.
	const testPath = `/webhook-test/${webhookId}/flare-alert`;
	const productionPath = `/webhook/${webhookId}/flare-alert`;
	await ndv.getByText('Webhook URLs', { exact: true }).click();
	const shows = async (path: string) => {
		for (let waited = 0; waited < 10_000; waited += 250) {
			if ((await ndv.innerText()).includes(path)) return true;
			await sleep(250);
		}
		return false;
	};
	const testShown = await shows(testPath);
	await ndv.getByText('Production URL', { exact: true }).first().click();
	check(
		testShown && (await shows(productionPath)),
		`Webhook URLs shows the Test URL (…${testPath}) and the Production URL (…${productionPath})`,
		`  panel: ${(await ndv.innerText()).slice(0, 800)}`,
	);
	await screenshot(page, artefacts, '09-alert-trigger-panel.png');

	// The node's header shows before listening; while listening, n8n shows its own words.
	const header = 'Press Test in the Flare alert channel, with the Test URL as its Webhook URL';
	const before = await ndv.innerText();
	check(
		before.includes(header),
		`the trigger panel says: ${header}`,
		`  panel: ${before.slice(0, 600)}`,
	);
	await ndv.locator(testId('node-execute-button')).first().click();
	const waiting = 'Listening for test event';
	let listening = '';
	for (let waited = 0; waited < 30_000 && !listening.includes(waiting); waited += 250) {
		await sleep(250);
		listening = await ndv.innerText();
	}
	check(
		listening.includes('Stop Listening') && listening.includes(waiting),
		`"Listen for test event" waits (${waiting}, Stop Listening)`,
		`  panel: ${listening.slice(0, 600)}`,
	);

	const answer = await pushAlert(`${sandbox.url}${testPath}`, testAlert(Date.now()), {
		secrets: [ALERT_SECRET],
	});
	check(
		answer.status === 200,
		"the fake's alert channel pushes its signed Test alert to the Test URL: n8n answers 200",
		`  answer: ${answer.status} ${JSON.stringify(answer.body)}`,
	);
	const output = page.locator(testId('output-panel'));
	const table = output.locator('table');
	await table.locator('tbody tr').first().waitFor({ timeout: 60_000 });
	const count = (await output.locator(testId('run-data-item-count')).innerText()).trim();
	const headers = (await table.locator('thead th').allInnerTexts()).map((text) => text.trim());
	const cells = (await table.locator('tbody tr').first().locator('td').allInnerTexts()).map(
		(text) => text.trim(),
	);
	const cell = (name: string) => cells[headers.indexOf(name)];
	check(
		count === '1 item' && cell('uid') === TEST_ALERT_UID && cell('severity') === 'info',
		`the output panel shows the Test alert as one item: uid ${TEST_ALERT_UID}, severity info`,
		`  panel: "${count}"; columns ${JSON.stringify(headers)}; first row ${JSON.stringify(cells)}`,
	);
	await closeToasts(page);
	await screenshot(page, artefacts, '10-alert-trigger-test-event.png');
	await page.keyboard.press('Escape');
	await ndv.waitFor({ state: 'hidden' });
}
