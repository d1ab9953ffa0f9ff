/**
 * `npm run demo`: the main job of the package in one command. Builds and packs the package, starts the
 * fake Flare API with a realistic dataset, runs a real n8n 2.41.1 with the package installed as a
 * community package, executes workflows/leaked-credentials-for-a-domain.json (every leaked credential
 * of acme.com, Return All, passwords masked) and prints a summary.
 *
 *   FLARE_DEMO_CREDENTIALS=<n>   size of the fake dataset (default 180,000: 36,000 for acme.com)
 */
import { FakeFlare } from '../fake-flare';
import { fs, path, processRef } from '../support/node';
import { LINES } from './install';
import { failedNode, RunView } from './report';
import {
	buildAndPack,
	prepareInstance,
	readWorkflow,
	repositoryRoot,
	say,
	seconds,
	workFolder,
} from './suite';

const WORKFLOW_FILE = 'leaked-credentials-for-a-domain.json';
const NODE = 'Leaked credentials for acme.com';
const SEARCH_PATH = '/firework/v4/credentials/global/_search';

const pad = (text: unknown, width: number) => {
	const value = String(text ?? '');
	return value.length > width ? `${value.slice(0, width - 1)}…` : value.padEnd(width);
};

async function main(): Promise<void> {
	const started = Date.now();
	const root = repositoryRoot();
	const credentials = Number(processRef.env.FLARE_DEMO_CREDENTIALS ?? 180_000);
	say('Flare for n8n: demo');
	say('');

	const tarball = await buildAndPack(root);
	say(`Packed the package: ${path.relative(root, tarball)}`);

	const fake = await FakeFlare.start({ credentials });
	say(
		`Started the fake Flare API on ${fake.url}: ${credentials.toLocaleString('en-US')} leaked credentials over ${fake.dataset.domains().join(', ')}.`,
	);
	try {
		const workflow = readWorkflow(root, WORKFLOW_FILE);
		const n8n = await prepareInstance({
			root,
			line: '2',
			tarball,
			fake,
			workflows: [workflow],
			folderName: 'demo-n8n',
		});
		say(`Running "${workflow.name}" (workflows/${WORKFLOW_FILE}) with n8n execute...`);
		const execution = await n8n.execute(workflow.id);
		const failure = execution.run ? failedNode(execution.run) : undefined;
		if (!execution.run || failure || execution.run.status !== 'success') {
			say('');
			say(
				failure
					? `The workflow failed at node "${failure.node}": ${failure.message}`
					: `n8n did not finish the workflow (exit code ${execution.exitCode}).`,
			);
			say(`n8n's full output: ${execution.outputFile}`);
			processRef.exitCode = 1;
			return;
		}

		const items = new RunView(execution.run).json(NODE);
		const searches = fake.requests.filter((request) => request.path === SEARCH_PATH);
		const outputFolder = path.join(workFolder(root), 'demo');
		fs.mkdirSync(outputFolder, { recursive: true });
		const outputFile = path.join(outputFolder, 'leaked-credentials-acme.com.json');
		fs.writeFileSync(outputFile, `${JSON.stringify(items, null, 2)}\n`);

		const identities = new Set(items.map((item) => item.identity_name)).size;
		const bySource = new Map<string, number>();
		for (const item of items) {
			const source = String(item.source_name ?? item.source_id);
			bySource.set(source, (bySource.get(source) ?? 0) + 1);
		}
		const topSources = [...bySource.entries()].sort((a, b) => b[1] - a[1]).slice(0, 3);

		say('');
		say(
			`Leaked credentials for acme.com: ${items.length.toLocaleString('en-US')} credentials of ${identities.toLocaleString('en-US')} identities`,
		);
		say(
			`Pages fetched by the node (Return All, up to 10,000 credentials each): ${searches.length}; n8n execute took ${execution.seconds.toFixed(1)} s`,
		);
		say(
			`Most frequent sources: ${topSources.map(([source, count]) => `${source} (${count.toLocaleString('en-US')})`).join(', ')}`,
		);
		say('');
		say('A few rows (passwords masked by the node, the default):');
		say(`  ${pad('identity', 32)} ${pad('password', 16)} ${pad('source', 26)} imported at`);
		for (const item of items.slice(0, 5)) {
			say(
				`  ${pad(item.identity_name, 32)} ${pad(item.hash, 16)} ${pad(item.source_name ?? item.source_id, 26)} ${String(item.imported_at)}`,
			);
		}
		say('');
		say(
			`Full output (${items.length.toLocaleString('en-US')} items): ${path.relative(root, outputFile)}`,
		);
		say(
			`n8n's run (JSON, as printed by n8n execute): ${path.relative(root, execution.outputFile)}`,
		);
		say(`Done in ${seconds(started)} with ${LINES['2'].label}.`);
	} finally {
		await fake.stop();
	}
}

main().catch((error: Error) => {
	processRef.stderr.write(`The demo could not run: ${error.stack ?? error.message}\n`);
	processRef.exitCode = 1;
});
