/**
 * The ID regexes of the resource locators take time linear in the value (hostile review 49): n8n
 * (2.41 and 1.123) checks each typed ID as `^regex$` before every run, under a 250 ms watchdog (n8n-workflow's
 * safe-regex.ts), and the editor checks it while typing, without one. For every regex of both nodes
 * and every hostile shape, 4n characters take at most 6 times the CPU time of n (a quadratic reading
 * takes 16): `.*\S.*` took 28 ms at 8 KiB and timed out at 32 KiB on a line ending in a line break.
 */
import type { INodeProperties, INodePropertyRegexValidation } from 'n8n-workflow';

import { Flare } from '../../nodes/Flare/Flare.node';
import { FlareTrigger } from '../../nodes/FlareTrigger/FlareTrigger.node';
import { cpuMsOf } from '../support/cpu';
import { vm } from '../support/node';
import { LONG } from '../support/volume';

const N = 4 * 1024;
const MAX_RATIO = 6;

/** Every ID regex of the resource locators in `properties`, collections and fixed collections included. */
function idRegexes(properties: INodeProperties[]): string[] {
	return properties.flatMap((property) => [
		...(property.modes ?? []).flatMap((mode) =>
			(mode.validation ?? []).flatMap((validation) =>
				typeof validation === 'object' && validation.type === 'regex'
					? [(validation as INodePropertyRegexValidation).properties.regex]
					: [],
			),
		),
		...((property.options ?? []) as Array<INodeProperties | { values?: INodeProperties[] }>).flatMap((option) =>
			'values' in option && option.values ? idRegexes(option.values) : 'type' in option ? idRegexes([option]) : [],
		),
	]);
}

const REGEXES = [...new Set(idRegexes([...new Flare().description.properties, ...new FlareTrigger().description.properties]))];

/**
 * Long values made to make a backtracking reading retry: a start, a run of one unit, then what ends
 * it, each against each in the long-proof run (hostile review 50: an end or a start no shape had hid a
 * quadratic regex); in `npm test` no start, and each unit with two or three ends, each end with two
 * units (hostile review 51: a start fails the anchored numeric and UUID checks at once).
 */
const STARTS = ['', 'a@', '1-'];
const UNITS = ['a', ' ', '1', '1 ', 'a-', '\t', 'a@', '0123abcd-0123-0123-0123-0123456789ab'];
const ENDS = ['', '\n', '\n\n', '!', '\u0000', 'x', ' x', '\u2028', '@@'];
const SHAPES = STARTS.flatMap((start, s) =>
	UNITS.flatMap((unit, u) =>
		ENDS.filter((_, e) => LONG || (s === 0 && (u + e) % 4 === 0)).map((end) => ({
			name: JSON.stringify(`${start}${unit}…${end}`),
			make: (n: number) => `${start}${unit.repeat(Math.ceil(n / unit.length))}${end}`,
		})),
	),
);

/**
 * Checks `value` once as n8n does, a RegExp made in a vm context under a watchdog (n8n-workflow's
 * safe-regex.ts; 15 s here, for a machine however busy, n8n's is 250 ms): a regex that backtracks
 * without end fails the test rather than hangs it. Its ratio finds a quadratic one.
 */
const context = vm.createContext({ pattern: '', value: '' });
const script = new vm.Script('new RegExp(pattern).test(value)');
function checkUnderWatchdog(pattern: string, value: string): void {
	Object.assign(context, { pattern, value });
	script.runInContext(context, { timeout: 15_000 });
}

/**
 * CPU time of checking `value`, per check: checks in batches, doubled until one batch takes 4 ms (a
 * busy machine may charge CPU time by the scheduler's tick).
 */
async function checkCpuMs(regex: RegExp, value: string): Promise<number> {
	for (let checks = 1; ; checks *= 2) {
		const spent = await cpuMsOf(() => {
			for (let check = 0; check < checks; check++) regex.test(value);
		});
		if (spent >= 4) return spent / checks;
	}
}

describe('the resource locators check a typed ID in time linear in its length', () => {
	it('finds the ID regexes of both nodes', () => {
		expect(REGEXES.length).toBeGreaterThanOrEqual(3);
	});

	it.each(REGEXES)('%s: 4n characters take at most 6 times the CPU time of n, for every hostile shape', async (regex) => {
		// n8n anchors the regex itself (node-helpers.ts validateResourceLocatorParameter).
		const pattern = `^${regex}$`;
		const compiled = new RegExp(pattern);
		const slow: string[] = [];
		checkUnderWatchdog(pattern, SHAPES[0].make(N / 4));
		await checkCpuMs(compiled, SHAPES[0].make(N / 4)); // warms the regex up
		for (const { name, make } of SHAPES) {
			const [small, large] = [make(N), make(4 * N)];
			const endless = (() => {
				try {
					checkUnderWatchdog(pattern, large);
					return undefined;
				} catch (error) {
					return (error as Error).message;
				}
			})();
			if (endless) {
				slow.push(`${name}: ${endless}`);
				continue;
			}
			// The least of three when over: a busy machine only adds time. Below 20 µs the clock's grain
			// decides: such a check is fast at any size.
			let ratio = Infinity;
			for (let attempt = 0; attempt < 3 && ratio > MAX_RATIO; attempt++) {
				ratio = Math.min(ratio, (await checkCpuMs(compiled, large)) / Math.max(await checkCpuMs(compiled, small), 0.02));
			}
			if (ratio > MAX_RATIO) slow.push(`${name}: ${ratio.toFixed(1)} times`);
		}
		expect(slow).toEqual([]);
	});
});
