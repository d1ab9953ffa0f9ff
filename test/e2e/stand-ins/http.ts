/**
 * What the HTTP stand-ins share: one request as a stand-in reads it, its answer, the record of what
 * each tool received, and the two ways n8n reaches them: a local server whose URL goes into the
 * credential (the tool's own base URL: Jira, Okta), and a proxy for the tools whose address n8n's
 * node writes itself (Slack, Microsoft Graph). The proxy answers CONNECT for those hosts only and
 * speaks TLS with a certificate of the test's own CA (ca.ts); any other host is refused and noted.
 */
import { http, type net, tls } from '../../support/node';
import type { TestAuthority } from './ca';

/** One request as a stand-in reads it. */
export interface ToolRequest {
	method: string;
	/** The path below the stand-in's base (`/rest/api/2/issue`), decoded once. */
	path: string;
	query: Record<string, string>;
	headers: http.IncomingHttpHeaders;
	/** The body as text, and as JSON when it parses. */
	text: string;
	json?: unknown;
	/** The stand-in's own base URL as n8n reached it (for the links it answers with). */
	base: string;
}

export interface ToolReply {
	status: number;
	body?: unknown;
	headers?: Record<string, string>;
	/**
	 * Why the request is not as the tool's public API documents it. The stand-in answers as the tool
	 * would (an error of its own shape) and the test fails on any problem recorded.
	 */
	problem?: string;
}

/** What one tool received: one request (or one e-mail), checked and answered. */
export interface Received {
	tool: string;
	method: string;
	path: string;
	query: Record<string, string>;
	/** The JSON body, the form, or the e-mail as read (smtp.ts). */
	body: unknown;
	status: number;
	problem?: string;
	/** When it arrived (ms since the epoch). */
	at: number;
}

export interface ToolStandIn {
	/** Its name in the records: `jira`, `slack`, `graph`, `okta`. */
	readonly tool: string;
	handle(request: ToolRequest): ToolReply;
}

/**
 * Another origin than the tools' (`http://localhost:<port>/elsewhere`, the local server under another
 * name), where the stand-ins' redirects and foreign links lead: nothing of a playbook may reach it,
 * so every request is recorded as a problem, saying whether it carried a token.
 */
export class ElsewhereStandIn implements ToolStandIn {
	readonly tool = 'elsewhere';

	handle(request: ToolRequest): ToolReply {
		const carried = request.headers.authorization ? 'with' : 'without';
		return {
			status: 404,
			problem: `${request.method} ${request.path} reached another origin than the tool's, ${carried} an Authorization header`,
		};
	}
}

/** The log of every stand-in, in arrival order. */
export class ReceivedLog {
	readonly entries: Received[] = [];
	/** CONNECTs and proxy requests for hosts no stand-in answers for (refused). */
	readonly refusedHosts: string[] = [];

	/** Called with each entry as it is recorded (the sandbox prints them). */
	readonly listeners: Array<(entry: Received) => void> = [];

	record(entry: Received): void {
		this.entries.push(entry);
		for (const listener of this.listeners) listener(entry);
	}

	/** What `tool` received from entry `from` on. */
	of(tool: string, from = 0): Received[] {
		return this.entries.slice(from).filter((entry) => entry.tool === tool);
	}
}

const decoded = (text: string) => {
	try {
		return decodeURIComponent(text);
	} catch {
		return text;
	}
};

/** Bodies beyond this are refused (413): no tool call of the playbooks comes near it. */
const MAX_BODY = 1_048_576;

async function readRequest(
	req: http.IncomingMessage,
	base: string,
	prefix: string,
): Promise<ToolRequest | undefined> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of req) {
		size += (chunk as Buffer).length;
		if (size > MAX_BODY) return undefined;
		chunks.push(chunk as Buffer);
	}
	const url = new URL(req.url ?? '/', base);
	const text = Buffer.concat(chunks).toString('utf8');
	let json: unknown;
	try {
		json = text === '' ? undefined : JSON.parse(text);
	} catch {
		json = undefined;
	}
	return {
		method: req.method ?? '',
		path: decoded(url.pathname.slice(prefix.length)) || '/',
		query: Object.fromEntries(url.searchParams),
		headers: req.headers,
		text,
		json,
		base: `${base}${prefix}`,
	};
}

/** Reads, hands to the stand-in, records and answers one request. */
async function serve(
	standIn: ToolStandIn,
	log: ReceivedLog,
	req: http.IncomingMessage,
	res: http.ServerResponse,
	base: string,
	prefix = '',
): Promise<void> {
	const request = await readRequest(req, base, prefix);
	if (!request) {
		res.writeHead(413).end();
		return;
	}
	let reply: ToolReply;
	try {
		reply = standIn.handle(request);
	} catch (error) {
		reply = {
			status: 500,
			body: { error: String(error) },
			problem: `the stand-in failed: ${(error as Error).message}`,
		};
	}
	log.record({
		tool: standIn.tool,
		method: request.method,
		path: request.path,
		query: request.query,
		body: request.json ?? (request.text === '' ? undefined : request.text),
		status: reply.status,
		problem: reply.problem,
		at: Date.now(),
	});
	const body = reply.body === undefined ? '' : JSON.stringify(reply.body);
	res.writeHead(reply.status, {
		...(body ? { 'content-type': 'application/json; charset=utf-8' } : {}),
		...reply.headers,
	});
	res.end(body);
}

/** Listens on 127.0.0.1, on `port` (0: any free one); returns the port. */
export async function listen(server: net.Server, port = 0): Promise<number> {
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', () => resolve());
	});
	return (server.address() as net.AddressInfo).port;
}

async function close(server: http.Server): Promise<void> {
	await new Promise<void>((resolve) => {
		server.close(() => resolve());
		server.closeAllConnections();
	});
}

/**
 * The stand-ins reached through their credential's base URL, each under its own path
 * (`http://127.0.0.1:<port>/jira`, `…/okta`); `pages` answer the other paths (what each received).
 */
export class LocalToolServer {
	private readonly server: http.Server;
	url = '';

	constructor(
		private readonly standIns: ToolStandIn[],
		private readonly log: ReceivedLog,
		private readonly pages: (path: string) => { type: string; body: string } | undefined,
	) {
		this.server = http.createServer((req, res) => void this.route(req, res));
	}

	/** The base URL of a stand-in, as its credential takes it. */
	baseOf(tool: string): string {
		return `${this.url}/${tool}`;
	}

	async start(port = 0): Promise<void> {
		this.url = `http://127.0.0.1:${await listen(this.server, port)}`;
	}

	stop = async () => await close(this.server);

	private async route(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
		const first = (req.url ?? '/').split('/')[1]?.split('?')[0];
		const standIn = this.standIns.find((candidate) => candidate.tool === first);
		if (standIn) return await serve(standIn, this.log, req, res, this.url, `/${first}`);
		const page = this.pages((req.url ?? '/').split('?')[0]);
		if (!page) {
			res.writeHead(404).end();
			return;
		}
		res.writeHead(200, { 'content-type': page.type, 'cache-control': 'no-store' }).end(page.body);
	}
}

/**
 * An HTTP proxy (what HTTPS_PROXY points at) that answers CONNECT for `hosts` itself: the tunnel is
 * a TLS connection with the test CA's certificate, whose requests go to the host's stand-in.
 */
export class ToolProxy {
	private readonly server: http.Server;
	private readonly inner: http.Server;
	private readonly context: tls.SecureContext;
	url = '';

	constructor(
		private readonly hosts: Record<string, ToolStandIn>,
		private readonly log: ReceivedLog,
		authority: TestAuthority,
	) {
		this.context = tls.createSecureContext({ cert: authority.cert, key: authority.key });
		this.inner = http.createServer((req, res) => {
			const host = (req.headers.host ?? '').split(':')[0];
			void serve(this.hosts[host], this.log, req, res, `https://${host}`);
		});
		this.server = http.createServer((req, res) => {
			// A plain proxied request (http://…): no tool of the playbooks is reached that way.
			this.log.refusedHosts.push(`${req.method} ${req.url}`);
			res.writeHead(403).end();
		});
		this.server.on('connect', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) =>
			this.tunnel(req, socket, head),
		);
	}

	async start(port = 0): Promise<void> {
		this.url = `http://127.0.0.1:${await listen(this.server, port)}`;
	}

	async stop(): Promise<void> {
		await close(this.inner);
		await close(this.server);
	}

	private tunnel(req: http.IncomingMessage, socket: net.Socket, head: Buffer): void {
		const [host, port] = (req.url ?? '').split(':');
		socket.on('error', () => socket.destroy());
		if (!this.hosts[host] || port !== '443') {
			this.log.refusedHosts.push(`CONNECT ${req.url}`);
			socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
			return;
		}
		socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
		if (head.length > 0) socket.unshift(head);
		const secure = new tls.TLSSocket(socket, { isServer: true, secureContext: this.context });
		secure.on('error', () => secure.destroy());
		this.inner.emit('connection', secure);
	}
}
