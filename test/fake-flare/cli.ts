/**
 * Runs the fake Flare API standalone:
 *   npx tsx test/fake-flare/cli.ts [--port N] [--size N] [--seed N] [--segment S]
 *     [--order importedAt|domainThenId] [--end null|resumable]
 * Serves until SIGINT or SIGTERM.
 */
import { processRef } from '../support/node';
import { FakeFlare, type FakeFlareOptions } from './server';

function parseArgs(argv: string[]): { port: number; options: FakeFlareOptions } {
	const options: FakeFlareOptions = {};
	let port = 8787;
	for (let k = 0; k < argv.length; k += 2) {
		const [flag, value] = [argv[k], argv[k + 1]];
		if (value === undefined) throw new Error(`missing value for ${flag}`);
		const number = Number(value);
		if (flag === '--port') port = number;
		else if (flag === '--size') options.credentials = number;
		else if (flag === '--seed') options.seed = number;
		else if (flag === '--segment') options.productSegment = value;
		else if (flag === '--order' && (value === 'importedAt' || value === 'domainThenId'))
			options.searchOrder = value;
		else if (flag === '--end' && (value === 'null' || value === 'resumable'))
			options.endCursor = value;
		else
			throw new Error(
				`unknown option ${flag} ${value} (use --port, --size, --seed, --segment, --order importedAt|domainThenId, --end null|resumable)`,
			);
		if (['--port', '--size', '--seed'].includes(flag) && !Number.isInteger(number))
			throw new Error(`${flag} needs an integer`);
	}
	return { port, options };
}

async function main(): Promise<void> {
	const { port, options } = parseArgs(processRef.argv.slice(2));
	const fake = await FakeFlare.start(options, port);
	const { apiKeys, productSegment, credentials, seed } = fake.options;
	const lines = [
		`Fake Flare API listening on ${fake.url} (segment "${productSegment}", ${credentials} credentials, seed ${seed})`,
		'API keys:',
		`  full access:              ${apiKeys.full}`,
		`  without ASTP:             ${apiKeys.noAstp}`,
		`  without threat intel:     ${apiKeys.noThreatIntel}`,
		'Try:',
		`  TOKEN=$(curl -s -X POST -H 'Authorization: ${apiKeys.full}' ${fake.url}/tokens/generate | sed 's/.*"token":"\\([^"]*\\)".*/\\1/')`,
		`  curl -s -X POST -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \\`,
		`    -d '{"query":{"type":"domain","fqdn":"acme.com"},"size":3}' ${fake.url}/${productSegment}/v4/credentials/global/_search`,
		'Press Ctrl-C to stop.',
	];
	processRef.stdout.write(`${lines.join('\n')}\n`);
	const shutdown = () => {
		void fake.stop().then(() => processRef.exit(0));
	};
	processRef.once('SIGINT', shutdown);
	processRef.once('SIGTERM', shutdown);
}

main().catch((error: Error) => {
	processRef.stderr.write(`fake-flare: ${error.message}\n`);
	processRef.exit(1);
});
