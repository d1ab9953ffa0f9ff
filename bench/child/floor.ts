/**
 * (a) The floor: a bare undici loop that exchanges the API key for a token, then walks a paged Flare
 * search, parses each page's JSON and keeps every record in one array, which is what any read has to
 * end up holding. Nothing else: no retries, no output shaping.
 *
 * It sends the requests our node sends for the same read, so that the two compare like with like:
 * - `firstPageSize`: Return All of a global search starts with that small page and, when there is
 *   more, walks again from the start with the largest pages (where the quota counts results);
 * - `walks` × `wanted`: several reads (one per input item), each stopping at `wanted` records;
 * - `intervalMs`: the perfect pacer at Flare's documented rate: each request leaves exactly one
 *   interval after the one before, or as soon as that one's answer is read if it took longer (a
 *   server's rate window counts from each request's arrival, so a late request moves the next slot);
 *   `clockAfterToken` starts the clock after the token exchange.
 */
import { sleep } from 'n8n-workflow';
import { request } from 'undici';

import { performance, processRef } from '../../test/support/node';
import { childArgs, childMain, finishChild, ownPeakMiB } from '../lib/proc';

export interface FloorConfig {
	baseUrl: string;
	apiKey: string;
	/** Path of the paged search, e.g. `/firework/v4/credentials/global/_search`. */
	path: string;
	/** The request body without `size` and `from`. */
	body: Record<string, unknown>;
	pageSize: number;
	firstPageSize?: number;
	walks?: number;
	wanted?: number;
	intervalMs?: number;
	clockAfterToken?: boolean;
}

interface Page {
	items: unknown[];
	next?: string | null;
}

childMain(async () => {
	const { config, out } = childArgs<FloorConfig>();
	let started = performance.now();
	let cpu = processRef.cpuUsage();
	const tokenResponse = await request(`${config.baseUrl}/tokens/generate`, {
		method: 'POST',
		headers: { authorization: config.apiKey },
	});
	const { token } = (await tokenResponse.body.json()) as { token: string };
	if (config.clockAfterToken) {
		started = performance.now();
		cpu = processRef.cpuUsage();
	}
	let lastSentAt = -Infinity;
	let requests = 0;
	const fetchPage = async (size: number, from: string | undefined): Promise<Page> => {
		const early = lastSentAt + (config.intervalMs ?? 0) - performance.now();
		if (early > 0) await sleep(early);
		lastSentAt = performance.now();
		requests++;
		const response = await request(`${config.baseUrl}${config.path}`, {
			method: 'POST',
			headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
			body: JSON.stringify({ ...config.body, size, ...(from ? { from } : {}) }),
		});
		if (response.statusCode !== 200) {
			throw new Error(`${config.path} answered ${response.statusCode} to request ${requests}`);
		}
		return (await response.body.json()) as Page;
	};

	const records: unknown[] = [];
	const wanted = config.wanted ?? Infinity;
	for (let walk = 0; walk < (config.walks ?? 1); walk++) {
		if (config.firstPageSize !== undefined) {
			const first = await fetchPage(config.firstPageSize, undefined);
			if (!first.next) {
				for (const item of first.items) records.push(item);
				continue;
			}
		}
		let from: string | undefined;
		let kept = 0;
		do {
			const page = await fetchPage(config.pageSize, from);
			for (const item of page.items) {
				if (kept === wanted) break;
				records.push(item);
				kept++;
			}
			from = page.next ?? undefined;
		} while (from && kept < wanted);
	}
	const wallMs = performance.now() - started;
	const { user, system } = processRef.cpuUsage(cpu);
	const cpuMs = (user + system) / 1000;
	finishChild(out, { wallMs, cpuMs, peakMiB: ownPeakMiB(), items: records.length, requests });
});
