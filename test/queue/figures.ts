/**
 * The figures of a queue-mode run: printed as tables, written to test-results/queue.json, and the table
 * of executions written into docs/queue-mode.md.
 */
import { writeBlock } from '../docs/blocks';
import { fs, os, path } from '../support/node';
import type { BatchFigures, TriggerFigures, WorkerDeathFigures } from './scenarios';

export interface QueueFigures {
	generatedAt: string;
	machine: { cpus: number; memoryGiB: number; loadAverage: number[] };
	versions: { n8n: string; postgres: string; redis: string };
	workers: number;
	concurrency: number;
	/** Bull's lock settings of the run (shortened so that a dead worker is noticed in seconds). */
	lock: { durationMs: number; renewMs: number; stalledCheckMs: number };
	/** From the start of the script, the set-up (install when needed, build, services, n8n ready), and in all. */
	setupSeconds: number;
	totalSeconds: number;
	batches: BatchFigures[];
	tokens: {
		/** Exchanges after the stored token expired, for `workers` workers: the goal is at most one each. */
		exchangesAfterExpiry: number;
		goal: number;
		/** What n8n itself allows (read in its source) */
		n8nAllows: string;
	};
	trigger?: TriggerFigures;
	workerDeath?: WorkerDeathFigures;
	failures: string[];
}

export const N8N_TOKEN_PERSISTENCE =
	"one exchange per execution that meets the expired (or empty) token: n8n's CredentialsHelper.preAuthentication runs the credential's exchange whenever the stored token is empty or a request answered 401, and updateCredentials writes the new token to the database with no lock and no check for a token stored meanwhile (last writer wins)";

const cell = (value: unknown) => String(value);

function table(header: string[], rows: string[][]): string {
	const rule = header.map(() => '---');
	return [header, rule, ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

/** The table of executions, one row per batch, in Markdown. */
function batchesTable(figures: QueueFigures): string {
	const workerNames = Object.keys(figures.batches[0]?.perWorker ?? {});
	return table(
		[
			'Executions of',
			'Workers',
			'Executions',
			workerNames.join(' / '),
			'Failed',
			'Flare requests',
			'429s',
			'Token exchanges',
			'Wall time',
			'Execution time, median / max',
		],
		figures.batches.map((batch) => [
			batch.scenario,
			cell(batch.workers),
			cell(batch.executions),
			workerNames.map((name) => batch.perWorker[name] ?? 0).join(' / '),
			cell(batch.failed),
			cell(batch.flareRequests),
			cell(batch.rateLimited),
			cell(batch.tokenExchanges),
			`${batch.wallSeconds} s`,
			`${batch.executionSeconds.median} s / ${batch.executionSeconds.max} s`,
		]),
	);
}

/** The tables and notes, in Markdown. */
export function render(figures: QueueFigures): string {
	const lines = [batchesTable(figures), ''];
	const { tokens, trigger, workerDeath } = figures;
	lines.push(
		`Tokens: ${tokens.exchangesAfterExpiry} exchange(s) after the token expired, for ${tokens.goal} workers (goal: at most one per worker, ${tokens.exchangesAfterExpiry <= tokens.goal ? 'met' : 'not met'}). n8n allows ${tokens.n8nAllows}.`,
	);
	if (trigger) {
		lines.push(
			`Trigger: ${trigger.polls.length} polls on the main (the first at activation), ${trigger.searches} searches at Flare, ${trigger.added} new credential(s) added one per poll, ${trigger.executions} execution(s) with ${trigger.itemsPerExecution.join(', ')} item(s), on ${Object.entries(
				trigger.perWorker,
			)
				.map(([name, count]) => `${name} ${count}`)
				.join(
					', ',
				)}; from adding a credential to the end of its execution: ${trigger.delaySeconds.join(' s, ')} s.`,
		);
	}
	if (workerDeath) {
		const death = workerDeath;
		lines.push(
			`Worker killed mid-write: execution ${death.executionId} on ${death.killedWorker}; n8n recorded it "${death.status}" ${death.secondsToStatus} s after the kill ("${death.message}"); started by ${death.startedBy.join(' and ')} only (${death.startedBy.length > 1 ? 'retried' : 'not retried'}); the webhook answered ${death.webhookAnswer}; the write reached Flare ${death.writeRequests} time(s) and was applied ${death.writesApplied} time(s).`,
		);
	}
	lines.push(
		`Run: ${figures.versions.n8n} main + ${figures.workers} workers (concurrency ${figures.concurrency}), ${figures.versions.postgres}, ${figures.versions.redis}; set-up ${figures.setupSeconds} s, whole run ${figures.totalSeconds} s; ${figures.machine.cpus} CPUs, load average ${figures.machine.loadAverage.map((load) => load.toFixed(1)).join(' ')}.`,
	);
	return lines.join('\n');
}

export function machine(): QueueFigures['machine'] {
	return {
		cpus: os.cpus().length,
		memoryGiB: Math.round(os.totalmem() / 1_073_741_824),
		loadAverage: os.loadavg(),
	};
}

/** Writes the run's table of executions into docs/queue-mode.md; returns the file. */
export function writeDocs(root: string, figures: QueueFigures): string {
	const file = path.join(root, 'docs', 'queue-mode.md');
	const date = figures.generatedAt.replace('T', ' ').replace(/:\d\d\.\d+Z$/, ' UTC');
	const load = figures.machine.loadAverage.map((value) => value.toFixed(1)).join(' ');
	writeBlock(
		file,
		'queue',
		`Figures of the run of ${date} (${figures.machine.cpus} cores, load average ${load}), from \`test-results/queue.json\`:\n\n${batchesTable(figures)}`,
	);
	return file;
}

/** Writes test-results/queue.json; returns the file. */
export function writeFigures(root: string, figures: QueueFigures): string {
	const folder = path.join(root, 'test-results');
	fs.mkdirSync(folder, { recursive: true });
	const file = path.join(folder, 'queue.json');
	fs.writeFileSync(file, `${JSON.stringify(figures, null, '\t')}\n`);
	return file;
}
