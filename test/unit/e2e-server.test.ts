import type { N8nInstance } from '../e2e/n8n';
import { SERVER_OUTPUT_FILE } from '../e2e/secrets';
import { startServer } from '../e2e/server';
import { useRealTimeHere } from '../support/clock';
import { fs, os, path, processRef } from '../support/node';

// Real processes and a real readiness probe: real time (test/support/clock.ts).
useRealTimeHere();

/** startServer, with a script standing for `n8n start`: it prints its port and answers every request. */
describe('starting n8n for the end-to-end suites', () => {
	let root: string;
	beforeAll(() => {
		root = fs.mkdtempSync(path.join(os.tmpdir(), 'flare-e2e-server-'));
		fs.writeFileSync(
			path.join(root, 'n8n.js'),
			"const http = require('node:http');\n" +
				'console.log(`listening on ${process.env.N8N_PORT}`);\n' +
				"http.createServer((request, response) => response.end('ok')).listen(Number(process.env.N8N_PORT), '127.0.0.1');\n",
		);
	});
	afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

	it('keeps what each earlier start printed, so the secret scan reads every start (hostile review 47, item 3)', async () => {
		const n8n = {
			userFolder: root,
			install: { nodeBin: processRef.execPath, n8nMain: path.join(root, 'n8n.js') },
			env: () => ({ PATH: processRef.env.PATH }),
		} as unknown as N8nInstance;
		const urls: string[] = [];
		for (let start = 0; start < 3; start++) {
			const server = await startServer(n8n, { timeoutSeconds: 30 });
			urls.push(server.url);
			await server.stop();
		}
		const printed = (file: string) => fs.readFileSync(file, 'utf8').match(/listening on \d+/g);
		const port = (url: string) => [`listening on ${new URL(url).port}`];
		expect(printed(path.join(root, 'runs', 'server-1.log'))).toEqual(port(urls[0]));
		expect(printed(path.join(root, 'runs', 'server-2.log'))).toEqual(port(urls[1]));
		expect(printed(path.join(root, SERVER_OUTPUT_FILE))).toEqual(port(urls[2]));
	});
});
