/**
 * Process plumbing of the benchmark: peak memory from /proc, child processes that report one JSON
 * result, and the measurement conventions every figure follows.
 *
 * Peak memory is the kernel's high-water mark of the resident set (`VmHWM` in /proc/<pid>/status):
 * the most physical memory the process ever held, heap, buffers and code included. A child reads its
 * own just before it exits; the real n8n gets a preloaded probe (bench/probe.cjs) that does the same
 * from its `exit` handler, with polling from outside as the fallback.
 */
import { repositoryRoot } from '../../test/e2e/suite';
import { childProcess, fs, os, path, processRef } from '../../test/support/node';

/** The repository (found from the working directory up) and the benchmark's folder in it. */
export const REPO_ROOT = repositoryRoot();
export const BENCH_DIR = path.join(REPO_ROOT, 'bench');

/** A field of /proc/<pid>/status in KiB (VmHWM, VmRSS), or undefined when unreadable. */
export function statusKb(pid: number | 'self', field: 'VmHWM' | 'VmRSS'): number | undefined {
	try {
		const text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
		const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text);
		return match ? Number(match[1]) : undefined;
	} catch {
		return undefined;
	}
}

/** Peak resident memory of this process so far, in MiB. */
export function ownPeakMiB(): number {
	return (statusKb('self', 'VmHWM') ?? 0) / 1024;
}

export function median(values: number[]): number {
	const sorted = values.filter((value) => Number.isFinite(value)).sort((x, y) => x - y);
	if (sorted.length === 0) return NaN;
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** What every child process reports. */
export interface ChildResult {
	/** Milliseconds of the measured part only (start-up and module loading left out). */
	wallMs: number;
	/** Peak resident memory of the whole process (VmHWM), MiB. */
	peakMiB: number;
	/** CPU time (user + system, all threads) of the measured part, ms. */
	cpuMs?: number;
	items: number;
	[key: string]: unknown;
}

/** Node flags of every measured process: the same heap limit for all, big enough for 1M items. */
export const HEAP_FLAGS = ['--max-old-space-size=16384'];

/**
 * Runs `bench/child/<name>.ts` in a fresh Node process (this Node, tsx as loader) with `config`, and
 * returns what it wrote. Fresh processes keep one measurement's memory and module state (the rate
 * gates, for one) out of the next.
 */
export async function runChild<T extends ChildResult>(name: string, config: object): Promise<T> {
	const script = path.join(BENCH_DIR, 'child', `${name}.ts`);
	const out = path.join(os.tmpdir(), `flare-bench-${processRef.pid}-${name}-${Date.now()}.json`);
	const { code, output } = await new Promise<{ code: number; output: string }>(
		(resolve, reject) => {
			const child = childProcess.spawn(
				processRef.execPath,
				[...HEAP_FLAGS, '--import', 'tsx', script, JSON.stringify(config), out],
				{ cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
			);
			let text = '';
			const keep = (chunk: Buffer) => {
				text = (text + chunk.toString()).slice(-20_000);
			};
			child.stdout.on('data', keep);
			child.stderr.on('data', keep);
			child.on('error', reject);
			child.on('close', (status) => {
				resolve({ code: status ?? 1, output: text });
			});
		},
	);
	try {
		if (code !== 0)
			throw new Error(`bench child ${name} exited with ${code}:\n${output.slice(-4000)}`);
		return JSON.parse(fs.readFileSync(out, 'utf8')) as T;
	} finally {
		fs.rmSync(out, { force: true });
	}
}

/** The arguments a child was started with: its config and the file its result goes to. */
export function childArgs<C>(): { config: C; out: string } {
	return { config: JSON.parse(processRef.argv[2]) as C, out: processRef.argv[3] };
}

/** Writes a child's result and ends it (n8n's modules may keep handles open). */
export function finishChild(out: string, result: ChildResult): void {
	fs.writeFileSync(out, JSON.stringify(result));
	processRef.exit(0);
}

/** Runs a child's main function; any failure is printed and ends the child with code 1. */
export function childMain(main: () => Promise<void>): void {
	main().catch((error: Error) => {
		processRef.stderr.write(`${error.stack ?? error.message}\n`);
		processRef.exit(1);
	});
}
