import { sleep } from 'n8n-workflow';

import { FlareRequestFailed } from './failure';

/**
 * Waits `ms` milliseconds, or until `cancel` (the execution's cancel signal) fires: then it throws a
 * `CANCELLED` failure at once, so that no wait outlives a cancelled execution.
 */
export async function wait(ms: number, cancel?: AbortSignal): Promise<void> {
	if (!cancel?.aborted) {
		await new Promise<void>((resolve) => {
			const done = () => {
				cancel?.removeEventListener('abort', done);
				resolve();
			};
			cancel?.addEventListener('abort', done, { once: true });
			void sleep(Math.max(0, ms), cancel).then(done, done);
		});
	}
	if (cancel?.aborted) throw new FlareRequestFailed({ code: 'CANCELLED' });
}
