import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { EVENT_TYPES } from '../resources/event/feed';
import { FlareItem } from '../shared/item';
import type { FlareOperation } from '../shared/operation';
import { protectLeakedValues } from '../shared/masking';
import { callFlare } from '../shared/runner';

/** GET /{segment}/v4/events/filters/types: `{categories: [{value, label, types: [{value, label}]}]}`. */
const eventFilterTypes: FlareOperation = {
	action: 'list the event types',
	method: 'GET',
	path: '/{segment}/v4/events/filters/types',
	tier: 'basic',
	// Flare's event types are the same in every tenant.
	credentialTenant: true,
	properties: [],
	output: (_item, records) => records,
};

const entriesOf = (value: unknown): IDataObject[] =>
	Array.isArray(value)
		? value.filter((entry): entry is IDataObject => !!entry && typeof entry === 'object')
		: [];

const textOf = (value: unknown): string | undefined =>
	typeof value === 'string' && value.trim() !== '' ? value : undefined;

/** The `methods.loadOptions` of the Flare node. */
export const loadOptions = {
	/**
	 * The event types of the feed filters, as Flare lists them: each category (which stands for all
	 * its types) and each type, sorted by name. Values the node would refuse (not among the types
	 * Flare documents) are left out.
	 */
	async getEventTypes(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
		let body: unknown;
		await callFlare(FlareItem.ofNode(this, []), eventFilterTypes, {
			onPage(_records, response) {
				// What a dropdown shows is masked as any output (docs/api-contract.md, "Masking").
				const answer = response.body;
				body =
					answer && typeof answer === 'object'
						? protectLeakedValues(answer as IDataObject, 'masked')
						: answer;
				return false;
			},
		});
		const options = new Map<string, INodePropertyOptions>();
		const add = (value: string, name: string, description: string) => {
			if (EVENT_TYPES.includes(value) && !options.has(value)) {
				options.set(value, { name, value, description });
			}
		};
		for (const category of entriesOf((body as IDataObject | undefined)?.categories)) {
			const value = textOf(category.value);
			if (!value) continue;
			const label = textOf(category.label) ?? value;
			const types = entriesOf(category.types);
			const names = types.map((type) => textOf(type.label) ?? textOf(type.value)).filter(Boolean);
			add(value, `${label} (Category)`, `Every type of the category: ${names.join(', ')}`);
			for (const type of types) {
				const typeValue = textOf(type.value);
				if (typeValue) add(typeValue, textOf(type.label) ?? typeValue, `In ${label}`);
			}
		}
		return [...options.values()].sort((a, b) => a.name.localeCompare(b.name));
	},
};
