/**
 * Runs the fake Flare API standalone:
 *   npx tsx test/fake-flare/cli.ts [--port N] [--size N] [--seed N] [--segment S]
 *     [--order importedAt|domainThenId] [--end null|resumable]
 * Serves until SIGINT or SIGTERM.
 *
 * Or pushes alerts as a Flare webhook alert channel does (push.ts), to a Flare Alert Trigger, and exits:
 *   npx tsx test/fake-flare/cli.ts --push <url> [--secret S] [--count N] [--type T] [--severity S]
 * Each alert is of a new event (of `--type`, at `--severity`, else the fake's choice), signed with
 * `--secret` when given; one line per alert says what n8n answered.
 */
import { processRef } from '../support/node';
import type { EventType } from './events';
import { pushAlert } from './push';
import { FakeFlare, type FakeFlareOptions } from './server';
import type { Severity } from '../contract';

interface PushArgs {
	url: string;
	secret?: string;
	count: number;
	type?: EventType;
	severity?: Severity;
}

function parseArgs(argv: string[]): { port: number; options: FakeFlareOptions; push?: PushArgs } {
	const options: FakeFlareOptions = {};
	let port = 8787;
	let push: PushArgs | undefined;
	const pushing = () => (push ??= { url: '', count: 1 });
	for (let k = 0; k < argv.length; k += 2) {
		const [flag, value] = [argv[k], argv[k + 1]];
		if (value === undefined) throw new Error(`missing value for ${flag}`);
		const number = Number(value);
		if (flag === '--push') pushing().url = value;
		else if (flag === '--secret') pushing().secret = value;
		else if (flag === '--count') pushing().count = number;
		else if (flag === '--type') pushing().type = value as EventType;
		else if (flag === '--severity') pushing().severity = value as Severity;
		else if (flag === '--port') port = number;
		else if (flag === '--size') options.credentials = number;
		else if (flag === '--seed') options.seed = number;
		else if (flag === '--segment') options.productSegment = value;
		else if (flag === '--order' && (value === 'importedAt' || value === 'domainThenId'))
			options.searchOrder = value;
		else if (flag === '--end' && (value === 'null' || value === 'resumable'))
			options.endCursor = value;
		else
			throw new Error(
				`unknown option ${flag} ${value} (use --port, --size, --seed, --segment, --order importedAt|domainThenId, --end null|resumable; or --push URL, --secret, --count, --type, --severity)`,
			);
		if (['--port', '--size', '--seed', '--count'].includes(flag) && !Number.isInteger(number))
			throw new Error(`${flag} needs an integer`);
	}
	if (push && !push.url)
		throw new Error('--secret, --count, --type and --severity go with --push URL');
	return { port, options, push };
}

/** Pushes the alerts one at a time and prints what was answered; fails when one is refused. */
async function pushAlerts(push: PushArgs, options: FakeFlareOptions): Promise<void> {
	const fake = await FakeFlare.start({ credentials: 1000, ...options });
	try {
		const alerts = fake.newAlerts(push.count, { type: push.type, severity: push.severity });
		for (const alert of alerts) {
			const result = await pushAlert(push.url, alert, {
				secrets: push.secret ? [push.secret] : undefined,
			});
			processRef.stdout.write(
				`${String(alert.uid)} (${String(alert.event_type)}, risk ${(alert.risk as { score: number }).score}): ${result.status} ${JSON.stringify(result.body)}\n`,
			);
			if (result.status >= 300) processRef.exitCode = 1;
		}
	} finally {
		await fake.stop();
	}
}

async function main(): Promise<void> {
	const { port, options, push } = parseArgs(processRef.argv.slice(2));
	if (push) return await pushAlerts(push, options);
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
