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

/** The full event as the Flare node outputs it by default: its planted leaked values masked. */
const activity = (fake: FakeFlare, uid: string) =>
	maskedView(fake.events.fullEvent(uid, TENANT)!.activity, fake.plantedValues());

/** The issue the playbook opens for an alert, as Jira's create-issue body. */
function expectedIssue(fake: FakeFlare, alert: FlareAlert, severity: 'critical' | 'high') {
	const { header } = activity(fake, String(alert.uid));
	return {
		summary: `[${severity.toUpperCase()}] ${String(header.title)}`
			.replace(/\s+/g, ' ')
			.slice(0, 255),
		project: { id: JIRA_PROJECT.id },
		issuetype: { id: JIRA_ISSUE_TYPES[0].id },
		labels: ['flare', alert.event_type],
		priority: { id: severity === 'critical' ? '1' : '2' },
		description: [
			`Flare alert: ${severity} ${String(alert.event_type)} event.`,
			`Source: ${header.source_name ?? 'unknown'}`,
			`Actor: ${header.actor ?? 'none'}`,
			`Posted at: ${String(alert.timestamp ?? 'unknown')}`,
			`Event UID: ${String(alert.uid)}`,
			`Open in Flare: ${String(alert.url ?? '')}`,
			'',
			"The event's content is not copied here: threat actors write it, and it may quote credentials or carry instructions. Read it in Flare.",
		].join('\n'),
	};
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
			'a critical and a high alert become one Jira issue each (the create-issue body checked by the Jira stand-in), a low one goes to Review later; a repeated delivery opens nothing',
		trigger: 'Flare alert',
		async run(context) {
			const { fake, active, note } = context;
			const tools = context.tools!;
			const [critical] = fake.newAlerts(1, { type: 'leaked_credential', severity: 'critical' });
			const [high] = fake.newAlerts(1, { type: 'ransomleak', severity: 'high' });
			const [low] = fake.newAlerts(1, { type: 'paste', severity: 'low' });
			const mark = tools.log.entries.length;
			const requestMark = fake.requests.length;
			for (const alert of [critical, high, low]) {
				checkEqual(answerOf(await active.push(alert)), `200 "${STARTED}"`, 'Flare alert', 'answer');
			}
			const runs = (await active.next(3)).map((execution) => new RunView(execution.run));
			await repeated(context, critical, 'Flare alert');
			const node = 'Open a Jira issue';
			checkWhatToolsReceived(tools, mark, node);
			const byUid = (uid: unknown) => runs.find((run) => run.json('Flare alert')[0].uid === uid)!;
			const posted = tools.received('jira', mark).filter((entry) => entry.method === 'POST');
			const expected = [
				expectedIssue(fake, critical, 'critical'),
				expectedIssue(fake, high, 'high'),
			];
			const bySummary = (a: { summary: string }, b: { summary: string }) =>
				a.summary.localeCompare(b.summary);
			checkEqual(
				posted.map((entry) => ({ path: entry.path, status: entry.status })),
				expected.map(() => ({ path: '/rest/api/2/issue', status: 201 })),
				node,
				'one create-issue request per high or critical alert, each created; none for the repeated delivery',
			);
			checkEqual(
				posted
					.map((entry) => (entry.body as { fields: { summary: string } }).fields)
					.sort(bySummary),
				[...expected].sort(bySummary),
				node,
				'the issues: summary, project, type, labels, priority and description (no content)',
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
					.join(', ')}); low → Review later; the critical one again → ${DUPLICATE}`,
			);
		},
	},
	{
		file: 'playbooks/alert-triage-ai-agent.json',
		about:
			"an alert → the AI Agent reads the full event and Flare's explanation through two of its three read-only Flare tools (the model answers with tool calls), masked → its note written to the event in Flare; a repeated delivery triages nothing",
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
				'the three Flare tools offered',
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
				['PATCH /firework/v4/events/tenant/metadata'],
				'Write the note in Flare',
				'then the note was written',
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
			checkEqual(
				api.find((request) => request.method === 'PATCH')?.body,
				{ notes: written },
				'Write the note in Flare',
				'the note written to the event',
			);
			checkEqual(
				fake.events.fullEvent(uid, TENANT)!.activity.header.notes,
				written,
				'Write the note in Flare',
				"the event's notes in Flare",
			);
			note(
				`1 alert → 2 model requests, tools called: full event and explanation (the credential search offered, not called) → the note in Flare; the same alert again → ${DUPLICATE}`,
			);
		},
	},
];
