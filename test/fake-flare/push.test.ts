import { pushAlert } from './push';
import { http, type net } from '../support/node';

/**
 * How the fake's alert pushes reach n8n's webhook: a server standing for n8n's body reader (it checks
 * the declared length against its 16 MiB limit, as raw-body does, and answers without reading more).
 */
describe("the fake's alert pushes", () => {
	let server: http.Server;
	let url: string;
	const connections: string[] = [];

	beforeAll(async () => {
		server = http.createServer((request, response) => {
			connections.push(String(request.headers.connection));
			if (Number(request.headers['content-length']) > 16 * 1024 * 1024) {
				response.statusCode = 500;
				response.end('{"message":"request entity too large"}');
				return;
			}
			request.resume();
			request.on('end', () => response.end('{"message":"Workflow was started"}'));
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/webhook/x`;
	});
	afterAll(async () => await new Promise((resolve) => server.close(resolve)));
	beforeEach(() => (connections.length = 0));

	it('sends each alert on a new connection', async () => {
		const answers = [];
		for (let push = 0; push < 3; push++) answers.push((await pushAlert(url, { uid: push })).status);
		expect(answers).toEqual([200, 200, 200]);
		expect(connections).toEqual(['close', 'close', 'close']);
	});

	it('sends a body n8n reads whole, 16 MiB at most, on a new connection too', async () => {
		const rawBody = `{"content":"${'x'.repeat(16 * 1024 * 1024 - 14)}"}`;
		expect(Buffer.byteLength(rawBody)).toBe(16 * 1024 * 1024);
		await expect(pushAlert(url, {}, { rawBody })).resolves.toMatchObject({ status: 200 });
		expect(connections).toEqual(['close']);
	});

	it('gets the answer to a body larger than n8n reads, which n8n answers unread (hostile review 48)', async () => {
		const rawBody = `{"content":"${'x'.repeat(17 * 1024 * 1024)}"}`;
		const answers: string[] = [];
		for (let push = 0; push < 5; push++) {
			answers.push(
				await pushAlert(url, {}, { rawBody }).then(
					(result) => String(result.status),
					(error: Error) => `${error.message} (${String((error.cause as { code?: string })?.code)})`,
				),
			);
		}
		expect(answers).toEqual(['500', '500', '500', '500', '500']);
		expect(connections).toEqual(Array(5).fill('keep-alive'));
	});
});
