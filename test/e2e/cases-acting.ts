/**
 * End-to-end cases of the playbooks that act (issue 41): each one's tools are local stand-ins
 * (stand-ins/), and each case checks what the tools received: the e-mail of the daily leak watch and a
 * Slack message per event. What every case of the suite also gets (suite.ts, runCase): no request a
 * stand-in found undocumented, and no planted leaked value in anything a tool received. The
 * alert-triggered playbooks are in alerts-acting.ts, the identity responses in identity-acting.ts.
 */
import type { FeedItem, FullEvent } from '../contract';
import { masked, maskedView } from '../integration/support';
import {
	type E2eCase,
	searchItems,
	simplifiedCredential,
	type Step,
	type StepContext,
} from './cases';
import { NotedPerFake } from './noted';
import { check, checkEqual, type RunView } from './report';
import type { Received } from './stand-ins/http';
import type { Email } from './stand-ins/smtp';

const TENANT = 101;
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
	// The digest names each credential and where it came from, and no password, not even masked (a
	// masked one keeps its first and last characters): review of issue 41, F8.
	const found = searchItems(run, node);
	checkEqual(
		summary.text,
		[
			'8 new leaked credential(s) for acme.com in the last 24 hours:',
			...found.map(
				(leak) =>
					`- ${String(leak.identity_name)} (${String(leak.source_name ?? leak.source_id)}, imported ${String(leak.imported_at)})`,
			),
		].join('\n'),
		'Format the summary',
		'the daily digest carries no password, not even masked',
	);
	check(
		!expected.some((record) => String(summary.text).includes(masked(String(record.hash)))) &&
			!String(summary.text).includes('********'),
		'Format the summary',
		'no masked password in the summary',
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
		`${String(summary.text)}\n\nNo password is in this e-mail: each credential is in Flare's Leaked Credentials, with its source.`,
		mail,
		'the e-mail text: the summary, no password',
	);
	check(
		!expected.some(
			(record) =>
				email.text!.includes(String(record.hash)) || email.text!.includes(masked(String(record.hash))),
		),
		mail,
		'no password in the e-mail, in clear or masked',
	);
	checkEqual(run.json(mail).length, 1, mail, 'output: one item, the message sent');
}

// ---- high and critical events to Slack ----

type SlackEvent = { event: FeedItem; activity: FullEvent['activity'] };
const slackEvents = new NotedPerFake<SlackEvent[]>();

/** Slack's mrkdwn control characters, escaped as Slack documents it. */
const escapeSlack = (text: string) =>
	text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function slackText({ event, activity }: SlackEvent): string {
	const names = (event.identifiers ?? []).map((identifier) => identifier.name).join(', ');
	return [
		`:rotating_light: *[${event.metadata.severity.toUpperCase()}] ${escapeSlack(activity.header.title ?? event.metadata.uid)}*`,
		`${event.metadata.type} from ${escapeSlack(activity.header.source_name ?? 'an unknown source')}, in the feed since ${event.metadata.matched_at}`,
		`Identifiers: ${escapeSlack(names || 'none')}`,
		`<${event.metadata.flare_url}|Open in Flare>`,
	].join('\n');
}

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
				slackEvents.set(
					fake,
					items.map((event) => ({
						event,
						activity: maskedView(
							fake.events.fullEvent(event.metadata.uid, TENANT)!.activity,
							fake.plantedValues(),
						),
					})),
				);
			},
			check(run, { fake, received }) {
				const events = slackEvents.get(fake);
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
];
