/**
 * The alert-triggered playbooks that act (issue 41), pushed alerts as in alerts.ts: a high or critical
 * alert becomes one Jira issue (the Jira stand-in checks the create-issue body), and the AI Agent
 * triages an alert with read-only Flare tools and an OpenAI-compatible model that answers with tool
 * calls (the triage model stand-in), its note written back to Flare. A delivery repeated by Flare
 * starts nothing, so nothing is done twice; nothing a tool or the model received holds a leaked value
 * in clear.
 */
import type { FakeFlare, FlareAlert } from '../fake-flare';
import { maskedView } from '../integration/support';
import { PLANTED_PATTERN, scanText } from '../reliability/secret-scan';
import { type AlertCase, type AlertCaseContext, answerOf, DUPLICATE, STARTED } from './alerts';
import { messageText } from './fake-model';
import { check, checkEqual, RunView } from './report';
import { JIRA_ISSUE_TYPES, JIRA_PROJECT } from './stand-ins/jira';
import { toolResults, TRIAGE_TOOLS, triageNote } from './stand-ins/triage-model';
import { ALERT_SECRET, checkWhatToolsReceived } from './suite';

const TENANT = 101;
/** How the triage playbook heads its note in Flare. */
const TRIAGE_HEADING =
	'AI triage (unverified: a model wrote it from text that threat actors write; check it in Flare)';

/** The full event as the Flare node outputs it by default: its planted leaked values masked. */
const activity = (fake: FakeFlare, uid: string) =>
	maskedView(fake.events.fullEvent(uid, TENANT)!.activity, fake.plantedValues());

/** An event's label in Jira: what the playbook searches to open one issue per event. */
const labelOf = (uid: string) => `flare-${encodeURIComponent(uid).replace(/%2F/g, '/')}`;

/**
 * A text threat actors write, full of Jira's wiki markup: a mention, a link, an image, and an attempt
 * to end the {noformat} block it goes into (review of issue 41, F9).
 */
const MARKUP = '[~accountid:5b10ac8d82e05b22cc7d4ef5] see [the fix|https://evil.example/x] {noformat} !https://evil.example/i.png! *now*';

/** The issue the playbook opens for an alert, as Jira's create-issue body. */
function expectedIssue(fake: FakeFlare, alert: FlareAlert, severity: 'critical' | 'high') {
	const { header } = activity(fake, String(alert.uid));
	const plain = (text: unknown) =>
		String(text).replace(/\s+/g, ' ').replace(/\{/g, '(').replace(/\}/g, ')').trim();
	return {
		summary: `[${severity.toUpperCase()}] ${String(header.title)}`
			.replace(/\s+/g, ' ')
			.slice(0, 255),
		project: { id: JIRA_PROJECT.id },
		issuetype: { id: JIRA_ISSUE_TYPES[0].id },
		labels: ['flare', alert.event_type, labelOf(String(alert.uid))],
		priority: { id: severity === 'critical' ? '1' : '2' },
		description: [
			`Flare alert: ${severity} ${String(alert.event_type)} event.`,
			`Posted at: ${String(alert.timestamp ?? 'unknown')}`,
			`Event UID: ${String(alert.uid)}`,
			`Open in Flare: ${String(alert.url ?? '')}`,
			'',
			'Source and actor, as the event names them (written by others, shown as plain text):',
			'{noformat}',
			`Source: ${plain(header.source_name ?? 'unknown')}`,
			`Actor: ${plain(header.actor ?? 'none')}`,
			'{noformat}',
			'',
			"The event's content is not copied here: threat actors write it, and it may quote credentials or carry instructions. Read it in Flare.",
		].join('\n'),
	};
}

/** The lines of a description outside its {noformat} blocks: where Jira renders wiki markup. */
function renderedLines(description: string): string[] {
	let inside = false;
	return description.split('\n').filter((line) => {
		if (line === '{noformat}') {
			inside = !inside;
			return false;
		}
		return !inside;
	});
}

/** Pushes the same alert again, as Flare retries a delivery: n8n answers, and nothing starts. */
async function repeated(
	{ active }: AlertCaseContext,
	alert: FlareAlert,
	node: string,
): Promise<void> {
	const again = await active.push(alert, {
		secrets: [ALERT_SECRET],
		t: Math.floor(Date.now() / 1000) + 1,
	});
	checkEqual(answerOf(again), `200 "${DUPLICATE}"`, node, 'the same alert delivered again');
	await active.nothingStarted('the repeated delivery');
}

export const ACTING_ALERT_CASES: AlertCase[] = [
	{
		file: 'playbooks/alert-to-ticket.json',
		about:
			"a critical and a high alert become one Jira issue per event (the create-issue body checked by the Jira stand-in), the actor's wiki markup shown as plain text; a low one goes to Review later; a repeated delivery, and another alert about an event that has its issue, open nothing",
		trigger: 'Flare alert',
		async run(context) {
			const { fake, active, note } = context;
			const tools = context.tools!;
			const [critical] = fake.newAlerts(1, { type: 'ransomleak', severity: 'critical' });
			// The actor and source of the critical event are wiki markup (review of issue 41, F9).
			const stored = fake.events.event(String(critical.uid))!;
			stored.actor = MARKUP;
			stored.sourceName = `[Leak site|https://evil.example/] {quote}`;
			critical.actor = MARKUP;
			const [high] = fake.newAlerts(1, { type: 'ransomleak', severity: 'high' });
			const [low] = fake.newAlerts(1, { type: 'paste', severity: 'low' });
			const mark = tools.log.entries.length;
			const requestMark = fake.requests.length;
			for (const alert of [critical, high, low]) {
				checkEqual(answerOf(await active.push(alert)), `200 "${STARTED}"`, 'Flare alert', 'answer');
			}
			const runs = (await active.next(3)).map((execution) => new RunView(execution.run));
			await repeated(context, critical, 'Flare alert');
			// Another alert about the critical event (another keyword matched): a new alert, which starts
			// the workflow, and finds the event's issue (review of issue 41, F10).
			const another = { ...critical, keyword: 'second-identifier.example' };
			checkEqual(answerOf(await active.push(another)), `200 "${STARTED}"`, 'Flare alert', 'answer to another alert about the same event');
			const [anotherRun] = (await active.next(1)).map((execution) => new RunView(execution.run));
			const node = 'Open a Jira issue';
			checkWhatToolsReceived(tools, mark, node);
			const byUid = (uid: unknown) => runs.find((run) => run.json('Flare alert')[0].uid === uid)!;
			const jira = tools.received('jira', mark);
			const posted = jira.filter((entry) => entry.method === 'POST' && entry.path === '/rest/api/2/issue');
			const searched = jira.filter((entry) => entry.path === '/rest/api/2/search/jql');
			const expected = [
				expectedIssue(fake, critical, 'critical'),
				expectedIssue(fake, high, 'high'),
			];
			const bySummary = (a: { summary: string }, b: { summary: string }) =>
				a.summary.localeCompare(b.summary);
			checkEqual(
				searched.map((entry) => (entry.body as { jql: string }).jql).sort(),
				[critical, critical, high]
					.map((alert) => `labels in ("${labelOf(String(alert.uid))}")`)
					.sort(),
				'Find their issues in Jira',
				"one search per high or critical alert, for its event's label",
			);
			checkEqual(
				posted.map((entry) => ({ path: entry.path, status: entry.status })),
				expected.map(() => ({ path: '/rest/api/2/issue', status: 201 })),
				node,
				'one create-issue request per event, each created; none for the repeated delivery nor the second alert about an event',
			);
			const fields = posted.map((entry) => (entry.body as { fields: { summary: string; description: string } }).fields);
			checkEqual(
				[...fields].sort(bySummary),
				[...expected].sort(bySummary),
				node,
				'the issues: summary, project, type, labels (with the event\'s), priority and description (no content)',
			);
			const description = fields.find((issue) => issue.summary.startsWith('[CRITICAL]'))?.description ?? '';
			checkEqual(
				renderedLines(description).filter((line) => /[[\]{}|~!*]|https?:/.test(line)),
				[`Open in Flare: ${String(critical.url ?? '')}`],
				node,
				"the critical issue's description: the actor's and source's markup only inside {noformat}, where Jira renders none",
			);
			check(
				description.split('\n').filter((line) => line === '{noformat}').length === 2,
				node,
				'one {noformat} block: the actor cannot end it',
			);
			for (const alert of [critical, high]) {
				const [created] = byUid(alert.uid).json(node);
				check(
					tools.jira.issues.some((issue) => issue.key === created.key && issue.id === created.id),
					node,
					`output: Jira's answer for ${String(alert.uid)} (${String(created.key)})`,
				);
			}
			checkEqual(
				anotherRun.nodesRun().filter((name) => ['Get the full event', node].includes(name)),
				[],
				node,
				'the second alert about the critical event: no full event fetched, no issue opened',
			);
			checkEqual(
				byUid(low.uid)
					.json('Review later')
					.map((item) => item.uid),
				[low.uid],
				'Review later',
				'the low alert',
			);
			check(!byUid(low.uid).nodesRun().includes(node), node, 'the low alert opens no issue');
			checkEqual(
				fake.requests
					.slice(requestMark)
					.filter((request) => request.path === '/firework/v2/activities/')
					.map((request) => request.query.uid)
					.sort(),
				[critical.uid, high.uid].sort(),
				'Get the full event',
				'full events requested',
			);
			note(
				`critical and high → ${posted.length} Jira issues (${tools.jira.issues
					.slice(-2)
					.map((issue) => issue.key)
					.join(', ')}); low → Review later; the critical one again → ${DUPLICATE}; another alert about it → its issue found, nothing opened`,
			);
		},
	},
	{
		file: 'playbooks/alert-triage-ai-agent.json',
		about:
			"an alert → the AI Agent reads the full event and Flare's explanation through its two read-only Flare tools (the model answers with tool calls), masked → its note, headed as unverified, written to the event's empty notes in Flare; a repeated delivery triages nothing; another alert about the event keeps the notes it has",
		trigger: 'Flare alert',
		async run(context) {
			const { fake, active, note } = context;
			const tools = context.tools!;
			const [alert] = fake.newAlerts(1, { type: 'leaked_credential', severity: 'critical' });
			const uid = String(alert.uid);
			const event = activity(fake, uid); // as the tool reads it, before the note is written
			const mark = tools.log.entries.length;
			const modelMark = tools.model.requests.length;
			const requestMark = fake.requests.length;
			checkEqual(answerOf(await active.push(alert)), `200 "${STARTED}"`, 'Flare alert', 'answer');
			const [execution] = await active.next(1);
			await repeated(context, alert, 'Flare alert');
			const run = new RunView(execution.run);
			const agent = 'Triage agent';
			checkWhatToolsReceived(tools, mark, agent);
			const chats = tools.model.requests.slice(modelMark);
			checkEqual(
				chats.map((request) => `${request.method} ${request.path}`),
				['POST /v1/chat/completions', 'POST /v1/chat/completions'],
				agent,
				'requests to the model: tool calls, then the note',
			);
			const [first, second] = chats.map((request) => request.body!);
			check(
				messageText(first.messages.find((message) => message.role === 'user')!).includes(
					`Event UID: ${uid}\nType: leaked_credential\nSeverity: critical`,
				),
				agent,
				'the prompt names the alert: its UID, type and severity',
			);
			checkEqual(
				(first.tools ?? []).map((offered) => offered.function.name).sort(),
				Object.values(TRIAGE_TOOLS).sort(),
				agent,
				"the two Flare tools offered: no search the event's text could spend the quota on",
			);
			checkEqual(
				chats[0].answered,
				{
					toolCalls: [
						{ name: TRIAGE_TOOLS.fullEvent, arguments: { uid } },
						{ name: TRIAGE_TOOLS.explanation, arguments: { uid } },
					],
				},
				agent,
				'the model called the full event and the explanation',
			);
			const api = fake.requests
				.slice(requestMark)
				.filter((request) => !request.path.startsWith('/tokens/'));
			const lines = api.map((request) => `${request.method} ${request.path}`);
			checkEqual(
				lines.slice(0, 2).sort(),
				[
					'GET /firework/v2/activities/',
					`GET /firework/v2/activities/${uid.split('/').map(encodeURIComponent).join('/')}/ai_assistance`,
				],
				agent,
				'Flare was asked for what the two tools called need (in either order), and never searched',
			);
			checkEqual(
				lines.slice(2),
				['GET /firework/v2/activities/', 'PATCH /firework/v4/events/tenant/metadata'],
				'Write the note in Flare',
				"then the event's notes were read (none), and the note written",
			);
			// What the model got back: the tools' outputs, leaked values masked.
			const results = toolResults(second);
			checkEqual(
				results[TRIAGE_TOOLS.fullEvent],
				event,
				TRIAGE_TOOLS.fullEvent,
				'the full event the model received, masked',
			);
			const explanation = results[TRIAGE_TOOLS.explanation] as { uid?: string; response?: string };
			checkEqual(
				explanation.uid,
				uid,
				TRIAGE_TOOLS.explanation,
				'the explanation the model received',
			);
			check(
				String(explanation.response).includes('with the password ********.'),
				TRIAGE_TOOLS.explanation,
				'the password the explanation repeats reached the model masked',
			);
			const planted = scanText(JSON.stringify(chats), [PLANTED_PATTERN], 'model');
			checkEqual(
				planted.map((hit) => hit.context),
				[],
				agent,
				'leaked values in clear in what the model received',
			);
			// The note: the model's answer, on the agent's output and in Flare.
			const written = triageNote(second);
			checkEqual(chats[1].answered, { text: written }, agent, "the model's note");
			checkEqual(run.json(agent), [{ output: written }], agent, "the agent's output");
			const notes = `${TRIAGE_HEADING}\n${written}`;
			checkEqual(
				api.find((request) => request.method === 'PATCH')?.body,
				{ notes },
				'Write the note in Flare',
				'the note written to the event, headed as unverified',
			);
			checkEqual(
				fake.events.fullEvent(uid, TENANT)!.activity.header.notes,
				notes,
				'Write the note in Flare',
				"the event's notes in Flare",
			);
			// Another alert about the same event (another keyword matched) is triaged again, and the notes
			// the event now has are kept: a triage never replaces notes (review of issue 41, F7).
			const againMark = fake.requests.length;
			const another = { ...alert, keyword: 'second-identifier.example' };
			checkEqual(answerOf(await active.push(another)), `200 "${STARTED}"`, 'Flare alert', 'answer to another alert about the event');
			const [anotherExecution] = await active.next(1);
			const anotherRun = new RunView(anotherExecution.run);
			checkEqual(
				fake.requests
					.slice(againMark)
					.filter((request) => request.method === 'PATCH')
					.map((request) => request.path),
				[],
				'Write the note in Flare',
				'writes for another alert about an event with notes',
			);
			checkEqual(
				fake.events.fullEvent(uid, TENANT)!.activity.header.notes,
				notes,
				'Write the note in Flare',
				"the event's notes after another alert: the first triage, kept",
			);
			checkEqual(
				anotherRun.json('Notes kept: triage not written').map((item) => [item.uid, item.reason]),
				[[uid, 'the event already has notes: kept as they are']],
				'Notes kept: triage not written',
				'the second triage, on its own output',
			);
			note(
				`1 alert → 2 model requests, tools called: full event and explanation → the note in Flare, headed as unverified; the same alert again → ${DUPLICATE}; another alert about the event → triaged, the notes kept`,
			);
		},
	},
];
