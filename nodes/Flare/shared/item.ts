import type { IExecuteFunctions, INode, IPollFunctions } from 'n8n-workflow';

/**
 * One set of parameters being processed: an input item of the Flare node (its context plus the
 * item's index), or the single parameter set of a poll of the Flare Trigger. n8n resolves a poll's
 * parameters at item 0, so a poll is item 0 here too.
 */
export class FlareItem {
	private constructor(
		readonly context: IExecuteFunctions | IPollFunctions,
		readonly index: number,
		private readonly read: (name: string, fallback: unknown) => unknown,
	) {}

	/** Input item `index` of a node execution. */
	static ofInput(context: IExecuteFunctions, index: number): FlareItem {
		return new FlareItem(context, index, (name, fallback) =>
			context.getNodeParameter(name, index, fallback),
		);
	}

	/** The parameters of a poll, which has no input items. */
	static ofPoll(context: IPollFunctions): FlareItem {
		return new FlareItem(context, 0, (name, fallback) => context.getNodeParameter(name, fallback));
	}

	/** A parameter of this item, expressions resolved. */
	parameter<T = unknown>(name: string, fallback?: T): T {
		return this.read(name, fallback) as T;
	}

	node(): INode {
		return this.context.getNode();
	}
}
