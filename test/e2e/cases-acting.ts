/**
 * End-to-end cases of the playbooks that act (issue 41): each one's tools are local stand-ins
 * (stand-ins/), and each case checks what the tools received: the e-mail of the daily leak watch, a
 * Slack message per event, and the identity responses to leaked credentials in Microsoft Entra ID
 * and Okta (one response per person, nothing done twice: a second run does nothing). What every case
 * of the suite also gets (suite.ts, runCase): no request a stand-in found undocumented, and no planted
 * leaked value in anything a tool received. The alert-triggered playbooks are in alerts-acting.ts.
 */
import type { FeedItem, FullEvent, TenantCredential } from '../contract';
import type { FakeFlare } from '../fake-flare';
import { maskedView } from '../integration/support';
import {
	type E2eCase,
	searchItems,
	simplifiedCredential,
	type Step,
	type StepContext,
} from './cases';
import { check, checkEqual, type RunView } from './report';
import { EMPLOYEE_DOMAIN, employee } from './stand-ins/directory';
import { entraUser } from './stand-ins/entra';
import type { Received } from './stand-ins/http';
import type { Email } from './stand-ins/smtp';

const TENANT = 101;
const TAKE_ACTION = '/firework/v4/credentials/actions';
const SEARCH_PATH = '/firework/v4/credentials/global/_search';
const one = (step: Step): Step[] => [step];
const of = (received: Received[], tool: string) => received.filter((entry) => entry.tool === tool);
const pick = (record: Record<string, unknown>, keys: string[]) =>
	Object.fromEntries(keys.map((key) => [key, record[key]]));

// ---- the daily leak watch, e-mailed ----

function checkDailyLeakWatch(run: RunView, { fake, api, received }: StepContext): void {
	const node = 'New leaked credentials';
	// `n8n execute` needs a Manual Trigger in the workflow; n8n then starts the run from the first
	// trigger of the file. Exactly one of the two may have run, and the rest once.
	const triggers = ['Every morning at 7', 'Run now (manual test)'].filter((name) =>
		run.nodesRun().includes(name),
	);
	checkEqual(triggers.length, 1, 'Every morning at 7', 'triggers that started the run');
	const search = api.find((request) => request.path === SEARCH_PATH)!;
	const body = search.body as { filters?: { imported_at?: { gte?: string } } };
	const gte = Date.parse(body.filters?.imported_at?.gte ?? '');
	check(
		Math.abs(Date.now() - 86_400_000 - gte) < 10 * 60_000,
		node,
		`Imported From is about 24 hours ago (sent ${body.filters?.imported_at?.gte})`,
	);
	const expected = fake.dataset.searchAll({
		query: { type: 'domain', fqdn: 'acme.com' },
		filters: { imported_at: { gte: body.filters!.imported_at!.gte! } },
	});
	checkEqual(expected.length, 8, node, 'new credentials of acme.com in the dataset');
	checkEqual(
		searchItems(run, node),
		expected.map((record) => simplifiedCredential(record as never)),
		node,
		'output',
	);
	const [summary] = run.json('Format the summary');
	const bySource: Record<string, number> = {};
	for (const record of expected) {
		const source = record.source?.name ?? record.source_id;
		bySource[source] = (bySource[source] ?? 0) + 1;
	}
	checkEqual(
		pick(summary, ['domain', 'count', 'bySource', 'identities']),
		{
			domain: 'acme.com',
			count: 8,
			bySource,
			identities: [...new Set(expected.map((record) => record.identity_name))].sort(),
		},
		'Format the summary',
		'summary',
	);
	check(
		String(summary.text).startsWith(
			'8 new leaked credential(s) for acme.com in the last 24 hours:\n- ',
		),
		'Format the summary',
		'summary text',
	);
	check(
		!expected.some((record) => String(summary.text).includes(`password ${record.hash} `)),
		'Format the summary',
		'no clear password in the summary',
	);

	const mail = 'E-mail the digest';
	const emails = of(received, 'smtp').map((entry) => entry.body as Email);
	checkEqual(emails.length, 1, mail, 'e-mails the mail server received');
	const [email] = emails;
	checkEqual(
		{
			envelope: email.envelope,
			from: email.headers.from,
			to: email.headers.to,
			subject: email.subject,
			html: email.html,
		},
		{
			envelope: { from: 'flare-n8n@acme.example', to: ['soc@acme.example'] },
			from: 'flare-n8n@acme.example',
			to: 'soc@acme.example',
			subject: 'Flare: 8 new leaked credential(s) for acme.com',
			html: undefined,
		},
		mail,
		'the e-mail: envelope, From, To, Subject, text only',
	);
	checkEqual(
		email.text?.replace(/\r\n/g, '\n').trimEnd(),
		`${String(summary.text)}\n\nPasswords are masked. Each credential is in Flare's Leaked Credentials, with its source.`,
		mail,
		'the e-mail text: the summary, passwords masked',
	);
	check(
		!expected.some((record) => email.text!.includes(String(record.hash))),
		mail,
		'no clear password in the e-mail',
	);
	checkEqual(run.json(mail).length, 1, mail, 'output: one item, the message sent');
}

// ---- high and critical events to Slack ----

let events: Array<{ event: FeedItem; activity: FullEvent['activity'] }> = [];

/** Slack's mrkdwn control characters, escaped as Slack documents it. */
const escapeSlack = (text: string) =>
	text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function slackText({ event, activity }: (typeof events)[number]): string {
	const names = (event.identifiers ?? []).map((identifier) => identifier.name).join(', ');
	return [
		`:rotating_light: *[${event.metadata.severity.toUpperCase()}] ${escapeSlack(activity.header.title ?? event.metadata.uid)}*`,
		`${event.metadata.type} from ${escapeSlack(activity.header.source_name ?? 'an unknown source')}, in the feed since ${event.metadata.matched_at}`,
		`Identifiers: ${escapeSlack(names || 'none')}`,
		`<${event.metadata.flare_url}|Open in Flare>`,
	].join('\n');
}

// ---- identity responses to leaked credentials ----

/** One person of the identity playbooks, as "One item per person" makes it from the feed. */
interface Person {
	identity: string;
	leaks: number;
	sources: string[];
	credential_hashes: string[];
}

/** What an identity playbook saw before its first run: the people, and who of them the directory has. */
const seen: Record<string, { people: Person[]; found: Person[]; departed: Person[] }> = {};

/** The people of the tenant's newest 100 credentials imported in the last day and not acted on. */
function peopleToHandle(fake: FakeFlare): Person[] {
	const since = Date.now() - 86_400_000;
	const fresh = fake.feed
		.tenantCredentialsAll(TENANT)
		.slice(0, 100)
		.filter(
			(record: TenantCredential) =>
				Date.parse(record.imported_at) > since && !record.remediated_at && !record.ignored_at,
		);
	const people = new Map<string, Person>();
	for (const record of fresh) {
		const identity = record.identity_name.trim().toLowerCase();
		const person = people.get(identity) ?? {
			identity,
			leaks: 0,
			sources: [],
			credential_hashes: [],
		};
		person.leaks++;
		const source = record.source?.name ?? record.source_id;
		if (!person.sources.includes(source)) person.sources.push(source);
		if (record.credential_hash) person.credential_hashes.push(record.credential_hash);
		people.set(identity, person);
	}
	return [...people.values()];
}

/**
 * The tenant watches the employees' domain again when a case before deleted or disabled its identifier
 * (the identifier clean-up playbook deletes 7001, example.com's): a new domain identifier, as the SOC
 * would add it. Without one, the tenant's feed has no credential of that domain.
 */
function watchEmployeeDomain(fake: FakeFlare): void {
	if (fake.feed.monitoredDomains(TENANT).includes(EMPLOYEE_DOMAIN)) return;
	fake.dataset.storeIdentifier({
		...fake.dataset.identifier(7001, TENANT),
		id: fake.dataset.nextIdentifierId(),
		name: 'Employees',
		data: { type: 'domain', fqdn: EMPLOYEE_DOMAIN },
		is_disabled: false,
	});
}

/** Adds the leaks of the case: two of one person, one of another, one of someone who left. */
function leak(fake: FakeFlare, names: [string, string, string]): void {
	const [twice, once, departed] = names;
	watchEmployeeDomain(fake);
	const domain = EMPLOYEE_DOMAIN;
	fake.addCredentials(2, undefined, { domain, username: twice });
	fake.addCredentials(1, undefined, { domain, username: once });
	fake.addCredentials(1, undefined, { domain, username: departed });
}

function identityBefore(file: string, names: [string, string, string]) {
	return (fake: FakeFlare) => {
		leak(fake, names);
		const people = peopleToHandle(fake);
		seen[file] = {
			people,
			found: people.filter((person) => employee(person.identity)),
			departed: people.filter((person) => !employee(person.identity)),
		};
	};
}

/** What the people of the first run now are in Flare: remediated, or not. */
function checkRemediated(
	fake: FakeFlare,
	{ found, departed }: (typeof seen)[string],
	api: StepContext['api'],
	node: string,
) {
	const hashes = found.flatMap((person) => person.credential_hashes);
	checkEqual(
		api.filter((request) => request.path === TAKE_ACTION).map((request) => request.body),
		[
			{
				action: { type: 'remediate' },
				targets: hashes.map((credential_hash) => ({ credential_hash })),
			},
		],
		node,
		'one request: every leaked credential of the people handled, remediated',
	);
	const state = (hash: string) => fake.feed.credentialState(TENANT, hash);
	check(
		hashes.every((hash) => state(hash).remediated_at !== null),
		node,
		'Flare has them remediated',
	);
	check(
		departed
			.flatMap((person) => person.credential_hashes)
			.every((hash) => state(hash).remediated_at === null),
		node,
		'the credentials of people not in the directory are left as they were',
	);
}

function identityCase(options: {
	file: string;
	about: string;
	names: [string, string, string];
	find: string;
	notFound: string;
	/**
	 * What the identity provider must receive in a run, as `method path?query` lines: a lookup of
	 * each of `people`, then the two actions on each of `found`.
	 */
	requests: (people: { people: Person[]; found: Person[] }) => string[];
	/** The stand-in's name in the records. */
	tool: string;
	/** How each node's requests start (`GET`, then the first action's, then the second's). */
	kinds: string[];
	/**
	 * The user ids of each action, as the stand-in counted them over the line's runs: each person found
	 * once, in the first run and after the second.
	 */
	actions: (context: StepContext) => string[][];
	idOf: (person: Person) => string;
}): E2eCase {
	const { file, tool } = options;
	// A node's requests may overlap (n8n's declarative nodes send an item's request without waiting for
	// the one before): in order node by node, in any order within a node.
	const lines = (received: Received[]) =>
		of(received, tool).map(
			(entry) =>
				`${entry.method} ${entry.path}${Object.keys(entry.query).length ? `?${new URLSearchParams(entry.query).toString()}` : ''}`,
		);
	const byNode = (all: string[], kinds: string[]) =>
		kinds.map((kind) => all.filter((line) => line.startsWith(kind)).sort());
	const checkActions = (context: StepContext, found: Person[], what: string) => {
		for (const [index, ids] of options.actions(context).entries()) {
			checkEqual(
				[...ids].sort(),
				found.map(options.idOf).sort(),
				options.find,
				`action ${index + 1}: ${what}`,
			);
		}
	};
	return {
		file,
		about: options.about,
		manualFrom: 'Run now (manual test)',
		steps: [
			{
				before: identityBefore(file, options.names),
				check(run, context) {
					const { fake, api, received } = context;
					const { people, found, departed } = seen[file];
					const [twice, once, left] = options.names.map((name) => `${name}@${EMPLOYEE_DOMAIN}`);
					check(
						people.some((person) => person.identity === twice && person.leaks === 2) &&
							found.some((person) => person.identity === once) &&
							departed.some((person) => person.identity === left),
						'One item per person',
						`the feed has the case's leaks: ${twice} twice, ${once}, ${left} (who left)`,
					);
					checkEqual(
						run.json('One item per person'),
						people,
						'One item per person',
						'one item per person, their leaks, sources and credentials',
					);
					const kinds = lines(received).map((line) =>
						options.kinds.findIndex((kind) => line.startsWith(kind)),
					);
					checkEqual(
						kinds,
						[...kinds].sort(),
						options.find,
						`${tool}: every lookup, then every first action, then every second one`,
					);
					checkEqual(
						byNode(lines(received), options.kinds),
						byNode(options.requests({ people, found }), options.kinds),
						options.find,
						`what ${tool} received`,
					);
					checkActions(context, found, 'once per person found, nobody twice');
					checkEqual(
						run.items(options.find, 1).length,
						departed.length,
						options.find,
						'the people the directory does not have, on the error output',
					);
					checkEqual(
						run.json(options.notFound).map((item) => [item.identity, item.leaks]),
						departed.map((person) => [person.identity, person.leaks]),
						options.notFound,
						'who they are',
					);
					checkRemediated(fake, seen[file], api, 'Mark remediated in Flare');
				},
			},
			{
				check(run, context) {
					const { api, received } = context;
					const { departed } = seen[file];
					checkEqual(
						run.json('One item per person').map((person) => person.identity),
						departed.map((person) => person.identity),
						'One item per person',
						'the second run: only the people not found (their credentials were left unremediated)',
					);
					checkEqual(
						lines(received).sort(),
						options.requests({ people: departed, found: [] }).sort(),
						options.find,
						`what ${tool} received in the second run: their lookups only, no action`,
					);
					checkActions(context, seen[file].found, 'still once per person found: nothing twice');
					checkEqual(
						api.filter((request) => request.path === TAKE_ACTION).length,
						0,
						'Mark remediated in Flare',
						'nothing remediated twice',
					);
				},
			},
		],
	};
}

const graphUser = (person: Person) => entraUser(employee(person.identity)!);
const oktaId = (person: Person) => `00u${employee(person.identity)!.digest.slice(0, 17)}`;
const SELECT =
	'%24select=id%2CcreatedDateTime%2CdisplayName%2CuserPrincipalName%2Cmail%2CmailNickname%2CsecurityIdentifier';

export const ACTING_CASES: E2eCase[] = [
	{
		file: 'playbooks/daily-leak-watch.json',
		about:
			'Schedule/manual → search imported in the last day → summary → one e-mail (SMTP stand-in)',
		steps: one({
			before: (fake) => fake.addCredentials(40), // 8 of them for acme.com, imported now
			check: checkDailyLeakWatch,
		}),
	},
	{
		file: 'playbooks/critical-events-to-slack.json',
		about:
			'Flare Trigger New Event (high or critical, full events; manual mode: the 5 newest) → one Slack message each (chat.postMessage through the proxy)',
		manualFrom: 'New high or critical event',
		steps: one({
			before(fake) {
				const items = maskedView(
					fake.feed.feedAll(TENANT, { filters: { severity: 'high' }, order: 'desc' }),
					fake.plantedValues(),
				).slice(0, 5);
				events = items.map((event) => ({
					event,
					activity: maskedView(
						fake.events.fullEvent(event.metadata.uid, TENANT)!.activity,
						fake.plantedValues(),
					),
				}));
			},
			check(run, { received }) {
				const node = 'Post to #soc-alerts';
				checkEqual(
					events.length,
					5,
					'New high or critical event',
					'the feed has 5 high or critical events or more',
				);
				checkEqual(
					run
						.json('New high or critical event')
						.map((item) => (item.metadata as { uid: string }).uid),
					events.map(({ event }) => event.metadata.uid),
					'New high or critical event',
					'the 5 newest',
				);
				const messages = of(received, 'slack');
				checkEqual(
					messages.map((entry) => [entry.method, entry.path]),
					events.map(() => ['POST', '/api/chat.postMessage']),
					node,
					'one chat.postMessage per event',
				);
				checkEqual(
					messages.map((entry) => entry.body),
					events.map((event) => ({
						channel: 'C0FLARESOC',
						text: slackText(event),
						unfurl_links: false,
						unfurl_media: false,
						includeLinkToWorkflow: false,
					})),
					node,
					'each message: the channel, the event in a few lines and its link, no content',
				);
				checkEqual(
					new Set(messages.map((entry) => (entry.body as { text: string }).text)).size,
					5,
					node,
					'no event posted twice',
				);
				checkEqual(
					run.json(node).map((item) => item.channel),
					events.map(() => 'C0FLARESOC'),
					node,
					"output: Slack's answers",
				);
			},
		}),
	},
	identityCase({
		file: 'playbooks/leaked-credentials-entra-id.json',
		about:
			'new leaked credentials of the tenant → per person found in Entra ID: a new password required, sign-in sessions revoked (Graph through the proxy) → remediated in Flare; run again: nothing more',
		names: ['alice.martin', 'bob.keller', 'former.carol.white'],
		find: 'Find the user in Entra ID',
		notFound: 'Not in Entra ID',
		tool: 'graph',
		kinds: ['GET', 'PATCH', 'POST'],
		idOf: (person) => String(graphUser(person).id),
		requests: ({ people, found }) => {
			return [
				...people.map((person) => `GET /v1.0/users/${person.identity}?${SELECT}`),
				...found.map((person) => `PATCH /v1.0/users/${String(graphUser(person).id)}`),
				...found.map(
					(person) => `POST /v1.0/users/${String(graphUser(person).id)}/revokeSignInSessions`,
				),
			];
		},
		actions: ({ tools, received }) => {
			const patches = of(received, 'graph').filter((entry) => entry.method === 'PATCH');
			checkEqual(
				patches.map((entry) => entry.body),
				patches.map(() => ({ passwordProfile: { forceChangePasswordNextSignIn: true } })),
				'Require a new password',
				'each PATCH: a new password at the next sign-in, nothing else',
			);
			return [tools!.entra.passwordChangesRequired, tools!.entra.sessionsRevoked];
		},
	}),
	identityCase({
		file: 'playbooks/leaked-credentials-okta.json',
		about:
			"new leaked credentials of the tenant → per person found in Okta: password expired, sessions ended (lifecycle and sessions API at the credential's URL) → remediated in Flare; run again: nothing more",
		names: ['dana.fischer', 'erik.novak', 'former.frank.lee'],
		find: 'Find the user in Okta',
		notFound: 'Not in Okta',
		tool: 'okta',
		kinds: ['GET', 'POST', 'DELETE'],
		idOf: oktaId,
		requests: ({ people, found }) => {
			return [
				...people.map((person) => `GET /api/v1/users/${person.identity}`),
				...found.map(
					(person) =>
						`POST /api/v1/users/${oktaId(person)}/lifecycle/expire_password?tempPassword=false`,
				),
				...found.map(
					(person) => `DELETE /api/v1/users/${oktaId(person)}/sessions?oauthTokens=true`,
				),
			];
		},
		actions: ({ tools }) => [tools!.okta.passwordsExpired, tools!.okta.sessionsRevoked],
	}),
];
