/**
 * CPU time, for the few guards against quadratic work: what this process spent, which other
 * processes keeping the machine busy do not lengthen (wall-clock time they do). Bounds on it stay
 * at least ten times what the code needs; speed goals live in bench/.
 */
import { processRef } from './node';

/** Milliseconds of CPU (user and system) this process spent while `work` ran. */
export async function cpuMsOf(work: () => unknown): Promise<number> {
	const before = processRef.cpuUsage();
	await work();
	const { user, system } = processRef.cpuUsage(before);
	return (user + system) / 1000;
}
