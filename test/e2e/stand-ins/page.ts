/**
 * The page the sandbox points at (the stand-ins' own address, `/`): what each tool received, newest
 * first: the Jira issues, Slack messages, Entra ID and Okta calls, e-mails and the triage model's
 * requests, each with what the stand-in answered and any problem it found. `/received.json` has the
 * same as JSON. It refreshes itself every 5 seconds.
 */
import type { ModelRequest } from '../fake-model';
import type { Received, ReceivedLog } from './http';

const escape = (text: string) =>
	text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

const TOOLS: Record<string, string> = {
	jira: 'Jira Software',
	slack: 'Slack',
	graph: 'Microsoft Entra ID (Graph)',
	okta: 'Okta',
	smtp: 'E-mail (SMTP)',
	elsewhere: 'Another origin (nothing may reach it)',
};

/** One line of what a tool received, as a person would read it. */
export function describeReceived(entry: Received): string {
	const body = entry.body as Record<string, unknown> | undefined;
	const fields = (body?.fields ?? {}) as Record<string, unknown>;
	const what =
		entry.tool === 'jira' && entry.method === 'POST'
			? `issue "${String(fields.summary)}"`
			: entry.tool === 'slack'
				? `message to ${String(body?.channel)}: ${String(body?.text ?? '').split('\n')[0]}`
				: entry.tool === 'smtp'
					? `e-mail to ${(body?.envelope as { to: string[] } | undefined)?.to.join(', ')}: "${String(body?.subject)}"`
					: `${entry.method} ${entry.path}`;
	return `${new Date(entry.at).toISOString()} ${TOOLS[entry.tool] ?? entry.tool}: ${what} → ${entry.status}${entry.problem ? ` (refused: ${entry.problem})` : ''}`;
}

export function receivedPage(log: ReceivedLog, model: ModelRequest[]): string {
	const rows = [...log.entries]
		.reverse()
		.map(
			(entry) =>
				`<tr><td>${escape(new Date(entry.at).toISOString().slice(11, 19))}</td><td>${escape(TOOLS[entry.tool] ?? entry.tool)}</td>` +
				`<td>${escape(`${entry.method} ${entry.path}`)}</td><td>${entry.status}${entry.problem ? `<br><b>${escape(entry.problem)}</b>` : ''}</td>` +
				`<td><pre>${escape(JSON.stringify(entry.body, null, 2) ?? '')}</pre></td></tr>`,
		)
		.join('\n');
	const chats = model
		.filter((request) => request.body)
		.map(
			(request) =>
				`<li><pre>${escape(JSON.stringify({ sent: request.body!.messages, answered: request.answered }, null, 2))}</pre></li>`,
		)
		.reverse()
		.join('\n');
	return `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="refresh" content="5">
<title>What the tools received</title>
<style>body{font:14px system-ui,sans-serif;margin:2em}td{vertical-align:top;border-top:1px solid #ddd;padding:.4em}pre{margin:0;white-space:pre-wrap;max-width:70em}</style></head>
<body><h1>What the tools received</h1>
<p>Local stand-ins of Jira, Slack, Entra ID, Okta and a mail server, newest first. Nothing here left this machine.
Refused hosts: ${escape(log.refusedHosts.join(', ') || 'none')}. <a href="received.json">As JSON</a>.</p>
<table><tr><th>Time</th><th>Tool</th><th>Request</th><th>Answer</th><th>Body</th></tr>
${rows || '<tr><td colspan="5">Nothing yet: run a playbook.</td></tr>'}</table>
<h2>The triage model (OpenAI-compatible)</h2><ol>${chats || '<li>No request yet.</li>'}</ol></body></html>`;
}
