/**
 * The differential check's scenario (test/e2e/differential.ts): what happens, frame by frame, to two
 * workflows in one n8n, how the harness replays it, and how the two transcripts are compared.
 *
 * - **Flare**: a Flare Trigger (New Event, tenant 202's feed, severity high or more), published; a
 *   medium event arrives; the trigger is saved with severity medium or more and a Tenant expression
 *   that gives nothing around the next tick (an expression error at one poll); another medium event;
 *   the tick fails, the next one emits it (the Tenant read at each poll); a critical event; n8n
 *   restarts. Then a tick whose feed answer the fake holds 25 seconds, and the trigger saved changed
 *   (severity high or more) while it runs: the save's activation poll finds that poll under way and
 *   returns nothing; n8n 2.41 drops the held poll (`isCurrent()`), n8n 1.123 emits it; on both the
 *   next tick emits the event (on n8n 1.123 a second time: docs/trigger.md's stated limit); both
 *   workflows unpublished, a critical event, a tick (none runs); both published again (the Flare
 *   Trigger goes on from its saved state).
 * - **Probe**: the lifecycle probe (test/harness/probe.ts) in a workflow whose id has 17 characters
 *   (n8n 2.41 saves its static data, n8n 1.123 does not), published; saved with the probe unchanged
 *   (n8n 2.41 keeps the trigger's registration, n8n 1.123 activates it again); saved with its Value
 *   changed; ticks; n8n restarts. Its items say how many polls its PollContext served and how many
 *   its Workflow's static data saw: a harness that made a context per poll again says 1 where n8n
 *   says 2 or 3.
 *
 * Ticks come at second 30 of each minute (a custom cron), the user acts at second 41: each frame
 * holds either what an action started (activations) or the ticks. The replay runs, at its time, every
 * poll n8n logged in a frame: a start-up slower than a minute puts the next tick in the restart frame.
 *
 * Not covered, and why: an activation that fails and is tried again (n8n records no execution for a
 * failed try, so a transcript cannot tell the harness's tries apart: the jest tests follow n8n's source
 * there, test/harness/README.md); a Variable changed (n8n's Variables need a licence,
 * `@Licensed('feat:variables')`); a webhook trigger beside the poller; ticks that overlap.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { FakeFlare, type FakeFlareOptions } from '../fake-flare';
import { Harness } from '../harness/engine';
import { TriggerWorkflow, type PollResult } from '../harness/poll';
import { addProbe, PROBE_NODE_TYPE } from '../harness/probe';
import type { N8nLine } from '../harness/static-data';
import { moveClockTo, realSleep } from '../support/clock';
import { CANARY_API_KEY, CANARY_TOKEN_PREFIX } from '../reliability/secret-scan';

export const TICK_SECOND = 30;
export const ACTION_SECOND = 41;
const SECOND = 1_000;

export const WORKFLOWS = ['flare', 'probe'] as const;
export type WorkflowKey = (typeof WORKFLOWS)[number];

/** The two workflows: ids (16 and 17 characters), names, their trigger node's name and type. */
export const WORKFLOW: Record<WorkflowKey, { id: string; name: string; node: string; type: string }> = {
	flare: {
		id: 'flareDiffCheck16',
		name: 'Differential: Flare Trigger',
		node: 'New event of tenant 202',
		type: 'n8n-nodes-flareio.flareTrigger',
	},
	probe: {
		id: 'flareDiffProbe017',
		name: 'Differential: lifecycle probe',
		node: 'Lifecycle Probe',
		type: PROBE_NODE_TYPE,
	},
};

const TENANT = 202;
/** The tenant feed the Flare Trigger reads (the fake holds its answer in a `heldSave` frame). */
export const FEED_PATH = '/firework/v4/events/tenant/_search';
/** How long the replay's fake holds that answer (real time: long enough for the save to come first). */
const REPLAY_HOLD_MS = 3 * SECOND;
const CRON = { item: [{ mode: 'custom', cronExpression: `${TICK_SECOND} * * * * *` }] };

/** The fake's data: two tenants, seeded events days old (nothing within the trigger's look-back). */
export const fakeOptions = (startTime: string): FakeFlareOptions => ({
	// Recognisable secrets, searched for in everything n8n printed, logged and stored (secrets.ts).
	apiKeys: { full: CANARY_API_KEY },
	tokenPrefix: CANARY_TOKEN_PREFIX,
	credentials: 50,
	eventsPerTenant: 10,
	tenants: [101, TENANT],
	quirks: { emptyPageEvery: 0, shortPageEvery: 0 },
	startTime,
});

/** The Flare Trigger's parameters: as published, or as saved with a Tenant that fails in `window`. */
export function flareParameters(window?: { from: number; to: number }): IDataObject {
	const tenant = window
		? `={{ $now.toMillis() >= ${window.from} && $now.toMillis() < ${window.to} ? '' : '${TENANT}' }}`
		: String(TENANT);
	return {
		pollTimes: CRON,
		event: 'newEvent',
		feed: 'tenant',
		severityFilter: 'minimum',
		minimumSeverity: window ? 'medium' : 'high',
		tenant: { __rl: true, mode: 'id', value: tenant },
	};
}

export const probeParameters = (value: string): IDataObject => ({ pollTimes: CRON, value });

/** An event added to the fake Flare (its feed item's uid, and how to add it again in a replay). */
export interface Added {
	at: number;
	uid: string;
	severity: 'medium' | 'high' | 'critical';
	materializedAt: string;
}

/** One poll n8n ran: when it started, what it emitted (normalized) or its error. */
export interface Poll {
	at: number;
	items: unknown[] | null;
	error?: string;
}

export type FrameKind = 'publish' | 'save' | 'tick' | 'restart' | 'deactivate' | 'heldSave';

/** A frame: an action (or the ticks), the polls it brought, and the static data stored after it. */
export interface Frame {
	kind: FrameKind;
	at: number;
	/** Saves: the parameters saved, by workflow (the same as before: the trigger unchanged). */
	saved?: Partial<Record<WorkflowKey, IDataObject>>;
	/** `heldSave`: when the save came (the frame starts before the tick whose answer the fake holds). */
	saveAt?: number;
	/** Events added before the frame. */
	added: Added[];
	polls: Record<WorkflowKey, Poll[]>;
	stored: Record<WorkflowKey, IDataObject | null>;
}

export interface Transcript {
	line: N8nLine;
	/** Where the fake's seeded data starts, and its port (the same data and Base URL in the replay). */
	fakeStart: string;
	fakePort: number;
	frames: Frame[];
}

/** What a poll emitted, as the transcripts compare it: events by uid and tenant, the probe's whole. */
export function itemsOf(key: WorkflowKey, items: Array<Pick<INodeExecutionData, 'json'>> | null | undefined): unknown[] | null {
	if (!items) return null;
	return items.map(({ json }) => (key === 'probe' ? json : [(json.metadata as IDataObject | undefined)?.uid, json.tenantId]));
}

const pollOf = (key: WorkflowKey, at: number, result: PollResult): Poll => ({
	at,
	items: itemsOf(key, result.items),
	...(result.error ? { error: result.error.message } : {}),
});

/**
 * A harness made wrong on purpose, to show that the check catches it: `contextPerPoll` makes a new
 * PollContext for every tick again (the harness before issue 39); `noIsCurrent` emits, on n8n 2.41,
 * a poll whose registration a save replaced while it ran (as n8n 1.123 does; 2.41's `isCurrent()`
 * drops it). Each must differ from n8n on the lines in {@link DRIFTS}.
 */
export type Variant = 'none' | 'contextPerPoll' | 'noIsCurrent';

/** The drifts the check must catch, and on which lines (on the others the variant changes nothing). */
export const DRIFTS: Record<Exclude<Variant, 'none'>, N8nLine[]> = {
	contextPerPoll: ['2.41', '1.123'],
	noIsCurrent: ['2.41'],
};

function breakHarness(variant: Variant): void {
	type Registration = { workflow: unknown; node: { type: string }; context: unknown; removed: boolean };
	const proto = TriggerWorkflow.prototype as unknown as {
		runPoll(this: unknown, registration: Registration, testing: boolean): Promise<PollResult>;
		contextFor(workflow: unknown, node: unknown, additionalData: unknown, activation: string): unknown;
		additionalDataNow(node: unknown): unknown;
	};
	const runPoll = proto.runPoll;
	if (variant === 'contextPerPoll') {
		proto.runPoll = async function (this: typeof proto, registration, testing) {
			if (!testing) {
				registration.context = this.contextFor(registration.workflow, registration.node, this.additionalDataNow(registration.node), 'activate');
			}
			return await runPoll.call(this, registration, testing);
		};
	} else if (variant === 'noIsCurrent') {
		// The poll sees its registration as never removed (a restart still ends it: `process`).
		proto.runPoll = async function (this: typeof proto, registration, testing) {
			const current = new Proxy(registration, { get: (target, key) => (key === 'removed' ? false : target[key as keyof Registration]) });
			return await runPoll.call(this, current, testing);
		};
	}
}

/**
 * The scenario replayed in the harness, on n8n's line, at the times the real n8n ran it (this
 * process's clock moved to each): the same events added, the same actions, a tick where n8n ticked.
 */
export async function replay(real: Transcript, probeFolder: string, variant: Variant = 'none'): Promise<Transcript> {
	breakHarness(variant);
	const harness = await Harness.create();
	addProbe(harness, probeFolder);
	const fake = await FakeFlare.start(fakeOptions(real.fakeStart), real.fakePort);
	harness.addFlareCredential({ apiKey: fake.apiKeys.full, baseUrl: fake.url });
	const workflows: Record<WorkflowKey, TriggerWorkflow> = {
		flare: new TriggerWorkflow(harness, { workflowId: WORKFLOW.flare.id, name: WORKFLOW.flare.node, parameters: flareParameters(), n8n: real.line }),
		probe: new TriggerWorkflow(harness, { workflowId: WORKFLOW.probe.id, name: WORKFLOW.probe.node, type: PROBE_NODE_TYPE, parameters: probeParameters('a'), n8n: real.line }),
	};
	const frames: Frame[] = [];
	try {
		for (const frame of real.frames) {
			for (const added of frame.added) {
				moveClockTo(added.at);
				fake.addEvents(1, { tenantId: TENANT, severity: added.severity, materializedAt: added.materializedAt });
			}
			const polls: Frame['polls'] = { flare: [], probe: [] };
			for (const key of WORKFLOWS) {
				const workflow = workflows[key];
				const logged = frame.polls[key];
				const record = (at: number, result: PollResult | null) => result && polls[key].push(pollOf(key, at, result));
				let rest = logged;
				if (frame.kind === 'heldSave' && frame.saved?.[key]) {
					// The tick starts, its answer held; the save comes while it runs.
					const tickAt = logged[0]?.at ?? frame.at;
					moveClockTo(tickAt);
					fake.faults.add({ path: FEED_PATH, fault: { delayMs: REPLAY_HOLD_MS } });
					const tick = workflow.poll();
					// Until the tick's feed request has come (the fake took the fault), in real time.
					for (let waited = 0; fake.faults.pending().length > 0 && waited < REPLAY_HOLD_MS; waited += 20) await realSleep(20);
					moveClockTo(frame.saveAt ?? tickAt);
					const saved = await workflow.reactivate(frame.saved[key]!);
					record(tickAt, await tick);
					record(frame.saveAt ?? tickAt, saved);
					rest = logged.slice(saved ? 2 : 1);
				} else if (frame.kind !== 'tick' && frame.kind !== 'heldSave') {
					// The action, at the first poll n8n logged for it (or the frame's time)...
					const at = logged[0]?.at ?? frame.at;
					moveClockTo(at);
					const result = await actionOf(frame, key, workflow);
					record(at, result);
					if (result) rest = logged.slice(1);
				} else if (logged.length === 0 && workflow.active) {
					// A tick n8n did not run, where the harness holds a cron: it ticks, and differs.
					rest = [{ at: frame.at, items: null }];
				}
				// ...then a tick at every other poll n8n logged in the frame.
				for (const poll of rest) {
					moveClockTo(poll.at);
					if (workflow.active) record(poll.at, await workflow.poll());
				}
			}
			frames.push({ ...frame, polls, stored: { flare: workflows.flare.saved, probe: workflows.probe.saved } });
		}
	} finally {
		await fake.stop();
	}
	return { ...real, frames: frames.map((frame) => ({ ...frame, stored: nullWhenEmpty(frame.stored) })) };
}

/** What an action frame does to a workflow in the harness: its activation's result, or null. */
async function actionOf(frame: Frame, key: WorkflowKey, workflow: TriggerWorkflow): Promise<PollResult | null> {
	if (frame.kind === 'publish') return await workflow.activate();
	if (frame.kind === 'restart') {
		const result = await workflow.restart();
		return result.notActivated ? null : result;
	}
	if (frame.kind === 'deactivate') {
		await workflow.deactivate();
		return null;
	}
	return frame.saved?.[key] ? await workflow.reactivate(frame.saved[key]!) : null;
}

/** n8n's column is null until it first saved; the harness's `saved` is then {}. */
const nullWhenEmpty = (stored: Frame['stored']): Frame['stored'] => ({
	flare: stored.flare && Object.keys(stored.flare).length ? stored.flare : null,
	probe: stored.probe && Object.keys(stored.probe).length ? stored.probe : null,
});

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
/** Times n8n and the harness write may differ by what their polls took: a few seconds. */
const TIME_TOLERANCE_MS = 10 * SECOND;

/** Where `a` and `b` differ (`where` names the place), times within the tolerance counting as equal. */
function differencesOf(where: string, a: unknown, b: unknown, out: string[]): void {
	if (typeof a === 'string' && typeof b === 'string' && ISO.test(a) && ISO.test(b)) {
		if (Math.abs(Date.parse(a) - Date.parse(b)) > TIME_TOLERANCE_MS) out.push(`${where}: n8n ${a}, harness ${b}`);
		return;
	}
	if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
		const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
		for (const key of keys) differencesOf(`${where}.${key}`, (a as IDataObject)[key], (b as IDataObject)[key], out);
		return;
	}
	if (JSON.stringify(a) !== JSON.stringify(b)) out.push(`${where}: n8n ${JSON.stringify(a)}, harness ${JSON.stringify(b)}`);
}

/** Every difference between what n8n did and what the harness did: polls, items, errors, static data. */
export function compare(real: Transcript, replayed: Transcript): string[] {
	const out: string[] = [];
	real.frames.forEach((frame, index) => {
		const other = replayed.frames[index];
		const label = `frame ${index + 1} (${frame.kind})`;
		for (const key of WORKFLOWS) {
			const polls = frame.polls[key].map(({ items, error }) => ({ items, error }));
			const theirs = other.polls[key].map(({ items, error }) => ({ items, error }));
			if (frame.kind === 'heldSave' && frame.saved?.[key]) {
				// n8n's records cannot tell which of two polls that overlap started an execution (it is
				// read by when it started): how many polls, and what they emitted together, in order.
				const together = (all: typeof polls) => ({ polls: all.length, items: all.flatMap((poll) => poll.items ?? []), errors: all.flatMap((poll) => poll.error ?? []) });
				differencesOf(`${label}, ${key}: polls`, together(polls), together(theirs), out);
			} else differencesOf(`${label}, ${key}: polls`, polls, theirs, out);
			differencesOf(`${label}, ${key}: static data stored`, frame.stored[key], other.stored[key], out);
		}
	});
	return out;
}
