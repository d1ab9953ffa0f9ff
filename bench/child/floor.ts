/**
 * (a) The floor: a bare undici loop that exchanges the API key for a token, then pages the global
 * search with the largest page, parses each page's JSON and keeps every credential in one array,
 * which is what any Return All has to end up holding. Nothing else: no retries, no output shaping.
 */
import { request } from 'undici';

import { performance, processRef } from '../../test/support/node';
import { childArgs, childMain, finishChild, ownPeakMiB } from '../lib/proc';

export interface FloorConfig {
	baseUrl: string;
	apiKey: string;
	segment: string;
	fqdn: string;
	pageSize: number;
}

childMain(async () => {
	const { config, out } = childArgs<FloorConfig>();
	const started = performance.now();
	const cpu = processRef.cpuUsage();
	const tokenResponse = await request(`${config.baseUrl}/tokens/generate`, {
		method: 'POST',
		headers: { authorization: config.apiKey },
	});
	const { token } = (await tokenResponse.body.json()) as { token: string };
	const credentials: unknown[] = [];
	let from: string | undefined;
	let pages = 0;
	do {
		const response = await request(
			`${config.baseUrl}/${config.segment}/v4/credentials/global/_search`,
			{
				method: 'POST',
				headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
				body: JSON.stringify({
					query: { type: 'domain', fqdn: config.fqdn },
					size: config.pageSize,
					order: 'desc',
					...(from ? { from } : {}),
				}),
			},
		);
		if (response.statusCode !== 200) throw new Error(`search answered ${response.statusCode}`);
		const page = (await response.body.json()) as { items: unknown[]; next?: string | null };
		for (const item of page.items) credentials.push(item);
		from = page.next ?? undefined;
		pages++;
	} while (from);
	const wallMs = performance.now() - started;
	const { user, system } = processRef.cpuUsage(cpu);
	const cpuMs = (user + system) / 1000;
	finishChild(out, { wallMs, cpuMs, peakMiB: ownPeakMiB(), items: credentials.length, pages });
});
