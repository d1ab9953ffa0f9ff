/**
 * What the Flare Trigger of an earlier version saved, scenario by scenario: the same fake data at the
 * same instants, so that a later version can take the saved state over (trigger-state.test.ts). The
 * saved states themselves were written by that version (capture.ts).
 */
import type { IDataObject } from 'n8n-workflow';

import type { FakeFlare, FakeFlareOptions } from '../fake-flare';
import type { FaultRule } from '../fake-flare/faults';

export const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/**
 * Scenario `index` starts at this instant (virtual time), a day after the one before: the clock only
 * moves forward, as in a real n8n (the node's rate gates remember the time of their last request).
 */
export const startOf = (index: number) =>
	Date.parse('2026-11-25T12:00:00Z') + index * 24 * 60 * MINUTE;
export const iso = (ms: number) => new Date(ms).toISOString();

/** One step, minutes after the start: records added, a fault queued, then a poll (or the activation). */
export interface Step {
	minute: number;
	add?(fake: FakeFlare): string[];
	fault?: FaultRule;
}

export interface Scenario {
	name: string;
	kind: 'credential' | 'event';
	parameters: IDataObject;
	fake(t0: number): FakeFlareOptions;
	budgetMs?: number;
	/** What exists before activation (added at its start, `t0`). */
	before?(fake: FakeFlare, t0: number): void;
	/** The activation (minute 0), then polls. */
	steps: Step[];
}

const credentialIds = (fake: FakeFlare, first: number, count: number) =>
	[...Array(count).keys()].map((k) => String(fake.dataset.credential(first + k).id));
const acme = (fake: FakeFlare, count: number) =>
	credentialIds(fake, fake.addCredentials(count, undefined, { domain: 'acme.com' }), count);
const uids = (items: Array<{ metadata: { uid: string } }>) =>
	items.map((item) => item.metadata.uid);
const REFUSED: FaultRule = {
	path: '/firework/v4/credentials/global/_search',
	fault: {
		status: 422,
		body: { detail: [{ loc: ['body', 'from'], msg: 'Invalid cursor', type: 'value_error' }] },
	},
};

export const SCENARIOS: Scenario[] = [
	{
		name: 'New Leaked Credential, after an emit',
		kind: 'credential',
		parameters: { queryType: 'domain', fqdn: 'acme.com' },
		fake: (t0) => ({
			credentials: 200,
			domains: ['acme.com', 'example.com'],
			startTime: iso(t0 - 2 * DAY),
		}),
		steps: [
			{ minute: 0 },
			{ minute: 1, add: (fake) => acme(fake, 8) },
			{ minute: 2, add: (fake) => acme(fake, 2) },
		],
	},
	{
		name: 'New Leaked Credential, after Flare refused its cursor',
		kind: 'credential',
		parameters: { queryType: 'domain', fqdn: 'acme.com' },
		fake: (t0) => ({
			credentials: 200,
			domains: ['acme.com', 'example.com'],
			startTime: iso(t0 - 2 * DAY),
		}),
		steps: [
			{ minute: 0 },
			{ minute: 1, add: (fake) => acme(fake, 3) },
			{ minute: 2, add: (fake) => acme(fake, 2), fault: REFUSED },
		],
	},
	{
		name: 'New Event, severity at least high, Fetch Full Event, after an emit',
		kind: 'event',
		parameters: {
			event: 'newEvent',
			severityFilter: 'minimum',
			minimumSeverity: 'high',
			options: { fetchFullEvent: true },
		},
		fake: (t0) => ({ credentials: 100, startTime: iso(t0 - 35 * DAY) }),
		steps: [
			{ minute: 0 },
			{
				minute: 1,
				add: (fake) => {
					const found = uids([
						...fake.addEvents(2, { severity: 'critical' }),
						...fake.addEvents(1, { severity: 'high' }),
					]);
					fake.addEvents(1, { severity: 'low' });
					return found;
				},
			},
		],
	},
	{
		name: 'New Event, Backfill 7 days, part of the backlog read',
		kind: 'event',
		parameters: { event: 'newEvent', options: { backfill: 'last7Days' } },
		fake: (t0) => ({ credentials: 100, startTime: iso(t0 - 35 * DAY) }),
		budgetMs: 2_000,
		before: (fake, t0) => {
			for (const days of [3, 2, 1]) fake.addEvents(20, { materializedAt: iso(t0 - days * DAY) });
		},
		steps: [{ minute: 0 }],
	},
];

/** What a capture writes: for each scenario, what n8n saved and what the trigger emitted. */
export interface Captured {
	version: string;
	scenarios: Record<string, { saved: IDataObject; emitted: string[] }>;
}
