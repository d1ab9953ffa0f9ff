import { unflatten } from '../e2e/manual';

describe("reading n8n's saved execution data (flatted)", () => {
	it('rebuilds nested objects, arrays, shared strings and cycles', () => {
		// What flatted.stringify writes for a run with two items sharing a string, and a cycle.
		const text =
			'[{"resultData":"1","list":"2","self":"0"},{"runData":"3"},["4",null,true,3],{"A":"5"},"y",["6"],{"data":"7"},{"main":"8"},["9"],["10","11"],{"json":"12"},{"json":"13"},{"id":1,"name":"14"},{"id":2,"name":"14"},"x"]';
		const value = unflatten(text) as Record<string, unknown>;
		expect(value.self).toBe(value);
		const { self, ...rest } = value;
		expect(self).toBeDefined();
		expect(rest).toEqual({
			resultData: {
				runData: {
					A: [
						{ data: { main: [[{ json: { id: 1, name: 'x' } }, { json: { id: 2, name: 'x' } }]] } },
					],
				},
			},
			list: ['y', null, true, 3],
		});
	});

	it('reads a lone primitive', () => {
		expect(unflatten('["text"]')).toBe('text');
	});
});
