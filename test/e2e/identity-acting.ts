/**
 * The identity playbooks (issue 41, and its hostile review): each leaked credential of the employees'
 * domain → in Okta or Microsoft Entra ID, the person's sessions ended, then a new password required,
 * then their leaks remediated in Flare. Each case is one behaviour, on the workflow published in a
 * started n8n (polled.ts): leaks are added to the fake, the Flare Trigger polls, and the case checks
 * what the directory received (request by request, and the users it changed), what Flare received,
 * and whom each of the playbook's lists names. A run by hand is a dry run (the manual cases at the
 * end): it looks people up and changes nothing.
 */
import type { FakeFlare } from '../fake-flare';
import type { AlertCaseContext } from './alerts';
import type { E2eCase } from './cases';
import { NotedPerFake } from './noted';
import { type ActivePolledWorkflow, polledCase } from './polled';
import { check, checkEqual, RunView } from './report';
import type { ToolStandIns } from './stand-ins';
import {
	EMPLOYEE_DOMAIN,
	employee,
	type Employee,
	SECOND_EMPLOYEE_DOMAIN,
} from './stand-ins/directory';
import { entraUser } from './stand-ins/entra';
import type { Received } from './stand-ins/http';
import { checkWhatToolsReceived } from './suite';

const TENANT = 101;
const TAKE_ACTION = '/firework/v4/credentials/actions';
const TRIGGER = 'New leaked credential';

/** A plain e-mail address: what the playbooks look up (anything else could make a URL another user's). */
const ADDRESS = /^[a-z0-9_+'-]+(\.[a-z0-9_+'-]+)*@[a-z0-9-]+(\.[a-z0-9-]+)+$/;

/** What a playbook does for one person, by what the directory has (stand-ins/directory.ts). */
type Outcome = 'done' | 'notAddress' | 'notFound' | 'notActed' | 'sessionsFailed' | 'passwordFailed';

interface Playbook {
	file: string;
	/** The employees' domain its trigger watches here. */
	domain: string;
	/** The stand-in's name in the records. */
	tool: 'okta' | 'graph';
	find: string;
	couldNotSessions: string;
	couldNotPassword: string;
	/** The requests the directory receives for a person, as `method path?query`. */
	lookup: (identity: string) => string;
	endSessions: (person: Employee) => string;
	newPassword: (person: Employee) => string;
	/** The ids the stand-in counted, sessions ended and passwords changed, so far. */
	counters: (tools: ToolStandIns) => { sessions: string[]; passwords: string[] };
	idOf: (person: Employee) => string;
	/** How Okta or Graph treats an employee of each kind. */
	outcomeOf: (person: Employee) => Outcome;
	/** How Not acted on says why, for someone the directory lacks or the playbook leaves alone. */
	reasonOf: (person?: Employee) => string;
}

const oktaId = (person: Employee) => `00u${person.digest.slice(0, 17)}`;
const graphId = (person: Employee) => String(entraUser(person).id);
const SELECT =
	'%24select=id%2CcreatedDateTime%2CdisplayName%2CuserPrincipalName%2Cmail%2CmailNickname%2CsecurityIdentifier';

const OKTA: Playbook = {
	file: 'playbooks/leaked-credentials-okta.json',
	domain: EMPLOYEE_DOMAIN,
	tool: 'okta',
	find: 'Find the user in Okta',
	couldNotSessions: 'Could not end the sessions',
	couldNotPassword: 'Could not expire the password',
	lookup: (identity) => `GET /api/v1/users/${identity}`,
	endSessions: (person) => `DELETE /api/v1/users/${oktaId(person)}/sessions?oauthTokens=true`,
	newPassword: (person) =>
		`POST /api/v1/users/${oktaId(person)}/lifecycle/expire_password?tempPassword=false`,
	counters: (tools) => ({
		sessions: [...tools.okta.sessionsRevoked],
		passwords: [...tools.okta.passwordsExpired],
	}),
	idOf: oktaId,
	outcomeOf: ({ kind }) =>
		({
			regular: 'done',
			admin: 'passwordFailed',
			deactivated: 'notActed',
			moved: 'passwordFailed',
			elsewhere: 'notActed',
		})[kind] as Outcome,
	reasonOf: (person) =>
		!person
			? 'not in Okta (or Okta refused the lookup)'
			: person.kind === 'deactivated'
				? 'DEPROVISIONED in Okta: cannot sign in, not acted on'
				: 'Okta linked the user outside your Okta domain',
};

const ENTRA: Playbook = {
	file: 'playbooks/leaked-credentials-entra-id.json',
	domain: SECOND_EMPLOYEE_DOMAIN,
	tool: 'graph',
	find: 'Find the user in Entra ID',
	couldNotSessions: 'Could not revoke the sessions',
	couldNotPassword: 'Could not require a new password',
	lookup: (identity) => `GET /v1.0/users/${identity}?${SELECT}`,
	endSessions: (person) => `POST /v1.0/users/${graphId(person)}/revokeSignInSessions`,
	newPassword: (person) => `PATCH /v1.0/users/${graphId(person)}`,
	counters: (tools) => ({
		sessions: [...tools.entra.sessionsRevoked],
		passwords: [...tools.entra.passwordChangesRequired],
	}),
	idOf: graphId,
	outcomeOf: ({ kind }) =>
		({
			regular: 'done',
			admin: 'passwordFailed',
			deactivated: 'done',
			moved: 'sessionsFailed',
			elsewhere: 'done',
		})[kind] as Outcome,
	reasonOf: () => 'not in Entra ID (or Graph refused the lookup)',
};

/** A leaked credential the case added, as Flare serves it. */
interface Leak {
	id: number;
	identity: string;
	credential_hash: string | null;
}

/** Leaks of `username`@domain: `count` of them, without credential_hash when `noHash`. */
type LeakSpec = [username: string, count?: number, noHash?: 'no credential_hash'];

function addLeaks(fake: FakeFlare, domain: string, specs: LeakSpec[]): Leak[] {
	return specs.flatMap(([username, count = 1, noHash]) => {
		const start = fake.addCredentials(count, undefined, {
			domain,
			username,
			nullCredentialHash: noHash !== undefined,
		});
		return Array.from({ length: count }, (_, k) => {
			const record = fake.dataset.credential(start + k);
			return {
				id: record.id,
				identity: record.identity_name.toLowerCase(),
				credential_hash: noHash ? null : record.credential_hash,
			};
		});
	});
}

/** One person of the leaks, and what the playbook does for them. */
interface Person {
	identity: string;
	leaks: Leak[];
	employee?: Employee;
	outcome: Outcome;
}

function peopleOf(playbook: Playbook, leaks: Leak[]): Person[] {
	const people = new Map<string, Person>();
	for (const leak of leaks) {
		const known = people.get(leak.identity);
		if (known) {
			known.leaks.push(leak);
			continue;
		}
		const person = ADDRESS.test(leak.identity) ? employee(leak.identity) : undefined;
		people.set(leak.identity, {
			identity: leak.identity,
			leaks: [leak],
			employee: person,
			outcome: !ADDRESS.test(leak.identity)
				? 'notAddress'
				: person
					? playbook.outcomeOf(person)
					: 'notFound',
		});
	}
	return [...people.values()];
}

const lines = (received: Received[], tool: string) =>
	received
		.filter((entry) => entry.tool === tool)
		.map(
			(entry) =>
				`${entry.method} ${entry.path}${Object.keys(entry.query).length ? `?${new URLSearchParams(entry.query).toString()}` : ''}`,
		);

/** The identities a list of the playbook names (none when the node did not run). */
const listed = (run: RunView, node: string) =>
	(run.nodesRun().includes(node) ? run.json(node) : []).map((item) => String(item.identity)).sort();

const identities = (people: Person[], ...outcomes: Outcome[]) =>
	people
		.filter((person) => outcomes.includes(person.outcome))
		.map((person) => person.identity)
		.sort();

const hashesOf = (people: Person[]) =>
	people.flatMap((person) =>
		person.leaks.flatMap((leak) => (leak.credential_hash ? [leak.credential_hash] : [])),
	);

/** Polls a trigger may need for the leaks of one case: one reads what it can in 45 s, the next the rest. */
const MAX_POLLS = 4;

/**
 * Adds `specs`' leaks and lets the trigger poll until it has emitted them all (a poll reads for 45 s
 * at most; the next goes on), then checks the executions: each leak emitted once; the directory asked
 * for each person with a plain address, their sessions before their password, nothing for anyone
 * else; Flare asked to remediate exactly the leaks of the people both steps were done for; each list
 * of the playbook naming its people.
 */
async function pollAndCheck(
	playbook: Playbook,
	context: AlertCaseContext<ActivePolledWorkflow>,
	specs: LeakSpec[],
): Promise<void> {
	const { fake, active, note } = context;
	const tools = context.tools!;
	const leaks = addLeaks(fake, playbook.domain, specs);
	const people = peopleOf(playbook, leaks);
	const mark = tools.log.entries.length;
	const requestMark = fake.requests.length;
	const before = playbook.counters(tools);
	const runs: RunView[] = [];
	const emitted: unknown[] = [];
	while (runs.length < MAX_POLLS && emitted.length < leaks.length) {
		await active.poll();
		const [execution] = await active.next(1);
		const run = new RunView(execution.run);
		check(run.status === 'success', playbook.find, `the execution succeeded (${run.status})`);
		emitted.push(...run.json(TRIGGER).map((item) => item.id));
		runs.push(run);
	}
	checkWhatToolsReceived(tools, mark, playbook.find);
	checkEqual(
		[...emitted].sort(),
		leaks.map((leak) => leak.id).sort(),
		TRIGGER,
		`the leaks added, each once (over ${runs.length} poll(s))`,
	);

	// What the directory received, and what it changed.
	const looked = people.filter((person) => person.outcome !== 'notAddress');
	const acted = people.filter((person) =>
		['done', 'sessionsFailed', 'passwordFailed'].includes(person.outcome),
	);
	const reset = people.filter((person) => ['done', 'passwordFailed'].includes(person.outcome));
	const received = lines(tools.received(playbook.tool, mark), playbook.tool);
	const expected = [
		...looked.map((person) => playbook.lookup(person.identity)),
		...acted.map((person) => playbook.endSessions(person.employee!)),
		...reset.map((person) => playbook.newPassword(person.employee!)),
	];
	checkEqual(
		[...received].sort(),
		[...expected].sort(),
		playbook.find,
		`what ${playbook.tool} received: a lookup of each plain address, the sessions of each person checked, then the password of those whose sessions ended`,
	);
	for (const person of reset) {
		check(
			received.indexOf(playbook.endSessions(person.employee!)) <
				received.indexOf(playbook.newPassword(person.employee!)),
			playbook.find,
			`${person.identity}: the sessions ended before the password step`,
		);
	}
	const after = playbook.counters(tools);
	const done = people.filter((person) => person.outcome === 'done');
	checkEqual(
		after.sessions.slice(before.sessions.length).sort(),
		[...acted.filter((person) => person.outcome !== 'sessionsFailed')]
			.map((person) => playbook.idOf(person.employee!))
			.sort(),
		playbook.find,
		'the users whose sessions the directory ended',
	);
	checkEqual(
		after.passwords.slice(before.passwords.length).sort(),
		done.map((person) => playbook.idOf(person.employee!)).sort(),
		playbook.find,
		'the users whose password the directory changed',
	);

	// What Flare received: the leaks of the people both steps were done for, remediated once.
	const actions = fake.requests
		.slice(requestMark)
		.filter((request) => request.path === TAKE_ACTION)
		.map((request) => request.body as { action: { type: string }; targets: Array<{ credential_hash: string }> });
	checkEqual(
		actions.flatMap((body) => body.targets.map((target) => target.credential_hash)).sort(),
		hashesOf(done).sort(),
		'Mark remediated in Flare',
		'the leaks remediated: those of the people signed out and reset, each once',
	);
	check(
		actions.every((body) => body.action.type === 'remediate'),
		'Mark remediated in Flare',
		'every action is remediate',
	);
	const state = (hash: string) => fake.feed.credentialState(TENANT, hash).remediated_at;
	check(
		hashesOf(people.filter((person) => person.outcome !== 'done')).every((hash) => state(hash) === null),
		'Mark remediated in Flare',
		'the leaks of everyone else stay unremediated in Flare',
	);

	// Whom each list names.
	const lists: Array<[string, string[]]> = [
		['Not an address', identities(people, 'notAddress')],
		['Not acted on', identities(people, 'notFound', 'notActed')],
		[playbook.couldNotSessions, identities(people, 'sessionsFailed')],
		[playbook.couldNotPassword, identities(people, 'passwordFailed')],
		['Signed out and reset', identities(people, 'done')],
	];
	const named = (node: string) => runs.flatMap((run) => listed(run, node)).sort();
	const items = (node: string) =>
		runs.flatMap((run) => (run.nodesRun().includes(node) ? run.json(node) : []));
	const byIdentity = (a: unknown[], b: unknown[]) => String(a[0]).localeCompare(String(b[0]));
	const expectedReasons = people
		.filter((person) => ['notAddress', 'notFound', 'notActed'].includes(person.outcome))
		.map((person) => [
			person.identity,
			person.outcome === 'notAddress'
				? 'not a plain e-mail address: looked up nowhere'
				: playbook.reasonOf(person.employee),
		])
		.sort(byIdentity);
	// Each reason as the playbook words it, up to the details it adds (e.g. the Okta domain).
	checkEqual(
		[...items('Not an address'), ...items('Not acted on')]
			.map((item) => [item.identity, String(item.problem)])
			.sort(byIdentity)
			.map(([identity, problem], index) => [
				identity,
				String(problem).slice(0, String(expectedReasons[index]?.[1] ?? '').length),
			]),
		expectedReasons,
		'Not acted on',
		'each person not acted on, with their own reason',
	);
	for (const node of [playbook.couldNotSessions, playbook.couldNotPassword]) {
		const failed = items(node);
		check(
			failed.every((item) => item.error !== undefined && item.error !== null),
			node,
			`each item holds the error the directory answered (${JSON.stringify(failed).slice(0, 300)})`,
		);
	}
	for (const [node, expectedPeople] of lists) {
		checkEqual(named(node), expectedPeople, node, 'the people it names');
	}
	checkEqual(
		runs
			.flatMap((run) =>
				run.nodesRun().includes('Signed out and reset') ? run.json('Signed out and reset') : [],
			)
			.map((item) => [item.identity, item.leaks])
			.sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
		done
			.map((person) => [person.identity, person.leaks.length])
			.sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
		'Signed out and reset',
		'each person once, with all their leaks',
	);
	note(
		`${leaks.length} leak(s) in ${runs.length} execution(s), ${people.length} people: ${done.length} signed out and reset, ${people.length - done.length} listed apart; ${playbook.tool} received ${received.length} requests, Flare ${actions.length} remediation request(s)`,
	);
}

/** The trigger polls again with nothing new: no execution, nothing more received. */
async function nothingTwice(
	playbook: Playbook,
	{ fake, active, tools }: AlertCaseContext<ActivePolledWorkflow>,
): Promise<void> {
	const mark = tools!.log.entries.length;
	const requestMark = fake.requests.length;
	await active.poll();
	await active.nothingStarted('a poll with nothing new');
	checkEqual(lines(tools!.received(playbook.tool, mark), playbook.tool), [], playbook.find, 'received again');
	checkEqual(
		fake.requests.slice(requestMark).filter((request) => request.path === TAKE_ACTION).length,
		0,
		'Mark remediated in Flare',
		'remediated again',
	);
}

function identityCases(playbook: Playbook, names: Record<string, LeakSpec[]>) {
	const step = (name: string, specs: LeakSpec[], again = false) =>
		polledCase({
			file: playbook.file,
			trigger: TRIGGER,
			name,
			about: name,
			async run(context) {
				await pollAndCheck(playbook, context, specs);
				if (again) await nothingTwice(playbook, context);
			},
		});
	return [
		step(
			'each person: sessions ended, then a new password, then remediated; who the directory lacks is listed apart; polled again, nothing twice',
			names.base,
			true,
		),
		step('a leaked identity that is a path acts on nobody', names.paths),
		step('the people not acted on are each named with their own reason', names.mislabel),
		step(
			'a user the directory refuses is listed apart and the others are still signed out and remediated',
			names.refused,
		),
		step(
			// One more than a page of 100, where the playbooks once stopped (review of issue 41, F3). Each
			// global search of the trigger waits a second (Flare's rate): every address more costs time.
			'a leak of 101 addresses, more than a page, is handled whole',
			Array.from({ length: 101 }, (_, n): LeakSpec => [`bulk.user${String(n).padStart(3, '0')}x`]),
		),
		step('a leak without credential_hash is acted on once', names.noHash, true),
		step(playbook.tool === 'okta' ? 'a redirect from Okta sends the token nowhere' : 'a redirect from Graph sends the token nowhere', names.redirect),
	];
}

/** Identities that are paths or URLs around an employee's address: none may reach the directory. */
const pathsAround = (name: string): LeakSpec[] => [
	[`x/../${name}`],
	[`${name}?admin=1`],
	[`${name}#x`],
	[`x%2f..%2f${name}`],
	[`x\\..\\${name}`],
	[name.replace('.', '/')],
];

/** Each identity playbook watches its own domain here (ToolStandIns.watch): one's leaks are not the other's. */
export function watchOwnDomains(tools: ToolStandIns): void {
	for (const playbook of [OKTA, ENTRA]) tools.watch(playbook.file, playbook.domain);
}

export const IDENTITY_CASES = [
	...identityCases(OKTA, {
		base: [['dana.fischer', 2], ['erik.novak'], ['former.frank.lee']],
		paths: pathsAround('erik.novak'),
		mislabel: [['former.zoe.hart'], ['x/../paul.weber'], ['deactivated.quinn.ross'], ['elsewhere.rosa.hahn']],
		refused: [['hana.berg'], ['admin.ivan.roth'], ['deactivated.ida.kurz'], ['jana.wolf']],
		noHash: [['karl.meyer', 1, 'no credential_hash']],
		redirect: [['moved.olga.brandt'], ['elsewhere.paula.roth'], ['sara.blum']],
	}),
	...identityCases(ENTRA, {
		base: [['alice.martin', 2], ['bob.keller'], ['former.carol.white']],
		paths: pathsAround('bob.keller'),
		mislabel: [['former.zoe.hart'], ['x/../paul.weber'], ['rita.lang']],
		refused: [['lena.kraus'], ['admin.max.vogel'], ['nina.sommer']],
		noHash: [['karl.meyer', 1, 'no credential_hash']],
		redirect: [['moved.olga.brandt'], ['sara.blum']],
	}),
];

// ---- a run by hand: a dry run ----

/** The people of the playbook's run by hand under way (a line runs one at a time, noted.ts). */
const dryRuns = new NotedPerFake<Person[]>();

function dryRunCase(playbook: Playbook): E2eCase {
	const specs: LeakSpec[] = [['uma.stein', 2], ['vera.lind'], ['former.will.ott'], ['x/../vera.lind']];
	return {
		file: playbook.file,
		about:
			'a run by hand (Fetch Test Event: the newest 5 leaks) is a dry run: the people looked up, those it would sign out listed, nothing changed',
		manualFrom: TRIGGER,
		steps: [
			{
				before(fake) {
					// The newest 5 leaks of the domain: the trigger's test event returns those.
					dryRuns.set(fake, peopleOf(playbook, addLeaks(fake, playbook.domain, specs)));
				},
				check(run, { fake, api, received }) {
					const people = dryRuns.get(fake);
					checkEqual(
						lines(received, playbook.tool).sort(),
						people
							.filter((person) => person.outcome !== 'notAddress')
							.map((person) => playbook.lookup(person.identity))
							.sort(),
						playbook.find,
						`what ${playbook.tool} received: lookups only`,
					);
					checkEqual(
						listed(run, 'Would act on (dry run)'),
						identities(people, 'done'),
						'Would act on (dry run)',
						'whom it would sign out',
					);
					check(
						!run.nodesRun().some((node) =>
							[playbook.couldNotSessions, playbook.couldNotPassword, 'Signed out and reset', 'Mark remediated in Flare'].includes(node),
						),
						'Dry run?',
						`no acting node ran (nodes that ran: ${run.nodesRun().join(', ')})`,
					);
					checkEqual(
						api.filter((request) => request.path === TAKE_ACTION).length,
						0,
						'Mark remediated in Flare',
						'remediation requests',
					);
					checkEqual(listed(run, 'Not an address'), identities(people, 'notAddress'), 'Not an address', 'the people it names');
					checkEqual(listed(run, 'Not acted on'), identities(people, 'notFound', 'notActed'), 'Not acted on', 'the people it names');
				},
			},
		],
	};
}

export const IDENTITY_DRY_RUNS: E2eCase[] = [dryRunCase(OKTA), dryRunCase(ENTRA)];
