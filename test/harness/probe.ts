import type { INodeType } from 'n8n-workflow';

import { createRequire, fs, path } from '../support/node';
import type { Harness } from './engine';

/**
 * The lifecycle probe: a poll trigger that reports how n8n runs it, for the differential check
 * (test/e2e/differential.ts). Each poll emits one item: how many polls its PollContext has served
 * (n8n makes one per activation: the probe counts per context, so a harness that made one per poll
 * again would say 1 every time), how many polls the Workflow's static data has seen (kept in memory
 * from tick to tick, saved with each emit), its parameter `value`, and what the context says of the
 * activation. It is plain JavaScript, so that a real n8n loads the very file the harness loads, as a
 * custom node (`N8N_CUSTOM_EXTENSIONS`: its type is then `CUSTOM.lifecycleProbe`).
 */
export const PROBE_NODE_TYPE = 'CUSTOM.lifecycleProbe';
export const PROBE_FILE = 'LifecycleProbe.node.js';

const PROBE_SOURCE = `'use strict';
// Written by test/harness/probe.ts: the differential check's lifecycle probe.
const pollsByContext = new WeakMap();
class LifecycleProbe {
	constructor() {
		this.description = {
			displayName: 'Lifecycle Probe',
			name: 'lifecycleProbe',
			group: ['trigger'],
			version: 1,
			description: 'Reports how n8n polls it',
			defaults: { name: 'Lifecycle Probe' },
			polling: true,
			inputs: [],
			outputs: ['main'],
			properties: [{ displayName: 'Value', name: 'value', type: 'string', default: '' }],
		};
	}
	async poll() {
		const contextPolls = (pollsByContext.get(this) || 0) + 1;
		pollsByContext.set(this, contextPolls);
		const data = this.getWorkflowStaticData('node');
		data.polls = (data.polls || 0) + 1;
		const value = this.getNodeParameter('value', '');
		return [[{ json: {
			contextPolls,
			staticPolls: data.polls,
			value,
			mode: this.getMode(),
			activation: this.getActivationMode(),
			pollBudget: typeof this.getPollBudgetMs === 'function',
		} }]];
	}
}
module.exports = { LifecycleProbe };
`;

/** Writes the probe into `folder` (a custom extensions folder of n8n); returns the file. */
export function writeProbe(folder: string): string {
	fs.mkdirSync(folder, { recursive: true });
	const file = path.join(folder, PROBE_FILE);
	fs.writeFileSync(file, PROBE_SOURCE);
	return file;
}

/** Loads the probe from `folder` (written there first) into the harness, as n8n loads it. */
export function addProbe(harness: Harness, folder: string): void {
	const file = writeProbe(folder);
	const { LifecycleProbe } = createRequire(file)(file) as { LifecycleProbe: new () => INodeType };
	harness.addNodeType(PROBE_NODE_TYPE, new LifecycleProbe());
}
