/**
 * Bad input, property-based: for every parameter of every operation (and the trigger's), random
 * values of every shape (random and unicode strings, huge values, wrong types from expressions,
 * empty values, path tricks) go through a real engine run. Each run must either work, or stop with a
 * NodeOperationError that names the parameter before any request; a path parameter must never
 * change the path of the request.
 */
import fc from 'fast-check';
import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { LoggedRequest } from '../fake-flare';

/** Fixed, so that every run of the suite tries the same values. */
export const SEED = 20_251_122;

/** One value for the parameter under test, and the input items it may read with `$json`. */
export interface Mutation {
	/** How the value was made, for failure messages. */
	shape: string;
	/** The parameter's value as stored in the workflow (an expression, a locator, a literal). */
	value: unknown;
	/** What the node reads once n8n resolved the expression. */
	resolved: unknown;
	items?: IDataObject[];
}

/** A parameter of a form, with its path (`options.order`) and what the node shows. */
export interface FormParameter {
	path: string;
	property: INodeProperties;
	/** Display name, and the display name of the collection it belongs to. */
	displayName: string;
	/** Other parameters that must hold these values for this one to be shown. */
	shownWith: IDataObject;
}

const SELECTORS = new Set(['resource', 'operation']);

/**
 * The parameters of a form: the properties shown for the selectors, collections opened into their
 * options. Notices and the selectors themselves are left out.
 */
export function formOf(properties: INodeProperties[], selectors: IDataObject): FormParameter[] {
	const parameters: FormParameter[] = [];
	for (const property of properties) {
		if (property.type === 'notice' || SELECTORS.has(property.name)) continue;
		const show = property.displayOptions?.show ?? {};
		const shownWith: IDataObject = {};
		let shown = true;
		for (const [name, values] of Object.entries(show)) {
			if (name in selectors) {
				if (!(values as unknown[]).includes(selectors[name])) shown = false;
			} else {
				shownWith[name] = (values as IDataObject[string][])[0];
			}
		}
		if (!shown) continue;
		if (property.type === 'collection') {
			for (const option of property.options as INodeProperties[]) {
				parameters.push({
					path: `${property.name}.${option.name}`,
					property: option,
					displayName: option.displayName,
					shownWith,
				});
			}
		} else {
			parameters.push({ path: property.name, property, displayName: property.displayName, shownWith });
		}
	}
	return parameters;
}

/** Sets `value` at `path` (one level of collection) in a copy of `parameters`. */
export function withValue(parameters: IDataObject, path: string, value: unknown): IDataObject {
	const [head, child] = path.split('.');
	if (!child) return { ...parameters, [head]: value as IDataObject[string] };
	return { ...parameters, [head]: { ...((parameters[head] as IDataObject) ?? {}), [child]: value as IDataObject[string] } };
}

const literal = (shape: string) => (value: unknown): Mutation => ({ shape, value, resolved: value });

/** Strings that have broken URL paths and parsers elsewhere. */
const TRICKY_STRINGS = [
	'',
	' ',
	'\t\n',
	'.',
	'..',
	'...',
	'../tokens/generate',
	'./x',
	'%2e%2e',
	'%2E%2E%2F',
	'/',
	'//',
	'a/b',
	'?x=1',
	'#frag',
	'%',
	'%zz',
	'\\..\\',
	'*',
	'**',
	'\u0000',
	'\u202Eevil',
	'\uD800',
	'a\uDFFFb',
	'😀🔥',
	'名前@例え.jp',
	'null',
	'undefined',
	'0',
	'-1',
	'1e21',
	'NaN',
	'true',
	'{{ 1 }}',
	'={{ 1 }}',
	'$json',
	'<script>alert(1)</script>',
	"' OR 1=1 --",
];

/**
 * The strings that could move a request to another path of Flare's: every run tries them on each
 * path parameter (they are refused before any request, in a few milliseconds).
 */
const PATH_SAFETY_STRINGS = new Set(['.', '..', '../tokens/generate', './x', '%2e%2e', '%2E%2E%2F', '/', '//', 'a/b', '?x=1', '#frag', '\\..\\']);

/** Of a path parameter's {@link examplesFor}, those that would move its request elsewhere. */
export const pathSafetyExamples = (examples: Mutation[]): Mutation[] =>
	examples.filter((mutation) => typeof mutation.resolved === 'string' && PATH_SAFETY_STRINGS.has(mutation.resolved));

/** Expressions whose result has the wrong type, or no value at all, with that result. */
const EXPRESSIONS: Array<[string, unknown]> = [
	['={{ 123 }}', 123],
	['={{ -1 }}', -1],
	['={{ 0 }}', 0],
	['={{ 1.5 }}', 1.5],
	['={{ 1e21 }}', 1e21],
	['={{ NaN }}', Number.NaN],
	['={{ Infinity }}', Number.POSITIVE_INFINITY],
	['={{ [1,2] }}', [1, 2]],
	['={{ [] }}', []],
	['={{ {a:1} }}', { a: 1 }],
	['={{ {} }}', {}],
	['={{ null }}', null],
	['={{ undefined }}', undefined],
	['={{ true }}', true],
	['={{ false }}', false],
	['={{ "" }}', ''],
	['={{ "   " }}', '   '],
	['={{ $json.missing }}', undefined],
	['={{ "x".repeat(100000) }}', 'x'.repeat(100_000)],
];

/** Any JSON value reaching the parameter through an expression on the input item. */
const fromItem = fc.jsonValue().map(
	(value): Mutation => ({
		shape: 'expression on the input item',
		value: '={{ $json.v }}',
		resolved: value,
		items: [{ v: value as IDataObject[string] }],
	}),
);

/** A string typed into the field: never starting with "=", which would make it an expression. */
const typed = (arbitrary: fc.Arbitrary<string>) => arbitrary.filter((text) => !text.startsWith('='));

const strings: fc.Arbitrary<Mutation> = fc.oneof(
	{ weight: 3, arbitrary: typed(fc.string({ maxLength: 40 })).map(literal('random string')) },
	{ weight: 3, arbitrary: typed(fc.string({ unit: 'grapheme', maxLength: 40 })).map(literal('unicode string')) },
	{ weight: 2, arbitrary: typed(fc.string({ unit: 'binary', maxLength: 40 })).map(literal('any code points')) },
	{
		weight: 2,
		arbitrary: typed(fc.string({ unit: fc.constantFrom('.', '/', '%', '2', 'e', '?', '#', '\\', ' ', 'a', '*', '@'), maxLength: 12 })).map(
			literal('path characters'),
		),
	},
	{ weight: 3, arbitrary: fc.constantFrom(...TRICKY_STRINGS).filter((text) => !text.startsWith('=')).map(literal('tricky string')) },
	{ weight: 1, arbitrary: fc.integer({ min: 2_000, max: 120_000 }).map((length) => literal('huge string')('x'.repeat(length))) },
);

const wrongTypes: fc.Arbitrary<Mutation> = fc.oneof(
	{
		weight: 3,
		arbitrary: fc
			.constantFrom(...EXPRESSIONS)
			.map(([value, resolved]): Mutation => ({ shape: 'expression of the wrong type', value, resolved })),
	},
	{ weight: 3, arbitrary: fromItem },
	{ weight: 1, arbitrary: fc.jsonValue().filter((value) => !(typeof value === 'string' && value.startsWith('='))).map(literal('stored value of any type')) },
);

const numbers: fc.Arbitrary<Mutation> = fc.oneof(
	fc.integer().map(literal('integer')),
	fc.double({ noNaN: true, noDefaultInfinity: true }).map(literal('number')),
	fc.constantFrom(0, -1, 1, 2 ** 31, 2 ** 53 + 2, 1e21, 1e308, -1e308, 0.5).map(literal('edge number')),
);

/** Valid Timeouts start at 2 s here: a shorter one may really time out against the fake, and each retry waits. */
const timeouts: fc.Arbitrary<Mutation> = fc.oneof(
	fc.integer({ min: 2_000, max: 2 ** 31 - 1 }).map(literal('timeout')),
	fc.integer({ max: 0 }).map(literal('timeout not positive')),
	fc.double({ min: 1, max: 1e6, noNaN: true }).filter((value) => !Number.isInteger(value)).map(literal('fractional timeout')),
	fc.constantFrom(2 ** 31, 2 ** 53, 1e21, 1e308).map(literal('huge timeout')),
);

const dateTimes: fc.Arbitrary<Mutation> = fc.oneof(
	fc.date({ noInvalidDate: true }).map((date) => literal('ISO date-time')(date.toISOString())),
	fc.constantFrom('2024-02-30T00:00:00Z', '2024-01-01', '2024-01-01T00:00:00', '31/01/2024', 'yesterday', '0', '99999-01-01T00:00:00Z').map(literal('odd date-time')),
);

/** A short, readable form of a value (huge strings abbreviated). */
export function preview(value: unknown): string {
	let text: string;
	try {
		text = typeof value === 'number' && !Number.isFinite(value) ? String(value) : (JSON.stringify(value) ?? String(value));
	} catch {
		text = String(value);
	}
	return text.length > 120 ? `${text.slice(0, 60)}…(${text.length} characters)…${text.slice(-20)}` : text;
}

/**
 * Values every run of the suite tries on top of the random ones: for a path parameter every tricky
 * string, for any other parameter the emptiest, the largest and the wrong types.
 */
export function examplesFor(parameter: FormParameter, inPath: boolean): Mutation[] {
	const texts = inPath ? TRICKY_STRINGS : ['', ' ', '..', '\uD800', '😀🔥'];
	const values: Mutation[] = [
		...texts.filter((text) => !text.startsWith('=')).map(literal('tricky string')),
		literal('huge string')('x'.repeat(100_000)),
		...EXPRESSIONS.filter(([expression]) => inPath || /null|\[1,2\]|\{a:1\}|123|true|NaN/.test(expression)).map(
			([value, resolved]): Mutation => ({ shape: 'expression of the wrong type', value, resolved }),
		),
	];
	const locator = parameter.property.type === 'resourceLocator';
	return values
		.map((mutation) =>
			locator ? { ...mutation, shape: `${mutation.shape} (locator, id)`, value: { __rl: true, mode: 'id', value: mutation.value } } : mutation,
		)
		.map(printable);
}

/**
 * The expressions that give nothing (undefined, null, an empty or blank text, a field the item lacks),
 * as the parameter stores them: the Tenant tries them in every run (an expression that finds no
 * tenant must not mean the credential's tenant).
 */
export function emptyExpressions(parameter: FormParameter): Mutation[] {
	const nothing = (resolved: unknown) => resolved === undefined || resolved === null || (typeof resolved === 'string' && resolved.trim() === '');
	const locator = parameter.property.type === 'resourceLocator';
	return EXPRESSIONS.filter(([, resolved]) => nothing(resolved))
		.map(([value, resolved]): Mutation => ({
			shape: `expression that gives nothing${locator ? ' (locator, id)' : ''}`,
			value: locator ? { __rl: true, mode: 'id', value } : value,
			resolved,
		}))
		.map(printable);
}

/** Mutations print short in fast-check's counterexamples. */
const printable = (mutation: Mutation): Mutation =>
	Object.assign(mutation, {
		[fc.toStringMethod]: () => `${mutation.shape}: ${preview(mutation.value)}${mutation.items ? ` with $json.v = ${preview(mutation.resolved)}` : ''}`,
	});

/** Values for one parameter, by its type; every parameter also gets strings and wrong types. */
export function arbitraryFor(parameter: FormParameter): fc.Arbitrary<Mutation> {
	return valuesFor(parameter).map(printable);
}

function valuesFor(parameter: FormParameter): fc.Arbitrary<Mutation> {
	const { property, path } = parameter;
	const choices = (property.options ?? []) as INodePropertyOptions[];
	const values = choices.map((option) => option.value);
	const base: Array<fc.Arbitrary<Mutation>> = [strings, wrongTypes];
	if (path.endsWith('timeout')) return fc.oneof(timeouts, strings, wrongTypes);
	switch (property.type) {
		case 'number':
			base.push(numbers, numbers);
			break;
		case 'boolean':
			base.push(fc.boolean().map(literal('boolean')));
			break;
		case 'options':
			if (values.length) base.push(fc.constantFrom(...values).map(literal('listed option')));
			break;
		case 'multiOptions':
			if (values.length) base.push(fc.subarray(values).map(literal('listed options')));
			// Values loaded from the API (loadOptionsMethod) have no static list: unknown values only.
			base.push(
				fc.array(values.length ? fc.oneof(fc.constantFrom(...values), fc.string()) : fc.string(), { maxLength: 4 }).map(literal('options with unknown values')),
			);
			break;
		case 'dateTime':
			base.push(dateTimes, dateTimes);
			break;
		case 'resourceLocator':
			// A locator holds { __rl, mode, value }: every shape of value, in each of its modes.
			return fc
				.tuple(fc.constantFrom(...(property.modes ?? [{ name: 'id' }]).map((mode) => mode.name)), fc.oneof(strings, wrongTypes, numbers))
				.map(([mode, mutation]) => ({ ...mutation, shape: `${mutation.shape} (locator, ${mode})`, value: { __rl: true, mode, value: mutation.value } }))
				.chain((locator) => fc.oneof(fc.constant(locator), fc.oneof(strings, wrongTypes)));
		default:
			break;
	}
	return fc.oneof(...base);
}

/** What a run did with one value. */
export type InputOutcome = 'rejected' | 'worked' | 'notFound';

export interface RunSummary {
	status: string;
	error?: { name?: string; message?: string; httpCode?: string | null };
	requests: LoggedRequest[];
}

/**
 * Classifies a run, or throws with the reason it is not acceptable. `aliases`: other names the
 * node's messages give the parameter (a picker's error names the ID typed into it, e.g. the
 * "Matching Policy" picker's as "Policy UUID").: a failure other than a
 * NodeOperationError naming the parameter, a NodeOperationError after a request, a request that
 * Flare rejected as invalid, or a path changed by the value.
 */
/** A check of the paths a run's requests went to (PathCheck, EndpointCheck). */
export interface PathVerifier {
	checked: number;
	verify(requests: LoggedRequest[]): void;
}

export function classify(
	parameter: FormParameter,
	run: RunSummary,
	paths: PathVerifier[],
	aliases: string[] = [],
	/**
	 * For a value that a write can judge only once it has read the record it changes (a field of
	 * another policy type): the path of that record, and the refusal that may follow that one read.
	 * Any other refusal, of this value or another, comes before any request.
	 */
	ownRecord?: { path: RegExp; refusal: RegExp },
): InputOutcome {
	const { error, requests } = run;
	// n8n itself refuses to run a node whose required parameter is empty, before the node runs.
	if (error?.name === 'NodeOperationError' || error?.name === 'WorkflowHasIssuesError') {
		const names = [parameter.displayName, ...aliases];
		if (!names.some((name) => String(error.message).includes(name))) {
			throw new Error(`${error.name} does not name '${parameter.displayName}': ${error.message}`);
		}
		const readOwnRecord = (request: LoggedRequest) =>
			ownRecord !== undefined &&
			ownRecord.refusal.test(String(error.message)) &&
			request.method === 'GET' &&
			request.status === 200 &&
			ownRecord.path.test(request.path);
		const api = requests.filter((request) => !request.path.startsWith('/tokens/'));
		if (requests.length > 0 && !(api.length === 1 && readOwnRecord(api[0]))) {
			throw new Error(`NodeOperationError after ${requests.length} request(s): ${error.message}`);
		}
		return 'rejected';
	}
	// A tenant ID the API key may not work in: Flare refuses the token exchange for it (as it answers
	// 404 for an ID it does not know), and nothing else is sent.
	if (
		parameter.path === 'tenant' &&
		error?.name === 'NodeApiError' &&
		/may access tenant \d+/.test(String(error.message)) &&
		requests.length > 0 &&
		requests.every((request) => request.path === '/tokens/generate' && request.status === 403)
	) {
		return 'notFound';
	}
	const rejectedByFlare = requests.filter((request) => request.status >= 400 && request.status !== 404);
	if (rejectedByFlare.length > 0) {
		throw new Error(
			`Flare answered ${rejectedByFlare.map((request) => `${request.status} to ${request.method} ${request.path.slice(0, 120)}`).join(', ')}: the value was sent without being checked`,
		);
	}
	for (const check of paths) check.verify(requests);
	if (!error && run.status === 'success') return 'worked';
	// Flare said 404; or the operation read a list (its last request, a GET that Flare answered) and
	// the record is not in it (Alert Rule → Update finds its rule among its identifier's).
	const api = requests.filter((request) => !request.path.startsWith('/tokens/'));
	const notListed = api.length > 0 && api[api.length - 1].method === 'GET' && api[api.length - 1].status === 200;
	if (error?.name === 'NodeApiError' && error.httpCode === '404' && (requests.some((request) => request.status === 404) || notListed)) {
		return 'notFound';
	}
	throw new Error(`Run failed with ${error?.name}: ${error?.message}`);
}

/** A path parameter: each request to its endpoint must keep the template, one segment that decodes to the value. */
export class PathCheck {
	checked = 0;

	constructor(
		private readonly template: RegExp,
		private readonly expected: unknown,
	) {}

	/**
	 * Builds the check of placeholder `name` (the first one by default) of `template` (e.g.
	 * `/leaksdb/identities/by_password/{password}`); a `{+name}` placeholder spans segments.
	 */
	static of(template: string, segment: string, expected: unknown, name?: string): PathCheck {
		return new PathCheck(PathCheck.pattern(template, segment, name), expected);
	}

	/** `template` as a RegExp: the placeholder `name` (the first by default) captured, the others matched. */
	static pattern(template: string, segment: string, name?: string): RegExp {
		let captured = false;
		const source = template
			.split(/(\{\+?\w+\})/)
			.map((part) => {
				if (part === '{segment}') return segment;
				const placeholder = /^\{(\+?)(\w+)\}$/.exec(part);
				if (!placeholder) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
				const value = placeholder[1] ? '.*' : '[^/]*';
				const capture = !captured && (name === undefined || placeholder[2] === name);
				if (capture) captured = true;
				return capture ? `(${value})` : `(?:${value})`;
			})
			.join('');
		return new RegExp(`^${source}$`);
	}

	verify(requests: LoggedRequest[]): void {
		const api = requests.filter((request) => !request.path.startsWith('/tokens/'));
		for (const request of api) {
			const match = this.template.exec(request.path);
			if (!match) throw new Error(`The request went to ${request.path.slice(0, 200)}, outside ${this.template}`);
			const segment = match[1];
			if (segment.split('/').some((part) => part === '' || part === '.' || part === '..')) throw new Error(`Empty or dot path segment: ${request.path}`);
			const decoded = segment.split('/').map(decodeURIComponent).join('/');
			const text = String(this.expected);
			const candidates = [text, text.trim(), text.trim().toLowerCase(), String(Number(text.trim()))];
			if (!candidates.includes(decoded)) {
				throw new Error(
					`The path segment decodes to ${JSON.stringify(decoded.slice(0, 80))}, not the value ${JSON.stringify(text.slice(0, 80))}`,
				);
			}
			this.checked++;
		}
	}
}

/**
 * The path parameters of an operation whose requests go to several endpoints (an identifier's rules or
 * a group's; a list read before a write): each API request must go to one of `templates`, and each
 * placeholder of that template must decode to the value of its parameter (`expectedOf`).
 */
/** A path placeholder the node fills from Flare's answers, not from a parameter (e.g. the key's organization). */
export const FILLED_FROM_FLARE = Symbol('filled from Flare');

export class EndpointCheck {
	checked = 0;

	constructor(
		private readonly templates: string[],
		private readonly segment: string,
		/** The value a placeholder must hold; `FILLED_FROM_FLARE` for one the node fills from an answer. */
		private readonly expectedOf: (placeholder: string) => unknown,
	) {}

	verify(requests: LoggedRequest[]): void {
		const api = requests.filter((request) => !request.path.startsWith('/tokens/'));
		for (const request of api) {
			const template = this.templates.find((candidate) => PathCheck.pattern(candidate, this.segment).test(request.path));
			if (!template) throw new Error(`The request went to ${request.path.slice(0, 200)}, outside ${this.templates.join(' and ')}`);
			for (const [, name] of template.matchAll(/\{\+?(\w+)\}/g)) {
				const expected = name === 'segment' ? FILLED_FROM_FLARE : this.expectedOf(name);
				if (expected === FILLED_FROM_FLARE) continue;
				PathCheck.of(template, this.segment, expected, name).verify([request]);
			}
			this.checked++;
		}
	}
}
