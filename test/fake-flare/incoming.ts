/** Reading an incoming request, for the fake and its other origin: query, body, kind of Authorization. */
import type { http } from '../support/node';

/** How a request authenticates, for the log (never the secret itself). */
export type AuthKind = 'none' | 'apiKey' | 'bearer' | 'other';

export function authKind(header: string | undefined): AuthKind {
	if (!header) return 'none';
	const scheme = /^(\S+)\s+\S/.exec(header.trim());
	if (!scheme) return 'apiKey';
	return scheme[1].toLowerCase() === 'bearer' ? 'bearer' : 'other';
}

export function bearerToken(header: string | undefined): string | undefined {
	return header ? /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] : undefined;
}

/** Path and query of a request target; the first value of a repeated query parameter wins. */
export function splitTarget(target: string): { path: string; query: Record<string, string> } {
	const queryStart = target.indexOf('?');
	const query: Record<string, string> = {};
	if (queryStart === -1) return { path: target, query };
	for (const [key, value] of new URLSearchParams(target.slice(queryStart + 1)))
		if (!(key in query)) query[key] = value;
	return { path: target.slice(0, queryStart), query };
}

export async function readBody(req: http.IncomingMessage): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks).toString('utf8');
}

export function tryJson(text: string): { ok: true; value: unknown } | { ok: false } {
	try {
		return { ok: true, value: JSON.parse(text) as unknown };
	} catch {
		return { ok: false };
	}
}

/** The body as the log keeps it: parsed JSON, the raw text when it is not JSON, undefined when empty. */
export function bodyForLog(rawBody: string): unknown {
	if (rawBody === '') return undefined;
	const parsed = tryJson(rawBody);
	return parsed.ok ? parsed.value : rawBody;
}
