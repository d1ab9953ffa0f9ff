/**
 * The Flare Trigger's Backfill option: how far back its first activation emits what exists (none, the
 * last 24 hours, 7 or 30 days), for the kinds that offer it.
 */
import type { INodeProperties } from 'n8n-workflow';

const HOUR_MS = 3_600_000;

/** The past windows a first activation may emit, by option value. */
export const BACKFILL_MS: Record<string, number> = {
	none: 0,
	last24Hours: 24 * HOUR_MS,
	last7Days: 7 * 24 * HOUR_MS,
	last30Days: 30 * 24 * HOUR_MS,
};

/** The Backfill option of a trigger kind, e.g. ('credentials', 'imported'). */
export function backfillOption(records: string, arrived: string): INodeProperties {
	return {
		displayName: 'Backfill',
		name: 'backfill',
		type: 'options',
		default: 'none',
		description: `On first activation, also emit the matching ${records} ${arrived} in this past window. Later polls emit only what is new.`,
		options: [
			{ name: 'None', value: 'none', description: 'Start from the time of activation' },
			{ name: 'Last 24 Hours', value: 'last24Hours' },
			{ name: 'Last 7 Days', value: 'last7Days' },
			{ name: 'Last 30 Days', value: 'last30Days' },
		],
	};
}
