/**
 * The ID regexes of the resource locators take time linear in the value (hostile review 49): n8n
 * 2.41 checks each typed ID as `^regex$` before every run, under a 250 ms watchdog (n8n-workflow's
 * safe-regex.ts), and the editor checks it while typing, without one. For every regex of both nodes
 * and every hostile shape, 4n characters take at most 6 times the CPU time of n (a quadratic reading
 * takes 16): `.*\S.*` took 28 ms at 8 KiB and timed out at 32 KiB on a line ending in a line break.
 */
import type { INodeProperties, INodePropertyRegexValidation } from 'n8n-workflow';

import { Flare } from '../../nodes/Flare/Flare.node';
import { FlareTrigger } from '../../nodes/FlareTrigger/FlareTrigger.node';
import { cpuMsOf } from '../support/cpu';

const N = 8 * 1024;
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

/** Long values made to make a backtracking reading retry: runs of one class, then what ends the match. */
const SHAPES: Array<[string, (n: number) => string]> = [
	['letters, then a line break', (n) => `${'a'.repeat(n)}\n`],
	['spaces, then a line break', (n) => `${' '.repeat(n)}\n`],
	['spaces only', (n) => ' '.repeat(n)],
	['digits, then a letter', (n) => `${'1'.repeat(n)}x`],
	['digits and spaces, then a letter', (n) => `${'1 '.repeat(n / 2)}x`],
	['hex and dashes, then a letter', (n) => `${'a-'.repeat(n / 2)}g`],
	['tabs, then a paragraph separator', (n) => `${'\t'.repeat(n)}\u2028`],
	['a UUID repeated, then a space and a letter', (n) => `${'0123abcd-0123-0123-0123-0123456789ab'.repeat(n / 36)} x`],
];

/**
 * CPU time of checking `value` as n8n does, per check: checks in batches, doubled until one batch
 * takes 8 ms (a busy machine may charge CPU time by the scheduler's tick of 4 ms).
 */
async function checkCpuMs(pattern: RegExp, value: string): Promise<number> {
	for (let checks = 1; ; checks *= 2) {
		const spent = await cpuMsOf(() => {
			for (let check = 0; check < checks; check++) pattern.test(value);
		});
		if (spent >= 8) return spent / checks;
	}
}

describe('the resource locators check a typed ID in time linear in its length', () => {
	it('finds the ID regexes of both nodes', () => {
		expect(REGEXES.length).toBeGreaterThanOrEqual(3);
	});

	it.each(REGEXES)('%s: 4n characters take at most 6 times the CPU time of n, for every hostile shape', async (regex) => {
		// n8n anchors the regex itself (node-helpers.ts validateResourceLocatorParameter).
		const pattern = new RegExp(`^${regex}$`);
		const slow: string[] = [];
		await checkCpuMs(pattern, SHAPES[0][1](N / 4)); // warms the regex up
		for (const [name, make] of SHAPES) {
			const [small, large] = [make(N), make(4 * N)];
			// The least of three when over: a busy machine only adds time. Below 50 µs the clock's grain
			// decides: such a check is fast at any size.
			let ratio = Infinity;
			for (let attempt = 0; attempt < 3 && ratio > MAX_RATIO; attempt++) {
				ratio = Math.min(ratio, (await checkCpuMs(pattern, large)) / Math.max(await checkCpuMs(pattern, small), 0.05));
			}
			if (ratio > MAX_RATIO) slow.push(`${name}: ${ratio.toFixed(1)} times`);
		}
		expect(slow).toEqual([]);
	});
});
