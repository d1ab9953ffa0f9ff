import type { IExecuteFunctions, INode } from 'n8n-workflow';

/** One input item being processed: the node's context plus the item's index. */
export class FlareItem {
	constructor(
		readonly context: IExecuteFunctions,
		readonly index: number,
	) {}

	/** A parameter of this item, expressions resolved. */
	parameter<T = unknown>(name: string, fallback?: T): T {
		return this.context.getNodeParameter(name, this.index, fallback) as T;
	}

	node(): INode {
		return this.context.getNode();
	}
}
