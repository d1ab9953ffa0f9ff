/**
 * Another origin: a second server on 127.0.0.1 (another port), where the redirect faults point. It
 * answers every request with 200 and a plausible success, so that a client that followed a redirect
 * would "succeed", and it logs what reached it.
 */
import { http, type net } from '../support/node';
import { type AuthKind, authKind, bodyForLog, readBody, splitTarget } from './incoming';

/** The token the other origin hands out on `…/tokens/generate`. */
export const STOLEN_TOKEN = 'ftok_stolen_by_the_other_origin';

export interface OtherOriginRequest {
	method: string;
	/** Raw request path, without the query. */
	path: string;
	query: Record<string, string>;
	/** Parsed JSON body, the raw text when it is not JSON, undefined when empty. */
	body: unknown;
	auth: AuthKind;
	/**
	 * The Authorization header as received, for assertions only. Not enumerable: JSON.stringify and
	 * jest's diffs leave it out, so a failing assertion never prints it.
	 */
	readonly authorization?: string;
	/** Arrival time, ms since the epoch (the fake's clock). */
	at: number;
}

export class OtherOrigin {
	private readonly server = http.createServer((req, res) => void this.handle(req, res));
	private log: OtherOriginRequest[] = [];
	private address = '';

	constructor(private readonly now: () => number) {}

	async listen(): Promise<void> {
		await new Promise<void>((resolve, reject) => {
			this.server.once('error', reject);
			this.server.listen(0, '127.0.0.1', () => resolve());
		});
		this.address = `http://127.0.0.1:${(this.server.address() as net.AddressInfo).port}`;
	}

	async stop(): Promise<void> {
		await new Promise<void>((resolve) => {
			this.server.close(() => resolve());
			this.server.closeAllConnections();
		});
	}

	/** Base URL, e.g. `http://127.0.0.1:PORT`. */
	get url(): string {
		return this.address;
	}

	/** Every request that reached this origin, in arrival order. */
	get requests(): OtherOriginRequest[] {
		return this.log;
	}

	clear(): void {
		this.log = [];
	}

	private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
		const at = this.now();
		const { path, query } = splitTarget(req.url ?? '/');
		const authorization = req.headers.authorization;
		const entry: OtherOriginRequest = {
			method: (req.method ?? 'GET').toUpperCase(),
			path,
			query,
			body: undefined,
			auth: authKind(authorization),
			at,
		};
		Object.defineProperty(entry, 'authorization', { value: authorization, enumerable: false });
		this.log.push(entry);
		try {
			entry.body = bodyForLog(await readBody(req));
		} catch {
			return; // the client went away
		}
		const success = path.endsWith('/tokens/generate')
			? { token: STOLEN_TOKEN, refresh_token_exp: Math.floor(at / 1000) + 3600 }
			: { items: [], next: null };
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end(JSON.stringify(success));
	}
}
