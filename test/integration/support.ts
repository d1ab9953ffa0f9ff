import { createHash } from 'crypto';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { CredentialRecord, IdentityRecord } from '../contract';
import {
	FakeFlare,
	type FakeFlareOptions,
	type FlareAlert,
	holdsPlanted,
	type LoggedRequest,
	PLANTED_MARKER,
	pushAlert,
	type PushOptions,
} from '../fake-flare';
import { PLURAL_SECRET_NAMES, SECRET_NAME_SET } from '../fake-flare/secret-names';
import { Harness } from '../harness/engine';
import { addAlertCredential, AlertWebhookWorkflow, type N8nSaving } from '../harness/webhook';
import { CANARY_SIGNING_SECRET } from '../reliability/secret-scan';
import { realSleep } from '../support/clock';
import { fs, fsp, performance, processRef } from '../support/node';

/** Requests the node made to the API itself (the token exchange left out). */
export function apiRequests(fake: FakeFlare): LoggedRequest[] {
	return fake.requests.filter((request) => !request.path.startsWith('/tokens/'));
}

/**
 * The masking the README promises, written independently of the node's code: eight stars whatever
 * the length, with the first and last characters around them for 12 characters or more.
 */
export function masked(value: string): string {
	const characters = [...value];
	return characters.length < 12
		? '********'
		: `${characters[0]}********${characters[characters.length - 1]}`;
}

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** n8n's log of this jest worker (test/support/jest-env.js). */
const logFile = () => processRef.env.N8N_LOG_FILE_LOCATION!;

/** The size of n8n's log: where what comes next starts. */
export const logSize = () => (fs.existsSync(logFile()) ? fs.statSync(logFile()).size : 0);

/** n8n's log from `offset` on. */
export function logSince(offset: number): string {
	try {
		return fs.readFileSync(logFile(), 'utf8').slice(offset);
	} catch {
		return '';
	}
}

/**
 * Waits (real time, at most 5 s) until the fake noted that the client went away from a held answer:
 * the client's close reaches the fake a moment after the node returned.
 */
export async function untilDisconnected(entry: LoggedRequest): Promise<void> {
	for (let waited = 0; entry.disconnectedAt === undefined && waited < 5_000; waited += 20) {
		await realSleep(20);
	}
	expect(entry.disconnectedAt).toEqual(expect.any(Number));
}

/**
 * n8n's log from `offset` on, once it holds `text` (n8n writes its log file a moment later, each line
 * in order: once a line is there, every line logged before it is too).
 */
export async function loggedSince(offset: number, text: string): Promise<string> {
	// Real time, not the virtual clock's (which jumps when nothing is under way): each look waits for
	// a real read of the file, so n8n's logger gets its turn between them.
	const until = performance.now() + 10_000;
	while (!logSince(offset).includes(text) && performance.now() < until) {
		await fsp.readFile(logFile()).catch(() => undefined);
	}
	const log = logSince(offset);
	expect(log).toContain(text);
	return log;
}

/**
 * What default output promises for data the fake served (docs/api-contract.md, "Masking"), written
 * from the fake's planted values (test/fake-flare/planted.ts) and the names it plants under
 * (test/fake-flare/secret-names.ts), not from the node's code: a value under one of those secret
 * names is {@link masked} whole (eight stars when it is not a string; null stays null), as is the
 * `value` beside such a `name`, and each string of a list named like secrets; a string that is a
 * planted value is {@link masked}; a planted value inside other text, as it is or percent-encoded,
 * becomes eight stars, also when a highlight's `<mark>` tags split it (they go with it).
 */
export function maskedView<T>(data: T, plantedValues: Iterable<string>): T {
	const values = new Set(plantedValues);
	const forms = new Set(
		[...values].flatMap((value) => {
			const encoded = encodeURIComponent(value);
			// A value quoted with Flare's highlights inside it (notations.ts, `plantedLeak`): also without them.
			return [value, value.replace(/<\/?mark>/g, ''), encoded, encoded.replace(/%20/g, '+')];
		}),
	);
	// Thousands of planted values: those in clear are found by their markers, the others (base64,
	// numbers) one by one, and only in a text that holds a planted form at all.
	const inClear = new RegExp(`${PLANTED_MARKER}~[^~]{0,256}~${PLANTED_MARKER}`, 'g');
	const others = [...forms].filter((form) => !form.startsWith(`${PLANTED_MARKER}~`)).sort((a, b) => b.length - a.length);
	const plantedIn = (text: string) => [
		...new Set([...text.matchAll(inClear)].map(([found]) => found).filter((found) => forms.has(found))),
		...others.filter((form) => text.includes(form)),
	];
	const splitByTags = new Map<string, RegExp>();
	const escape = (character: string) => character.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
	const whole = (value: unknown) => (value === null ? null : typeof value === 'string' ? masked(value) : '********');
	const visit = (value: unknown): unknown => {
		if (typeof value === 'string') {
			if (values.has(value)) return masked(value);
			if (value.includes('<mark>')) {
				const plain = value.replace(/<\/?mark>/g, '');
				if (!holdsPlanted(plain)) return value;
				return plantedIn(plain)
					.sort((a, b) => b.length - a.length)
					.map((planted) => {
						if (!splitByTags.has(planted)) splitByTags.set(planted, new RegExp([...planted].map(escape).join('(?:</?mark>)*'), 'g'));
						return splitByTags.get(planted)!;
					})
					.reduce((text, pattern) => text.replace(pattern, '********'), value);
			}
			if (!holdsPlanted(value)) return value;
			return plantedIn(value)
				.sort((a, b) => b.length - a.length)
				.reduce((text, planted) => text.split(planted).join('********'), value);
		}
		if (Array.isArray(value)) {
			// A list of `[name, value]` pairs: the value of a secret's name is a secret.
			return value.map((entry) =>
				Array.isArray(entry) && entry.length === 2 && typeof entry[0] === 'string' && SECRET_NAME_SET.has(entry[0]) && !/\s/.test(entry[0])
					? [entry[0], whole(entry[1])]
					: visit(entry),
			);
		}
		if (value !== null && typeof value === 'object') {
			const object = value as Record<string, unknown>;
			// `{name, value}`, `{Key, Value}`, `{header, value}`: a `key` beside a `value` is the pair's name.
			const pairName = ['name', 'Name', 'NAME', 'key', 'Key', 'KEY', 'header', 'Header', 'HEADER'].map((key) => object[key]);
			const pairsSecret = pairName.some((name) => typeof name === 'string' && SECRET_NAME_SET.has(name) && !/\s/.test(name));
			const isValue = (key: string) => key.toLowerCase() === 'value';
			const hasValue = Object.keys(object).some(isValue);
			return Object.fromEntries(
				Object.entries(object).map(([key, entry]) => {
					if (hasValue && key.toLowerCase() === 'key') return [key, visit(entry)];
					if (SECRET_NAME_SET.has(key) || (isValue(key) && pairsSecret)) return [key, whole(entry)];
					if (PLURAL_SECRET_NAMES.includes(key)) {
						if (typeof entry === 'string') return [key, masked(entry)];
						if (Array.isArray(entry)) return [key, entry.map((inner) => (typeof inner === 'string' || typeof inner === 'number' ? whole(inner) : visit(inner)))];
						// An object of secrets (`secrets: {DB_MAIN: …}`): its strings are secrets.
						if (entry !== null && typeof entry === 'object') return [key, Object.fromEntries(Object.entries(entry).map(([name, inner]) => [name, typeof inner === 'string' ? whole(inner) : visit(inner)]))];
					}
					return [key, visit(entry)];
				}),
			);
		}
		return value;
	};
	return visit(data) as T;
}

/** What Simplify promises for a credential (README), with the leaked value already transformed. */
export function simplifiedCredential(
	record: CredentialRecord,
	hash: string | undefined,
	remaining?: number,
): IDataObject {
	const item: IDataObject = {
		id: record.id,
		identity_name: record.identity_name,
		hash,
		hash_type: record.hash_type ?? null,
		imported_at: record.imported_at,
		source_id: record.source_id,
		source_name: record.source?.name ?? null,
		credential_hash: record.credential_hash ?? null,
	};
	if (hash === undefined) delete item.hash;
	if (record.auth_domains) item.auth_domains = record.auth_domains;
	if (remaining !== undefined) item.globalSearchesRemaining = remaining;
	return item;
}

/** What Simplify promises for identities: one flat item per leaked password. */
export function simplifiedIdentities(
	identities: IdentityRecord[],
	transform: (hash: string) => string = masked,
) {
	return identities.flatMap((identity) =>
		identity.passwords.map((password) => ({
			identity_name: identity.name,
			id: password.id,
			hash: transform(password.hash),
			hash_type: password.hash_type ?? null,
			domain: password.domain ?? null,
			imported_at: password.imported_at,
			source_id: password.source_id,
			source_name: password.source?.name ?? null,
			credential_hash: password.credential_hash ?? null,
		})),
	);
}

export const jsonOf = (items: INodeExecutionData[]) => items.map((item) => item.json);

/**
 * Starts the fake Flare API and the harness for a test file; before each test, the fake is reset to
 * `options` and the harness gets a credential with the full demo key.
 */
export function useFakeFlare(options: FakeFlareOptions = {}): {
	fake: FakeFlare;
	harness: Harness;
} {
	const context = {} as { fake: FakeFlare; harness: Harness };
	beforeAll(async () => {
		context.fake = await FakeFlare.start();
		context.harness = await Harness.create();
	});
	afterAll(async () => await context.fake.stop());
	beforeEach(() => {
		context.fake.reset(options);
		context.harness.addFlareCredential({
			apiKey: context.fake.apiKeys.full,
			baseUrl: context.fake.url,
		});
	});
	return context;
}

/** The Flare Alert Trigger's signing secret in the tests (the secret scan looks for it everywhere). */
export const ALERT_SECRET = CANARY_SIGNING_SECRET;
/** The Alert Trigger checking Flare's signature. */
export const SIGNED = { authentication: 'requestSignature' };
/** n8n's answers to Flare (status and message) when the trigger started an execution, or not. */
export const STARTED = { status: 200, message: 'Workflow was started' };
export const ALREADY = { status: 200, message: 'Alert already received: no execution started' };
/** n8n's answer when the node threw (webhook-helpers' `executeWebhook`), e.g. a test event refused. */
export const N8N_500 = { status: 500, message: 'Workflow Webhook Error: Workflow could not be started!' };

/** The status and message of n8n's answer to a pushed alert. */
export const answered = (result: { status: number; body: unknown }) => ({
	status: result.status,
	message: (result.body as { message?: string }).message,
});
/** Now, in seconds since the epoch (a signature's time). */
export const nowSeconds = () => Math.floor(Date.now() / 1000);
/** The `uid` of every item the workflow's executions started with, in order. */
export const alertUids = (workflow: AlertWebhookWorkflow) =>
	workflow.executions.flatMap((execution) => execution.items.map((item) => item.json.uid));

/**
 * A Flare Alert Trigger test file's set-up: the fake Flare API with `credentials`, the harness with
 * the signing-secret credential, and the workflow that `start` activates (stopped after each test).
 */
export function useAlertTrigger({ credentials = 10 } = {}) {
	const context = {} as {
		fake: FakeFlare;
		harness: Harness;
		credentialId: string;
		workflow: AlertWebhookWorkflow;
	};
	beforeAll(async () => {
		context.fake = await FakeFlare.start({ credentials });
		context.harness = await Harness.create();
		context.credentialId = addAlertCredential(context.harness, ALERT_SECRET);
	});
	afterAll(async () => await context.fake.stop());
	afterEach(async () => await context.workflow?.stop());
	return Object.assign(context, {
		/** Activates the trigger; when it checks signatures, with the signing-secret credential. */
		async start(parameters: IDataObject = SIGNED, n8n?: N8nSaving) {
			context.workflow = await AlertWebhookWorkflow.start(context.harness, {
				parameters,
				credentialId:
					parameters.authentication === 'requestSignature' ? context.credentialId : undefined,
				n8n,
			});
			return context.workflow;
		},
		/** Pushes `alert` to the Production URL as Flare does; resolves once what it started ended. */
		async push(alert: FlareAlert | FlareAlert[], options: PushOptions = { secrets: [ALERT_SECRET] }) {
			const result = await pushAlert(context.workflow.productionUrl, alert, options);
			await context.workflow.settled();
			return result;
		},
	});
}

/**
 * The oracle of every event of a feed walk whoever acted on it, as the Flare Trigger's New Event reads
 * them (docs/trigger.md, "New Event"): Flare's feed leaves out the events marked ignored or remediated
 * unless asked, so the trigger also asks for those; in Flare's order within each of the four searches.
 */
export function everyEvent(fake: FakeFlare, tenantId: number, body: IDataObject, identifierId?: number) {
	const filters = (body.filters ?? {}) as IDataObject;
	return [{}, { is_ignored: true }, { is_remediated: true }, { is_ignored: true, is_remediated: true }].flatMap((partition) =>
		fake.feed.feedAll(tenantId, { ...body, filters: { ...filters, ...partition } }, identifierId),
	);
}

