import { EditorSession, unflatten } from '../e2e/manual';
import type { N8nServer } from '../e2e/server';
import { fs, http, net, os, path } from '../support/node';

describe("reading n8n's saved execution data (flatted)", () => {
	it('rebuilds nested objects, arrays, shared strings and cycles', () => {
		// What flatted.stringify writes for a run with two items sharing a string, and a cycle.
		const text =
			'[{"resultData":"1","list":"2","self":"0"},{"runData":"3"},["4",null,true,3],{"A":"5"},"y",["6"],{"data":"7"},{"main":"8"},["9"],["10","11"],{"json":"12"},{"json":"13"},{"id":1,"name":"14"},{"id":2,"name":"14"},"x"]';
		const value = unflatten(text) as Record<string, unknown>;
		expect(value.self).toBe(value);
		const { self, ...rest } = value;
		expect(self).toBeDefined();
		expect(rest).toEqual({
			resultData: {
				runData: {
					A: [
						{ data: { main: [[{ json: { id: 1, name: 'x' } }, { json: { id: 2, name: 'x' } }]] } },
					],
				},
			},
			list: ['y', null, true, 3],
		});
	});

	it('reads a lone primitive', () => {
		expect(unflatten('["text"]')).toBe('text');
	});
});

/** The editor session's requests, against a local server standing for n8n's REST API. */
describe("the editor session's requests to n8n", () => {
	let server: http.Server;
	let session: EditorSession;
	const seen: Array<{ method: string; url: string; socket: number }> = [];
	/**
	 * How the next request to each route is answered: 'drop' ends the connection without an answer,
	 * 'refuse' answers 400 as n8n does to stopping an execution that ended, 'forbid' 403.
	 */
	const plan = new Map<string, Array<'drop' | 'refuse' | 'forbid' | unknown>>();
	let sockets = 0;

	beforeAll(async () => {
		server = http.createServer((request, response) => {
			const socket = (request.socket as net.Socket & { number?: number }).number!;
			seen.push({ method: request.method!, url: request.url!, socket });
			const route = `${request.method} ${request.url!.split('?')[0]}`;
			if (request.url === '/rest/owner/setup') {
				response.setHeader('set-cookie', 'n8n-auth=cookie; Path=/');
			}
			const answer = plan.get(route)?.shift() ?? { results: [] };
			if (answer === 'drop') request.socket.destroy();
			else if (answer === 'forbid') {
				response.statusCode = 403;
				response.end('{"message":"Forbidden"}');
			} else if (answer === 'refuse') {
				response.statusCode = 400;
				response.end('{"message":"Only running or waiting executions can be stopped and 8 is currently success"}');
			} else response.end(JSON.stringify({ data: answer }));
		});
		server.on('connection', (socket: net.Socket & { number?: number }) => {
			socket.number = ++sockets;
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
		const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'flare-session-'));
		session = await EditorSession.signIn({ url } as N8nServer, folder);
		fs.rmSync(folder, { recursive: true, force: true });
	});
	afterAll(async () => await new Promise((resolve) => server.close(resolve)));
	beforeEach(() => {
		seen.length = 0;
		plan.clear();
	});

	it('sends each request on a new connection, so n8n never closes one under it', async () => {
		await session.request('GET', '/executions/1');
		await session.request('GET', '/executions/1');
		await session.request('POST', '/workflows/1/run', {});
		expect(new Set(seen.map((request) => request.socket)).size).toBe(3);
	});

	it('sends a GET again when its connection was lost, and not a POST', async () => {
		plan.set('GET /rest/executions/7', ['drop', 'drop', { status: 'success' }]);
		await expect(session.request('GET', '/executions/7')).resolves.toEqual({ status: 'success' });
		expect(seen.map((request) => `${request.method} ${request.url}`)).toEqual([
			'GET /rest/executions/7',
			'GET /rest/executions/7',
			'GET /rest/executions/7',
		]);
		seen.length = 0;
		plan.set('POST /rest/workflows/1/run', ['drop', { executionId: '8' }]);
		await expect(session.request('POST', '/workflows/1/run', {})).rejects.toThrow('fetch failed');
		expect(seen.map((request) => `${request.method} ${request.url}`)).toEqual([
			'POST /rest/workflows/1/run',
		]);
	});

	it('gives up on a GET after three lost connections', async () => {
		plan.set('GET /rest/executions/9', ['drop', 'drop', 'drop', { status: 'success' }]);
		await expect(session.request('GET', '/executions/9')).rejects.toThrow('fetch failed');
		expect(seen).toHaveLength(3);
	});

	it('stops what still runs after the bound, waits as long again, then names what would not stop', async () => {
		const running = { results: [{ id: '8' }] };
		plan.set('GET /rest/executions', Array(1_000).fill(running));
		await expect(session.settled(5)).rejects.toThrow(
			'n8n still runs execution(s) 8 5 s after it was asked to stop 8',
		);
		const stops = seen.filter((request) => request.method === 'POST').map((request) => request.url);
		expect(stops).toEqual(['/rest/executions/8/stop']);
		// About 5 s of polls, every 250 ms, before the stop and after it.
		const polls = seen.filter((request) => request.method === 'GET');
		expect(polls.length).toBeGreaterThan(2 * 16);
		expect(polls.length).toBeLessThan(2 * 24);
	});

	it('names a stop n8n refused for another reason when the execution would not stop', async () => {
		plan.set('GET /rest/executions', Array(1_000).fill({ results: [{ id: '8' }] }));
		plan.set('POST /rest/executions/8/stop', ['forbid']);
		await expect(session.settled(5)).rejects.toThrow(
			'n8n still runs execution(s) 8 5 s after it was asked to stop 8 (POST /rest/executions/8/stop: HTTP 403',
		);
	});

	it("does not count n8n's 400 to a stop as a refusal: it says the execution had ended", async () => {
		plan.set('GET /rest/executions', Array(1_000).fill({ results: [{ id: '8' }] }));
		plan.set('POST /rest/executions/8/stop', ['refuse']);
		const error = await session.settled(5).then(
			() => undefined,
			(reason: Error) => reason,
		);
		expect(error?.message).toBe('n8n still runs execution(s) 8 5 s after it was asked to stop 8');
	});

	it('goes on waiting when the execution ended before it was stopped (n8n refuses the stop)', async () => {
		const running = { results: [{ id: '8' }] };
		plan.set('GET /rest/executions', [...Array<unknown>(22).fill(running), { results: [] }]);
		plan.set('POST /rest/executions/8/stop', ['refuse']);
		await expect(session.settled(5)).resolves.toBeUndefined();
		expect(seen.filter((request) => request.method === 'POST').map((request) => request.url)).toEqual([
			'/rest/executions/8/stop',
		]);
	});

	it('waits until n8n runs no execution', async () => {
		plan.set('GET /rest/executions', [{ results: [{ id: '8' }] }, { results: [{ id: '8' }] }, { results: [] }]);
		await session.settled(10);
		expect(seen.map((request) => request.url)).toEqual(
			Array(3).fill(`/rest/executions?filter=${encodeURIComponent('{"status":["new","running"]}')}`),
		);
	});
});
