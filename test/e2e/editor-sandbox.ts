/**
 * The sandbox as a user meets it (editor test, part one): every socket it listens on is on 127.0.0.1,
 * the owner logs in through n8n's sign-in form, opens the daily leak watch playbook from the workflow
 * list, executes it, and reads the leaked credentials in the Flare node's output panel, passwords
 * masked. The expected rows come from the fake's dataset; the mask is checked by its shape (stars,
 * at most one character kept on each side), not by an exact format.
 */
import type { Page } from 'playwright-core';

import { fs, processRef } from '../support/node';
import { check, closeToasts, screenshot, testId } from './browser';
import { OWNER } from './manual';
import type { Sandbox } from './sandbox';
import { say } from './suite';

const PLAYBOOK = 'playbooks/daily-leak-watch.json';
const FLARE_NODE = 'New leaked credentials';
const LAST_NODE = 'Format the summary';
const SEARCH_PATH = '/firework/v4/credentials/global/_search';
/** A masked leaked value: stars, with at most one character kept on each side. */
const MASKED = /^[^*]?\*+[^*]?$/u;

// ---------------------------------------------------------------------------------------------------
// Listening sockets, from /proc (Linux).

/** The processes of a process group. */
function processesOf(group: number): number[] {
	return fs.readdirSync('/proc').flatMap((entry) => {
		if (!/^\d+$/.test(entry)) return [];
		try {
			// pid (comm) state ppid pgrp …; comm may hold spaces and parentheses.
			const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
			const [, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			return Number(pgrp) === group ? [Number(entry)] : [];
		} catch {
			return []; // ended meanwhile
		}
	});
}

/** `127.0.0.1:5678` from /proc/net/tcp's `0100007F:162E`; IPv6 addresses stay in hex. */
function decodeAddress(hex: string): string {
	const [address, port] = hex.split(':');
	const host =
		address.length === 8
			? (address.match(/../g) ?? [])
					.reverse()
					.map((byte) => parseInt(byte, 16))
					.join('.')
			: `[${address}]`;
	return `${host}:${parseInt(port, 16)}`;
}

/** The TCP addresses the given processes listen on. */
function listeningAddresses(pids: number[]): string[] {
	const sockets = new Set<string>();
	for (const pid of pids) {
		let descriptors: string[] = [];
		try {
			descriptors = fs.readdirSync(`/proc/${pid}/fd`);
		} catch {
			continue; // ended meanwhile
		}
		for (const descriptor of descriptors) {
			try {
				const inode = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${pid}/fd/${descriptor}`));
				if (inode) sockets.add(inode[1]);
			} catch {
				// closed meanwhile
			}
		}
	}
	const LISTEN = '0A';
	return ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((table) =>
		fs
			.readFileSync(table, 'utf8')
			.split('\n')
			.slice(1)
			.map((line) => line.trim().split(/\s+/))
			.filter((fields) => fields[3] === LISTEN && sockets.has(fields[9]))
			.map((fields) => decodeAddress(fields[1])),
	);
}

/** n8n (its whole process group), the fakes and the stand-ins (this process) listen on 127.0.0.1 and nowhere else. */
export function listensOnLoopbackOnly(sandbox: Sandbox): void {
	const addresses = listeningAddresses([
		...processesOf(sandbox.server.processGroup),
		processRef.pid,
	]);
	const expected = [
		...[sandbox.url, sandbox.fake.url, sandbox.model.url].map((url) => new URL(url).host),
		...Object.values(sandbox.tools.ports).map((port) => `127.0.0.1:${port}`),
	];
	check(
		expected.every((host) => addresses.includes(host)) &&
			addresses.every((address) => address.startsWith('127.0.0.1:')),
		`n8n, the fake Flare API, the fake chat model and the tools' stand-ins listen on 127.0.0.1 only (${addresses.length} sockets)`,
		`  listening: ${addresses.join(', ')}; expected among them: ${expected.join(', ')}`,
	);
}

// ---------------------------------------------------------------------------------------------------
// The editor.

/** Logs in through n8n's sign-in form with the sandbox's owner account. */
export async function signIn(page: Page, sandbox: Sandbox): Promise<void> {
	say('Log in');
	await page.goto(sandbox.url);
	await page.waitForURL((url) => url.pathname.startsWith('/signin'));
	await page.locator(`${testId('emailOrLdapLoginId')} input`).fill(OWNER.email);
	await page.locator(`${testId('password')} input`).fill(OWNER.password);
	await page.locator(testId('form-submit-button')).click();
	await page.waitForURL((url) => !url.pathname.startsWith('/signin'));
	const cookies = await page.context().cookies(sandbox.url);
	check(
		cookies.some((cookie) => cookie.name === 'n8n-auth'),
		`the editor asks to log in; the sign-in form logs ${OWNER.email} in (n8n-auth cookie)`,
	);
}

/** Opens the daily leak watch from the workflow list, executes it, and reads the Flare node's output. */
export async function dailyLeakWatch(page: Page, sandbox: Sandbox, artefacts: string) {
	say('Playbook: daily leak watch');
	const workflow = sandbox.workflows.find((candidate) => candidate.file === PLAYBOOK);
	if (!workflow) throw new Error(`The sandbox did not import workflows/${PLAYBOOK}`);
	// Every workflow on one page: n8n lists 50 a page by default, and workflows/ holds more.
	await page.goto(`${sandbox.url}/home/workflows?pageSize=100`);
	const cards = page.locator(testId('workflow-card-name'));
	await cards.first().waitFor();
	const listed = (await cards.allInnerTexts()).map((name) => name.trim());
	check(
		sandbox.workflows.every((imported) => listed.includes(imported.name)),
		`the workflow list shows the ${sandbox.workflows.length} workflows of workflows/`,
		`  missing: ${sandbox.workflows
			.filter((imported) => !listed.includes(imported.name))
			.map((imported) => imported.name)
			.join(', ')}`,
	);
	await cards.filter({ hasText: workflow.name }).first().click();
	await page.waitForURL((url) => url.pathname === `/workflow/${workflow.id}`);
	const node = (name: string) => page.locator(`${testId('canvas-node')}[data-node-name="${name}"]`);
	await node(FLARE_NODE).waitFor();
	check(
		(await node(FLARE_NODE).getAttribute('data-node-type')) === 'n8n-nodes-flareio.flare',
		`"${workflow.name}" opens on the canvas, with the Flare node "${FLARE_NODE}"`,
	);

	const mark = sandbox.fake.requests.length;
	await page.locator(testId('execute-workflow-button')).click();
	await node(LAST_NODE).locator(testId('canvas-node-status-success')).waitFor({ timeout: 120_000 });
	const searches = sandbox.fake.requests
		.slice(mark)
		.filter((request) => request.path === SEARCH_PATH);
	const gte = (searches[0]?.body as { filters?: { imported_at?: { gte?: string } } } | undefined)
		?.filters?.imported_at?.gte;
	check(
		searches.length === 1 && searches[0].status === 200 && gte !== undefined,
		'Execute workflow runs it to the end: one search of the fake Flare API, imported since a day ago',
		`  searches: ${JSON.stringify(searches.map((request) => [request.status, request.body]))}`,
	);
	const expected = sandbox.fake.dataset.searchAll({
		query: { type: 'domain', fqdn: 'acme.com' },
		filters: { imported_at: { gte: gte as string } },
	});
	await closeToasts(page);
	await screenshot(page, artefacts, '01-daily-leak-watch.png', {
		docsImage: 'sandbox-daily-leak-watch.png',
		margin: 40, // the nodes' names are wider than the nodes
		around: [
			'sticky',
			'canvas-node',
			'edge-label',
			'canvas-handle-plus-wrapper',
			'execute-workflow-button',
		].map((id) => page.locator(testId(id))),
	});

	await node(FLARE_NODE).dblclick();
	const output = page.locator(testId('output-panel'));
	const table = output.locator('table');
	await table.waitFor();
	const count = (await output.locator(testId('run-data-item-count')).innerText()).trim();
	check(
		expected.length > 0 && count === `${expected.length} items`,
		`the output panel of "${FLARE_NODE}" shows the ${expected.length} credentials of acme.com imported in the last day`,
		`  panel: "${count}", the fake's dataset: ${expected.length}`,
	);
	const headers = (await table.locator('thead th').allInnerTexts()).map((text) => text.trim());
	const rows = await table
		.locator('tbody tr')
		.evaluateAll((elements) =>
			elements.map((row) =>
				[...row.querySelectorAll('td')].map((cell) => (cell.textContent ?? '').trim()),
			),
		);
	const column = (name: string) => rows.map((row) => row[headers.indexOf(name)]);
	const identities = expected.map((record) => record.identity_name);
	check(
		JSON.stringify(column('identity_name')) === JSON.stringify(identities),
		"one row per credential, newest first, as in the fake's dataset",
		`  expected: ${JSON.stringify(identities)}\n  editor:   ${JSON.stringify(column('identity_name'))}`,
	);
	const shown = column('hash');
	const passwords = expected.map((record) => record.hash);
	check(
		shown.every((value, index) => MASKED.test(value) && value !== passwords[index]),
		`every password in the table is masked: stars, at most one character on each side (${shown.slice(0, 3).join(', ')}, …)`,
		`  shown: ${JSON.stringify(shown)}`,
	);
	const revealed = rows.flat().filter((cell) => passwords.includes(cell));
	check(
		revealed.length === 0,
		'no cell of the output panel holds a full password of these credentials',
		`  cells: ${JSON.stringify(revealed)}`,
	);
	await closeToasts(page);
	await screenshot(page, artefacts, '02-masked-output.png', {
		docsImage: 'sandbox-masked-output.png',
		around: [page.locator(testId('tab-params')), page.locator(testId('node-parameters')), output],
	});
	await page.keyboard.press('Escape');
	await page.locator(testId('ndv')).waitFor({ state: 'hidden' });
}
