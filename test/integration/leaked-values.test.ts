/**
 * Leaked values stay hidden on every surface (issue 22): the reproductions of findings 1 and 7 of the
 * event-surface review (2026-11-25), their assertions turned to what is promised — masked by default,
 * the value itself with Leaked Value Output Full — and the other modes. The oracle is the fake: what it
 * served, and its planted values (test/fake-flare/planted.ts) masked as `maskedView` says.
 */
import type { IDataObject } from 'n8n-workflow';

import { holdsPlanted, planted, SECRET_IDENTIFIER_ID } from '../fake-flare';
import { SECRET_NAMES } from '../fake-flare/secret-names';
import { lastLeakedValueScan } from '../harness/collect';
import { TriggerWorkflow } from '../harness/poll';
import { apiRequests, jsonOf, masked, maskedView, sha256, useFakeFlare } from './support';

const TENANT = 101;

describe('Leaked values: masked by default on every surface, in clear with Full', () => {
	const flare = useFakeFlare({ credentials: 100, eventsPerTenant: 80 });
	const feed = (types: string[]) => flare.fake.feed.feedAll(TENANT, { filters: { type: types as never } }) as unknown as IDataObject[];
	const uidOf = (item: IDataObject) => (item.metadata as IDataObject).uid as string;
	const activity = (uid: string) => flare.fake.events.fullEvent(uid, TENANT)!.activity as unknown as IDataObject;
	const asOutput = <T>(data: T): T => maskedView(data, flare.fake.plantedValues());
	const dataOf = (item: IDataObject) => item.data as IDataObject;
	const headerOf = (item: IDataObject) => item.header as IDataObject;
	const getFullEvent = async (uid: string, options: IDataObject = {}) =>
		jsonOf((await flare.harness.runNode({ parameters: { resource: 'event', operation: 'getFullEvent', uid, options } })).output)[0];

	/** Nothing of the last run showed a planted value, as the run collector saw it. */
	const expectNothingPlanted = () => {
		expect(lastLeakedValueScan().hits).toEqual([]);
		expect(lastLeakedValueScan().outputs).toBe(1);
	};

	describe('finding 1: Get Full Event, the feeds, the trigger', () => {
		it('Get Full Event of a leaked credential: the password of data and header masked; Full gives it', async () => {
			const uid = uidOf(feed(['leaked_credential'])[0]);
			const truth = activity(uid);
			const password = dataOf(truth).password as string;
			expect(holdsPlanted(password)).toBe(true);

			const output = await getFullEvent(uid);

			expectNothingPlanted();
			expect(dataOf(output).password).toBe(masked(password));
			expect(headerOf(output).password).toBe(masked(password));
			expect(dataOf(output).identity_name).toBe(dataOf(truth).identity_name);
			expect(output).toEqual(asOutput(truth));
			expect(await getFullEvent(uid, { leakedValueOutput: 'full' })).toEqual(truth);
		});

		it('Get Full Event of a stealer log: saved passwords and session cookies masked, URLs, usernames and cookie names kept', async () => {
			const uid = uidOf(feed(['stealer_log'])[0]);
			const truth = activity(uid);

			const output = await getFullEvent(uid);

			expectNothingPlanted();
			const credentials = dataOf(truth).credentials as IDataObject[];
			const cookies = dataOf(truth).cookies as IDataObject[];
			// A URL keeps its text but the password of its userinfo (docs/api-contract.md, "Masking").
			expect(dataOf(output).credentials).toEqual(
				credentials.map((entry) => ({ ...entry, password: masked(entry.password as string), url: asOutput(entry.url) })),
			);
			expect((dataOf(output).credentials as IDataObject[]).some((entry) => /^https:\/\/[^:/]+:\*{8}@/.test(entry.url as string))).toBe(true);
			expect(dataOf(output).cookies).toEqual(cookies.map((cookie) => ({ ...cookie, value: masked(cookie.value as string) })));
			expect(output).toEqual(asOutput(truth));
			expect(await getFullEvent(uid, { leakedValueOutput: 'full' })).toEqual(truth);
		});

		it("Search Tenant Feed: the highlights of a paste quote its login, not its password; Full quotes both", async () => {
			const paste = feed(['paste'])[0];
			const uid = uidOf(paste);
			const content = dataOf(activity(uid)).content as string;
			const [login, rest] = content.split(':');
			const password = rest.split('\n')[0];
			const search = (options: IDataObject = {}) =>
				flare.harness.runNode({ parameters: { resource: 'event', operation: 'searchTenantFeed', searchBy: 'keyword', keyword: login, returnAll: true, options } });

			const result = await search();

			expectNothingPlanted();
			const hit = jsonOf(result.output).find((item) => uidOf(item) === uid)!;
			expect(hit.highlights).toEqual({ content: [`<mark>${login}</mark>:********\n${content.split('\n')[1]}`] });
			expect(jsonOf(result.output)).toEqual(asOutput(flare.fake.feed.feedAll(TENANT, { query: { type: 'keyword', keyword: login } })));
			const full = await search({ leakedValueOutput: 'full' });
			expect(jsonOf(full.output).find((item) => uidOf(item) === uid)!.highlights).toEqual({ content: [`<mark>${login}</mark>:${password}\n${content.split('\n')[1]}`] });
		});

		it('Get Full Event of the paste: content and content_preview (what the playbook once put in tickets) masked', async () => {
			const uid = uidOf(feed(['paste'])[0]);
			const truth = activity(uid);
			const [login] = (dataOf(truth).content as string).split(':');

			const output = await getFullEvent(uid);

			expectNothingPlanted();
			expect(headerOf(output).content_preview).toMatch(new RegExp(`^${login}:\\*{8}\\n`));
			expect(dataOf(output).content).toMatch(new RegExp(`^${login}:\\*{8}\\n`));
			expect(output).toEqual(asOutput(truth));
			expect(await getFullEvent(uid, { leakedValueOutput: 'full' })).toEqual(truth);
		});

		it('Search Identifier Feed: the same protection', async () => {
			const paste = feed(['paste'])[0];
			const identifierId = ((paste.identifiers as IDataObject[])[0].id as number);
			const login = (dataOf(activity(uidOf(paste))).content as string).split(':')[0];

			const result = await flare.harness.runNode({
				parameters: { resource: 'event', operation: 'searchIdentifierFeed', identifierId: { __rl: true, mode: 'id', value: String(identifierId) }, searchBy: 'keyword', keyword: login, returnAll: true },
			});

			expectNothingPlanted();
			const expected = flare.fake.feed.feedAll(TENANT, { query: { type: 'keyword', keyword: login } }, identifierId);
			expect(JSON.stringify(expected)).toContain('~PlAnTeD');
			expect(jsonOf(result.output)).toEqual(asOutput(expected));
		});

		it('a source-code secret: in the findings of the header and in the code it quotes, masked', async () => {
			const [item] = flare.fake.addEvents(1, { type: 'source_code_secret' });
			const uid = item.metadata.uid;
			const truth = activity(uid);
			const [finding] = headerOf(truth).secrets_metadata as IDataObject[];

			const output = await getFullEvent(uid);

			expectNothingPlanted();
			expect(headerOf(output).secrets_metadata).toEqual([{ ...finding, secret: masked(finding.secret as string) }]);
			expect(dataOf(output).content).toContain('AWS_SECRET_ACCESS_KEY = "********"');
			expect(output).toEqual(asOutput(truth));
			expect(await getFullEvent(uid, { leakedValueOutput: 'full' })).toEqual(truth);
		});

		it('Event → Get (beta): a credential line quoted by a post, masked; Full quotes it', async () => {
			const post = flare.fake.dataset.events().find((event) => holdsPlanted(event.data.content))!;
			const get = async (options: IDataObject = {}) =>
				jsonOf((await flare.harness.runNode({ parameters: { resource: 'event', operation: 'get', uid: post.metadata.uid, options } })).output);

			expect(await get()).toEqual(asOutput([post]));
			expectNothingPlanted();
			expect((await get())[0]).toMatchObject({ data: { content: expect.stringMatching(/\.example:\*{8}$/) } });
			expect(await get({ leakedValueOutput: 'full' })).toEqual([post]);
		});

		it('SHA-256 and Omit apply to every secret of a full event; free text is masked in both', async () => {
			const uid = uidOf(feed(['stealer_log'])[0]);
			const truth = activity(uid);
			const cookies = dataOf(truth).cookies as IDataObject[];

			const digested = await getFullEvent(uid, { leakedValueOutput: 'sha256' });
			const omitted = await getFullEvent(uid, { leakedValueOutput: 'omit' });

			expect(dataOf(digested).cookies).toEqual(cookies.map((cookie) => ({ ...cookie, value: sha256(cookie.value as string) })));
			expect(dataOf(omitted).cookies).toEqual(cookies.map((cookie) => Object.fromEntries(Object.entries(cookie).filter(([key]) => key !== 'value'))));
			expect((dataOf(omitted).credentials as IDataObject[]).every((entry) => !('password' in entry))).toBe(true);
			expect(JSON.stringify([digested, omitted])).not.toContain('~PlAnTeD');
		});

		it('the trigger (New Event, Fetch Full Event): every item and its full event masked, in Fetch Test Event and active polls; Full gives them', async () => {
			const parameters = { event: 'newEvent', filters: { types: ['leaked_credential', 'stealer_log', 'paste'] }, options: { fetchFullEvent: true } };
			const manual = await new TriggerWorkflow(flare.harness, { parameters }).poll('manual');

			expect(lastLeakedValueScan().hits).toEqual([]);
			const items = jsonOf(manual.items ?? []);
			expect(items).toHaveLength(5);
			const first = items.find((item) => (item.metadata as IDataObject).type === 'leaked_credential')!;
			const truth = activity(uidOf(first));
			expect(dataOf(first.fullEvent as IDataObject).password).toBe(masked(dataOf(truth).password as string));
			const newest = flare.fake.feed.feedAll(TENANT, { filters: { type: ['leaked_credential', 'stealer_log', 'paste'] }, order: 'desc' }).slice(0, 5);
			expect(items).toEqual(asOutput(newest.map((item) => ({ ...item, fullEvent: activity(item.metadata.uid) }))));
			const full = await new TriggerWorkflow(flare.harness, { parameters: { ...parameters, options: { fetchFullEvent: true, leakedValueOutput: 'full' } } }).poll('manual');
			expect(jsonOf(full.items ?? [])).toEqual(newest.map((item) => ({ ...item, fullEvent: activity(item.metadata.uid) })));

			const workflow = new TriggerWorkflow(flare.harness, { parameters });
			expect((await workflow.activate()).items).toBeNull();
			const added = flare.fake.addEvents(3, { type: 'stealer_log' });
			const active = await workflow.poll();
			expect(lastLeakedValueScan().hits).toEqual([]);
			expect(jsonOf(active.items ?? [])).toEqual(asOutput(added.map((item) => ({ ...item, fullEvent: activity(item.metadata.uid) }))));
			expect(JSON.stringify(added.map((item) => activity(item.metadata.uid)))).toContain('~PlAnTeD');
		});
	});

	describe('finding 7: monitored secrets of the identifier operations', () => {
		const identifier = (operation: string, parameters: IDataObject = {}) => ({ parameters: { resource: 'identifier', operation, ...parameters } });
		const SECRET = planted('AKIA-REAL-PROD-KEY-0001');

		it('Create and Get Many output the secret masked; Full gives it', async () => {
			const created = await flare.harness.runNode(identifier('create', { identifierType: 'secret', secret: SECRET, categories: ['leak'] }));
			expect(lastLeakedValueScan().hits).toEqual([]);
			const list = await flare.harness.runNode(identifier('getAll', { returnAll: true, filters: { types: ['secret'] } }));
			expect(lastLeakedValueScan().hits).toEqual([]);
			const fullList = await flare.harness.runNode(identifier('getAll', { returnAll: true, filters: { types: ['secret'] }, options: { leakedValueOutput: 'full' } }));

			expect(apiRequests(flare.fake)[0].body).toMatchObject({ data: { type: 'secret', secret: SECRET } });
			expect(jsonOf(created.output).map((item) => item.data)).toEqual([{ type: 'secret', secret: masked(SECRET) }]);
			const secrets = flare.fake.dataset.identifiers(TENANT).filter((record) => record.data.type === 'secret');
			expect(secrets.map((record) => record.id)).toEqual([SECRET_IDENTIFIER_ID, 7031]);
			expect(jsonOf(list.output).map((item) => item.data)).toEqual(secrets.map((record) => ({ type: 'secret', secret: masked((record.data as { secret: string }).secret) })));
			expect(jsonOf(fullList.output)).toEqual(secrets);
		});

		it('Get outputs it masked; Update sends the secret entered again to Flare and outputs it masked', async () => {
			const stored = flare.fake.dataset.identifier(SECRET_IDENTIFIER_ID, TENANT);
			const secret = (stored.data as { secret: string }).secret;
			const rotated = planted('sk_live_rotated_0002');
			const locator = { __rl: true, mode: 'id', value: String(SECRET_IDENTIFIER_ID) };

			const got = await flare.harness.runNode(identifier('get', { identifierId: locator }));
			expect(lastLeakedValueScan().hits).toEqual([]);
			const updated = await flare.harness.runNode(
				identifier('update', { identifierId: locator, replaceData: true, identifierType: 'secret', secret: rotated, updateFields: { name: 'Payments key (rotated)' } }),
			);
			expect(lastLeakedValueScan().hits).toEqual([]);
			const full = await flare.harness.runNode(identifier('get', { identifierId: locator, options: { leakedValueOutput: 'full' } }));

			expect(jsonOf(got.output)).toEqual([{ ...stored, data: { type: 'secret', secret: masked(secret) } }]);
			const put = apiRequests(flare.fake).find((request) => request.method === 'PUT')!;
			expect(put.body).toMatchObject({ data: { type: 'secret', secret: rotated }, name: 'Payments key (rotated)' });
			expect(jsonOf(updated.output)).toEqual(asOutput([flare.fake.dataset.identifier(SECRET_IDENTIFIER_ID, TENANT)]));
			expect(jsonOf(updated.output)[0]).toMatchObject({ name: 'Payments key (rotated)', data: { secret: masked(rotated) } });
			expect(jsonOf(full.output)).toEqual([flare.fake.dataset.identifier(SECRET_IDENTIFIER_ID, TENANT)]);
			expect(jsonOf(full.output)[0].data).toEqual({ type: 'secret', secret: rotated });
		});
	});

	describe('values under secret names, in every spelling and nesting (review 2026-11-28, M2)', () => {
		it('Get Full Event of an event planting under every name of the rule: each value masked, the rest kept; Full gives them', async () => {
			const [item] = flare.fake.addEvents(1, { type: 'leak', everySecretName: true });
			const uid = uidOf(item as unknown as IDataObject);
			const truth = activity(uid);
			const planted = dataOf(truth).leaked_data as IDataObject;
			expect(Object.keys(planted).length).toBeGreaterThan(SECRET_NAMES.length);

			const output = await getFullEvent(uid);

			expectNothingPlanted();
			expect(output).toEqual(asOutput(truth));
			const leaked = dataOf(output).leaked_data as IDataObject;
			expect(SECRET_NAMES.filter((name) => !/^\*{8}$|^.\*{8}.$/.test(String(leaked[name])))).toEqual([]);
			expect([leaked.env, leaked.code, leaked.callback_url, leaked.note]).toEqual([
				expect.not.stringContaining('PlAnTeD'),
				expect.not.stringContaining('PlAnTeD'),
				expect.stringMatching(/^https:\/\/sso\.example\.org\/cb\?state=af31&.*&next=\*{8}&lang=en&redirect=https:\/\/idp\.example\.org\/cb\?[\w.-]+=\*{8}&then=%2Fcb%3F[\w.-]+%3D\*{8}$/),
				expect.stringMatching(/^The new code \*{8} was sent/),
			]);
			expect(await getFullEvent(uid, { leakedValueOutput: 'full' })).toEqual(truth);
		});
	});

	describe('markup around a secret (hostile review of 2026-12-07, R-M2)', () => {
		// A test value, built from parts so that it is not taken for a hardcoded secret.
		const PASSWORD = ['Hunter', '2', 'Secret', '!'].join('');

		it('Event → Get AI Explanation written in Markdown: a password the prompt quotes as "**Password:** …" is masked in the prompt and in the response', async () => {
			const [uid] = flare.fake.events.allUids();
			flare.fake.faults.add({
				path: /ai_assistance$/,
				method: 'GET',
				fault: {
					status: 200,
					body: {
						activity_ai_assistance: {
							uid,
							prompt: `Explain this stealer log event.\n- **URL:** https://vpn.initech.com/login\n- **Login:** admin@initech.com\n- **Password:** ${PASSWORD}`,
							response: `### Summary\nA working VPN login leaked:\n- **Account:** admin@initech.com\n- **Password:** ${PASSWORD}\n\nReset it now.`,
						},
					},
				},
			});

			const result = await flare.harness.runNode({ parameters: { resource: 'event', operation: 'getAiExplanation', uid } });

			expect(jsonOf(result.output)).toEqual([
				expect.objectContaining({
					prompt: 'Explain this stealer log event.\n- **URL:** https://vpn.initech.com/login\n- **Login:** admin@initech.com\n- **Password:** ********',
					response: '### Summary\nA working VPN login leaked:\n- **Account:** admin@initech.com\n- **Password:** ********\n\nReset it now.',
				}),
			]);
		});
	});
});
