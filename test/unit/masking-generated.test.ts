/**
 * Masking proved by generation (docs/api-contract.md, "Masking"; issue 38): a planted secret written
 * in every notation a leak takes (test/support/notations.ts), with any of the rule's names, in any
 * markup, quoted, escaped, indented, with any line ending, inside prose, never survives a default
 * output. `npm test` runs a sample; `npm run test:long` runs many more.
 */
import fc from 'fast-check';

import { maskFreeText, protectLeakedValues } from '../../nodes/Flare/shared/masking';
import { holdsPlanted } from '../fake-flare/planted';
import {
	contextArbitrary,
	leakArbitrary,
	NOTATIONS,
	surround,
	surroundingsArbitrary,
	TOKEN_SHAPES,
	WRAPS,
	writeLeak,
	writeToken,
	type LeakContext,
} from '../support/notations';
import { volume } from '../support/volume';

const CONTEXT: LeakContext = { login: 'jane@acme.com', user: 'jane', host: 'acme.com' };
/** Fixed seeds: a failure is reproduced by its seed and path, which fast-check prints. */
const SEED = 20261207;

/** What a default output shows of `text`: masked on its own, and as a record's free text. */
function shown(text: string): string[] {
	const record = protectLeakedValues({ data: { content: text, highlights: { content: [text] } } }, 'masked');
	return [maskFreeText(text), JSON.stringify(record)];
}

describe('no planted secret survives a default output, whatever notation writes it', () => {
	it.each(NOTATIONS.map((notation, index) => [notation.family, index] as const))('%s, in every markup of name and value', (_family, index) => {
		for (let wrap = 0; wrap < WRAPS.length; wrap++) {
			for (const separatorInside of [false, true]) {
				const [text, written] = writeLeak(
					{ notation: index, name: wrap * 3, nameWrap: wrap, separatorInside, valueWrap: wrap, marks: wrap % 3 === 0 ? [0.3] : [], core: 'a1!b' },
					CONTEXT,
				);
				expect(text).toContain(written);
				expect({ text, leaked: shown(text).filter(holdsPlanted) }).toEqual({ text, leaked: [] });
			}
		}
	});

	it.each(TOKEN_SHAPES.map((_shape, index) => [writeToken(index, 'q7Z2kLm9Xw3Rt5Yb8Nc1Vd4Fg6Hj0Ps2Ua5Ei7Ok'), index] as const))('a token of a known shape alone in prose: %s', (token) => {
		const text = `leaked in the last build log: ${token} (rotate it)`;
		expect({ text, leaked: shown(text).filter(holdsPlanted) }).toEqual({ text, leaked: [] });
	});

	it('any notation, name, markup, marks, quoting, escaping, indentation, line ending and prose (fast-check)', () => {
		fc.assert(
			fc.property(leakArbitrary, surroundingsArbitrary, contextArbitrary, (choice, around, context) => {
				const [text] = writeLeak(choice, context);
				const whole = surround(text, around);
				for (const output of shown(whole)) {
					if (holdsPlanted(output)) throw new Error(`a planted value survived:\n${whole}\n→ ${output}`);
				}
			}),
			{ numRuns: volume(1_500, 60_000), seed: SEED },
		);
	});

	it('a token of a known shape inside any surroundings (fast-check)', () => {
		const fill = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'), minLength: 40, maxLength: 40 });
		fc.assert(
			fc.property(fc.nat({ max: TOKEN_SHAPES.length - 1 }), fill, surroundingsArbitrary, (shape, characters, around) => {
				const whole = surround(`found ${writeToken(shape, characters)} in a public gist`, around);
				for (const output of shown(whole)) {
					if (holdsPlanted(output)) throw new Error(`a planted value survived:\n${whole}\n→ ${output}`);
				}
			}),
			{ numRuns: volume(300, 10_000), seed: SEED },
		);
	});
});
