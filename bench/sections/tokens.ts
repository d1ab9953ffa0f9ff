/**
 * Goal 4. Token exchanges and rejected requests over 100 executions with a short token lifetime, in
 * the engine with the harness's credentials helper (n8n's own rules: exchange when the stored token
 * is empty or after a 401, persist it for the next execution, retry the request once). Each execution
 * is one search; a short pause between executions makes the 100 of them span several lifetimes.
 * The minimum is one exchange per lifetime spanned, and no request need be refused more often.
 */
import { sleep } from 'n8n-workflow';

import { FakeFlare } from '../../test/fake-flare';
import { withoutRatePacing } from '../../test/harness/engine';
import { harnessFor, runFlareNode } from '../lib/engine';
import { ratio, type Stat, stat } from '../lib/stats';

export interface TokensRow {
	lifetimeMs: number;
	executions: number;
	runs: number;
	spanMs: Stat;
	lifetimes: Stat;
	exchanges: Stat;
	rejected: Stat;
	failedExecutions: number;
	/** Worst run: exchanges per lifetime spanned (goal ≤ 1). */
	exchangesPerLifetime: number;
	/** Worst run: refused requests per lifetime spanned (goal ≤ 1). */
	rejectedPerLifetime: number;
}

export async function runTokens(
	lifetimes: number[],
	options: { executions: number; pauseMs: number; runs: number; log: (text: string) => void },
): Promise<TokensRow[]> {
	// Tokens are measured, not the pace: Flare's 1 search/s would stretch each run to 100 s. It runs
	// last, in the bench's process, so no section after it loses its pacing.
	await withoutRatePacing();
	const rows: TokensRow[] = [];
	for (const lifetimeMs of lifetimes) {
		const samples = [];
		for (let run = 0; run < options.runs; run++) {
			const fake = await FakeFlare.start({
				credentials: 200,
				domains: ['example.com'],
				tokenLifetimeMs: lifetimeMs,
			});
			try {
				const harness = await harnessFor(fake.url, fake.apiKeys.full);
				let failed = 0;
				for (let execution = 0; execution < options.executions; execution++) {
					const result = await runFlareNode(harness, {
						resource: 'leakedCredential',
						operation: 'search',
						queryType: 'domain',
						fqdn: 'example.com',
						limit: 10,
					});
					if (result.error || result.items !== 10) failed++;
					await sleep(options.pauseMs);
				}
				const requests = fake.requests;
				const spanMs = requests[requests.length - 1].at - requests[0].at;
				const sample = {
					spanMs,
					// Tokens live `lifetimeMs` from their issue: covering the span needs at least this many.
					lifetimes: Math.max(1, Math.ceil(spanMs / lifetimeMs)),
					exchanges: requests.filter((request) => request.path === '/tokens/generate').length,
					rejected: requests.filter((request) => request.status === 401).length,
					failed,
				};
				samples.push(sample);
				options.log(
					`  lifetime ${lifetimeMs} ms: ${options.executions} executions over ${spanMs} ms (${sample.lifetimes} lifetimes): ` +
						`${sample.exchanges} exchanges, ${sample.rejected} refused, ${failed} failed`,
				);
			} finally {
				await fake.stop();
			}
		}
		rows.push({
			lifetimeMs,
			executions: options.executions,
			runs: options.runs,
			spanMs: stat(samples.map((sample) => sample.spanMs)),
			lifetimes: stat(samples.map((sample) => sample.lifetimes)),
			exchanges: stat(samples.map((sample) => sample.exchanges)),
			rejected: stat(samples.map((sample) => sample.rejected)),
			failedExecutions: Math.max(...samples.map((sample) => sample.failed)),
			exchangesPerLifetime: Math.max(
				...samples.map((sample) => ratio(sample.exchanges, sample.lifetimes)),
			),
			rejectedPerLifetime: Math.max(
				...samples.map((sample) => ratio(sample.rejected, sample.lifetimes)),
			),
		});
	}
	return rows;
}
