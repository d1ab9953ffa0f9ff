/**
 * Answers that never end well: a body that trickles, a body that never ends, no answer at all. Each
 * holds the connection until the client goes away (or the fake stops, which closes every connection),
 * then stops writing: no timer outlives the connection.
 */
import { timers } from '../support/globals';
import type { http } from '../support/node';

/** What the log keeps of a held connection. */
export interface HeldLog {
	status: number;
	/** Body bytes the socket accepted. */
	bytesSent?: number;
	/** When the client went away (or the fake stopped) before the answer ended; the fake's clock. */
	disconnectedAt?: number;
	/** The fake cut an endless body at its limit: the client never stopped reading it. */
	cutOffByFake?: boolean;
	/** An endless body waits for the socket to drain: the client is not reading. */
	waitingForDrain?: boolean;
}

/** Where the fake cuts an endless body that the client keeps reading. */
export const ENDLESS_BODY_LIMIT_BYTES = 1024 * 1024 * 1024;

const PAGE_START = '{"items":[';
const RECORD = '{"id":1,"identity_name":"x@example.com"},';
/** About 64 KiB of whole records. */
const CHUNK = Buffer.from(RECORD.repeat(Math.ceil(65_536 / RECORD.length)));

/** Byte `k` of an endless, valid-looking JSON page. */
function pageByte(k: number): string {
	return k < PAGE_START.length ? PAGE_START[k] : RECORD[(k - PAGE_START.length) % RECORD.length];
}

/** No answer: holds the connection until the client goes away or the fake stops. */
export async function silent(
	res: http.ServerResponse,
	log: HeldLog,
	now: () => number,
): Promise<void> {
	const signal = watch(res, log, now);
	await new Promise<void>((resolve) => {
		if (signal.aborted) resolve();
		else signal.addEventListener('abort', () => resolve(), { once: true });
	});
}

/**
 * 200 with a JSON content type at once, then one byte of a JSON page every `intervalMs`: until the
 * client goes away, or, when `bytes` is given, until that many bytes were written (then it ends).
 */
export async function drip(
	res: http.ServerResponse,
	log: HeldLog,
	now: () => number,
	{ intervalMs, bytes }: { intervalMs: number; bytes?: number },
): Promise<void> {
	const signal = watch(res, log, now);
	startJson(res, log);
	for (let k = 0; bytes === undefined || k < bytes; k++) {
		if (!(await pause(intervalMs, signal))) return;
		write(res, log, Buffer.from(pageByte(k)));
	}
	res.end();
}

/**
 * 200 with a JSON content type, then an endless JSON page in chunks of about 64 KiB, as fast as the
 * socket takes them (waiting for `drain` when it is full), until the client goes away; or until
 * `limitBytes` were written, when the fake cuts the connection (`cutOffByFake`).
 */
export async function endlessBody(
	res: http.ServerResponse,
	log: HeldLog,
	now: () => number,
	limitBytes = ENDLESS_BODY_LIMIT_BYTES,
): Promise<void> {
	const signal = watch(res, log, now);
	startJson(res, log);
	let chunk = Buffer.concat([Buffer.from(PAGE_START), CHUNK]);
	for (let written = 0; !signal.aborted; written += chunk.length, chunk = CHUNK) {
		if (written >= limitBytes) {
			log.cutOffByFake = true;
			res.destroy();
			return;
		}
		if (!write(res, log, chunk)) {
			log.waitingForDrain = true;
			await drained(res, signal);
			log.waitingForDrain = false;
		}
	}
}

/** A signal that aborts when the connection closes; notes when the client left before the end. */
function watch(res: http.ServerResponse, log: HeldLog, now: () => number): AbortSignal {
	const controller = new AbortController();
	const closed = () => {
		if (!res.writableFinished) log.disconnectedAt = now();
		controller.abort();
	};
	if (!res.socket || res.socket.destroyed) closed();
	else res.once('close', closed);
	return controller.signal;
}

function startJson(res: http.ServerResponse, log: HeldLog): void {
	log.status = 200;
	log.bytesSent = 0;
	res.writeHead(200, { 'content-type': 'application/json' });
	res.flushHeaders();
}

function write(res: http.ServerResponse, log: HeldLog, chunk: Buffer): boolean {
	return res.write(chunk, (error) => {
		if (!error) log.bytesSent = (log.bytesSent ?? 0) + chunk.length;
	});
}

/**
 * Waits `ms` on the process's timers (virtual ones in jest: test/support/clock.ts); false when the
 * connection closed meanwhile (the timer is cleared then).
 */
async function pause(ms: number, signal: AbortSignal): Promise<boolean> {
	if (signal.aborted) return false;
	const { setTimeout, clearTimeout } = timers();
	return await new Promise<boolean>((resolve) => {
		const closed = () => {
			clearTimeout(timer);
			resolve(false);
		};
		const timer = setTimeout(() => {
			signal.removeEventListener('abort', closed);
			resolve(true);
		}, ms);
		signal.addEventListener('abort', closed, { once: true });
	});
}

async function drained(res: http.ServerResponse, signal: AbortSignal): Promise<void> {
	await new Promise<void>((resolve) => {
		const done = () => {
			res.off('drain', done);
			signal.removeEventListener('abort', done);
			resolve();
		};
		if (signal.aborted) return resolve();
		res.on('drain', done);
		signal.addEventListener('abort', done);
	});
}
