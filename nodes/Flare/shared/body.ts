/**
 * Reading an answer's body ourselves (requests are sent with `encoding: 'stream'`), so that no answer
 * can hold more memory than its cap: an endless or oversized body is cut off, never buffered whole.
 */

/** The streamed body of an answer, as n8n's request helper hands it back. */
export interface BodyStream extends AsyncIterable<Uint8Array | string> {
	destroy?(error?: Error): void;
}

/** Largest page accepted: a 10,000-credential page with every `include` is a few tens of megabytes. */
export const MAX_PAGE_BYTES = 256 * 1024 * 1024;

/** Largest file accepted (a Threat Flow report, held in memory with its copy in n8n's binary data). */
export const MAX_FILE_BYTES = 50 * 1024 * 1024;

export class BodyTooLarge extends Error {
	constructor(readonly maxBytes: number) {
		super(`The answer is larger than ${maxBytes} bytes`);
		this.name = 'BodyTooLarge';
	}
}

export function isBodyStream(value: unknown): value is BodyStream {
	return (
		typeof value === 'object' &&
		value !== null &&
		typeof (value as BodyStream)[Symbol.asyncIterator] === 'function'
	);
}

/** Stops reading a body and releases its connection. */
export function discard(body: unknown): void {
	if (isBodyStream(body)) body.destroy?.();
}

/** The body's bytes, at most `maxBytes` of them: beyond that the stream is destroyed and {@link BodyTooLarge} thrown. */
export async function readBytes(body: unknown, maxBytes: number): Promise<Buffer> {
	if (!isBodyStream(body)) {
		if (Buffer.isBuffer(body)) return body;
		return Buffer.from(typeof body === 'string' ? body : '');
	}
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of body) {
		const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
		size += bytes.length;
		if (size > maxBytes) {
			body.destroy?.();
			throw new BodyTooLarge(maxBytes);
		}
		chunks.push(bytes);
	}
	return Buffer.concat(chunks, size);
}

/**
 * The body as text, at most `maxBytes` of it: beyond that the stream is destroyed and
 * {@link BodyTooLarge} thrown (or, with `truncate`, what was read so far is returned).
 */
export async function readText(
	body: unknown,
	maxBytes: number,
	{ truncate = false } = {},
): Promise<string> {
	if (!isBodyStream(body)) return typeof body === 'string' ? body : '';
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of body) {
		const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
		size += bytes.length;
		if (size > maxBytes) {
			body.destroy?.();
			if (!truncate) throw new BodyTooLarge(maxBytes);
			chunks.push(bytes.subarray(0, bytes.length - (size - maxBytes)));
			break;
		}
		chunks.push(bytes);
	}
	return Buffer.concat(chunks, Math.min(size, maxBytes)).toString('utf8');
}

/**
 * JSON of a body read with {@link readText}: undefined for an empty body, an error for malformed JSON.
 * A body that a request helper already parsed is taken as it is.
 */
export async function readJson(body: unknown, maxBytes: number): Promise<unknown> {
	if (!isBodyStream(body) && typeof body !== 'string') return body;
	const text = await readText(body, maxBytes);
	return text.trim() === '' ? undefined : (JSON.parse(text) as unknown);
}

/** Levels of a parsed answer written by {@link jsonWithin}: Flare's records are a few deep. */
const MAX_JSON_DEPTH = 100;

/**
 * JSON of a parsed answer's value, as `JSON.stringify` writes it, with what lies past 100 levels
 * written as `"…"`: a hostile answer can be nested deeper than `JSON.stringify` goes (it throws, at a
 * depth that depends on the stack left), and a text made from it (a key, a digest) must not depend on
 * where it is made.
 */
export function jsonWithin(value: unknown): string {
	const depths = new Map<unknown, number>();
	return JSON.stringify(value, function (this: unknown, _key: string, inner: unknown) {
		if (typeof inner !== 'object' || inner === null) return inner;
		const depth = (depths.get(this) ?? 0) + 1;
		if (depth > MAX_JSON_DEPTH) return '…';
		depths.set(inner, depth);
		return inner;
	});
}
