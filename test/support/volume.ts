/**
 * Two sizes of proof. `npm test` runs every check with a sample that proves the same thing and fits
 * the 3-minute loop; `npm run test:long` (FLARE_LONG=1, run by CI) runs the same checks at full
 * volume: every fault at every page, every random input, the model's long seeds (CONTRIBUTING.md,
 * "Tests").
 */
import { processRef } from './node';

/** Whether this is the long-proof run. */
export const LONG = processRef.env.FLARE_LONG === '1';

/** `short` in the default run, `long` in the long-proof run. */
export function volume<T>(short: T, long: T): T {
	return LONG ? long : short;
}
