// The process's timers, kept in plain JavaScript: the strict lint config bans these globals in
// TypeScript files (as it bans `process`: see jest-env.js). The test clock (clock.ts) swaps them for
// virtual ones and back.
const NAMES = ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate'];

/** The timer functions in use now. */
exports.timers = () => Object.fromEntries(NAMES.map((name) => [name, globalThis[name]]));

/** Puts `replacements` (some of the timer functions) in place. */
exports.replaceTimers = (replacements) => {
	for (const [name, fn] of Object.entries(replacements)) {
		if (NAMES.includes(name)) globalThis[name] = fn;
	}
};
