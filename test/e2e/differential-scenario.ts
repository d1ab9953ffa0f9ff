/**
 * The differential check's scenario (test/e2e/differential.ts): what happens, frame by frame, to two
 * workflows in one n8n, how the harness replays it, and how the two transcripts are compared.
 *
 * - **Flare**: a Flare Trigger (New Event, tenant 202's feed, severity high or more), published; a
 *   medium event arrives; the trigger is saved with severity medium or more and a Tenant expression
 *   that gives nothing around the next tick (an expression error at one poll); another medium event;
 *   the tick fails, the next one emits it (the Tenant read at each poll); a critical event; n8n
 *   restarts.
 * - **Probe**: the lifecycle probe (test/harness/probe.ts) in a workflow whose id has 17 characters
 *   (n8n 2.41 saves its static data, n8n 1.123 does not), published; saved with the probe unchanged
 *   (n8n 2.41 keeps the trigger's registration, n8n 1.123 activates it again); saved with its Value
 *   changed; ticks; n8n restarts. Its items say how many polls its PollContext served and how many
 *   its Workflow's static data saw: a harness that made a context per poll again says 1 where n8n
 *   says 2 or 3.
 *
 * Ticks come at second 30 of each minute (a custom cron), the user acts at second 41: each frame
 * holds either what an action started (activations) or the ticks.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { FakeFlare, type FakeFlareOptions } from '../fake-flare';
import { Harness } from '../harness/engine';
import { TriggerWorkflow, type PollResult } from '../harness/poll';
import { addProbe, PROBE_NODE_TYPE } from '../harness/probe';
import type { N8nLine } from '../harness/static-data';
import { moveClockTo } from '../support/clock';
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

export type FrameKind = 'publish' | 'save' | 'tick' | 'restart';

/** A frame: an action (or the ticks), the polls it brought, and the static data stored after it. */
export interface Frame {
	kind: FrameKind;
	at: number;
	/** Saves: the parameters saved, by workflow (the same as before: the trigger unchanged). */
	saved?: Partial<Record<WorkflowKey, IDataObject>>;
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
 * PollContext for every tick again (the harness before issue 39).
 */
export type Variant = 'none' | 'contextPerPoll';

function breakHarness(variant: Variant): void {
	if (variant !== 'contextPerPoll') return;
	type Registration = { workflow: unknown; node: { type: string }; context: unknown };
	const proto = TriggerWorkflow.prototype as unknown as {
		runPoll(this: unknown, registration: Registration, testing: boolean): Promise<PollResult>;
		contextFor(workflow: unknown, node: unknown, additionalData: unknown, activation: string): unknown;
		additionalDataNow(node: unknown): unknown;
	};
	const runPoll = proto.runPoll;
	proto.runPoll = async function (this: typeof proto, registration, testing) {
		if (!testing) {
			registration.context = this.contextFor(registration.workflow, registration.node, this.additionalDataNow(registration.node), 'activate');
		}
		return await runPoll.call(this, registration, testing);
	};
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
				// Where n8n polled in this frame, the harness does it at the same time.
				const at = frame.polls[key][0]?.at ?? frame.at;
				moveClockTo(at);
				let result: PollResult | null = null;
				if (frame.kind === 'publish') result = await workflow.activate();
				else if (frame.kind === 'restart') result = await workflow.restart();
				else if (frame.kind === 'tick') result = workflow.active ? await workflow.poll() : null;
				else if (frame.saved?.[key]) result = await workflow.reactivate(frame.saved[key]!);
				if (result) polls[key].push(pollOf(key, at, result));
			}
			frames.push({ ...frame, polls, stored: { flare: workflows.flare.saved, probe: workflows.probe.saved } });
		}
	} finally {
		await fake.stop();
	}
	return { ...real, frames: frames.map((frame) => ({ ...frame, stored: nullWhenEmpty(frame.stored) })) };
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
			differencesOf(`${label}, ${key}: polls`, polls, theirs, out);
			differencesOf(`${label}, ${key}: static data stored`, frame.stored[key], other.stored[key], out);
		}
	});
	return out;
}
