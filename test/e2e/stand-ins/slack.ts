/**
 * Slack's Web API method `chat.postMessage` (api.slack.com/methods/chat.postMessage), which n8n's
 * Slack node (Message → Send) calls at https://slack.com/api/chat.postMessage: reached through the
 * proxy, since the node writes that address itself. As Slack documents it: a bot token as a Bearer
 * token (else `not_authed` / `invalid_auth`), a JSON or form body, a `channel` the bot is in (else
 * `channel_not_found`), one of `text`, `blocks` or `attachments` (else `no_text`), a text of at most
 * 40,000 characters (else `msg_too_long`); errors answer HTTP 200 with `ok: false`, as Slack does.
 * Arguments Slack does not know are ignored, as Slack ignores them.
 */
import type { ToolReply, ToolRequest, ToolStandIn } from './http';

/** The bot token of the stand-in's credential (a placeholder, built from parts: no real token). */
export const SLACK_BOT_TOKEN = ['xoxb', '000000000000', '000000000000', 'FAKEslackSTANDin'].join(
	'-',
);
/** The one channel the bot is in. */
export const SLACK_CHANNEL = { id: 'C0FLARESOC', name: 'soc-alerts' };

export interface SlackMessage {
	channel: string;
	ts: string;
	text?: string;
	blocks?: unknown;
	attachments?: unknown;
}

export class SlackStandIn implements ToolStandIn {
	readonly tool = 'slack';
	readonly messages: SlackMessage[] = [];

	handle(request: ToolRequest): ToolReply {
		const fail = (error: string, problem: string): ToolReply => ({
			status: 200,
			body: { ok: false, error },
			problem,
		});
		if (request.method !== 'POST' || request.path !== '/api/chat.postMessage') {
			return {
				status: 404,
				body: { ok: false, error: 'unknown_method' },
				problem: `${request.method} ${request.path} is not chat.postMessage`,
			};
		}
		const authorization = request.headers.authorization;
		if (!authorization) return fail('not_authed', 'no token');
		if (authorization !== `Bearer ${SLACK_BOT_TOKEN}`)
			return fail('invalid_auth', 'not the bot token of the credential');
		const type = String(request.headers['content-type'] ?? '');
		const args = type.startsWith('application/json')
			? (request.json as Record<string, unknown> | undefined)
			: type.startsWith('application/x-www-form-urlencoded')
				? Object.fromEntries(new URLSearchParams(request.text))
				: undefined;
		if (!args || typeof args !== 'object')
			return fail('invalid_arguments', `a body Slack cannot read (${type || 'no content type'})`);
		const channel = String(args.channel ?? '');
		if (![SLACK_CHANNEL.id, SLACK_CHANNEL.name, `#${SLACK_CHANNEL.name}`].includes(channel)) {
			return fail(
				'channel_not_found',
				`channel ${JSON.stringify(args.channel)} is not one the bot is in`,
			);
		}
		const { text, blocks, attachments } = args as {
			text?: unknown;
			blocks?: unknown;
			attachments?: unknown;
		};
		if ((typeof text !== 'string' || text === '') && !blocks && !attachments)
			return fail('no_text', 'no text, blocks or attachments');
		if (typeof text === 'string' && text.length > 40_000)
			return fail('msg_too_long', `a text of ${text.length} characters`);
		const ts = `1765000000.${String(100 + this.messages.length).padStart(6, '0')}`;
		const message: SlackMessage = {
			channel: SLACK_CHANNEL.id,
			ts,
			text: text as string | undefined,
			blocks,
			attachments,
		};
		this.messages.push(message);
		return {
			status: 200,
			body: {
				ok: true,
				channel: SLACK_CHANNEL.id,
				ts,
				message: { type: 'message', subtype: 'bot_message', bot_id: 'B0FLAREBOT', text, ts },
			},
		};
	}
}
