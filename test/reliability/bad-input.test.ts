import fc from 'fast-check';
import type { IDataObject, INode } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { flareOperations } from '../../nodes/Flare/Flare.node';
import { displayNameIn } from '../../nodes/Flare/shared/item';
import type { FlareOperation } from '../../nodes/Flare/shared/operation';
import { FlareTrigger } from '../../nodes/FlareTrigger/FlareTrigger.node';
import { FakeFlare } from '../fake-flare';
import { Harness, withoutRatePacing } from '../harness/engine';
import { TriggerWorkflow } from '../harness/poll';
import { LONG, volume } from '../support/volume';
import {
	arbitraryFor,
	classify,
	EndpointCheck,
	emptyExpressions,
	examplesFor,
	FILLED_FROM_FLARE,
	formOf,
	PathCheck,
	type PathVerifier,
	pathSafetyExamples,
	preview,
	SEED,
	withValue,
	type FormParameter,
	type InputOutcome,
	type Mutation,
	type RunSummary,
} from './inputs';
import { baseOf, nodeDescription, nodeProperties, operations, validValues } from './operations';
import { CANARY_API_KEY } from './secret-scan';
import { CANARY_OPTIONS, Recorder, type BadInputRow } from './support';

/**
 * Runs per parameter, each a real engine run against the fake: the fixed examples of the parameter
 * first (tricky and huge strings, expressions of the wrong type), then `RUNS` random values. Each
 * parameter tries every string that could move a path parameter's request elsewhere and a sample of
 * the other examples, different ones for each parameter of a form: two, and one random value, in
 * `npm test`; one in four, and 6 random values, in the long-proof run (docs/reliability.md; every
 * example and 30, then 15 and 10, random values until CI's 30 minutes needed the time).
 */
const RUNS = volume(1, 6);

/** The examples one parameter tries: one of every `stride`, from its place in its form. */
function sampled<T>(examples: T[], offset: number): T[] {
	const stride = LONG ? 4 : Math.ceil(examples.length / 2);
	return examples.filter((_, index) => index % stride === offset % stride);
}

/**
 * Tenant is one field of every operation, read by the runner alike for each (runner.ts `tenantOf`):
 * the default run tries it on operations of each kind (a paged read, a single read, a batched
 * write, one that reads Flare before its request, the trigger); the long-proof run on every one.
 */
const TENANT_FIELD_ON = volume<string[] | 'all'>(
	['event → searchTenantFeed', 'identifier → get', 'event → takeAction', 'tenant → getAllInOrganization'],
	'all',
);
const triesTenant = (operation: string) => TENANT_FIELD_ON === 'all' || TENANT_FIELD_ON.includes(operation);

/**
 * The values a write can judge only once it has read the record it changes (an update that sends
 * the record back with its changes): those that fit some records only. Such a value may be refused
 * after that one read; every other value of every operation before any request.
 */
const DEPENDS_ON_OWN_RECORD: Record<string, { paths: string[]; refusal: RegExp }> = {
	'matchingPolicy → update': {
		paths: ['updateFields.query', 'updateFields.matchMode', 'updateFields.matchSubdomains', 'updateFields.cookieNames'],
		refusal: /does not apply to a matching policy of type/,
	},
};
const ownRecordOf = (operation: string, parameter: string, path: string) => {
	const depends = DEPENDS_ON_OWN_RECORD[operation];
	return depends?.paths.includes(parameter) ? { path: PathCheck.pattern(path, 'firework'), refusal: depends.refusal } : undefined;
};

/**
 * The operations and trigger kind issue 34 added: their examples and a sample of random values in the
 * default run, as many random values as the others' in the long run (test/support/volume.ts).
 */
const ADDED = ['alertChannel.getAll', 'alertRule', 'identifierRecommendation', 'event.getAiExplanation', 'threatReport.getAll', 'threatReport.get', 'threatReport.download', 'newLeakedCookie'];
const runsOf = (...names: string[]) => (names.some((name) => ADDED.includes(name)) ? volume(6, 6) : RUNS);

const triggerProperties = new FlareTrigger().description.properties;

/** Path placeholders of the operations, and the parameter that fills each. */
const PATH_PARAMETERS: Record<string, string> = {
	password: 'password',
	keyword: 'keyword',
	identifier_id: 'identifierId',
	policy_uuid: 'policyUuid',
	source_id: 'sourceId',
	request_id: 'requestId',
	identifier_group_id: 'groupId',
	assets_group_id: 'groupId',
	asset_id: 'identifierId',
	alert_id: 'alertRuleId',
	report_id: 'reportId',
	uid: 'uid',
	tenant_id: 'targetTenantId',
	user_id: 'userId',
};

/** Path placeholders the node fills from Flare's answers, not from a parameter (e.g. the key's organization). */
const FROM_FLARE = new Set(['organization_id']);

/** The name the operation's messages give a path parameter: its display name in the operation's form. */
function aliasesOf(operation: FlareOperation, parameter: string): string[] {
	return Object.entries(PATH_PARAMETERS)
		.filter(([, source]) => source === parameter)
		.map(([placeholder]) => operation.apiFields?.[placeholder])
		.map((name) => (name === undefined ? undefined : displayNameIn(operation.properties, name)))
		.filter((name): name is string => name !== undefined);
}

/** The parameters that n8n's own check before a run finds issues with (what the editor marks). */
function parametersWithIssues(parameters: IDataObject): string[] {
	const node = { id: 'flare', name: 'Flare', type: 'n8n-nodes-flareio.flare', typeVersion: 1, position: [0, 0], parameters } as INode;
	node.parameters = NodeHelpers.getNodeParameters(nodeProperties, parameters as never, true, false, node, nodeDescription) ?? {};
	const issues = NodeHelpers.getNodeParametersIssues(nodeProperties, node, nodeDescription);
	return Object.keys(issues?.parameters ?? {});
}

/**
 * Whether `stored` is a Tenant expression that gives no tenant ID (`resolved`: nothing, null, blanks):
 * such a value must be refused, never read as an empty field, i.e. the credential's tenant (runner.ts
 * `tenantOf`).
 */
function givesNoTenant(parameter: FormParameter, stored: unknown, resolved: unknown): boolean {
	const value = stored !== null && typeof stored === 'object' && '__rl' in stored ? (stored as IDataObject).value : stored;
	const nothing = resolved === undefined || resolved === null || (typeof resolved === 'string' && resolved.trim() === '');
	return parameter.path === 'tenant' && typeof value === 'string' && value.startsWith('=') && nothing;
}

/** The value the node reads from a stored parameter value (a locator's value; expressions aside). */
const plainValue = (value: unknown) =>
	value !== null && typeof value === 'object' && '__rl' in (value as object) ? (value as IDataObject).value : value;


describe('Bad input: every parameter either works or is rejected before any request, naming it', () => {
	let fake: FakeFlare;
	let harness: Harness;
	let valid: Record<string, unknown>;
	const recorder = new Recorder('bad-input');

	beforeAll(async () => {
		// 2,480 runs: validation and paths are tested here, not the pace (pacing.test.ts).
		await withoutRatePacing();
		fake = await FakeFlare.start({ credentials: 1_000, ...CANARY_OPTIONS });
		harness = await Harness.create();
		harness.addFlareCredential({ apiKey: CANARY_API_KEY, baseUrl: fake.url });
		valid = await validValues(fake, harness);
	}, 60_000);
	afterAll(async () => {
		recorder.save();
		await fake.stop();
	});

	/** Tries `runs` values on one parameter (its examples first); throws on the first unacceptable run. */
	async function property(
		operation: string,
		parameter: FormParameter,
		/** The parameter's place in its form: which examples a short run tries. */
		place: number,
		run: (mutation: Mutation) => Promise<{ summary: RunSummary; paths: PathVerifier[] }>,
		aliases: string[] = [],
		ownRecord?: { path: RegExp; refusal: RegExp },
		runs = RUNS,
		/** The value the run stores in the parameter (the trigger stores what an item would carry). */
		storedOf: (mutation: Mutation) => unknown = (mutation) => mutation.value,
	): Promise<void> {
		const row: BadInputRow = { kind: 'badInput', operation, parameter: parameter.path, runs: 0, rejected: 0, worked: 0, notFound: 0, pathsChecked: 0 };
		// Each parameter from the records as they were, whatever the values tried before wrote (an
		// update tried after a delete would otherwise only ever meet a 404).
		if (fake.state.writes.length > 0) fake.resetData();
		const all = examplesFor(parameter, Object.values(PATH_PARAMETERS).includes(parameter.path));
		const examples = [
			...(parameter.path === 'tenant' ? emptyExpressions(parameter) : []),
			...new Set([...pathSafetyExamples(Object.values(PATH_PARAMETERS).includes(parameter.path) ? all : []), ...sampled(all, place)]),
		];
		await fc.assert(
			fc.asyncProperty(arbitraryFor(parameter), async (mutation) => {
				const { summary, paths } = await run(mutation);
				let outcome: InputOutcome | undefined;
				let problem = '';
				try {
					outcome = classify(parameter, summary, paths, aliases, ownRecord);
				} catch (error) {
					problem = (error as Error).message;
				}
				if (outcome !== undefined && outcome !== 'rejected' && givesNoTenant(parameter, storedOf(mutation), mutation.resolved)) {
					problem = `an expression that gives no tenant ID ${outcome === 'worked' ? "worked in the credential's tenant" : 'was sent'}: it must be refused before any request, naming Tenant`;
					outcome = undefined;
				}
				if (!outcome) {
					throw new Error(
						`${operation}, '${parameter.displayName}' = ${preview(mutation.value)} (${mutation.shape}, read as ${preview(mutation.resolved)}): ${problem}`,
					);
				}
				row.runs++;
				row[outcome]++;
				row.pathsChecked += paths.reduce((sum, check) => sum + check.checked, 0);
			}),
			{
				seed: SEED,
				// fast-check counts the examples among the runs: each of them, then `runs` random values.
				numRuns: examples.length + runs,
				endOnFailure: true,
				examples: examples.map((mutation) => [mutation] as [Mutation]),
			},
		);
		recorder.add(row);
	}

	describe.each(operations())('%s → %s', (resource, operationName) => {
		const selectors = { resource, operation: operationName };
		const form = formOf(nodeProperties, selectors);
		const operation = flareOperations[resource]?.[operationName];

		it('has a runner and parameters to try', () => {
			expect(operation).toBeDefined();
			expect(form.length).toBeGreaterThan(0);
		});

		const tried = form.filter((parameter) => parameter.path !== 'tenant' || triesTenant(`${resource} → ${operationName}`));
		it.each(tried.map((parameter) => [parameter.path, parameter, form.indexOf(parameter)] as const))('%s', async (_path, parameter, place) => {
			const base = { ...baseOf(valid, form, selectors), ...parameter.shownWith };
			await property(`${resource} → ${operationName}`, parameter, place, async (mutation) => {
				const parameters = withValue(base, parameter.path, mutation.value);
				let result: Awaited<ReturnType<Harness['runNode']>>;
				try {
					fake.clearLog();
					result = await harness.runNode({ parameters }, { items: mutation.items ?? [{}] });
				} catch (thrown) {
					// n8n's own check before the run (an empty required parameter, an ID that does not
					// match the picker's pattern) throws here; n8n shows it on the parameter it belongs to.
					const { name, message } = thrown as Error;
					const blamed = parametersWithIssues(parameters);
					const named = blamed.includes(parameter.path.split('.')[0]) ? `${message} [n8n marks '${parameter.displayName}']` : message;
					return { summary: { status: 'error', error: { name, message: named }, requests: [...fake.requests] }, paths: [] };
				}
				const error = result.error as { name?: string; message?: string; httpCode?: string | null } | undefined;
				// Every endpoint of the resource (an operation may write to an identifier's path or a
				// group's, and read a list first): each request keeps one, its values in their segments.
				const placeholders = (template: string) => template.split('{').length;
				const templates = Object.values(flareOperations[resource])
					.flatMap((candidate) => [candidate.path, ...(candidate.otherPaths ?? [])])
					.sort((a, b) => placeholders(a) - placeholders(b));
				const paths = /\{\+?(?!segment\})\w+\}/.test([operation.path, ...(operation.otherPaths ?? [])].join(''))
					? [
							new EndpointCheck(templates, 'firework', (name) => {
								if (FROM_FLARE.has(name)) return FILLED_FROM_FLARE;
								const source = PATH_PARAMETERS[name];
								if (!source) throw new Error(`Unknown path parameter {${name}} of ${resource} → ${operationName}`);
								return plainValue(source === parameter.path ? mutation.resolved : plainValue(parameters[source]));
							}),
						]
					: [];
				return {
					summary: {
						status: result.status,
						error: error && { name: error.name, message: error.message, httpCode: error.httpCode },
						requests: [...fake.requests],
					},
					paths,
				};
			}, aliasesOf(operation, parameter.path), ownRecordOf(`${resource} → ${operationName}`, parameter.path, operation.path), runsOf(resource, `${resource}.${operationName}`));
		}, 120_000);
	});

	describe('Flare Trigger', () => {
		const selectors = {};
		const form = formOf(triggerProperties, selectors);

		it.each(form.map((parameter, place) => [parameter.path, parameter, place] as const))('%s', async (_path, parameter, place) => {
			const base = { ...baseOf(valid, form, selectors), ...parameter.shownWith };
			await property('Flare Trigger', parameter, place, async (mutation) => {
				// A poll reads no input items: values that an item would carry are stored as they are
				// (a text starting with "=" would then be an expression, so those are left out).
				fc.pre(!(mutation.items && typeof mutation.resolved === 'string' && mutation.resolved.startsWith('=')));
				// Nor is there an item for `$json` to read: n8n fails such an expression itself.
				fc.pre(!JSON.stringify(mutation.value ?? null).includes('$json'));
				const parameters = withValue(base, parameter.path, mutation.items ? mutation.resolved : mutation.value);
				fake.clearLog();
				// Each value on a fresh activation (n8n 1.123 activates once; 2.41 tries a failed
				// activation 5 times, the same requests again).
				const workflow = new TriggerWorkflow(harness, { parameters, n8n: '1.123' });
				const result = await workflow.activate();
				return {
					summary: {
						status: result.error ? 'error' : 'success',
						error: result.error && { name: result.error.name, message: result.error.message, httpCode: (result.error as { httpCode?: string }).httpCode },
						requests: [...fake.requests],
					},
					paths: [],
				};
			}, [], undefined, runsOf(String(parameter.shownWith.event ?? '')), (mutation) => (mutation.items ? mutation.resolved : mutation.value));
		}, 120_000);
	});
});
