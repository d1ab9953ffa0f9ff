/** A small HTTP client for the fake's own tests: whole answers through fetch, held ones through http. */
import { TokenResponse } from '../contract';
import { http } from '../support/node';
import type { FakeFlare, KeyRole } from './server';

export interface Result {
	status: number;
	headers: Headers;
	text: string;
	json: unknown;
}

export interface CallOptions {
	token?: string;
	/** Raw Authorization header (overrides token). */
	authorization?: string;
	body?: unknown;
}

/** One request; redirects are not followed. `path` is relative to `base` (default the fake). */
export async function call(
	fake: FakeFlare,
	method: string,
	path: string,
	options: CallOptions = {},
	base = fake.url,
): Promise<Result> {
	const headers: Record<string, string> = {};
	if (options.authorization !== undefined) headers.authorization = options.authorization;
	else if (options.token) headers.authorization = `Bearer ${options.token}`;
	let body: string | undefined;
	if (options.body !== undefined) {
		body = JSON.stringify(options.body);
		headers['content-type'] = 'application/json';
	}
	const response = await fetch(base + path, { method, headers, body, redirect: 'manual' });
	const text = await response.text();
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined; // not JSON: tests look at `text`
	}
	return { status: response.status, headers: response.headers, text, json };
}

export async function tokenFor(fake: FakeFlare, role: KeyRole = 'full'): Promise<string> {
	const result = await call(fake, 'POST', '/tokens/generate', {
		authorization: fake.apiKeys[role],
	});
	if (result.status !== 200) throw new Error(`token exchange answered ${result.status}`);
	return TokenResponse.parse(result.json).token;
}

export const searchPath = (fake: FakeFlare) =>
	`/${fake.options.productSegment}/v4/credentials/global/_search`;

export async function search(fake: FakeFlare, token: string, body: unknown): Promise<Result> {
	return call(fake, 'POST', searchPath(fake), { token, body });
}

/** A request whose answer is read by hand, on a connection of its own. */
export interface HeldRequest {
	/** Resolves with the status and headers as soon as they arrive. */
	response: Promise<http.IncomingMessage>;
	/** Sends the rest of the body (when opened with `holdBody`). */
	finish(): void;
	/** Goes away: destroys the connection. */
	abort(): void;
}

export function open(
	url: string,
	method: string,
	options: { authorization?: string; body?: string; holdBody?: boolean } = {},
): HeldRequest {
	const headers: Record<string, string> = {};
	if (options.authorization) headers.authorization = options.authorization;
	if (options.body !== undefined) headers['content-type'] = 'application/json';
	const request = http.request(url, { method, headers, agent: false });
	const response = new Promise<http.IncomingMessage>((resolve, reject) => {
		request.once('response', resolve);
		request.once('error', reject);
	});
	response.catch(() => undefined); // a test that aborts may never look at it
	if (options.holdBody) request.write(options.body ?? '');
	else request.end(options.body);
	return {
		response,
		finish: () => request.end(),
		abort: () => request.destroy(),
	};
}

/** Reads an answer until it ends, or until `limit` bytes when given; returns what was read. */
export async function readBody(response: http.IncomingMessage, limit?: number): Promise<Buffer> {
	const chunks: Buffer[] = [];
	let length = 0;
	for await (const chunk of response) {
		chunks.push(chunk as Buffer);
		length += (chunk as Buffer).length;
		if (limit !== undefined && length >= limit) break;
	}
	return Buffer.concat(chunks);
}
