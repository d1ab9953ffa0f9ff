import type {
	IExecuteFunctions,
	IGetNodeParameterOptions,
	INode,
	IPollFunctions,
} from 'n8n-workflow';

/**
 * One set of parameters being processed: an input item of the Flare node (its context plus the
 * item's index), or the single parameter set of a poll of the Flare Trigger. n8n resolves a poll's
 * parameters at item 0, so a poll is item 0 here too.
 */
export class FlareItem {
	private constructor(
		readonly context: IExecuteFunctions | IPollFunctions,
		readonly index: number,
		private readonly read: (
			name: string,
			fallback: unknown,
			options?: IGetNodeParameterOptions,
		) => unknown,
	) {}

	/** Input item `index` of a node execution. */
	static ofInput(context: IExecuteFunctions, index: number): FlareItem {
		return new FlareItem(context, index, (name, fallback, options) =>
			context.getNodeParameter(name, index, fallback, options),
		);
	}

	/** The parameters of a poll, which has no input items. */
	static ofPoll(context: IPollFunctions): FlareItem {
		return new FlareItem(context, 0, (name, fallback, options) =>
			context.getNodeParameter(name, fallback, options),
		);
	}

	/** A parameter of this item, expressions resolved. */
	parameter<T = unknown>(name: string, fallback?: T): T {
		return this.read(name, fallback) as T;
	}

	/**
	 * The value of a resource locator parameter, whatever the mode ("From List", "By ID"). A saved
	 * workflow may still hold a plain value there (from before the parameter became a locator): n8n
	 * hands that back unchanged.
	 */
	locator(name: string): unknown {
		return this.read(name, '', { extractValue: true });
	}

	node(): INode {
		return this.context.getNode();
	}
}
