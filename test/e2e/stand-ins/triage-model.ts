/**
 * The script of the OpenAI-compatible model behind the AI triage playbook (fake-model.ts): its first
 * answer calls the two Flare tools the agent offers, the full event and Flare's AI
 * explanation, with the event UID the prompt names; once their results are in, it writes a triage
 * note from them (the event's title and source, the explanation as the tool gave it: masked), as a
 * model summarising its tools' results would.
 */
import { type ChatRequest, type FakeModelOptions, messageText, type ToolCall } from '../fake-model';

/** The credential of the playbook's chat model, and the key the stand-in takes (a placeholder). */
export const TRIAGE_MODEL_CREDENTIAL = {
	id: 'openAiTriageExample1',
	name: 'OpenAI-compatible model',
};

/** The tools as n8n names them from the tool nodes' names. */
export const TRIAGE_TOOLS = {
	fullEvent: 'Get_the_full_event_in_Flare',
	explanation: 'Get_the_AI_explanation_of_the_event_in_Flare',
};

const userText = (chat: ChatRequest) =>
	chat.messages
		.filter((message) => message.role === 'user')
		.map(messageText)
		.join('\n');

/** The event UID the prompt names (its line `Event UID: …`). */
export function promptedUid(chat: ChatRequest): string | undefined {
	return /^Event UID: (.+)$/m.exec(userText(chat))?.[1]?.trim();
}

/** The first item each tool returned, by tool name, read from the tool messages of the request. */
export function toolResults(chat: ChatRequest): Record<string, Record<string, unknown>> {
	const names = new Map(
		chat.messages
			.flatMap((message) => message.tool_calls ?? [])
			.map((call) => [call.id, call.function.name]),
	);
	const results: Record<string, Record<string, unknown>> = {};
	for (const message of chat.messages.filter((candidate) => candidate.role === 'tool')) {
		try {
			const parsed = JSON.parse(messageText(message)) as unknown;
			const first = (Array.isArray(parsed) ? parsed[0] : parsed) as Record<string, unknown>;
			results[names.get(message.tool_call_id ?? '') ?? '?'] = first ?? {};
		} catch {
			results[names.get(message.tool_call_id ?? '') ?? '?'] = { text: messageText(message) };
		}
	}
	return results;
}

/** The note the model writes from the tool results of `chat`. */
export function triageNote(chat: ChatRequest): string {
	const results = toolResults(chat);
	const header = ((results[TRIAGE_TOOLS.fullEvent] ?? {}).header ?? {}) as Record<string, unknown>;
	const explanation = String((results[TRIAGE_TOOLS.explanation] ?? {}).response ?? 'none');
	return [
		`Triage of ${promptedUid(chat) ?? 'the alert'}: ${String(header.title ?? 'untitled')} (${String(header.source_name ?? 'unknown source')}).`,
		`Flare's explanation: ${explanation}`,
		'Next: confirm the account is ours, reset its password and revoke its sessions, then remediate the event in Flare.',
	].join('\n');
}

export const TRIAGE_MODEL_SCRIPT: FakeModelOptions = {
	toolCalls: [],
	finalAnswer: '',
	toolCallsFor(chat): ToolCall[] {
		const uid = promptedUid(chat);
		return uid
			? [
					{ name: TRIAGE_TOOLS.fullEvent, arguments: { uid } },
					{ name: TRIAGE_TOOLS.explanation, arguments: { uid } },
				]
			: [];
	},
	finalAnswerFor: triageNote,
};
