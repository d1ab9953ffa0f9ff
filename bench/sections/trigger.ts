/**
 * Section 3. What the Flare Trigger costs in global-search quota: units per month at 1, 5 and
 * 15-minute polls with 0, 10 and 1,000 new matching credentials a day, under both readings of Flare's
 * rule. One simulated day per case (12 hours at 1-minute polls, to keep the run short;
 * bench/child/trigger.ts: the real trigger, the fake's quota, a simulated clock), scaled to a month
 * of 30 days; the activation's own search is left out.
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
	/** Units of the simulated hours. */
	units: number;
	/** The same, scaled to a day. */
	dayUnits: number;
	monthUnits: number;
	/** The least the rule allows for the month. */
	monthMinimum: number;
	simulatedInMs: number;
}

/** Units `hours` need at least: one per 10-minute session that holds a poll, one per 100 new results. */
function spanMinimum(intervalMinutes: number, perDay: number, hours: number): number {
	const pollMinutes = Array.from(
		{ length: (hours * 60) / intervalMinutes },
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
		const perMonth = (MONTH_DAYS * 24) / testCase.hours;
		const row: TriggerRow = {
			...testCase,
			polls: result.polls,
			emitted: result.items,
			requests: result.requests,
			results: result.results,
			units: result.units,
			dayUnits: (result.units * 24) / testCase.hours,
			monthUnits: result.units * perMonth,
			monthMinimum:
				spanMinimum(testCase.intervalMinutes, testCase.perDay, testCase.hours) * perMonth,
			simulatedInMs: Math.round(result.wallMs),
		};
		options.log(
			`  ${testCase.reading}, every ${testCase.intervalMinutes} min, ${testCase.perDay}/day, ${testCase.hours} h: ${row.units} units ` +
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
			for (const perDay of quick ? [1000] : [0, 10, 1000]) {
				cases.push({ reading, intervalMinutes, perDay, hours: intervalMinutes === 1 ? 12 : 24 });
			}
		}
	}
	return cases;
}
