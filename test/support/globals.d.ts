/** The process's timer functions (globals.js). */
export interface Timers {
	setTimeout: (callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => unknown;
	clearTimeout: (handle: unknown) => void;
	setInterval: (callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => unknown;
	clearInterval: (handle: unknown) => void;
	setImmediate: (callback: () => void) => unknown;
}

export function timers(): Timers;
export function replaceTimers(replacements: Partial<Timers>): void;
