/**
 * The secret scanner: finds API keys, access tokens and signing secrets in whatever a run leaves
 * behind (output items, error messages and descriptions, log files). Used by the harness's run
 * collector, by the jest global teardown (test/reliability/global-teardown.js) over the whole jest
 * run, and by any other suite (e.g. the real-n8n e2e suite) over its collected outputs and n8n's log:
 *
 *   const patterns = secretPatterns([myApiKey]);
 *   const hits = [...scanText(JSON.stringify(runJson), patterns), ...(await scanFiles([n8nLog], patterns)).hits];
 *   if (hits.length) throw new Error(describeHits(hits));
 *
 * A hit never repeats the secret it found: it carries the pattern's name, a fingerprint (first
 * characters and length) and the surrounding text with the secret replaced.
 */
import { PLANTED_FORMS_PATTERN } from '../fake-flare/planted';
import { fsp } from '../support/node';

/** The API keys the fake API accepts unless told otherwise (test/fake-flare DEFAULT_API_KEYS). */
export const DEMO_API_KEYS = ['fk_full_demo_0001', 'fk_noastp_demo_0002', 'fk_noti_demo_0003'];
/**
 * A recognisable API key for the reliability suites; any appearance of its marker is a leak. (Built
 * from parts: it is a test value, not a secret, and a literal would trip the hardcoded-secret lint.)
 */
export const CANARY_API_KEY = ['fk', 'SECRETCANARY', '4f9c2a7e1b8d'].join('_');
/** A recognisable prefix for the access tokens the fake issues in the reliability suites. */
export const CANARY_TOKEN_PREFIX = 'ftok_CANARY_';
/**
 * A recognisable request signature secret, for the Flare Alert Trigger's credential in every suite
 * (the alert channel signs with it); any appearance of its marker is a leak.
 */
export const CANARY_SIGNING_SECRET = ['whsec', 'SIGNINGCANARY', '7c1e9b04d2a6'].join('_');

export interface SecretPattern {
	name: string;
	pattern: RegExp;
}

export interface SecretHit {
	pattern: string;
	/** First characters and length of what was found, never the whole secret. */
	fingerprint: string;
	/** Up to 40 characters either side, the secret itself replaced by [SECRET]. */
	context: string;
	/** Where it was found, when known (a file, a run). */
	source?: string;
	line?: number;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * What must never appear: the canary key, token and signing-secret markers, the fake's demo keys, any
 * token the fake issues (`ftok_` + optional prefix + hex), and the given literal secrets (API keys,
 * tokens, signing secrets).
 */
export function secretPatterns(literals: Iterable<string> = []): SecretPattern[] {
	const patterns: SecretPattern[] = [
		{ name: 'canary API key', pattern: /SECRETCANARY/g },
		{ name: 'canary access token', pattern: /ftok_CANARY_/g },
		{ name: 'canary signing secret', pattern: /SIGNINGCANARY/g },
		{ name: 'demo API key', pattern: /fk_(?:full|noastp|noti)_demo_\d{4}/g },
		{ name: 'access token', pattern: /ftok_[A-Za-z0-9_]*?[0-9a-f]{16,}/g },
	];
	const unique = [...new Set(literals)].filter((literal) => literal.length >= 8);
	if (unique.length > 0) {
		patterns.push({
			name: 'configured secret',
			pattern: new RegExp(unique.map(escapeRegExp).join('|'), 'g'),
		});
	}
	return patterns;
}

export function fingerprint(secret: string): string {
	return `${secret.slice(0, 6)}… (${secret.length} characters)`;
}

/** Finds every pattern in `text`; where patterns overlap, the first pattern names the hit. */
export function scanText(text: string, patterns: SecretPattern[], source?: string): SecretHit[] {
	const hits: SecretHit[] = [];
	const taken: Array<[number, number]> = [];
	for (const { name, pattern } of patterns) {
		const flags = pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`;
		for (const match of text.matchAll(new RegExp(pattern.source, flags))) {
			const start = match.index ?? 0;
			const end = start + match[0].length;
			if (taken.some(([from, to]) => start < to && end > from)) continue;
			taken.push([start, end]);
			const before = text.slice(Math.max(0, start - 40), start);
			const after = text.slice(end, end + 40);
			hits.push({ pattern: name, fingerprint: fingerprint(match[0]), context: `${before}[SECRET]${after}`, source });
		}
	}
	return hits;
}

export interface FileScan {
	files: number;
	lines: number;
	bytes: number;
	hits: SecretHit[];
}

/** Scans text files line by line (missing files are skipped). */
export async function scanFiles(paths: string[], patterns: SecretPattern[]): Promise<FileScan> {
	const result: FileScan = { files: 0, lines: 0, bytes: 0, hits: [] };
	for (const file of paths) {
		let text: string;
		try {
			text = await fsp.readFile(file, 'utf8');
		} catch {
			continue;
		}
		result.files++;
		result.bytes += text.length;
		const lines = text.split('\n');
		result.lines += lines.filter((line) => line.trim() !== '').length;
		lines.forEach((line, index) => {
			for (const hit of scanText(line, patterns, file)) result.hits.push({ ...hit, line: index + 1 });
		});
	}
	return result;
}

export interface CollectedText {
	text: string;
	/** Error objects met (messages, descriptions and stacks are part of `text`). */
	errors: number;
}

/**
 * Everything readable in a value as one text: JSON of plain data, and for errors also the
 * properties JSON leaves out (message, stack, description, cause, context). Repeated objects are
 * written once.
 */
export function textOf(value: unknown, options: { withoutNodes?: boolean } = {}): CollectedText {
	let errors = 0;
	const seen = new WeakSet<object>();
	const text = JSON.stringify(value, function (this: unknown, key: string, current: unknown) {
		// `this[key]` is the value before its toJSON(): n8n's errors have one that leaves parts out.
		const original = (this as Record<string, unknown>)[key];
		if (typeof current === 'bigint') return String(current);
		if (options.withoutNodes && key === 'node' && isWorkflowNode(current)) return '[node]';
		if (original instanceof Error || isErrorLike(original)) {
			if (seen.has(original as object)) return '[seen]';
			seen.add(original as object);
			errors++;
			const flat: Record<string, unknown> = {};
			for (const name of Object.getOwnPropertyNames(original)) {
				flat[name] = (original as unknown as Record<string, unknown>)[name];
			}
			flat.name = (original as Error).name;
			flat.message = (original as Error).message;
			if (current && typeof current === 'object' && current !== original) flat.toJSON = current;
			return flat;
		}
		if (current === null || typeof current !== 'object') return current;
		if (seen.has(current)) return '[seen]';
		seen.add(current);
		return current;
	});
	return { text: text ?? '', errors };
}

/** The definition of a workflow node (n8n attaches it to an error): its parameters are what the user typed. */
function isWorkflowNode(value: unknown): boolean {
	return value !== null && typeof value === 'object' && 'parameters' in value && 'type' in value;
}

/**
 * What a node of this package produced, as one text for the leaked-value scan: its items and errors,
 * without the copy of the node's own definition that n8n attaches to an error (the parameters the
 * user typed, e.g. the password a lookup is asked for, are the workflow's, not an output).
 */
export function producedTextOf(value: unknown): string {
	return textOf(value, { withoutNodes: true }).text;
}

/** An error from another realm (jest's sandbox, n8n's modules) that `instanceof Error` misses. */
function isErrorLike(value: unknown): boolean {
	return (
		value !== null &&
		typeof value === 'object' &&
		Object.prototype.toString.call(value) === '[object Error]'
	);
}

/** A readable report of hits, for a failing test or teardown. */
export function describeHits(hits: SecretHit[], max = 20): string {
	const lines = hits
		.slice(0, max)
		.map(
			(hit) =>
				`- ${hit.pattern} ${hit.fingerprint}${hit.source ? ` in ${hit.source}${hit.line ? `:${hit.line}` : ''}` : ''}: …${hit.context}…`,
		);
	if (hits.length > max) lines.push(`- … and ${hits.length - max} more`);
	return `${hits.length} secret(s) found:\n${lines.join('\n')}`;
}

// ---- planted leaked values (test/fake-flare/planted.ts) ----

/**
 * Every planted leaked value holds the marker at both ends; nothing else the fake serves does. The
 * marker is also found in base64 and hex (an authorization header, a value encoded on the way).
 */
export const PLANTED_PATTERN: SecretPattern = {
	name: 'planted leaked value',
	pattern: PLANTED_FORMS_PATTERN,
};

/** Node types of this package: their outputs and errors are what the leaked-value scan reads. */
export const PACKAGE_NODE_PREFIX = 'n8n-nodes-flareio.';

/** A node of a workflow, as far as the scan reads it. */
export interface ScannedNode {
	name: string;
	type: string;
	parameters: Record<string, unknown>;
}

/**
 * Whether a node of this package runs with Leaked Value Output Full (top level for the identity
 * lookups, in Options elsewhere): only a literal Full counts; any other value, an expression or none
 * is scanned as masked.
 */
export function runsWithFullOutput(node: ScannedNode): boolean {
	const options = node.parameters.options as Record<string, unknown> | undefined;
	return (node.parameters.leakedValueOutput ?? options?.leakedValueOutput) === 'full';
}

/**
 * The leaked-value scan of one suite: every output and error of this package's nodes, searched for
 * planted values. Outputs with Leaked Value Output other than Full must hold none; those with Full are
 * counted apart and must hold some, or Full would not be shown to give the values back.
 */
export interface LeakedValueScan {
	/** Node runs (and trigger polls) scanned with Leaked Value Output other than Full. */
	outputs: number;
	/** Their output items. */
	items: number;
	/** Planted values found in them (and in `surfaces`): 0 is the only acceptable figure. */
	found: number;
	hits: SecretHit[];
	/** Node runs with Leaked Value Output Full, their items, and the planted values they held. */
	fullOutputs: number;
	fullItems: number;
	fullFound: number;
	/** The same, by operation (`flare.<resource>.<operation>`, `flareTrigger.<event>`, `list.<method>`). */
	operations?: Record<string, OperationScan>;
	/**
	 * What else was scanned, whatever Leaked Value Output says: n8n's log files, the triggers' static
	 * data (in memory and as saved), the alert webhook's answers. Their planted values count in `found`.
	 */
	surfaces?: Partial<Record<Surface, SurfaceScan>>;
}

/** Where a planted value must never be, in any mode: none of them holds an output. */
export type Surface = 'n8n logs' | 'static data' | 'webhook answers';

export interface SurfaceScan {
	/** Log files, or static data and answers as the harness saw them after each poll or request. */
	scanned: number;
	found: number;
}

/** Adds one scan of `text` on `surface` (a log file, a trigger's static data, a webhook's answer) to `scan`. */
export function scanSurface(scan: LeakedValueScan, surface: Surface, text: string, source: string): void {
	addSurfaceHits(scan, surface, scanText(text, [PLANTED_PATTERN], `${surface}, ${source}`));
}

/**
 * Adds n8n's log files to `scan`, as the surface `n8n logs` (missing files are skipped). A line of
 * JSON is read without the workflow nodes n8n logs with an error or an execution: their parameters
 * are what the user typed (the password a lookup is asked for), not what a node produced.
 */
export async function scanLogSurface(scan: LeakedValueScan, files: string[]): Promise<void> {
	for (const file of files) {
		let text: string;
		try {
			text = await fsp.readFile(file, 'utf8');
		} catch {
			continue;
		}
		const hits: SecretHit[] = [];
		text.split('\n').forEach((line, index) => {
			for (const hit of scanText(withoutWorkflowNodes(line), [PLANTED_PATTERN], file)) hits.push({ ...hit, line: index + 1 });
		});
		addSurfaceHits(scan, 'n8n logs', hits);
	}
}

/** A log line, its workflow nodes left out when it is JSON. */
function withoutWorkflowNodes(line: string): string {
	if (!line.startsWith('{')) return line;
	try {
		return JSON.stringify(JSON.parse(line), (_key, value: unknown) => (isWorkflowNode(value) ? '[node]' : value));
	} catch {
		return line;
	}
}

/** Adds what one scan of `surface` found (none, or its hits) to `scan`. */
export function addSurfaceHits(scan: LeakedValueScan, surface: Surface, hits: SecretHit[]): void {
	const row = ((scan.surfaces ??= {})[surface] ??= { scanned: 0, found: 0 });
	row.scanned++;
	row.found += hits.length;
	scan.found += hits.length;
	scan.hits.push(...hits);
}

/**
 * One operation's node runs with Leaked Value Output other than Full, where the harness saw what
 * the masking was given (test/harness/exposure.ts): `exposed` of them held a planted value before
 * masking, so that with Full, or with the masking switched off, the scan would have found it.
 */
export interface OperationScan {
	outputs: number;
	/** Runs whose records held a planted value before masking. */
	exposed: number;
	found: number;
}

export function emptyLeakedValueScan(): LeakedValueScan {
	return { outputs: 0, items: 0, found: 0, hits: [], fullOutputs: 0, fullItems: 0, fullFound: 0, operations: {} };
}

/**
 * The operation a node runs, as the scan names it: `flare.<resource>.<operation>`, `flareTrigger.<event>`.
 * A value that is no name (the bad-input tests send any) is named `invalid`.
 */
export function operationOf(node: ScannedNode): string {
	const part = (value: unknown) => (typeof value === 'string' && /^[A-Za-z]{1,64}$/.test(value) ? value : 'invalid');
	const type = node.type.slice(PACKAGE_NODE_PREFIX.length);
	if (type === 'flareTrigger') return `${type}.${part(node.parameters.event ?? 'newLeakedCredential')}`;
	const { resource, operation } = node.parameters;
	return resource === undefined && operation === undefined ? type : `${type}.${part(resource)}.${part(operation)}`;
}

/**
 * Operations whose items carry a file of Flare's as binary data, byte for byte: n8n cannot mask inside
 * a PDF or DOCX, and says so (docs/api-contract.md, "Masking"), so the file's bytes are the one part of
 * an output the leaked-value scan leaves out; the item's JSON and errors are scanned as any.
 */
export const FILE_OPERATIONS: readonly string[] = ['flare.threatReport.download'];

/** A node's task runs without the data of the files its items carry (their name and type stay). */
export function withoutFileData(node: ScannedNode, tasks: unknown): unknown {
	if (!FILE_OPERATIONS.includes(operationOf(node))) return tasks;
	return JSON.parse(JSON.stringify(tasks ?? null), (key: string, value: unknown) =>
		key === 'data' && typeof value === 'string' && value.length > 64 ? '<file data left out>' : value,
	) as unknown;
}

/**
 * Adds one node run (its output and errors as `text`) to `scan`; `exposed` says whether the records
 * its masking was given held a planted value (undefined where the harness did not see it: e2e).
 * `operation` names it, by default from its parameters.
 */
export function scanNodeRun(
	scan: LeakedValueScan,
	node: ScannedNode,
	text: string,
	items: number,
	source: string,
	exposed?: boolean,
	operation = operationOf(node),
): void {
	const hits = scanText(text, [PLANTED_PATTERN], `${source}, node "${node.name}"`);
	if (runsWithFullOutput(node)) {
		scan.fullOutputs++;
		scan.fullItems += items;
		scan.fullFound += hits.length;
		return;
	}
	scan.outputs++;
	scan.items += items;
	scan.found += hits.length;
	scan.hits.push(...hits);
	if (exposed === undefined) return;
	const row = ((scan.operations ??= {})[operation] ??= { outputs: 0, exposed: 0, found: 0 });
	row.outputs++;
	row.exposed += exposed ? 1 : 0;
	row.found += hits.length;
}

/** Sums scans (e.g. of jest's workers). */
export function addLeakedValueScans(total: LeakedValueScan, part: LeakedValueScan): LeakedValueScan {
	const operations: Record<string, OperationScan> = { ...total.operations };
	for (const [name, row] of Object.entries(part.operations ?? {})) {
		const sum = operations[name] ?? { outputs: 0, exposed: 0, found: 0 };
		operations[name] = { outputs: sum.outputs + row.outputs, exposed: sum.exposed + row.exposed, found: sum.found + row.found };
	}
	const surfaces: Partial<Record<Surface, SurfaceScan>> = { ...total.surfaces };
	for (const [name, row] of Object.entries(part.surfaces ?? {}) as Array<[Surface, SurfaceScan]>) {
		const sum = surfaces[name] ?? { scanned: 0, found: 0 };
		surfaces[name] = { scanned: sum.scanned + row.scanned, found: sum.found + row.found };
	}
	return {
		operations,
		surfaces,
		outputs: total.outputs + part.outputs,
		items: total.items + part.items,
		found: total.found + part.found,
		hits: [...total.hits, ...part.hits],
		fullOutputs: total.fullOutputs + part.fullOutputs,
		fullItems: total.fullItems + part.fullItems,
		fullFound: total.fullFound + part.fullFound,
	};
}

/**
 * What is wrong with a scan: planted values in default output, in n8n's logs, static data or webhook
 * answers, or Full that returned none.
 */
export function leakedValueProblems(scan: LeakedValueScan): string[] {
	const problems: string[] = [];
	const surfaces = (Object.entries(scan.surfaces ?? {}) as Array<[Surface, SurfaceScan]>).filter(([, row]) => row.found > 0);
	const inSurfaces = surfaces.reduce((sum, [, row]) => sum + row.found, 0);
	if (scan.found > inSurfaces) problems.push(`${scan.found - inSurfaces} planted leaked values in output that is not Full`);
	if (inSurfaces > 0) {
		problems.push(`${inSurfaces} planted leaked values in ${surfaces.map(([name]) => name).join(', ')}`);
	}
	if (scan.fullItems > 0 && scan.fullFound === 0) {
		problems.push(`${scan.fullOutputs} outputs with Leaked Value Output Full held no planted value`);
	}
	return problems;
}

/**
 * The operations of a scan whose masking was given a planted value in some run (so the scan would
 * see that masking switched off), and those whose masking never was (deletes, counts, empty lists).
 */
export function exposedOperations(scan: LeakedValueScan): { exposed: string[]; never: string[] } {
	const rows = Object.entries(scan.operations ?? {}).sort(([a], [b]) => a.localeCompare(b));
	return {
		exposed: rows.filter(([, row]) => row.exposed > 0).map(([name]) => name),
		never: rows.filter(([, row]) => row.exposed === 0).map(([name]) => name),
	};
}

/** The summary of a scan: one line, then the operations whose masking was never given a planted value. */
export function describeLeakedValueScan(scan: LeakedValueScan): string {
	const { exposed, never } = exposedOperations(scan);
	const surfaces = (Object.entries(scan.surfaces ?? {}) as Array<[Surface, SurfaceScan]>)
		.sort(([a], [b]) => a.localeCompare(b))
		.map(([name, row]) => `${name} ${row.scanned} (${row.found} found)`);
	return [
		`Leaked-value scan: ${scan.outputs} outputs (${scan.items} items) of this package's nodes with Leaked Value Output not Full: ${scan.found} planted values found; with Full: ${scan.fullOutputs} outputs (${scan.fullItems} items) gave back ${scan.fullFound}`,
		`Also scanned for planted values, in any mode: ${surfaces.join(', ') || 'nothing'}`,
		`Masking given a planted value in ${exposed.length} of ${exposed.length + never.length} operations and pickers; never in: ${never.join(', ') || 'none'}`,
	].join('\n');
}

/** What one suite's secret scan covered; table.ts prints every `test-results/secret-scan-<suite>.json`. */
export interface ScanSummary {
	suite: string;
	/** The file it was read from (table.ts), to name in a problem. */
	source?: string;
	/** Workflow runs, trigger polls and credential tests whose whole result was scanned. */
	runs: number;
	/** Output items among them. */
	items: number;
	/** Error objects among them (message, description, stack, cause). */
	errors: number;
	bytes: number;
	logFiles: number;
	logLines: number;
	/** Number of hits: 0 is the only acceptable figure. */
	leaks: number;
	hits: SecretHit[];
	/** The leaked-value scan of the same outputs. */
	leakedValues?: LeakedValueScan;
}

/** Where a suite writes its {@link ScanSummary}. */
export const scanSummaryFile = (resultsDir: string, suite: string) => `${resultsDir}/secret-scan-${suite}.json`;

/**
 * Writes a suite's summary where table.ts finds it (`<resultsDir>/secret-scan-<suite>.json`). For
 * example, the e2e suite, once it has run:
 *
 *   const patterns = secretPatterns([apiKey, ...tokensSeen]);
 *   const hits = outputs.flatMap((output) => scanText(textOf(output).text, patterns, 'e2e output'));
 *   const log = await scanFiles([n8nLogFile], patterns);
 *   await writeScanSummary('test-results', { suite: 'e2e', runs, items, errors, bytes, logFiles: log.files,
 *     logLines: log.lines, leaks: hits.length + log.hits.length, hits: [...hits, ...log.hits] });
 */
export async function writeScanSummary(resultsDir: string, summary: ScanSummary): Promise<string> {
	const file = scanSummaryFile(resultsDir, summary.suite);
	await fsp.mkdir(resultsDir, { recursive: true });
	await fsp.writeFile(file, `${JSON.stringify(summary, null, '\t')}\n`);
	return file;
}
