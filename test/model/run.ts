/**
 * The Flare Trigger's model test as a long run (test/model/trigger-model.ts):
 *
 *   npm run test:trigger-model -- --runs 500                 every kind, 500 runs each, a random seed
 *   npm run test:trigger-model -- --runs 200 --seed 42 --kind event
 *   npm run test:trigger-model -- --runs 200 --variant lease
 *   npm run test:trigger-model -- --runs 20 --trace          each run's start, commands and duration
 *   FLARE_MODEL_DEBUG=1 FLARE_MODEL_NO_SHRINK=1 npm run test:trigger-model -- --runs 1 --seed S --path P
 *                                                            replays one run, printing each poll's state
 *
 * `--variant` runs a deliberately broken copy of the built trigger (dist/ patched into
 * test-results/trigger-model/<variant>/), to show what the model finds and what it shrinks to:
 * - `lease`: the overlap guard of c3b5608, a 55-second lease, and no cancel at the poll's deadline;
 * - `sweep`: the sweep also while the long-lived search is behind, and the keys kept only from where
 *   the sweep starts (c3b5608's);
 * - `fiveMinutesLate`: records wait until they are 5 minutes old ("on time, the next poll" broken);
 * - `noPrune`: the state is never pruned ("bounded" broken);
 * - `oldDefaults` (New Event): only Flare's default search, which leaves remediated and ignored
 *   events out (the trigger before issue 31): what someone acted on before the first read is lost;
 * - `forgetRejected` (New Event): what a filter on the tenant's state left out is not remembered, so
 *   a sweep that reads it again after a change emits it ("decided at the first read" broken);
 * - `decideAgain` (New Event): what such a filter left out is remembered, but decided again when read
 *   again (a sweep), so a change after the first read emits it;
 * - `uidKey` (New Event): events known by their uid alone, not by each filing (an event filed again
 *   comes again only once the first key is pruned: T2 of the review of 2026-11-28).
 * Prints fast-check's report (seed, path, the shrunk counterexample) and exits 1 on a failure.
 */
import fc from 'fast-check';

import { fs, os, path, processRef } from '../support/node';

/** Each variant: in which file of dist/nodes/FlareTrigger/, what is replaced by what. */
const VARIANTS: Record<string, Array<[file: string, from: string, to: string]>> = {
	lease: [
		['poll.js', 'if (shared.polling)', 'if (shared.pollingUntil > startedAt)'],
		['poll.js', 'shared.polling = true;', 'shared.pollingUntil = startedAt + 55000;'],
		['poll.js', 'shared.polling = false;', 'shared.pollingUntil = 0;'],
		[
			'poll.js',
			'AbortSignal.timeout(Math.max(0, deadline - Date.now()))',
			'new AbortController().signal',
		],
	],
	// Records that arrived less than 5 minutes ago wait (put back, as at the deadline): "on time,
	// the next poll" (docs/trigger.md) becomes "5 minutes later".
	fiveMinutesLate: [
		[
			'poll.js',
			'for (const found of poll.found) {',
			'for (const found of poll.found) {\n        if (Date.now() - (0, state_1.instantOf)(watch.arrivedAt(found.record)) < 300000) return { items, stop: found };',
		],
	],
	// The state is never pruned: `seen` grows with every record for ever.
	noPrune: [['state.js', 'function prune(state) {', 'function prune(state) { return;']],
	oldDefaults: [['newEvent.js', 'partitions: exports.EVENT_PARTITIONS,', 'partitions: [{}],']],
	// (Written under another key: what was left out is not found again.)
	forgetRejected: [['poll.js', '.rejected = {}))[key] = arrivedS;', ".rejected = {}))[`forgotten ${key}`] = arrivedS;"]],
	decideAgain: [
		[
			'poll.js',
			'return key in seen || (rejected !== undefined && key in rejected) || lastPage.includes(key);',
			'return key in seen || lastPage.includes(key);',
		],
	],
	uidKey: [['newEvent.js', 'Number.isNaN(entered) ? uid : `${uid}\\n${entered}`', 'uid']],
	sweep: [
		['poll.js', 'if (longLived.complete && sweepDue(', 'if (sweepDue('],
		['state.js', 'resumeAt(state, instantOf(state.since))', 'instantOf(state.since)'],
	],
};

function argument(name: string): string | undefined {
	const index = processRef.argv.indexOf(`--${name}`);
	return index === -1 ? undefined : processRef.argv[index + 1];
}

/** A copy of the package whose trigger is patched as the variant says; returns its folder. */
function buildVariant(name: string): string {
	const patches = VARIANTS[name];
	if (!patches) throw new Error(`Unknown variant "${name}": ${Object.keys(VARIANTS).join(', ')}`);
	const root = path.resolve('.');
	const folder = path.join(root, 'test-results', 'trigger-model', name);
	fs.rmSync(folder, { recursive: true, force: true });
	fs.mkdirSync(folder, { recursive: true });
	fs.copyFileSync(path.join(root, 'package.json'), path.join(folder, 'package.json'));
	fs.cpSync(path.join(root, 'dist'), path.join(folder, 'dist'), { recursive: true });
	for (const [fileName, from, to] of patches) {
		const file = path.join(folder, 'dist', 'nodes', 'FlareTrigger', fileName);
		const code = fs.readFileSync(file, 'utf8');
		if (!code.includes(from))
			throw new Error(`Variant "${name}": "${from}" is not in ${file}; rebuild dist/`);
		fs.writeFileSync(file, code.split(from).join(to));
	}
	return folder;
}

async function main(): Promise<void> {
	// As in jest (test/support/jest-env.js): n8n-core's instance folder and log of its own.
	processRef.env.N8N_USER_FOLDER ??= fs.mkdtempSync(path.join(os.tmpdir(), 'flare-n8n-'));
	processRef.env.N8N_DIAGNOSTICS_ENABLED = 'false';
	processRef.env.N8N_LOG_OUTPUT = 'file';
	processRef.env.N8N_LOG_FILE_LOCATION ??= path.join(processRef.env.N8N_USER_FOLDER, 'n8n.log');
	const runs = Number(argument('runs') ?? 100);
	const seed = argument('seed') === undefined ? Date.now() % 2 ** 31 : Number(argument('seed'));
	const kinds = argument('kind') ? [argument('kind')!] : ['credential', 'event', 'cookie'];
	const variant = argument('variant');
	if (processRef.argv.includes('--trace')) processRef.env.FLARE_MODEL_TRACE = '1';
	if (variant) processRef.env.FLARE_PACKAGE_DIR = buildVariant(variant);
	// Loaded after FLARE_PACKAGE_DIR is set: the harness loads the package once.
	const { FakeFlare } = await import('../fake-flare');
	const { Harness } = await import('../harness/engine');
	const { installVirtualTime, useRealTime } = await import('../support/clock');
	const { checkTriggerModel } = await import('./trigger-model');
	const time = installVirtualTime();
	const fake = await FakeFlare.start();
	const harness = await Harness.create();
	let failed = false;
	try {
		for (const kind of kinds) {
			const started = performance.now();
			const details = await checkTriggerModel(
				{ fake, harness, time },
				{ kind: kind as 'credential' | 'event' | 'cookie', runs, seed, path: argument('path') },
			);
			const seconds = ((performance.now() - started) / 1000).toFixed(0);
			processRef.stdout.write(
				`${kind}${variant ? ` (variant ${variant})` : ''}: ${details.numRuns} runs, seed ${seed}, ${seconds} s: ${details.failed ? 'FAILED' : 'passed'}\n`,
			);
			if (details.failed) {
				failed = true;
				processRef.stdout.write(`${fc.defaultReportMessage(details)}\n`);
				processRef.stdout.write(
					`What the model saw:\n${(details.errorInstance as Error | undefined)?.message}\n`,
				);
			}
		}
	} finally {
		await fake.stop();
		useRealTime();
	}
	processRef.exitCode = failed ? 1 : 0;
}

main().catch((error: Error) => {
	processRef.stderr.write(`${error.stack ?? error.message}\n`);
	processRef.exitCode = 1;
});
