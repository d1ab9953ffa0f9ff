/**
 * Reading a run as `n8n execute --rawOutput` prints it, and saying clearly what failed: which workflow,
 * which node, and n8n's own error message.
 */

export interface RunError {
	message?: string;
	description?: string | null;
	name?: string;
	node?: { name?: string };
	httpCode?: string | null;
}

export interface ExecutionItem {
	json: Record<string, unknown>;
	pairedItem?: { item: number } | Array<{ item: number }>;
	error?: RunError;
}

export interface NodeRun {
	executionStatus?: string;
	error?: RunError;
	data?: { main?: Array<ExecutionItem[] | null> };
}

export interface RunJson {
	status?: string;
	data: {
		resultData: {
			runData: Record<string, NodeRun[]>;
			error?: RunError;
			lastNodeExecuted?: string;
		};
	};
}

/** A failure the suite reports: the workflow, the node concerned, and what went wrong. */
export class E2eFailure extends Error {
	constructor(
		readonly node: string | undefined,
		readonly detail: string,
	) {
		super(node ? `node "${node}": ${detail}` : detail);
	}
}

/** The first node of a run that failed, with n8n's message, if any node failed. */
export function failedNode(run: RunJson): { node: string; message: string } | undefined {
	const { runData, error } = run.data.resultData;
	for (const [node, runs] of Object.entries(runData)) {
		const failed = runs.find((nodeRun) => nodeRun.error);
		if (failed?.error) return { node, message: describeError(failed.error) };
	}
	if (error) {
		return {
			node: error.node?.name ?? run.data.resultData.lastNodeExecuted ?? '(workflow)',
			message: describeError(error),
		};
	}
	return undefined;
}

export function describeError(error: RunError): string {
	const message = error.message ?? error.name ?? 'unknown error';
	return error.description ? `${message} — ${error.description}` : message;
}

/** Convenient, checked access to one run. */
export class RunView {
	constructor(readonly run: RunJson) {}

	get status(): string | undefined {
		return this.run.status;
	}

	/** Names of the nodes that ran. */
	nodesRun(): string[] {
		return Object.keys(this.run.data.resultData.runData);
	}

	/** The items of one output of a node (its first run); fails when the node did not run. */
	items(node: string, output = 0): ExecutionItem[] {
		const runs = this.run.data.resultData.runData[node];
		if (!runs?.length) {
			throw new E2eFailure(node, `did not run (nodes that ran: ${this.nodesRun().join(', ')})`);
		}
		const first = runs[0];
		if (first.error) throw new E2eFailure(node, `failed: ${describeError(first.error)}`);
		return first.data?.main?.[output] ?? [];
	}

	/** The JSON of one output of every run of a node (nodes in a loop run several times). */
	runs(node: string, output = 0): Array<Array<Record<string, unknown>>> {
		const runs = this.run.data.resultData.runData[node] ?? [];
		return runs.map((nodeRun, index) => {
			if (nodeRun.error) {
				throw new E2eFailure(node, `run ${index + 1} failed: ${describeError(nodeRun.error)}`);
			}
			return (nodeRun.data?.main?.[output] ?? []).map((item) => item.json);
		});
	}

	json(node: string, output = 0): Array<Record<string, unknown>> {
		return this.items(node, output).map((item) => item.json);
	}

	/** "Start: 1, Flare: 5 items" — for the log. */
	itemCounts(): string {
		return Object.entries(this.run.data.resultData.runData)
			.map(([node, runs]) => {
				const counts = runs.map((nodeRun) => {
					// AI sub-nodes output on their own connection type (ai_tool, ai_languageModel).
					const data = (nodeRun.data ?? {}) as Record<string, Array<ExecutionItem[] | null>>;
					const outputs = (data.main ?? Object.values(data)[0] ?? []).map(
						(items) => items?.length ?? 0,
					);
					return outputs.length > 1 ? outputs.join('/') : String(outputs[0] ?? 0);
				});
				return `${node}: ${counts.join(' then ')}`;
			})
			.join(', ');
	}
}

// ---- checks: each failure names the node it is about ----

export function check(condition: boolean, node: string | undefined, detail: string): void {
	if (!condition) throw new E2eFailure(node, detail);
}

const show = (value: unknown) => {
	const text = JSON.stringify(value);
	return text === undefined ? 'undefined' : text.length > 600 ? `${text.slice(0, 600)}…` : text;
};

/** Deep equality on JSON values, with object keys in any order. */
export function sameJson(actual: unknown, expected: unknown): boolean {
	return JSON.stringify(sortKeys(actual)) === JSON.stringify(sortKeys(expected));
}

function sortKeys(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(sortKeys);
	if (value && typeof value === 'object') {
		return Object.fromEntries(
			Object.keys(value as object)
				.sort()
				.map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
		);
	}
	return value;
}

export function checkEqual(
	actual: unknown,
	expected: unknown,
	node: string | undefined,
	what: string,
): void {
	if (sameJson(actual, expected)) return;
	if (Array.isArray(actual) && Array.isArray(expected)) {
		if (actual.length !== expected.length) {
			throw new E2eFailure(
				node,
				`${what}: expected ${expected.length} entries, got ${actual.length}; expected ${show(expected)}, got ${show(actual)}`,
			);
		}
		const index = expected.findIndex((entry, k) => !sameJson(actual[k], entry));
		throw new E2eFailure(
			node,
			`${what}, entry ${index}: expected ${show(expected[index])}, got ${show(actual[index])}`,
		);
	}
	throw new E2eFailure(node, `${what}: expected ${show(expected)}, got ${show(actual)}`);
}
