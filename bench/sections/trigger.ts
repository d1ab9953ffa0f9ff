/**
 * Section 3. What the Flare Trigger costs in global-search quota: units per month at 1, 5 and
 * 15-minute polls with 0, 10 and 1,000 new matching credentials a day, under both readings of Flare's
 * rule. One simulated day per case (bench/child/trigger.ts: the real trigger, the fake's quota, a
 * simulated clock), times 30 for a month; the activation's own search is left out.
 *
 * The minimum Flare's rule allows: a poll must search, and searches of one query within 10 minutes of
 * the first are one search, up to 100 results each unit. So a day needs at least one unit per 10-minute
 * window that holds a poll (144 at 1 and 5-minute polls, 96 at 15), and one more per 100 results
 * the window must read: new credentials alone never pass 100 in 10 minutes here.
 */
import type { TriggerChildConfig } from '../child/trigger';
import { type ChildResult, runChild } from '../lib/proc';

const DAY_MINUTES = 24 * 60;
const SESSION_MINUTES = 10;
export const MONTH_DAYS = 30;

export interface TriggerRow extends TriggerChildConfig {
	polls: number;
	emitted: number;
	requests: number;
	results: number;
	/** Units of the simulated day. */
	dayUnits: number;
	monthUnits: number;
	/** The least the rule allows for the month. */
	monthMinimum: number;
	simulatedInMs: number;
}

/** Units a day needs at least: one per 10-minute session that holds a poll, one per 100 new results. */
function dayMinimum(intervalMinutes: number, perDay: number): number {
	const pollMinutes = Array.from(
		{ length: DAY_MINUTES / intervalMinutes },
		(_, k) => (k + 1) * intervalMinutes,
	);
	let sessions = 0;
	let sessionEnd = -Infinity;
	for (const minute of pollMinutes) {
		if (minute >= sessionEnd) {
			sessions++;
			sessionEnd = minute + SESSION_MINUTES;
		}
	}
	const perSession = (perDay * Math.max(intervalMinutes, SESSION_MINUTES)) / DAY_MINUTES;
	return sessions * Math.max(1, Math.ceil(perSession / 100));
}

export async function runTrigger(
	cases: TriggerChildConfig[],
	options: { log: (text: string) => void },
): Promise<TriggerRow[]> {
	const rows: TriggerRow[] = [];
	for (const testCase of cases) {
		const result = await runChild<
			ChildResult & {
				polls: number;
				units: number;
				requests: number;
				results: number;
				added: number;
			}
		>('trigger', testCase);
		if (result.items !== result.added) {
			throw new Error(`trigger: ${result.items} credentials emitted of ${result.added} added`);
		}
		const row: TriggerRow = {
			...testCase,
			polls: result.polls,
			emitted: result.items,
			requests: result.requests,
			results: result.results,
			dayUnits: result.units,
			monthUnits: result.units * MONTH_DAYS,
			monthMinimum: dayMinimum(testCase.intervalMinutes, testCase.perDay) * MONTH_DAYS,
			simulatedInMs: Math.round(result.wallMs),
		};
		options.log(
			`  ${testCase.reading}, every ${testCase.intervalMinutes} min, ${testCase.perDay}/day: ${row.dayUnits} units a day ` +
				`(${row.polls} polls, ${row.requests} searches, ${row.results} results), ${row.monthUnits} a month, minimum ${row.monthMinimum}`,
		);
		rows.push(row);
	}
	return rows;
}

export function triggerCases(quick: boolean): TriggerChildConfig[] {
	const cases: TriggerChildConfig[] = [];
	for (const reading of ['returned', 'requested'] as const) {
		for (const intervalMinutes of quick ? [15] : [1, 5, 15]) {
			for (const perDay of quick ? [1000] : [0, 10, 1000])
				cases.push({ reading, intervalMinutes, perDay });
		}
	}
	return cases;
}
