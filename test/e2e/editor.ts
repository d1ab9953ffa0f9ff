/**
 * `npm run test:editor`: the Flare node in n8n's real editor, in a real browser.
 *
 * Starts the sandbox of `npm run sandbox` afresh (a real n8n 2.41.1 with the packed package installed
 * as a community package, a Flare API credential for the fake Flare API, the workflows of workflows/
 * and an owner account; everything on 127.0.0.1), and drives Debian's Chromium with playwright-core
 * (no browser download) through what a user does: log in, open the daily leak watch playbook, execute
 * it and read the masked rows in the output panel; execute the Entra ID playbook against the tools'
 * stand-ins and see what Entra ID received; open the Flare Alert Trigger, listen for a test
 * event and see the fake's signed Test alert arrive; then search "Flare" in the node creator, add the
 * node, go through its resources and operations, the fields that show and hide, and the Flare API
 * credential form, whose connection test talks to the fake API.
 *
 * What the editor shows is compared with the node's own description, read from the built package as
 * installed into n8n (dist/nodes/Flare/Flare.node.js, dist/credentials/FlareApi.credentials.js), and
 * with the fake's dataset, so a change of the description needs no change here. Screenshots go to
 * .n8n-e2e/editor/ (git-ignored), and the README's pictures also to docs/images/ at every run: commit
 * them when they change.
 *
 *   CHROMIUM_PATH=<binary>      the browser (default /usr/bin/chromium: apt-get install -y chromium)
 *   FLARE_E2E_SKIP_BUILD=1      pack the existing dist/ instead of building first
 *   FLARE_EDITOR_HEADED=1       show the browser (needs a display)
 */
import type { INodeProperties, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';

import type { FakeFlare } from '../fake-flare';
import { filterSourceTypes } from '../fake-flare/feed';
import { fs, os, path, processRef } from '../support/node';
import { ACTION_TIMEOUT, check, CHROMIUM_ARGS, passed, screenshot, testId } from './browser';
import { alertTriggerListens } from './editor-alerts';
import { entraIdPlaybook } from './editor-playbooks';
import { dailyLeakWatch, listensOnLoopbackOnly, signIn } from './editor-sandbox';
import type { N8nInstance } from './n8n';
import { scanSummaryFile } from '../reliability/secret-scan';
import { E2eSecretScan } from './secrets';
import { type Sandbox, startSandbox } from './sandbox';
import { CREDENTIAL_NAME, repositoryRoot, say, seconds, workFolder } from './suite';

const PACKAGE = 'n8n-nodes-flareio';
/**
 * n8n may append its own "Custom API Call" entry to the Resource and Operation lists of a node whose
 * credential authenticates generically (injectCustomApiCallOptions); whether it does has varied between
 * runs of the same n8n 2.41.1. The lists hold the description's options, then at most that entry.
 */
const CUSTOM_API_CALL = 'Custom API Call';
const withoutCustomApiCall = (names: string[]) =>
	names[names.length - 1] === CUSTOM_API_CALL ? names.slice(0, -1) : names;
/** n8n's own field at the end of every credential form the HTTP Request node may use. */
const N8N_DOMAINS_FIELD = 'allowedHttpRequestDomains';

function checkList(actual: string[], expected: string[], what: string): void {
	check(
		JSON.stringify(actual) === JSON.stringify(expected),
		what,
		`  expected: ${JSON.stringify(expected)}\n  editor:   ${JSON.stringify(actual)}`,
	);
}

// ---------------------------------------------------------------------------------------------------
// The package as n8n loaded it.

interface Described {
	node: INodeTypeDescription;
	credential: INodeProperties[];
}

/**
 * The node and credential descriptions of the installed package. The package has no n8n-workflow of
 * its own (n8n's installer leaves peer dependencies out); the instance folder is inside the repository,
 * so the repository's n8n-workflow resolves.
 */
async function readDescriptions(n8n: N8nInstance): Promise<Described> {
	const installed = path.join(n8n.userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE, 'dist');
	const nodeModule = (await import(path.join(installed, 'nodes', 'Flare', 'Flare.node.js'))) as {
		Flare?: new () => { description: INodeTypeDescription };
		default?: { Flare: new () => { description: INodeTypeDescription } };
	};
	const credentialModule = (await import(
		path.join(installed, 'credentials', 'FlareApi.credentials.js')
	)) as {
		FlareApi?: new () => { properties: INodeProperties[] };
		default?: { FlareApi: new () => { properties: INodeProperties[] } };
	};
	const Flare = nodeModule.Flare ?? nodeModule.default?.Flare;
	const FlareApi = credentialModule.FlareApi ?? credentialModule.default?.FlareApi;
	if (!Flare || !FlareApi)
		throw new Error(`The installed package in ${installed} lacks Flare or FlareApi`);
	return { node: new Flare().description, credential: new FlareApi().properties };
}

const optionsOf = (property: INodeProperties | undefined) =>
	(property?.options ?? []) as INodePropertyOptions[];

function resourceOptions(node: INodeTypeDescription): INodePropertyOptions[] {
	return optionsOf(node.properties.find((property) => property.name === 'resource'));
}

function operationOptions(node: INodeTypeDescription, resource: string): INodePropertyOptions[] {
	return optionsOf(
		node.properties.find(
			(property) =>
				property.name === 'operation' &&
				(property.displayOptions?.show?.resource as string[] | undefined)?.includes(resource),
		),
	);
}

function property(node: INodeTypeDescription, name: string, resource: string, operation: string) {
	const found = node.properties.find(
		(candidate) =>
			candidate.name === name &&
			(candidate.displayOptions?.show?.resource as string[] | undefined)?.includes(resource) &&
			(candidate.displayOptions?.show?.operation as string[] | undefined)?.includes(operation),
	);
	if (!found)
		throw new Error(`The description has no field "${name}" for ${resource} → ${operation}`);
	return found;
}

const nameOf = (options: INodePropertyOptions[], value: string) => {
	const found = options.find((option) => option.value === value);
	if (!found) throw new Error(`No option with value "${value}" in ${JSON.stringify(options)}`);
	return found.name;
};

// ---------------------------------------------------------------------------------------------------
// n8n's editor.

/** The option list (element-plus listbox, teleported to the body) of a select inside `trigger`. */
async function listboxOf(trigger: Locator): Promise<Locator> {
	const input = trigger.locator('input[role="combobox"]').first();
	const id = await input.getAttribute('aria-controls', { timeout: ACTION_TIMEOUT });
	if (!id) throw new Error(`No option list for ${trigger.toString()}`);
	return trigger.page().locator(`[id="${id}"]`);
}

/** Opens the select and returns the names of its options (the headline, without the description). */
async function openOptions(trigger: Locator): Promise<{ listbox: Locator; names: string[] }> {
	const listbox = await listboxOf(trigger);
	await trigger.click();
	await listbox.waitFor({ state: 'visible', timeout: ACTION_TIMEOUT });
	const names = await listbox
		.locator('[role="option"]')
		.evaluateAll((elements) =>
			elements.map((element) =>
				((element.querySelector('.option-headline') ?? element).textContent ?? '').trim(),
			),
		);
	return { listbox, names };
}

/** Picks an option of an open select by its exact name and waits for the select to show it. */
async function pick(trigger: Locator, opened: { listbox: Locator; names: string[] }, name: string) {
	const index = opened.names.indexOf(name);
	if (index === -1) throw new Error(`No option "${name}" in ${JSON.stringify(opened.names)}`);
	await opened.listbox.locator('[role="option"]').nth(index).click();
	await opened.listbox.waitFor({ state: 'hidden', timeout: ACTION_TIMEOUT });
}

async function choose(trigger: Locator, name: string): Promise<void> {
	await pick(trigger, await openOptions(trigger), name);
	const shown = await trigger.locator('input').first().inputValue();
	if (shown !== name) throw new Error(`The select shows "${shown}" after choosing "${name}"`);
}

async function isShown(locator: Locator): Promise<boolean> {
	return (await locator.count()) > 0 && (await locator.first().isVisible());
}

/** Waits until the locator is shown (or not), then reports whether it is. */
async function settle(locator: Locator, shown: boolean): Promise<boolean> {
	try {
		await locator.first().waitFor({ state: shown ? 'visible' : 'hidden', timeout: 10_000 });
	} catch {
		// reported below
	}
	return await isShown(locator);
}

// ---------------------------------------------------------------------------------------------------

async function nodeCreator(page: Page, described: Described, artefacts: string, url: string) {
	say('Node creator');
	await page.goto(`${url}/workflow/new`, { waitUntil: 'domcontentloaded' });
	await page.locator(testId('canvas-add-button')).click();
	const creator = page.locator(testId('node-creator'));
	await creator.locator(testId('node-creator-search-bar')).fill('Flare');
	const flare = creator
		.locator(testId('item-iterator-item'))
		.filter({ has: page.locator(testId('node-creator-item-name'), { hasText: /^Flare$/ }) });
	await flare.first().waitFor({ state: 'visible', timeout: ACTION_TIMEOUT });
	const navId = (await flare.first().getAttribute('data-keyboard-nav-id')) ?? '';
	check(
		(await flare.count()) === 1 && navId.startsWith(`${PACKAGE}.`),
		`searching "Flare" lists the Flare node of ${PACKAGE}`,
		`  items named Flare: ${await flare.count()}, first is ${navId}`,
	);
	await screenshot(page, artefacts, '03-node-creator.png');

	await flare.first().click();
	const actionsCategory = creator.locator(
		`${testId('node-creator-category-item')}[data-keyboard-nav-id="Actions"]`,
	);
	await actionsCategory.waitFor({ state: 'visible', timeout: ACTION_TIMEOUT });
	if ((await actionsCategory.locator('..').getAttribute('data-category-collapsed')) === 'true') {
		await actionsCategory.click();
	}
	const expected = resourceOptions(described.node).flatMap((resource) =>
		operationOptions(described.node, String(resource.value)).map((operation) =>
			String(operation.action ?? operation.name),
		),
	);
	const firstAction = creator
		.locator(testId('item-iterator-item'))
		.filter({ hasText: expected[0] })
		.first();
	await firstAction.waitFor({ state: 'visible', timeout: ACTION_TIMEOUT });
	// In page order: the trigger's actions, then the "Actions" category and the node's actions. n8n's
	// node creator renders a long list a few items per animation frame, so read it until it stops growing.
	const listedActions = async (): Promise<string[]> => {
		const listed = await creator.locator('[data-keyboard-nav-id]').evaluateAll((elements) =>
			elements.map((element) => ({
				id: element.getAttribute('data-keyboard-nav-id') ?? '',
				type: element.getAttribute('data-keyboard-nav-type') ?? '',
				text: (element.textContent ?? '').trim(),
			})),
		);
		const start = listed.findIndex((entry) => entry.id === 'Actions');
		return listed
			.slice(start + 1)
			.filter((entry) => entry.type === 'action')
			.map((entry) => entry.text);
	};
	let actions = await listedActions();
	for (const waitUntil = Date.now() + ACTION_TIMEOUT; Date.now() < waitUntil; ) {
		await page.waitForTimeout(250);
		const again = await listedActions();
		if (again.length === actions.length && again.length >= expected.length) break;
		actions = again;
	}
	checkList(
		actions,
		expected,
		`the node's ${expected.length} actions are listed, one per operation`,
	);
	await screenshot(page, artefacts, '04-node-actions.png');
	return expected;
}

async function nodePanel(page: Page, described: Described, artefacts: string): Promise<Locator> {
	say('Node panel: resources and operations');
	const { node } = described;
	const resources = resourceOptions(node);
	const search = operationOptions(node, 'leakedCredential').find(
		(operation) => operation.value === 'search',
	);
	if (!search) throw new Error('The description has no Leaked Credential → Search');
	await page
		.locator(testId('item-iterator-item'))
		.filter({ hasText: String(search.action) })
		.first()
		.click();
	const ndv = page.locator(testId('ndv'));
	await ndv.waitFor({ state: 'visible', timeout: ACTION_TIMEOUT });
	const resource = ndv.locator(testId('parameter-input-resource'));
	const operation = ndv.locator(testId('parameter-input-operation'));
	await resource.waitFor({ state: 'visible', timeout: ACTION_TIMEOUT });
	check(
		(await resource.locator('input').inputValue()) === nameOf(resources, 'leakedCredential') &&
			(await operation.locator('input').inputValue()) === search.name,
		`the action opens the node on ${nameOf(resources, 'leakedCredential')} → ${search.name}`,
	);
	const credentialSelect = ndv.locator(testId('node-credentials-select'));
	check(
		(await credentialSelect.locator('input').inputValue()) === CREDENTIAL_NAME,
		`the imported credential "${CREDENTIAL_NAME}" is selected`,
	);

	const opened = await openOptions(resource);
	checkList(
		withoutCustomApiCall(opened.names),
		resources.map((option) => option.name),
		`Resource lists the ${resources.length} resources of the description (then at most n8n's ${CUSTOM_API_CALL})`,
	);
	await pick(resource, opened, resources[0].name);
	for (const option of resources) {
		await choose(resource, option.name);
		const expected = operationOptions(node, String(option.value)).map((entry) => entry.name);
		const operations = await openOptions(operation);
		checkList(
			withoutCustomApiCall(operations.names),
			expected,
			`Operation of ${option.name}: ${expected.join(', ')}`,
		);
		await pick(operation, operations, expected[0]);
	}

	say('Node panel: fields shown and hidden');
	await choose(resource, nameOf(resources, 'leakedCredential'));
	await choose(operation, search.name);
	const field = (name: string) => ndv.locator(testId(`parameter-input-${name}`));
	const queryType = property(node, 'queryType', 'leakedCredential', 'search');
	const byEmail = nameOf(optionsOf(queryType), 'email');
	const byDomain = nameOf(optionsOf(queryType), 'domain');
	await field('queryType').waitFor({ state: 'visible', timeout: ACTION_TIMEOUT });
	check(
		(await field('queryType').locator('input').inputValue()) === byDomain &&
			(await settle(field('fqdn'), true)) &&
			!(await settle(field('email'), false)),
		`Search By "${byDomain}" (default) shows Domain and hides Email`,
	);
	await choose(field('queryType'), byEmail);
	check(
		(await settle(field('email'), true)) && !(await settle(field('fqdn'), false)),
		`Search By "${byEmail}" shows Email and hides Domain`,
	);
	await choose(field('queryType'), byDomain);
	await field('fqdn').locator('input').fill('acme.com');

	// The import-time bounds are options of the Options collection: absent until added.
	const options = property(node, 'options', 'leakedCredential', 'search');
	const bounds = (options.options as INodeProperties[]).filter((option) =>
		['importedFrom', 'importedTo'].includes(option.name),
	);
	check(bounds.length === 2, 'the description has the Imported From and Imported To options');
	check(
		!(await settle(field('importedFrom'), false)) && !(await settle(field('importedTo'), false)),
		'Imported From / Imported To are hidden until added',
	);
	const optionsItem = ndv
		.locator('.multi-parameter')
		.filter({ has: page.locator('label[for="options"]') })
		.first();
	const addOption = optionsItem.locator(testId('collection-parameter-add'));
	const addable = await openOptions(addOption);
	checkList(
		addable.names,
		(options.options as INodeProperties[]).map((option) => option.displayName),
		'Add Option offers the Options of the description',
	);
	await pick(addOption, addable, bounds[0].displayName);
	check(
		(await settle(field(bounds[0].name), true)) && !(await settle(field(bounds[1].name), false)),
		`choosing ${bounds[0].displayName} shows that bound only`,
	);
	// The README's picture of the form shows its notices as this package words them, the first in full.
	const notices = node.properties.filter(
		(candidate) =>
			candidate.type === 'notice' &&
			(candidate.displayOptions?.show?.resource as string[] | undefined)?.includes(
				'leakedCredential',
			) &&
			(candidate.displayOptions?.show?.operation as string[] | undefined)?.includes('search'),
	);
	check(notices.length > 0, 'the description has a notice on the Search form');
	for (const notice of notices) {
		check(
			await settle(ndv.getByText(notice.displayName), true),
			`the Search form shows the notice "${notice.displayName.slice(0, 60)}…"`,
		);
	}
	await ndv.getByText(notices[0].displayName).first().scrollIntoViewIfNeeded();
	await screenshot(page, artefacts, '05-node-search.png', { docsImage: 'flare-node-editor.png' });

	// The custom time range of a threat report: From and To only for "Custom Range".
	const threatReport = nameOf(resources, 'threatReport');
	const createRequest = operationOptions(node, 'threatReport').find(
		(entry) => entry.value === 'createRequest',
	);
	if (!createRequest) throw new Error('The description has no Threat Report → Create Request');
	await choose(resource, threatReport);
	await choose(operation, createRequest.name);
	const rangeType = property(node, 'timeRangeType', 'threatReport', 'createRequest');
	const rangeDefault = nameOf(optionsOf(rangeType), String(rangeType.default));
	const custom = nameOf(optionsOf(rangeType), 'range');
	const other = optionsOf(rangeType).find(
		(option) => option.value !== 'range' && option.value !== rangeType.default,
	);
	await field('timeRangeType').waitFor({ state: 'visible', timeout: ACTION_TIMEOUT });
	const rangeShown = async () => [
		await settle(field('timeRangeFrom'), true),
		await settle(field('timeRangeTo'), true),
	];
	const rangeHidden = async () =>
		!(await settle(field('timeRangeFrom'), false)) && !(await settle(field('timeRangeTo'), false));
	check(
		(await field('timeRangeType').locator('input').inputValue()) === rangeDefault &&
			(await rangeHidden()),
		`${threatReport} → ${createRequest.name}: Time Range "${rangeDefault}" (default) hides From and To`,
	);
	await choose(field('timeRangeType'), custom);
	check((await rangeShown()).every(Boolean), `Time Range "${custom}" shows From and To`);
	await screenshot(page, artefacts, '06-threat-report-range.png');
	if (other) {
		await choose(field('timeRangeType'), other.name);
		check(await rangeHidden(), `Time Range "${other.name}" hides From and To again`);
	}
	await eventFeedForm(page, ndv, described, artefacts);
	await responseForms(page, ndv, described, artefacts);
	return ndv;
}

/**
 * The forms of the response and onboarding operations: each matching-policy Type shows its own value
 * fields only; Search All of Flare has no "All Events" and starts on Keyword; Expand Stealer Log lists
 * Cookies or Credentials; Leaked Cookie → Search offers its filters; and Identifier → Create's
 * Identifier Group picker lists the groups loaded from Flare (the fake).
 */
async function responseForms(page: Page, ndv: Locator, described: Described, artefacts: string) {
	say('Node panel: the response and onboarding operations');
	const { node } = described;
	const field = (name: string) => ndv.locator(testId(`parameter-input-${name}`));
	const open = async (resource: string, operation: string) => {
		await choose(ndv.locator(testId('parameter-input-resource')), nameOf(resourceOptions(node), resource));
		await choose(
			ndv.locator(testId('parameter-input-operation')),
			nameOf(operationOptions(node, resource), operation),
		);
	};
	const formOf = (resource: string, operation: string) =>
		node.properties.filter(
			(candidate) =>
				(candidate.displayOptions?.show?.resource as string[] | undefined)?.includes(resource) &&
				(candidate.displayOptions?.show?.operation as string[] | undefined)?.includes(operation),
		);

	// Matching Policy → Create: each Type shows its own value fields, and only those.
	await open('matchingPolicy', 'create');
	const type = property(node, 'policyType', 'matchingPolicy', 'create');
	const valueFields = formOf('matchingPolicy', 'create').filter(
		(candidate) => candidate.displayOptions?.show?.policyType,
	);
	await field('policyType').waitFor({ state: 'visible', timeout: ACTION_TIMEOUT });
	for (const kind of optionsOf(type)) {
		if ((await field('policyType').locator('input').inputValue()) !== kind.name) {
			await choose(field('policyType'), kind.name);
		}
		const own = valueFields.filter((candidate) =>
			(candidate.displayOptions!.show!.policyType as string[]).includes(String(kind.value)),
		);
		const shown = [];
		for (const candidate of own) if (await settle(field(candidate.name), true)) shown.push(candidate.name);
		const others = [];
		for (const candidate of valueFields.filter((entry) => !own.includes(entry))) {
			if (await settle(field(candidate.name), false)) others.push(candidate.name);
		}
		check(
			shown.length === own.length && own.length > 0 && others.length === 0,
			`Matching Policy → Create: Type "${kind.name}" shows ${own.map((entry) => entry.displayName).join(', ')} only`,
			`  shown: ${JSON.stringify(shown)}, shown but not expected: ${JSON.stringify(others)}`,
		);
	}
	await screenshot(page, artefacts, '04c-matching-policy-create.png');

	// Event → Search All of Flare: a query is required, so no "All Events"; Keyword by default.
	await open('event', 'searchGlobal');
	const searchBy = property(node, 'searchBy', 'event', 'searchGlobal');
	await field('searchBy').waitFor({ state: 'visible', timeout: ACTION_TIMEOUT });
	check(
		searchBy.default === 'keyword' &&
			(await field('searchBy').locator('input').inputValue()) === nameOf(optionsOf(searchBy), 'keyword') &&
			(await settle(field('keyword'), true)),
		'Event → Search All of Flare: Search By starts on Keyword and shows Keyword',
	);
	const kinds = await openOptions(field('searchBy'));
	checkList(
		kinds.names,
		optionsOf(searchBy).map((option) => option.name),
		'Search All of Flare: Search By lists the query kinds, without All Events',
	);
	check(!kinds.names.includes('All Events'), 'Search All of Flare: no "All Events"');
	await pick(field('searchBy'), kinds, nameOf(optionsOf(searchBy), 'keyword'));
	const globalFilters = property(node, 'filters', 'event', 'searchGlobal');
	const globalFiltersItem = ndv
		.locator('.multi-parameter')
		.filter({ has: page.locator('label[for="filters"]') })
		.first();
	const addGlobalFilter = globalFiltersItem.locator(testId('collection-parameter-add'));
	const globalAddable = await openOptions(addGlobalFilter);
	checkList(
		globalAddable.names,
		(globalFilters.options as INodeProperties[]).map((option) => option.displayName),
		'Search All of Flare: Add Filter offers creation dates and event types only',
	);
	await pick(addGlobalFilter, globalAddable, globalAddable.names[0]);

	// Event → Expand Stealer Log: List is Cookies or Credentials, Cookies by default.
	await open('event', 'expandStealerLog');
	const list = property(node, 'expandField', 'event', 'expandStealerLog');
	await field('expandField').waitFor({ state: 'visible', timeout: ACTION_TIMEOUT });
	check(
		(await field('expandField').locator('input').inputValue()) === nameOf(optionsOf(list), 'cookies') &&
			(await settle(field('uid'), true)),
		'Event → Expand Stealer Log: Event UID, and List on Cookies',
	);
	const lists = await openOptions(field('expandField'));
	checkList(lists.names, optionsOf(list).map((option) => option.name), 'Expand Stealer Log: List offers Cookies and Credentials');
	await pick(field('expandField'), lists, nameOf(optionsOf(list), 'credentials'));

	// Leaked Cookie → Search: the Domain, and Add Filter offers the cookie filters.
	await open('leakedCookie', 'search');
	check(await settle(field('domain'), true), 'Leaked Cookie → Search shows Domain');
	const cookieFilters = property(node, 'filters', 'leakedCookie', 'search');
	const filtersItem = ndv
		.locator('.multi-parameter')
		.filter({ has: page.locator('label[for="filters"]') })
		.first();
	const addFilter = filtersItem.locator(testId('collection-parameter-add'));
	const addable = await openOptions(addFilter);
	checkList(
		addable.names,
		(cookieFilters.options as INodeProperties[]).map((option) => option.displayName),
		'Leaked Cookie → Search: Add Filter offers the cookie filters',
	);
	await pick(addFilter, addable, 'Names');
	check(await settle(field('names'), true), 'choosing Names shows it');
	await screenshot(page, artefacts, '04d-leaked-cookie-search.png');

	// Identifier → Create: Additional Fields → Identifier Group, a picker over Flare's groups.
	await open('identifier', 'create');
	const additionalItem = ndv
		.locator('.multi-parameter')
		.filter({ has: page.locator('label[for="additionalFields"]') })
		.first();
	const addField = additionalItem.locator(testId('collection-parameter-add'));
	const fields = await openOptions(addField);
	await pick(addField, fields, 'Identifier Group');
	const picker = ndv.locator(testId('resource-locator-groupId'));
	await picker.waitFor({ state: 'visible', timeout: ACTION_TIMEOUT });
	await picker.locator(testId('rlc-input')).first().click();
	const items = page.locator(testId('rlc-item'));
	await items
		.first()
		.waitFor({ state: 'visible', timeout: ACTION_TIMEOUT })
		.catch(() => undefined);
	const groups = (await items.allTextContents()).map((text) => text.trim());
	checkList(
		groups,
		['Acme brands (100)', 'Subsidiaries (101)', 'Executives (102)'],
		'Identifier → Create: the Identifier Group picker lists the groups loaded from Flare',
	);
	await screenshot(page, artefacts, '04e-identifier-group-picker.png');
	await page.keyboard.press('Escape');
}

/**
 * Event → Search Tenant Feed: each Search By kind shows its own fields only, Severity shows the
 * minimum or the list, and the event types are loaded from Flare (the fake) into the dropdown.
 */
async function eventFeedForm(page: Page, ndv: Locator, described: Described, artefacts: string) {
	say('Node panel: the event feed search');
	const { node } = described;
	const field = (name: string) => ndv.locator(testId(`parameter-input-${name}`));
	const feedSearch = operationOptions(node, 'event').find(
		(entry) => entry.value === 'searchTenantFeed',
	);
	if (!feedSearch) throw new Error('The description has no Event → Search Tenant Feed');
	await choose(
		ndv.locator(testId('parameter-input-resource')),
		nameOf(resourceOptions(node), 'event'),
	);
	await choose(ndv.locator(testId('parameter-input-operation')), feedSearch.name);
	const form = node.properties.filter((candidate) =>
		(candidate.displayOptions?.show?.operation as string[] | undefined)?.includes(
			'searchTenantFeed',
		),
	);
	const searchBy = property(node, 'searchBy', 'event', 'searchTenantFeed');
	const queryFields = form.filter((candidate) => candidate.displayOptions?.show?.searchBy);
	await field('searchBy').waitFor({ state: 'visible', timeout: ACTION_TIMEOUT });
	check(
		(await field('searchBy').locator('input').inputValue()) ===
			nameOf(optionsOf(searchBy), String(searchBy.default)),
		`Search By defaults to "${nameOf(optionsOf(searchBy), String(searchBy.default))}"`,
	);
	for (const kind of optionsOf(searchBy)) {
		if (kind.value !== searchBy.default) await choose(field('searchBy'), kind.name);
		const own = queryFields.filter((candidate) =>
			(candidate.displayOptions!.show!.searchBy as string[]).includes(String(kind.value)),
		);
		const shown = [];
		for (const candidate of own)
			if (await settle(field(candidate.name), true)) shown.push(candidate.name);
		const others = [];
		for (const candidate of queryFields.filter((entry) => !own.includes(entry))) {
			if (await settle(field(candidate.name), false)) others.push(candidate.name);
		}
		check(
			shown.length === own.length && others.length === 0,
			`Search By "${kind.name}" shows ${own.map((entry) => entry.displayName).join(', ') || 'no query field'} only`,
			`  shown: ${JSON.stringify(shown)}, shown but not expected: ${JSON.stringify(others)}`,
		);
	}

	const severity = property(node, 'severityFilter', 'event', 'searchTenantFeed');
	const severityShown = async () => [
		await isShown(field('minimumSeverity')),
		await isShown(field('severities')),
	];
	check(
		(await field('severityFilter').locator('input').inputValue()) ===
			nameOf(optionsOf(severity), String(severity.default)) &&
			!(await settle(field('minimumSeverity'), false)) &&
			!(await settle(field('severities'), false)),
		`Severity "${nameOf(optionsOf(severity), String(severity.default))}" (default) hides Minimum Severity and Severities`,
	);
	await choose(field('severityFilter'), nameOf(optionsOf(severity), 'minimum'));
	check(
		(await settle(field('minimumSeverity'), true)) && !(await settle(field('severities'), false)),
		`Severity "${nameOf(optionsOf(severity), 'minimum')}" shows Minimum Severity only`,
		`  [minimum, list] shown: ${JSON.stringify(await severityShown())}`,
	);
	await choose(field('severityFilter'), nameOf(optionsOf(severity), 'list'));
	check(
		(await settle(field('severities'), true)) && !(await settle(field('minimumSeverity'), false)),
		`Severity "${nameOf(optionsOf(severity), 'list')}" shows Severities only`,
		`  [minimum, list] shown: ${JSON.stringify(await severityShown())}`,
	);

	// Event types: an option of the Filters collection, its values loaded from Flare.
	const filters = property(node, 'filters', 'event', 'searchTenantFeed');
	const types = (filters.options as INodeProperties[]).find((option) => option.name === 'types')!;
	const filtersItem = ndv
		.locator('.multi-parameter')
		.filter({ has: page.locator('label[for="filters"]') })
		.first();
	const addFilter = filtersItem.locator(testId('collection-parameter-add'));
	const addable = await openOptions(addFilter);
	checkList(
		addable.names,
		(filters.options as INodeProperties[]).map((option) => option.displayName),
		'Add Filter offers the Filters of the description',
	);
	await pick(addFilter, addable, types.displayName);
	await field('types').waitFor({ state: 'visible', timeout: ACTION_TIMEOUT });
	const expected = filterSourceTypes()
		.categories.flatMap((category) => [
			`${category.label} (Category)`,
			...(category.types ?? []).map((type) => type.label),
		])
		.sort((a, b) => a.localeCompare(b));
	// The list fills once the editor has asked n8n, which asks Flare.
	const listbox = await listboxOf(field('types'));
	await field('types').click();
	await listbox
		.locator('[role="option"]')
		.first()
		.waitFor({ state: 'visible', timeout: ACTION_TIMEOUT })
		.catch(() => undefined);
	const loaded = await listbox
		.locator('[role="option"]')
		.evaluateAll((elements) =>
			elements.map((element) =>
				((element.querySelector('.option-headline') ?? element).textContent ?? '').trim(),
			),
		);
	checkList(loaded, expected, `${types.displayName} lists the event types loaded from Flare`);
	await screenshot(page, artefacts, '04b-event-feed-search.png');
}

async function credentialForm(
	page: Page,
	ndv: Locator,
	described: Described,
	fake: FakeFlare,
	artefacts: string,
) {
	say('Credential form');
	await ndv.locator(testId('node-credentials-select')).click();
	await page.locator(`${testId('node-credentials-select-item-new')}:visible`).click();
	const modal = page.locator(testId('credential-edit-dialog'));
	await modal.waitFor({ state: 'visible', timeout: ACTION_TIMEOUT });
	const input = (name: string) => modal.locator(testId(`parameter-input-${name}`));
	const visible = described.credential.filter((entry) => entry.type !== 'hidden');
	const hidden = described.credential.filter((entry) => entry.type === 'hidden');
	await input(visible[0].name).waitFor({ state: 'visible', timeout: ACTION_TIMEOUT });

	const shownInputs = await modal
		.locator('[data-test-id^="parameter-input-"]')
		.evaluateAll((elements) =>
			elements
				.map((element) => element.getAttribute('data-test-id') ?? '')
				.filter(
					(id) =>
						!['parameter-input-field', 'parameter-input-hint', 'parameter-input-item'].includes(id),
				)
				.map((id) => id.replace('parameter-input-', '')),
		);
	// n8n adds its own "Allowed HTTP Request Domains" to credentials the HTTP Request node may use.
	checkList(
		shownInputs,
		[...visible.map((entry) => entry.name), N8N_DOMAINS_FIELD],
		`the form has the fields ${visible.map((entry) => entry.displayName).join(', ')} (then n8n's allowed domains)`,
	);
	const labels = await modal
		.locator('label')
		.evaluateAll((elements) => elements.map((element) => (element.textContent ?? '').trim()));
	for (const entry of visible) {
		check(
			labels.some((label) => label.startsWith(entry.displayName)),
			`label "${entry.displayName}" is shown`,
		);
	}
	for (const entry of hidden) {
		check(
			(await input(entry.name).count()) === 0 &&
				!labels.some((label) => label.startsWith(entry.displayName)),
			`the hidden field "${entry.displayName}" (${entry.name}) is not shown`,
		);
	}
	for (const entry of visible) {
		const type = await input(entry.name).locator('input').first().getAttribute('type');
		const password = entry.typeOptions?.password === true;
		check(
			password ? type === 'password' : type !== 'password',
			`${entry.displayName} is ${password ? 'a password field' : 'plain text'} (type=${type})`,
		);
		if (typeof entry.default === 'string' && entry.default !== '') {
			check(
				(await input(entry.name).locator('input').first().inputValue()) === entry.default,
				`${entry.displayName} defaults to ${entry.default}`,
			);
		}
	}
	await screenshot(page, artefacts, '07-credential-form.png');

	// Saving tests the connection: n8n exchanges the key for a token at the fake and calls /tokens/test.
	// When the test passes, n8n closes the dialog and selects the new credential in the node; when it
	// fails, the dialog stays open with the error.
	const name = (
		(await page.locator(`${testId('credential-name')}:visible`).textContent()) ?? ''
	).trim();
	const before = fake.requests.length;
	await input('apiKey').locator('input').first().fill(fake.apiKeys.full);
	await input('baseUrl').locator('input').first().fill(fake.url);
	// The dialog's header, with the Save button, is outside the test id's element.
	await page.locator(`${testId('credential-save-button')}:visible`).click();
	const closed = await modal
		.waitFor({ state: 'hidden', timeout: 60_000 })
		.then(() => true)
		.catch(() => false);
	const calls = fake.requests
		.slice(before)
		.map((request) => `${request.method} ${request.path} ${request.status}`);
	const selected = await ndv
		.locator(testId('node-credentials-select'))
		.locator('input')
		.inputValue();
	check(
		closed &&
			selected !== CREDENTIAL_NAME &&
			selected !== '' &&
			name.includes(selected) &&
			calls.includes('POST /tokens/generate 200') &&
			calls.includes('GET /tokens/test 200'),
		`saving the new credential tests it against the fake Flare API (token, then /tokens/test) and selects it`,
		`  dialog closed: ${closed}, node credential: "${selected}", requests the fake received: ${JSON.stringify(calls)}`,
	);
	await screenshot(page, artefacts, '08-credential-tested.png');
}

async function main(): Promise<void> {
	const started = Date.now();
	const root = repositoryRoot();
	const artefacts = path.join(workFolder(root), 'editor');
	fs.rmSync(artefacts, { recursive: true, force: true });
	// No summary of an earlier run may stand for this one's (table.ts reads every one).
	fs.rmSync(scanSummaryFile(path.join(root, 'test-results'), 'editor'), { force: true });
	fs.mkdirSync(artefacts, { recursive: true });
	const chromiumPath = processRef.env.CHROMIUM_PATH || '/usr/bin/chromium';
	if (!fs.existsSync(chromiumPath)) {
		throw new Error(
			`No Chromium at ${chromiumPath}: apt-get install -y chromium (or set CHROMIUM_PATH)`,
		);
	}
	say(
		'Flare node in the n8n editor (Chromium, playwright-core), in the sandbox of `npm run sandbox`',
	);

	// Its own folder and pack folder, started afresh: a sandbox of the user may be running.
	const sandbox: Sandbox = await startSandbox({ folderName: 'editor-n8n', fresh: true });
	const { server, fake } = sandbox;
	const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'flare-editor-chromium-'));
	let context: BrowserContext | undefined;
	let page: Page | undefined;
	let failed = true;
	let leaks: string | undefined;
	try {
		say(`Sandbox ready on ${sandbox.url} in ${sandbox.seconds.toFixed(1)} s.`);
		const described = await readDescriptions(sandbox.n8n);
		const log = fs.readFileSync(server.logFile, 'utf8');
		check(
			!log.includes(`Failed to load package "${PACKAGE}"`),
			`n8n loaded ${PACKAGE} from ~/.n8n/nodes`,
			log.slice(0, 2000),
		);
		listensOnLoopbackOnly(sandbox);

		context = await chromium.launchPersistentContext(userDataDir, {
			executablePath: chromiumPath,
			headless: processRef.env.FLARE_EDITOR_HEADED !== '1',
			args: CHROMIUM_ARGS,
			viewport: { width: 1440, height: 900 },
		});
		context.setDefaultTimeout(ACTION_TIMEOUT);
		page = context.pages()[0] ?? (await context.newPage());
		await signIn(page, sandbox);
		await dailyLeakWatch(page, sandbox, artefacts);
		await entraIdPlaybook(page, sandbox, artefacts);
		await alertTriggerListens(page, sandbox, artefacts);
		await nodeCreator(page, described, artefacts, server.url);
		const ndv = await nodePanel(page, described, artefacts);
		await credentialForm(page, ndv, described, fake, artefacts);
		say('');
		say(
			`Editor test passed: ${passed.length} checks in ${seconds(started)}; screenshots in ${path.relative(root, artefacts)}/.`,
		);
		failed = false;
	} finally {
		if (failed && page) {
			await page
				.screenshot({ path: path.join(artefacts, 'failure.png') })
				.then(() => say(`Screenshot of the failure: ${path.relative(root, artefacts)}/failure.png`))
				.catch(() => undefined);
			fs.writeFileSync(path.join(artefacts, 'failure.html'), await page.content().catch(() => ''));
		}
		if (failed) say(`n8n's output: ${path.relative(root, server.logFile)}`);
		await context?.close().catch(() => undefined);
		await sandbox.stop().catch((error: Error) => say(`The sandbox did not stop: ${error.message}`));
		fs.rmSync(userDataDir, { recursive: true, force: true });
		// Said here too: when the test itself failed, its own error is the one thrown.
		leaks = await scanForSecrets(root, sandbox).catch(
			(error: Error) => `the secret scan could not run: ${error.message}`,
		);
		if (leaks) say(leaks);
	}
	if (leaks) throw new Error(leaks);
}

/**
 * The secret scan of the other suites with a real n8n (secrets.ts), passed or failed: the API key was
 * typed into the credential form, and nothing n8n printed, logged or stored may hold it, nor a token
 * or a tool's secret; nor may what the tools received hold Flare's key or tokens or a leaked value.
 */
async function scanForSecrets(root: string, sandbox: Sandbox): Promise<string | undefined> {
	const secrets = new E2eSecretScan(sandbox.fake.apiKeys.full, 'editor', sandbox.tools.secrets());
	await secrets.addInstanceFiles(sandbox.n8n.userFolder);
	say(await secrets.write(root));
	const received = sandbox.tools.plantedSince(0).map((hit) => `${hit.source}: …${hit.context}…`);
	return (
		[secrets.leaks ? secrets.describe() : '', ...received].filter(Boolean).join('\n') || undefined
	);
}

main().catch((error: Error) => {
	processRef.stderr.write(`${error.stack ?? error.message}\n`);
	processRef.exitCode = 1;
});
