/**
 * The end-to-end suite's secret scan: the fake issues a recognisable API key and tokens, and every run
 * n8n printed (output items, error messages and descriptions), every file n8n wrote as its log, and its
 * database are searched for them. The outputs and errors of this package's nodes are also searched for
 * the leaked values the fake plants (test/fake-flare/planted.ts): none may show unless the node ran with
 * Leaked Value Output Full. The summary goes where the reliability tables (docs/reliability.md) find it.
 */
import {
	describeHits,
	describeLeakedValueScan,
	emptyLeakedValueScan,
	leakedValueProblems,
	PACKAGE_NODE_PREFIX,
	producedTextOf,
	type ScanSummary,
	scanFiles,
	scanNodeRun,
	withoutFileData,
	type ScannedNode,
	scanText,
	type SecretHit,
	secretPatterns,
	textOf,
	writeScanSummary,
} from '../reliability/secret-scan';
import { fs, path } from '../support/node';
import type { ExecutionItem, RunJson } from './report';

/** n8n writes its log here, inside the instance's user folder (see N8nInstance.env). */
export const N8N_LOG_FILE = 'n8n.log';
/** What `n8n start` printed, when the instance was also started as a server (server.ts). */
export const SERVER_OUTPUT_FILE = 'server.log';

export class E2eSecretScan {
	private readonly patterns;
	private runs = 0;
	private items = 0;
	private errors = 0;
	private bytes = 0;
	private logFiles = 0;
	private logLines = 0;
	private databaseBytes = 0;
	private readonly hits: SecretHit[] = [];
	private readonly leakedValues = emptyLeakedValueScan();

	/**
	 * `suite` names the summary file: test-results/secret-scan-<suite>.json. `others` are more secrets
	 * to look for (the tokens of the tools' stand-ins).
	 */
	constructor(
		apiKey: string,
		private readonly suite = 'e2e',
		others: string[] = [],
	) {
		this.patterns = secretPatterns([apiKey, ...others]);
	}

	/**
	 * One run as n8n printed it; `nodes` are its workflow's, for the leaked-value scan of this package's
	 * nodes (each node's task data, and the run's error when that node raised it).
	 */
	addRun(run: RunJson, source: string, nodes: ScannedNode[] = []): void {
		const { resultData } = run.data;
		const text = textOf(run).text;
		this.runs++;
		this.bytes += text.length;
		if (resultData.error) this.errors++;
		for (const taskRuns of Object.values(resultData.runData ?? {})) {
			for (const taskRun of taskRuns) {
				if (taskRun.error) this.errors++;
				// Every connection type: main, and the AI sub-nodes' ai_tool, ai_languageModel…
				const outputs = Object.values(taskRun.data ?? {}) as Array<Array<ExecutionItem[] | null>>;
				for (const item of outputs.flat().flatMap((output) => output ?? [])) {
					this.items++;
					if (item.error) this.errors++;
				}
			}
		}
		this.hits.push(...scanText(text, this.patterns, source));
		for (const node of nodes.filter((candidate) => candidate.type.startsWith(PACKAGE_NODE_PREFIX))) {
			const tasks = resultData.runData?.[node.name] ?? [];
			const raised = resultData.error?.node?.name === node.name;
			if (tasks.length === 0 && !raised) continue;
			const items = tasks.reduce((sum, task) => sum + (task.data?.main ?? []).reduce((inner, output) => inner + (output?.length ?? 0), 0), 0);
			const produced = { tasks: withoutFileData(node, tasks), error: raised ? resultData.error : undefined };
			scanNodeRun(this.leakedValues, node, producedTextOf(produced), items, source);
		}
	}

	/**
	 * Everything an n8n instance left behind: what each command and the server printed, the log
	 * file, and the database (executions and credentials as stored).
	 */
	async addInstanceFiles(userFolder: string): Promise<void> {
		const runs = path.join(userFolder, 'runs');
		const printed = fs.existsSync(runs)
			? fs.readdirSync(runs).map((name) => path.join(runs, name))
			: [];
		const n8nFolder = path.join(userFolder, '.n8n');
		const stored = fs.readdirSync(n8nFolder);
		const database = stored
			.filter((name) => name.startsWith('database.sqlite'))
			.map((name) => path.join(n8nFolder, name));
		// n8n's event log (log streaming) holds the message of each failed execution.
		const eventLogs = stored
			.filter((name) => name.startsWith('n8nEventLog'))
			.map((name) => path.join(n8nFolder, name));
		// n8n's log and any file it rotated it to (n8n1.log…, from 16 MiB unless told otherwise).
		const logs = fs
			.readdirSync(userFolder)
			.filter((name) => name === N8N_LOG_FILE || /^n8n\d+\.log$/.test(name))
			.map((name) => path.join(userFolder, name));
		await this.addLogFiles([
			...printed,
			...eventLogs,
			...logs,
			path.join(userFolder, SERVER_OUTPUT_FILE),
		]);
		await this.addDatabaseFiles(database);
	}

	/** Files a process printed or logged. */
	async addLogFiles(files: string[]): Promise<void> {
		const logs = await scanFiles(files, this.patterns);
		this.logFiles += logs.files;
		this.logLines += logs.lines;
		this.bytes += logs.bytes;
		this.hits.push(...logs.hits);
	}

	/** A database as stored, or its content as text: read as text, but only its size counts. */
	async addDatabaseFiles(files: string[]): Promise<void> {
		const stored = await scanFiles(files, this.patterns);
		this.databaseBytes += stored.bytes;
		this.bytes += stored.bytes;
		this.hits.push(...stored.hits);
	}

	get leaks(): number {
		return this.hits.length;
	}

	/** What is wrong with the leaked-value scan: planted values in default output, or a Full that gave none. */
	get leakedValueProblems(): string[] {
		return leakedValueProblems(this.leakedValues);
	}

	describe(): string {
		const problems = this.leakedValueProblems;
		const leakedValues = problems.length ? `\n${problems.join('; ')}:\n${describeHits(this.leakedValues.hits)}` : '';
		return `${describeHits(this.hits)}${leakedValues}`;
	}

	/** Writes test-results/secret-scan-<suite>.json; returns a one-line summary. */
	async write(root: string): Promise<string> {
		const summary: ScanSummary = {
			suite: this.suite,
			runs: this.runs,
			items: this.items,
			errors: this.errors,
			bytes: this.bytes,
			logFiles: this.logFiles,
			logLines: this.logLines,
			leaks: this.hits.length,
			hits: this.hits,
			leakedValues: this.leakedValues,
		};
		const file = await writeScanSummary(path.join(root, 'test-results'), summary);
		const database = `${(this.databaseBytes / 1_048_576).toFixed(1)} MiB of n8n's database`;
		return `Secret scan: ${this.runs} runs, ${this.items} output items, ${this.errors} errors, ${this.logLines} lines in ${this.logFiles} files n8n printed or logged, ${database}: ${this.hits.length} leaks (${path.relative(root, file)}).\n${describeLeakedValueScan(this.leakedValues)}.`;
	}
}
