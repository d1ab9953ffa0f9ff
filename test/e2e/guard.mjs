/**
 * Runs a command so that it never outlives the process that started this guard:
 *
 *   node test/e2e/guard.mjs <command> [args...]
 *
 * The starter spawns the guard detached (its own process group, which the command joins) with a pipe
 * as the guard's stdin, and never writes to it. When the starter ends in any way (Ctrl-C, a crash,
 * even SIGKILL), the system closes that pipe: the guard then asks the whole group to stop (SIGTERM),
 * and kills it after a grace period. SIGTERM sent to the group by the starter stops the command the
 * same way. When the command ends, the guard stops what it left in the group and exits with the
 * command's exit code.
 *
 * A plain .mjs file: it needs `process` and timers, which the lint forbids in TypeScript files.
 */
import { spawn } from 'node:child_process';
import process from 'node:process';

const GRACE_MS = 20_000;

const [command, ...args] = process.argv.slice(2);
if (!command) {
	process.stderr.write('usage: node guard.mjs <command> [args...]\n');
	process.exit(2);
}

const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit'] });

const killGroup = (signal) => {
	try {
		process.kill(-process.pid, signal);
	} catch {
		// the group is gone already
	}
};

// n8n stops gracefully on its first SIGTERM and at once on a second: the group gets exactly one.
let deadline;
const killLater = () => {
	deadline ??= setTimeout(() => killGroup('SIGKILL'), GRACE_MS).unref();
};
const stop = () => {
	if (deadline) return;
	killLater();
	killGroup('SIGTERM');
};

// A SIGTERM or SIGINT sent to the group reached the command too: give it the grace period.
process.on('SIGTERM', killLater);
process.on('SIGINT', killLater);
process.stdin.on('end', stop);
process.stdin.on('error', stop);
process.stdin.resume();

child.on('error', (error) => {
	process.stderr.write(`guard: could not start ${command}: ${error.message}\n`);
	process.exit(127);
});
child.on('exit', (code) => {
	killGroup('SIGTERM'); // whatever the command left behind (this guard ignores it)
	process.exit(code ?? 1);
});
