import type {
	IExecuteFunctions,
	IHookFunctions,
	ILoadOptionsFunctions,
	INode,
	INodeProperties,
	INodePropertyCollection,
	IPollFunctions,
} from 'n8n-workflow';

/**
 * The contexts that send Flare requests: a node execution, a trigger's poll, a picker's list, or a
 * webhook trigger's activation (the Flare Alert Trigger creating its channel).
 */
export type FlareContext =
	| IExecuteFunctions
	| IPollFunctions
	| ILoadOptionsFunctions
	| IHookFunctions;

type Memo = Map<string, { value: unknown } | { error: unknown }>;
/**
 * What {@link FlareItem.once} read for the input items of a node run, by its context and the item's
 * index: every FlareItem of them shares it. n8n makes an execution context for each run of a node
 * (`WorkflowExecute.runNode`), so nothing is kept from one run to the next. A poll's context is not
 * such: n8n makes one per activation and polls with it at every tick (`activatePollTrigger`), so a
 * poll, a list or a hook keeps what it read in its own FlareItem (`ofNode`).
 */
const inputMemos = new WeakMap<object, Map<number, Memo>>();

/** The display name of a parameter (`name`, or `collection.option`), from the form's properties. */
export function displayNameIn(properties: INodeProperties[], path: string): string | undefined {
	const [name, ...rest] = path.split('.');
	const property = properties.find((candidate) => candidate.name === name);
	if (!property) return undefined;
	if (rest.length === 0) return property.displayName;
	const options = (property.options ?? []) as Array<INodeProperties | INodePropertyCollection>;
	const nested = options.flatMap((option) =>
		'values' in option ? option.values : 'displayName' in option ? [option as INodeProperties] : [],
	);
	return displayNameIn(nested, rest.join('.'));
}

/**
 * One set of parameters being processed: an input item of the Flare node (its context plus the
 * item's index), the single parameter set of a poll of the Flare Trigger, or a picker's list. n8n
 * resolves a poll's parameters at item 0, so a poll is item 0 here too. Messages name parameters by
 * the display names of `properties`, the form of the operation at hand.
 */
export class FlareItem {
	private constructor(
		readonly context: FlareContext,
		readonly index: number,
		/** The form of the operation at hand, whose display names messages use. */
		readonly properties: INodeProperties[],
		private readonly read: (name: string, fallback: unknown) => unknown,
		private readonly memo: Memo,
		private readonly cancel?: AbortSignal,
	) {}

	/** Input item `index` of a node execution. */
	static ofInput(
		context: IExecuteFunctions,
		index: number,
		properties: INodeProperties[],
	): FlareItem {
		let byItem = inputMemos.get(context);
		if (!byItem) inputMemos.set(context, (byItem = new Map()));
		let memo = byItem.get(index);
		if (!memo) byItem.set(index, (memo = new Map()));
		return new FlareItem(
			context,
			index,
			properties,
			(name, fallback) => context.getNodeParameter(name, index, fallback),
			memo,
		);
	}

	/**
	 * The parameters of one poll, one picker's list or one hook call: a node without input items, read
	 * afresh each time (a poll's context serves every poll of an activation). `cancel` ends every
	 * request and wait of it when it fires (a poll's deadline).
	 */
	static ofNode(
		context: IPollFunctions | ILoadOptionsFunctions | IHookFunctions,
		properties: INodeProperties[],
		cancel?: AbortSignal,
	) {
		return new FlareItem(
			context,
			0,
			properties,
			(name, fallback) => context.getNodeParameter(name, fallback),
			new Map(),
			cancel,
		);
	}

	/** The same item (what {@link once} read included), its requests and waits ended by `cancel`. */
	withCancel(cancel: AbortSignal): FlareItem {
		return new FlareItem(this.context, this.index, this.properties, this.read, this.memo, cancel);
	}

	/**
	 * `read()`'s value (or what it threw) the first time this item (a node run's input item, or one
	 * poll) asks for `key`, the same for the rest of it: a value that decides where requests go (the
	 * Tenant) is read once per item and poll, even from an expression whose value changes (e.g. one
	 * of `$now`); the next poll reads it again.
	 */
	once<T>(key: string, read: () => T): T {
		let entry = this.memo.get(key);
		if (!entry) {
			try {
				entry = { value: read() };
			} catch (error) {
				entry = { error };
			}
			this.memo.set(key, entry);
		}
		if ('error' in entry) throw entry.error;
		return entry.value as T;
	}

	/**
	 * Whether parameter `name` holds an expression, as saved: a text starting with `=`, or a resource
	 * locator whose value is one (whatever it resolves to).
	 */
	isExpression(name: string): boolean {
		let value: unknown = this.context.getNode().parameters;
		for (const part of name.split('.')) {
			value =
				value !== null && typeof value === 'object'
					? (value as Record<string, unknown>)[part]
					: undefined;
		}
		if (value !== null && typeof value === 'object' && 'value' in value) {
			value = (value as { value?: unknown }).value;
		}
		return typeof value === 'string' && value.startsWith('=');
	}

	/** A parameter of this item, expressions resolved. */
	parameter<T = unknown>(name: string, fallback?: T): T {
		return this.read(name, fallback) as T;
	}

	/**
	 * The value of a resource locator parameter, whatever the mode ("From List", "By ID"), also inside
	 * a collection (e.g. `filters.groupId`), also as the form's default (`{ mode, value }`, without
	 * `__rl`). A saved workflow may still hold a plain value there (from before the parameter became
	 * a locator): it comes back unchanged. None of our locators' modes
	 * extracts its value with a pattern, so the locator's `value` is the value.
	 */
	locator(name: string): unknown {
		const value = this.read(name, '');
		const isLocator =
			value !== null &&
			typeof value === 'object' &&
			('__rl' in value ||
				(typeof (value as { mode?: unknown }).mode === 'string' && 'value' in value));
		return isLocator ? (value as { value?: unknown }).value : value;
	}

	/** The display name of parameter `name` (e.g. `options.importedFrom` → "Imported From"). */
	displayName(name: string): string {
		return displayNameIn(this.properties, name) ?? name;
	}

	/** The execution's cancel signal, or the one given (a poll's deadline); pickers have none. */
	cancelSignal(): AbortSignal | undefined {
		if (this.cancel) return this.cancel;
		return 'getExecutionCancelSignal' in this.context
			? this.context.getExecutionCancelSignal()
			: undefined;
	}

	node(): INode {
		return this.context.getNode();
	}

	/**
	 * The values of the form's password fields, also inside collections (the secret a search looks
	 * for, an identifier's secret, the cookie value of Leaked Cookie → Search's Filters): outputs and
	 * error messages mask them where Flare quotes them (docs/api-contract.md, "Masking").
	 */
	secretValues(): string[] {
		const values: string[] = [];
		const add = (value: unknown) => {
			if (typeof value !== 'string') return;
			for (const text of [value, value.trim()]) {
				if (text !== '' && !values.includes(text)) values.push(text);
			}
		};
		for (const property of this.properties) {
			if (property.typeOptions?.password !== true && !holdsPassword(property)) continue;
			let value: unknown;
			try {
				value = this.read(property.name, '');
			} catch {
				continue;
			}
			passwordsIn(property, value, add);
		}
		return values;
	}
}

/** The fields of a collection (its options) or of a fixed collection (its groups' values). */
function fieldsOf(property: INodeProperties): INodeProperties[] {
	const options = (property.options ?? []) as Array<INodeProperties | INodePropertyCollection>;
	return options.flatMap((option) =>
		'values' in option ? option.values : 'type' in option ? [option as INodeProperties] : [],
	);
}

/** Whether a collection holds a password field, at any depth. */
function holdsPassword(property: INodeProperties): boolean {
	return fieldsOf(property).some(
		(field) => field.typeOptions?.password === true || holdsPassword(field),
	);
}

/** Gives `add` the values of the password fields in `value`, the value of `property`. */
function passwordsIn(property: INodeProperties, value: unknown, add: (value: unknown) => void) {
	if (property.typeOptions?.password === true) {
		add(value);
		return;
	}
	if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
	const object = value as Record<string, unknown>;
	const options = (property.options ?? []) as Array<INodeProperties | INodePropertyCollection>;
	for (const option of options) {
		if ('values' in option) {
			// A group of a fixed collection: one entry, or a list of them.
			const group = object[option.name];
			for (const entry of Array.isArray(group) ? group : [group]) {
				if (entry === null || typeof entry !== 'object') continue;
				for (const field of option.values) {
					passwordsIn(field, (entry as Record<string, unknown>)[field.name], add);
				}
			}
		} else if ('type' in option) {
			passwordsIn(option, object[option.name], add);
		}
	}
}
