import type { IDataObject } from 'n8n-workflow';

import { CredentialUrlRecord, IdentityLookupQuery, IdentityRecord, LegacySource, UrlsByHashBody } from '../contract';
import { apiRequests, jsonOf, masked, maskedView, sha256, simplifiedIdentities, useFakeFlare } from './support';

describe('ASTP URLs, identities and sources', () => {
	const flare = useFakeFlare({ credentials: 3_000 });

	/** A credential with many URLs (several pages at a small Limit). */
	const busyCredential = () => [...Array(3_000).keys()].find((index) => flare.fake.dataset.urlCount(index) > 200)!;

	describe('ASTP URL → Get Many', () => {
		it('walks all URLs of a credential with Return All, at the maximum page size', async () => {
			const hash = flare.fake.dataset.credentialHash(busyCredential());

			const result = await flare.harness.runNode({
				parameters: { resource: 'astpUrl', operation: 'getAll', credentialHash: hash.toUpperCase(), returnAll: true },
			});

			expect(result.status).toBe('success');
			const requests = apiRequests(flare.fake);
			expect(requests[0]).toMatchObject({ method: 'POST', path: '/astp/urls/by_credential_hash' });
			expect(requests[0].body).toEqual({ credential_hash: hash, size: 5_000 });
			expect(() => UrlsByHashBody.parse(requests[0].body)).not.toThrow();
			const expected = flare.fake.dataset.urlsFor(hash);
			expect(expected.length).toBeGreaterThan(200);
			expect(jsonOf(result.output)).toEqual(expected);
			for (const item of result.output) CredentialUrlRecord.parse(item.json);
		});

		it('returns exactly the Limit across several pages, keeping the page size', async () => {
			flare.fake.reset({ credentials: 3_000, quirks: { emptyPageEvery: 0, shortPageEvery: 1 } });
			const hash = flare.fake.dataset.credentialHash(busyCredential());

			const result = await flare.harness.runNode({ parameters: { resource: 'astpUrl', operation: 'getAll', credentialHash: hash, limit: 60 } });

			expect(jsonOf(result.output)).toEqual(flare.fake.dataset.urlsFor(hash).slice(0, 60));
			const bodies = apiRequests(flare.fake).map((request) => request.body as IDataObject);
			expect(bodies.map((body) => body.size)).toEqual([60, 60]);
			expect(bodies[1]).toEqual({ credential_hash: hash, size: 60, from: expect.any(String) });
		});
	});

	describe('Identity → Get by Password / Get by Keyword', () => {
		const commonPassword = () => flare.fake.dataset.credential(11).hash;

		it('walks the id cursor until an empty page and flattens passwords with masked values', async () => {
			const password = commonPassword();

			const result = await flare.harness.runNode({
				parameters: { resource: 'identity', operation: 'getByPassword', password, returnAll: true },
			});

			expect(result.status).toBe('success');
			const requests = apiRequests(flare.fake);
			const path = `/leaksdb/identities/by_password/${encodeURIComponent(password)}`;
			expect(requests.map((request) => [request.method, request.path, request.query])).toEqual([
				['GET', path, { size: '10000' }],
				['GET', path, { size: '10000', from: expect.stringMatching(/^\d+$/) }],
			]);
			for (const request of requests) IdentityLookupQuery.parse(request.query);
			const identities = flare.fake.dataset.identitiesByPassword(password, 10_000);
			expect(identities.length).toBeGreaterThan(1);
			const lastIds = identities[identities.length - 1].passwords.map((entry) => entry.id);
			expect(requests[1].query.from).toBe(String(Math.max(...lastIds)));
			expect(jsonOf(result.output)).toEqual(simplifiedIdentities(identities));
		});

		it('pages with the Limit as page size and returns raw identities when Simplify is off', async () => {
			const password = commonPassword();

			const result = await flare.harness.runNode({
				parameters: { resource: 'identity', operation: 'getByPassword', password, limit: 2, simplify: false, leakedValueOutput: 'sha256' },
			});

			const identities = flare.fake.dataset.identitiesByPassword(password, 2);
			expect(apiRequests(flare.fake)[0].query).toEqual({ size: '2' });
			// SHA-256 digests the leaked values and masks free text (a source's description quotes a credential line).
			const planted = flare.fake.plantedValues();
			const expected = identities.slice(0, 2).map((identity) => ({
				...maskedView(identity, planted),
				passwords: identity.passwords.map((entry) => ({ ...maskedView(entry, planted), hash: sha256(entry.hash) })),
			}));
			expect(jsonOf(result.output)).toEqual(expected);
			for (const item of result.output) IdentityRecord.parse(item.json);
		});

		it('looks up by keyword with a wildcard, case-insensitively', async () => {
			const result = await flare.harness.runNode({
				parameters: { resource: 'identity', operation: 'getByKeyword', keyword: '*@ACME.com', returnAll: true, leakedValueOutput: 'full' },
			});

			expect(result.status).toBe('success');
			expect(apiRequests(flare.fake)[0].path).toBe(`/leaksdb/identities/by_keyword/${encodeURIComponent('*@ACME.com')}`);
			const identities = flare.fake.dataset.identitiesByKeyword('*@ACME.com', 10_000);
			expect(identities.length).toBeGreaterThan(10);
			expect(jsonOf(result.output)).toEqual(simplifiedIdentities(identities, (hash) => hash));
		});

		it('keeps path characters inside their segment: / ? # % + space and non-ASCII', async () => {
			const password = 'p/a?s#s%w+o rd-é€';

			const result = await flare.harness.runNode({ parameters: { resource: 'identity', operation: 'getByPassword', password, limit: 5 } });

			expect(result.status).toBe('success');
			expect(result.output).toEqual([]);
			const [request] = apiRequests(flare.fake);
			expect(request.path).toBe('/leaksdb/identities/by_password/p%2Fa%3Fs%23s%25w%2Bo%20rd-%C3%A9%E2%82%AC');
			expect(request.query).toEqual({ size: '5' });
		});

		it('masks by default in raw output as well', async () => {
			const password = commonPassword();

			const result = await flare.harness.runNode({
				parameters: { resource: 'identity', operation: 'getByPassword', password, limit: 1, simplify: false },
			});

			const hashes = (result.output[0].json.passwords as IDataObject[]).map((entry) => entry.hash);
			expect(hashes.length).toBeGreaterThan(0);
			expect(hashes).toEqual(hashes.map(() => masked(password)));
		});
	});

	describe('Source → Get', () => {
		it('returns the source record', async () => {
			const source = flare.fake.dataset.sources()[3];

			const result = await flare.harness.runNode({ parameters: { resource: 'source', operation: 'get', sourceId: source.id } });

			expect(apiRequests(flare.fake).map((request) => [request.method, request.path])).toEqual([['GET', `/astp/sources/${source.id}`]]);
			expect(jsonOf(result.output)).toEqual([maskedView(source, flare.fake.plantedValues())]);
			expect(result.output[0].json.description).toMatch(/:\*{8}$/);
			LegacySource.parse(result.output[0].json);
		});

		it('encodes the ID and names it when Flare does not know it', async () => {
			const result = await flare.harness.runNode({ parameters: { resource: 'source', operation: 'get', sourceId: '../tokens/test?x=1#y' } });

			expect(result.status).toBe('error');
			expect(apiRequests(flare.fake).map((request) => request.path)).toEqual(['/astp/sources/..%2Ftokens%2Ftest%3Fx%3D1%23y']);
			expect(result.error?.message).toBe("Source '../tokens/test?x=1#y' was not found in Flare");
			expect(result.error?.description).toMatch(/^Check the ID, and that it belongs to the tenant selected in the credential\./);
		});
	});
});
