/**
 * A fake OpenAI-compatible chat model for the AI Agent case of the end-to-end suite: a real HTTP server
 * on 127.0.0.1 that answers `POST /v1/chat/completions` as a model that uses tools would.
 *
 * - A request whose messages carry no tool result yet: the answer calls each tool of `toolCalls` (by the
 *   name n8n sent in the request's `tools` list) with its arguments, all in one message, as a model
 *   that calls tools in parallel does. A tool that n8n did not offer is answered 400, naming it.
 * - A request that carries tool results (messages with role `tool`): the answer is `finalAnswer`.
 * A script may instead choose its calls and write its answer from the request (`toolCallsFor`,
 * `finalAnswerFor`): the triage playbook's model reads the event UID and the tool results.
 *
 * It answers plain JSON, or server-sent events when the request asks for `stream: true`. Every request
 * is recorded, so a case can check what n8n sent to the model: the tools, their descriptions and
 * schemas, and the tool result.
 */
import { http, type net } from '../support/node';

export interface ChatMessage {
	role: string;
	content?: unknown;
	tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
	tool_call_id?: string;
}

export interface ChatTool {
	type: string;
	function: { name: string; description?: string; parameters?: Record<string, unknown> };
}

export interface ChatRequest {
	model?: string;
	messages: ChatMessage[];
	tools?: ChatTool[];
	stream?: boolean;
}

export interface ModelRequest {
	method: string;
	path: string;
	/** The chat request, for `POST …/chat/completions`. */
	body?: ChatRequest;
	/** What the fake answered: the tools it called, or the final answer. */
	answered?: { toolCalls: ToolCall[] } | { text: string };
}

export interface ToolCall {
	/** The tool's name as n8n offers it (derived from the tool node's name). */
	name: string;
	/** Arguments of the call (the `$fromAI()` keys of the tool). */
	arguments: Record<string, unknown>;
}

export interface FakeModelOptions {
	/** The tools the model calls in its first answer, in this order. */
	toolCalls: ToolCall[];
	/** The text of the answer once the tool results are in. */
	finalAnswer: string;
	/** Instead of `toolCalls`: the calls chosen from the request (e.g. the event its prompt names). */
	toolCallsFor?: (chat: ChatRequest) => ToolCall[];
	/** Instead of `finalAnswer`: the answer written from the request (the tool results it holds). */
	finalAnswerFor?: (chat: ChatRequest) => string;
}

/** The key the fake model accepts (a placeholder: nothing real is behind it). */
export const FAKE_MODEL_API_KEY = 'sk-example-fake-model-key';

/** Text of a message's content, whether a string or a list of text parts. */
export function messageText(message: ChatMessage): string {
	if (typeof message.content === 'string') return message.content;
	if (Array.isArray(message.content)) {
		return message.content
			.map((part) =>
				typeof part === 'string' ? part : String((part as { text?: string }).text ?? ''),
			)
			.join('');
	}
	return '';
}

export class FakeModel {
	readonly requests: ModelRequest[] = [];
	private readonly server: http.Server;
	private address = '';
	private calls = 0;

	private constructor(readonly options: FakeModelOptions) {
		this.server = http.createServer((req, res) => void this.handle(req, res));
	}

	/** Starts the fake on 127.0.0.1 (`port` 0 = a free port). */
	static async start(options: FakeModelOptions, port = 0): Promise<FakeModel> {
		const model = new FakeModel(options);
		await new Promise<void>((resolve, reject) => {
			model.server.once('error', reject);
			model.server.listen(port, '127.0.0.1', () => resolve());
		});
		model.address = `http://127.0.0.1:${(model.server.address() as net.AddressInfo).port}`;
		return model;
	}

	/** The base URL of the API, as the OpenAI credential's Base URL (`url`) takes it. */
	get url(): string {
		return `${this.address}/v1`;
	}

	/** The chat requests, in arrival order. */
	get chats(): ChatRequest[] {
		return this.requests.flatMap((request) => (request.body ? [request.body] : []));
	}

	async stop(): Promise<void> {
		await new Promise<void>((resolve) => {
			this.server.close(() => resolve());
			this.server.closeAllConnections();
		});
	}

	private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		const path = (req.url ?? '/').split('?')[0];
		const entry: ModelRequest = { method: req.method ?? '', path };
		this.requests.push(entry);
		const reply = (status: number, body: unknown) => {
			res.writeHead(status, { 'content-type': 'application/json' });
			res.end(JSON.stringify(body));
		};
		if (req.headers.authorization !== `Bearer ${FAKE_MODEL_API_KEY}`) {
			reply(401, {
				error: { message: 'Incorrect API key provided', type: 'invalid_request_error' },
			});
			return;
		}
		if (req.method === 'GET' && path === '/v1/models') {
			reply(200, {
				object: 'list',
				data: [{ id: 'fake-model', object: 'model', owned_by: 'e2e' }],
			});
			return;
		}
		if (req.method !== 'POST' || path !== '/v1/chat/completions') {
			reply(404, { error: { message: `Unknown route ${req.method} ${path}`, type: 'not_found' } });
			return;
		}
		let body: ChatRequest;
		try {
			body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequest;
		} catch {
			reply(400, { error: { message: 'The body is not JSON', type: 'invalid_request_error' } });
			return;
		}
		entry.body = body;
		this.calls++;
		const id = `chatcmpl-fake-${this.calls}`;
		const hasToolResult = body.messages.some((message) => message.role === 'tool');
		const offered = (body.tools ?? []).map((tool) => tool.function.name);
		const calls = this.options.toolCallsFor?.(body) ?? this.options.toolCalls;
		let message: ChatMessage;
		let finishReason: string;
		if (!hasToolResult && offered.length > 0) {
			const missing = calls.filter((call) => !offered.includes(call.name));
			if (missing.length > 0) {
				reply(400, {
					error: {
						message: `The fake model calls ${missing.map((call) => call.name).join(', ')}, which n8n did not offer (offered: ${offered.join(', ')})`,
						type: 'invalid_request_error',
					},
				});
				return;
			}
			entry.answered = { toolCalls: calls };
			message = {
				role: 'assistant',
				content: null,
				tool_calls: calls.map((call, index) => ({
					id: `call_fake_${this.calls}_${index + 1}`,
					function: { name: call.name, arguments: JSON.stringify(call.arguments) },
				})),
			};
			finishReason = 'tool_calls';
		} else {
			const text = this.options.finalAnswerFor?.(body) ?? this.options.finalAnswer;
			entry.answered = { text };
			message = { role: 'assistant', content: text };
			finishReason = 'stop';
		}
		const usage = { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 };
		const created = Math.floor(Date.now() / 1000);
		const model = body.model ?? 'fake-model';
		if (!body.stream) {
			reply(200, {
				id,
				object: 'chat.completion',
				created,
				model,
				choices: [
					{
						index: 0,
						message: {
							...message,
							tool_calls: message.tool_calls?.map((call) => ({ ...call, type: 'function' })),
						},
						finish_reason: finishReason,
					},
				],
				usage,
			});
			return;
		}
		// Streaming: the whole message in one delta, then the finish reason, then usage.
		res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
		const chunk = (delta: Record<string, unknown>, finish: string | null, extra = {}) =>
			res.write(
				`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`,
			);
		chunk(
			message.tool_calls
				? {
						role: 'assistant',
						content: null,
						tool_calls: message.tool_calls.map((call, index) => ({
							index,
							id: call.id,
							type: 'function',
							function: call.function,
						})),
					}
				: { role: 'assistant', content: message.content },
			null,
		);
		chunk({}, finishReason);
		res.write(
			`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [], usage })}\n\n`,
		);
		res.end('data: [DONE]\n\n');
	}
}
