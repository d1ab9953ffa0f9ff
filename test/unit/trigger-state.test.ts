import type { IDataObject } from 'n8n-workflow';

import { jsonWithin } from '../../nodes/Flare/shared/body';
import { eventKey } from '../../nodes/FlareTrigger/newEvent';
import { cookieKey } from '../../nodes/FlareTrigger/newLeakedCookie';
import { credentialKey } from '../../nodes/FlareTrigger/newLeakedCredential';
import { MAX_LAST_PAGE, MAX_TRIGGERS, sharedOf, sweepDue, tenantRecordKey, triggersInMemory } from '../../nodes/FlareTrigger/poll';
import { MAX_SEEN, prune, readState, resumeAt, writeState, type TriggerState } from '../../nodes/FlareTrigger/state';

/** The bound docs/trigger.md states for the Flare Trigger's static data. */
const STATIC_DATA_BOUND = 64 * 1024;
const POLLS = 100;
const PER_POLL = 1_000;

const bytesOf = (data: IDataObject) => Buffer.byteLength(JSON.stringify(data));

/**
 * 100,000 records read, 1,000 a poll (a poll's most), every one arriving within the sweep's window:
 * the most keys the state can be asked to keep, with every other field filled and the most keys kept
 * where the long-lived search resumes. Keys of 12-digit ids, of credentials with neither id nor
 * credential hash, and of events for a Tenant (the longest keys, as poll.ts makes them); events
 * left out by a filter on what the tenant changes (every other one, or all but 1 in 100: a trigger on
 * critical events of a busy tenant).
 */
describe('Flare Trigger state stays bounded', () => {
	const credential = (recordOf: (n: number) => IDataObject) => (n: number) => credentialKey(recordOf(n));
	const event = (n: number) => eventKey({ metadata: { uid: `stealer_log/russian_market/${n}`, matched_at: '2026-11-23T08:00:00.000000Z' } });
	const forTenant = (n: number) => tenantRecordKey(1_234_567_890, event(n));
	it.each([
		['credentials, 12-digit ids', credential((n) => ({ id: 100_000_000_000 + n })), 1],
		['credentials, no id, no credential hash', credential((n) => ({ id: null, credential_hash: null, identity_name: `user${n}@acme.com`, source_id: 'combolist', imported_at: '2026-11-23T08:00:00' })), 1],
		['events of a Tenant, every other one left out', forTenant, 2],
		['events of a Tenant, all but 1 in 100 left out', forTenant, 100],
	])('after 100,000 records read (%s), the static data stays under 64 KB', (_keys, keyOf, emitEvery) => {
		const staticData: IDataObject = {};
		const start = Date.parse('2026-11-23T08:00:00Z');
		// Every field filled, cursors of 200 characters (Flare's example cursors have about 50).
		const instant = new Date(start).toISOString();
		const cursor = 'c'.repeat(200);
		let state: TriggerState = {
			rev: 1,
			search: 'fingerprint',
			start: instant,
			cursor,
			since: instant,
			sweptAt: instant,
			sweepStarted: instant,
			sweepFrom: cursor,
			seen: {},
			lastPage: [],
			reached: instant,
			baseline: instant,
			sweepPart: 3,
			scope: { account: 'f'.repeat(16) },
		};
		const arrivalOf = (n: number) => Math.floor(start / 1000) + Math.floor(n / 200);
		let largest = 0;
		let keysSeen = 0;

		for (let poll = 0; poll < POLLS; poll++) {
			const keys: string[] = [];
			for (let n = poll * PER_POLL; n < (poll + 1) * PER_POLL; n++) {
				const key = keyOf(n);
				if (n % emitEvery !== 0) (state.rejected ??= {})[key] = arrivalOf(n);
				else state.seen[key] = arrivalOf(n);
				keys.push(key);
				keysSeen++;
			}
			state.lastPage = keys.slice(-MAX_LAST_PAGE);
			state.rev++;
			prune(state);
			writeState(staticData, state);
			largest = Math.max(largest, bytesOf(staticData));
			state = readState(staticData)!;
		}

		expect(Object.keys(state.seen).length + Object.keys(state.rejected ?? {}).length + state.lastPage.length).toBe(MAX_SEEN);
		expect(largest).toBeLessThan(STATIC_DATA_BOUND);
		expect(keysSeen).toBe(POLLS * PER_POLL);
		const emitted = POLLS * PER_POLL / emitEvery;
		if (emitted <= MAX_SEEN - MAX_LAST_PAGE) {
			// Every key of what was emitted kept, the newest of those left out beside them; no floor: a
			// sweep reads every partition from where it starts (an event left out and forgotten is decided again).
			expect(Object.keys(state.seen)).toHaveLength(emitted);
			expect(state.floor).toBeUndefined();
			expect(state.since).toBe(instant);
			return;
		}
		// The keys of what was emitted fill the bound; the sweep starts after every key dropped (so it
		// cannot read them again), at most a second after the oldest key kept.
		expect(state.rejected).toBeUndefined();
		const sinceS = Date.parse(state.since) / 1000;
		expect(sinceS).toBeGreaterThan(arrivalOf(POLLS * PER_POLL - (MAX_SEEN - MAX_LAST_PAGE) * emitEvery - 1));
		expect(sinceS).toBeLessThanOrEqual(Math.min(...Object.values(state.seen)) + 1);
	});

	it('keys credentials without an id by their credential hash, or by what describes them, in 18 characters', () => {
		const hash = 'f'.repeat(64);
		expect(credentialKey({ id: 42 })).toBe('42');
		expect(credentialKey({ id: null, credential_hash: hash })).toMatch(/^c:[0-9a-f]{16}$/);
		const described = { id: null, credential_hash: null, identity_name: 'a@acme.com', source_id: 's', imported_at: '2026-11-23T08:00:00', hash: 'p1' };
		expect(credentialKey(described)).toMatch(/^d:[0-9a-f]{16}$/);
		expect(credentialKey({ ...described, hash: 'p2' })).not.toBe(credentialKey(described));
		expect(credentialKey({ ...described })).toBe(credentialKey(described));
	});

	it('writes a record for its key as JSON.stringify does to 100 levels, and what lies deeper as "…"', () => {
		const chain = (levels: number): IDataObject => {
			let value: IDataObject = { leaf: [1, null, 'x'] };
			for (let level = 1; level < levels; level++) value = { level: value };
			return value;
		};
		// 99 objects and the list: 100 levels.
		expect(jsonWithin(chain(99))).toBe(JSON.stringify(chain(99)));
		expect(jsonWithin(chain(100))).toBe(JSON.stringify(chain(100)).replace('[1,null,"x"]', '"…"'));
	});

	it.each([3_000, 4_090, 20_000])(
		'keys a record without an id nested %i deep (a hostile answer) alike wherever the poll makes its key, rather than throwing',
		(levels) => {
			let deep: IDataObject = { leaf: 'x' };
			for (let level = 0; level < levels; level++) deep = { level: deep };
			const keys = () => [cookieKey({ name: 'sid', value: deep }), eventKey({ metadata: {}, data: deep }), credentialKey({ id: null, hash: deep })];
			// JSON.stringify throws at a depth that depends on the stack left: the key must not.
			const deeper = (frames: number): string[] => (frames === 0 ? keys() : deeper(frames - 1));
			expect(deeper(2_000)).toEqual(keys());
			expect(keys().every((key) => /^d:[0-9a-f]{16}$/.test(key))).toBe(true);
		},
	);

	it('sweeps every 10 minutes (less 30 s for the timing of polls), and at once when the last sweep time cannot be', () => {
		const now = Date.parse('2026-11-23T12:00:00Z');
		const state = (sweptAt?: string): TriggerState => ({ rev: 1, search: 's', start: 'x', since: 'x', seen: {}, lastPage: [], ...(sweptAt === undefined ? {} : { sweptAt }) });
		const ago = (seconds: number) => new Date(now - seconds * 1000).toISOString();

		expect([ago(0), ago(60), ago(9 * 60 + 29)].map((sweptAt) => sweepDue(state(sweptAt), now))).toEqual([false, false, false]);
		expect([ago(9 * 60 + 30), ago(10 * 60), ago(24 * 3600)].map((sweptAt) => sweepDue(state(sweptAt), now))).toEqual([true, true, true]);
		// Saved before sweeps were spaced, unreadable, or in the future (the host's clock went back).
		expect([undefined, 'garbage', ago(-3600)].map((sweptAt) => sweepDue(state(sweptAt), now))).toEqual([true, true, true]);
	});

	it('reads the fields of a sweep under way, where the search has read to, the baseline, what was left out and the scope; ignores what it cannot read', () => {
		const stored = { rev: 3, search: 's', start: 'a', since: 'b', seen: {}, lastPage: [], reached: 'c', baseline: 'd', sweepStarted: 'e', sweepFrom: 'f', sweepPart: 2, rejected: { k: 1 }, scope: { account: 'g' } };
		expect(readState(stored)).toEqual(stored);
		expect(readState({ ...stored, reached: 1, baseline: null, sweepStarted: [], sweepFrom: {}, sweepPart: 'x', rejected: [], scope: 'h' })).toEqual({ rev: 3, search: 's', start: 'a', since: 'b', seen: {}, lastPage: [] });
		expect(readState({ ...stored, sweepPart: 0, scope: { account: 'g', other: 1 } })?.scope).toEqual({ account: 'g' });
	});

	it("knows what arrived before the earlier of the sweep's start and where the long-lived search has read to", () => {
		const at = (iso: string) => Date.parse(iso);
		const state = (fields: Partial<TriggerState>): TriggerState => ({ rev: 1, search: 's', start: '2026-11-01T00:00:00Z', since: '2026-11-23T11:45:00Z', seen: {}, lastPage: [], ...fields });
		// Nothing read yet: from the start (a backfill).
		expect(resumeAt(state({}), 0)).toBe(at('2026-11-01T00:00:00Z'));
		// Behind (a backlog): where it has read to; caught up: where the sweep starts.
		expect(resumeAt(state({ reached: '2026-11-10T00:00:00Z' }), 0)).toBe(at('2026-11-10T00:00:00Z'));
		expect(resumeAt(state({ reached: '2026-11-23T11:59:00Z' }), 0)).toBe(at('2026-11-23T11:45:00Z'));
		expect(resumeAt(state({ since: 'garbage', reached: 'garbage' }), 42)).toBe(42);
		// Keys of records that arrived since are kept.
		const pruned = state({ reached: '2026-11-10T00:00:00Z', seen: { old: at('2026-11-09T00:00:00Z') / 1000, kept: at('2026-11-10T00:00:00Z') / 1000 } });
		prune(pruned);
		expect(Object.keys(pruned.seen)).toEqual(['kept']);
	});

	it('never lets a sweep start before the floor: a sweep that completes sets `since` 15 minutes back, prune moves it up', () => {
		// 2,100 records over a minute, then the sweep 10 minutes later: without this, the next sweep read
		// the oldest 100 again and emitted them twice (the model test, New Event, seed 20251126).
		const seen = Object.fromEntries(Array.from({ length: MAX_SEEN + 100 }, (_, n) => [`k${n}`, Date.parse('2026-11-23T12:00:00Z') / 1000 + Math.floor(n / 35)]));
		const state: TriggerState = { rev: 1, search: 's', start: '2026-11-23T11:45:00Z', since: '2026-11-23T11:45:00Z', reached: '2026-11-23T12:01:00Z', seen, lastPage: [] };
		prune(state);
		expect(state.floor).toBe('2026-11-23T12:00:03.000Z');
		expect(state.since).toBe(state.floor);
		expect(Object.keys(state.seen)).toHaveLength(MAX_SEEN);
		state.since = '2026-11-23T11:55:00.000Z';
		prune(state);
		expect(state.since).toBe('2026-11-23T12:00:03.000Z');
		// The 5 keys kept of the second before the floor go too: nothing reads that second again.
		expect(Object.keys(state.seen)).toHaveLength(MAX_SEEN - 5);
	});

	it(`keeps at most ${MAX_TRIGGERS} triggers in memory, forgetting the one polled longest ago, never one that is polling`, () => {
		const polling = sharedOf('workflow-0/node');
		polling.polling = true;
		for (let n = 1; n <= MAX_TRIGGERS + 5; n++) sharedOf(`workflow-${n}/node`);

		expect(triggersInMemory()).toBe(MAX_TRIGGERS);
		expect(sharedOf('workflow-0/node')).toBe(polling);
		expect(triggersInMemory()).toBe(MAX_TRIGGERS);
		polling.polling = false;
	});
});
