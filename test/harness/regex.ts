/**
 * n8n checks a picker's ID against its pattern with `safeRegex`, in a vm limited to 250 ms of wall
 * time: on a busy machine a scheduling pause alone can pass that, whatever the input, and the run
 * fails with n8n's "Regular expression execution timed out". The harness gives n8n the same engine
 * with ten times the limit, so that no test depends on the machine's load; a pattern that backtracks
 * for ever still times out.
 */
import { setSafeRegexEngine } from 'n8n-workflow';

import { vm } from '../support/node';

/** Ten times n8n's 250 ms. */
const TIMEOUT_MS = 2_500;

/** What `work` threw, if it threw. */
function attempt(work: () => unknown): unknown {
	try {
		work();
		return undefined;
	} catch (error) {
		return error ?? new Error('undefined thrown');
	}
}

export function useGenerousRegexTimeout(): void {
	const context: { pattern: string; flags: string; input: string; replacement: string; result: unknown } = {
		pattern: '',
		flags: '',
		input: '',
		replacement: '',
		result: undefined,
	};
	const sandbox = vm.createContext(context);
	const script = (code: string) => new vm.Script(`result = ${code}`);
	const scripts = {
		exec: script('new RegExp(pattern, flags).exec(input)'),
		test: script('new RegExp(pattern, flags).test(input)'),
		replace: script('input.replace(new RegExp(pattern, flags), replacement)'),
		matchAll: script('Array.from(input.matchAll(new RegExp(pattern, flags)))'),
		split: script('input.split(new RegExp(pattern, flags))'),
	};
	const run = (name: keyof typeof scripts, pattern: string, input: string, flags = '', replacement = '') => {
		Object.assign(context, { pattern, input, flags, replacement, result: undefined });
		const failure = attempt(() => scripts[name].runInContext(sandbox, { timeout: TIMEOUT_MS }));
		// n8n's own message for a time-out (what the node's callers see in production).
		if ((failure as { code?: string } | undefined)?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
			throw new Error('Regular expression execution timed out');
		}
		if (failure !== undefined) throw failure;
		return context.result;
	};
	const globalFlags = (flags = '') => (flags.includes('g') ? flags : `${flags}g`);
	setSafeRegexEngine({
		exec: (pattern, input, flags) => run('exec', pattern, input, flags) as RegExpExecArray | null,
		test: (pattern, input, flags) => run('test', pattern, input, flags) as boolean,
		replace: (pattern, input, flags, replacement) => run('replace', pattern, input, flags, replacement) as string,
		matchAll: (pattern, input, flags) => run('matchAll', pattern, input, globalFlags(flags)) as RegExpMatchArray[],
		split: (pattern, input, flags) => run('split', pattern, input, flags) as string[],
	});
}
