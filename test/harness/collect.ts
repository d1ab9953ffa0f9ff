/**
 * The run collector: every workflow run, trigger poll, webhook answer and credential test of the
 * harness is scanned for secrets as it ends, so that secret hygiene is checked over the whole jest
 * run, not only over the tests written for it. The outputs and errors of this package's nodes are
 * also scanned for the leaked values the fake plants (test/fake-flare/planted.ts): none may show
 * unless the node runs with Leaked Value Output Full, so that every operation, also one added later,
 * is checked; nor, in any mode, in the triggers' static data or the alert webhook's answers (the
 * global teardown adds n8n's log files).
 *
 * The jest global setup (test/reliability/global-setup.js) sets FLARE_SECRET_SCAN_DIR; each worker
 * appends one JSON line per run to `runs-<pid>.jsonl` there (sizes, item and error counts, and any
 * hits, never the secret itself) and the literal secrets it saw to `secrets-<pid>.json`. The global
 * teardown adds n8n's log files, writes the summary and fails the run on any hit. Without the
 * variable (a single test file run outside jest's global setup) nothing is written.
 */
import type { INode, IRun } from 'n8n-workflow';

import type { Exposures } from './exposure';

import { fs, path, processRef } from '../support/node';
import {
	emptyLeakedValueScan,
	PACKAGE_NODE_PREFIX,
	producedTextOf,
	scanNodeRun,
	scanSurface,
	scanText,
	secretPatterns,
	textOf,
	withoutFileData,
	type CollectedText,
	type LeakedValueScan,
	type SecretHit,
	type Surface,
} from '../reliability/secret-scan';

export type CollectedKind = 'run' | 'poll' | 'list' | 'credentialTest' | 'webhook';

export interface CollectedRun {
	kind: CollectedKind;
	/** The test file that ran it (jest's test path when known). */
	test?: string;
	bytes: number;
	items: number;
	errors: number;
	hits: SecretHit[];
	/** The leaked-value scan of the run's nodes of this package. */
	leakedValues: LeakedValueScan;
}

const secrets = new Set<string>();
let lastHits: SecretHit[] = [];
let lastLeakedValues = emptyLeakedValueScan();

/** The hits of the last run, poll or credential test collected in this worker. */
export function lastCollectedHits(): SecretHit[] {
	return lastHits;
}

/** The leaked-value scan of the last run or poll collected in this worker. */
export function lastLeakedValueScan(): LeakedValueScan {
	return lastLeakedValues;
}

/** Remembers a secret the harness handled (an API key, an access token) so the scan looks for it. */
export function registerSecret(value: unknown): void {
	if (typeof value !== 'string' || value.length < 8 || secrets.has(value)) return;
	secrets.add(value);
	const dir = collectorDir();
	if (dir) {
		fs.writeFileSync(path.join(dir, `secrets-${processRef.pid}.json`), JSON.stringify([...secrets]));
	}
}

function collectorDir(): string | undefined {
	const dir = processRef.env.FLARE_SECRET_SCAN_DIR;
	return dir && fs.existsSync(dir) ? dir : undefined;
}

function currentTest(): string | undefined {
	if (typeof expect === 'undefined') return undefined;
	const state = (expect as unknown as { getState?: () => { testPath?: string } }).getState?.();
	return state?.testPath ? path.relative(processRef.cwd(), state.testPath) : undefined;
}

/**
 * Everything a workflow run holds as text, fast: the run as JSON (as n8n stores it), plus every
 * error in it with the parts its JSON leaves out (message, stack, description, cause).
 */
function runText(run: IRun): CollectedText {
	const errors: unknown[] = [run.data.resultData.error];
	for (const tasks of Object.values(run.data.resultData.runData)) {
		for (const task of tasks) {
			errors.push(task.error);
			for (const items of task.data?.main ?? []) {
				for (const item of items ?? []) if (item.error) errors.push(item.error);
			}
		}
	}
	try {
		const found = textOf(errors.filter((error) => error !== undefined && error !== null));
		return { text: `${JSON.stringify(run)}\n${found.text}`, errors: found.errors };
	} catch {
		return textOf(run);
	}
}

const isRun = (data: unknown): data is IRun =>
	typeof (data as IRun | undefined)?.data?.resultData?.runData === 'object';

const ofPackage = (node: INode) => node.type.startsWith(PACKAGE_NODE_PREFIX);

/**
 * The leaked-value scan of what this package's nodes did: for a workflow run, each such node's task
 * data (items and errors) and the run's error when that node raised it; for a poll or a list (a
 * picker's, `operation` naming its method), all of it. `exposures` says what each node's masking was
 * given.
 */
function leakedValuesOf(
	kind: CollectedKind,
	data: unknown,
	items: number,
	nodes: INode[],
	exposures?: Exposures,
	operation?: string,
): LeakedValueScan {
	const scan = emptyLeakedValueScan();
	const source = `${kind} in ${currentTest() ?? 'unknown test'}`;
	const exposed = (node: INode) => exposures && (exposures.get(node.name)?.exposed ?? false);
	if (kind === 'poll' || kind === 'list') {
		for (const node of nodes.filter(ofPackage)) {
			scanNodeRun(scan, node, producedTextOf(data), items, source, exposed(node), operation);
		}
	} else if (kind === 'run' && isRun(data)) {
		const { runData, error } = data.data.resultData;
		for (const node of nodes.filter(ofPackage)) {
			const tasks = runData[node.name] ?? [];
			const raised = (error as { node?: { name?: string } } | undefined)?.node?.name === node.name;
			const count = tasks.reduce((sum, task) => sum + (task.data?.main ?? []).reduce((inner, output) => inner + (output?.length ?? 0), 0), 0);
			if (tasks.length === 0 && !raised) continue;
			const produced = { tasks: withoutFileData(node, tasks), error: raised ? error : undefined };
			scanNodeRun(scan, node, producedTextOf(produced), count, source, exposed(node));
		}
	}
	return scan;
}

/**
 * A node's static data without the one secret kept there by design: the signing secret of the alert
 * channel the Flare Alert Trigger created (docs/alerts.md, "A channel of its own"), which n8n's own
 * webhook triggers keep there too. Anything else secret in static data is a leak.
 */
function withoutKeptSecrets(value: unknown): unknown {
	return JSON.parse(JSON.stringify(value ?? null, (key: string, entry: unknown) => {
		if (key !== 'flareChannel' || entry === null || typeof entry !== 'object') return entry;
		return { ...(entry as Record<string, unknown>), secret: '[the channel secret, kept by design]' };
	})) as unknown;
}

/** What else a run left behind, by where it is: a trigger's static data, a webhook's answer. */
export type Surfaces = Partial<Record<Surface, unknown>>;

/**
 * Scans what a run produced and records the result; returns the secret hits (empty when clean).
 * `nodes` are the workflow's (for a poll: the trigger; for a list: the node being edited), for the
 * leaked-value scan, with what each one's masking was given (`exposures`); `operation` names a list.
 * `surfaces` are scanned for secrets and, whatever Leaked Value Output says, for planted values.
 */
export function collectRun(
	kind: CollectedKind,
	data: unknown,
	items: number,
	nodes: INode[] = [],
	exposures?: Exposures,
	operation?: string,
	surfaces: Surfaces = {},
): SecretHit[] {
	const collected = kind === 'run' && isRun(data) ? runText(data) : textOf(data);
	const { errors } = collected;
	const texts = Object.entries(surfaces).map(
		([surface, value]) => [surface as Surface, textOf(surface === 'static data' ? withoutKeptSecrets(value) : value).text] as const,
	);
	const text = [collected.text, ...texts.map(([, surfaceText]) => surfaceText)].join('\n');
	const hits = scanText(text, secretPatterns(secrets), kind);
	lastHits = hits;
	lastLeakedValues = leakedValuesOf(kind, data, items, nodes, exposures, operation);
	const source = `${kind} in ${currentTest() ?? 'unknown test'}`;
	for (const [surface, surfaceText] of texts) scanSurface(lastLeakedValues, surface, surfaceText, source);
	const dir = collectorDir();
	if (dir) {
		const line: CollectedRun = { kind, test: currentTest(), bytes: text.length, items, errors, hits, leakedValues: lastLeakedValues };
		fs.appendFileSync(path.join(dir, `runs-${processRef.pid}.jsonl`), `${JSON.stringify(line)}\n`);
	}
	return hits;
}
