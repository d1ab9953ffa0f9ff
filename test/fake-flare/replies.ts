/**
 * What the handlers of the feed and identifier modules need from a request, and how they answer:
 * JSON replies, the error envelopes, 422 validation details, and a halt that answers early.
 */
import { z, type ZodTypeAny } from 'zod';

import { type ErrorLocation, type ValidationErrorItem, validationDetail } from '../contract';
import { type Cursor, decodeCursor } from './paging';

/** One page of a `from`/`next` walk: its scope and other parameters, which the cursor is bound to. */
export interface PageWalk<P = number> {
	scope: string;
	params: object;
	from?: string | null;
	location: ErrorLocation;
	/** What a cursor's `p` may be (default: a position). */
	isPosition?: (p: unknown) => p is P;
}

/** Reads the page at a cursor (undefined: the first page), and where the next one starts. */
export type PageRead<T, P = number> = (cursor: Cursor<P> | undefined) => {
	items: T[];
	next: Omit<Cursor<P>, 'f'> | null;
};

/**
 * The server's one paging method: checks `from`, reads the page, encodes `next`, and applies the
 * request's paging fault (README, "Faults").
 */
export type Pager = <T, P = number>(
	walk: PageWalk<P>,
	read: PageRead<T, P>,
) => { items: T[]; next: string | null };

/** A request as the server hands it over, after authentication. */
export interface HandlerRequest {
	method: string;
	rawPath: string;
	/** First value of each query parameter. */
	query: Record<string, string>;
	rawBody: string;
	/** Raw (still percent-encoded) path parameters. */
	params: string[];
	/** The query string as sent (for parameters that repeat). */
	rawQuery: string;
	tenantId: number;
	/** Pages a `from`/`next` walk through the server's one paging method. */
	pages: Pager;
}

export interface Reply {
	status: number;
	body?: unknown;
	/** Sent as is instead of JSON of `body` (a file). */
	raw?: string | Buffer;
	headers?: Record<string, string>;
}

/** Thrown to answer early (errors); {@link answer} turns it into the reply. */
export class Halt {
	constructor(readonly reply: Reply) {}
}

export const jsonReply = (status: number, body: unknown): Reply => ({ status, body });

/** `{error: {code, message}}`. */
export const errorReply = (status: number, code: string, message: string): Reply =>
	jsonReply(status, { error: { code, message } });

export const invalidReply = (detail: ValidationErrorItem[]): Reply => jsonReply(422, { detail });

/** Runs a handler; a {@link Halt} becomes its reply, any other error a 500. */
export function answer(handler: () => Reply): Reply {
	try {
		return handler();
	} catch (error) {
		if (error instanceof Halt) return error.reply;
		return errorReply(500, 'INTERNAL_ERROR', `fake server error: ${(error as Error).message}`);
	}
}

export function parseWith<T extends ZodTypeAny>(
	schema: T,
	input: unknown,
	location: ErrorLocation,
): z.output<T> {
	const result = schema.safeParse(input);
	if (!result.success)
		throw new Halt(invalidReply(validationDetail(result.error, location, input)));
	return result.data as z.output<T>;
}

/** The JSON body, undefined when empty; invalid JSON is a 422. */
export function jsonBody(request: HandlerRequest): unknown {
	if (request.rawBody.trim() === '') return undefined;
	const parsed = attempt(() => JSON.parse(request.rawBody) as unknown);
	if (!parsed.ok)
		throw new Halt(
			invalidReply([{ loc: ['body'], msg: 'JSON decode error', type: 'json_invalid' }]),
		);
	return parsed.value;
}

/** Percent-decodes a path parameter once and validates it; errors are located at ['path', name]. */
export function pathParam<T extends ZodTypeAny>(name: string, raw: string, schema: T): z.output<T> {
	const decoded = attempt(() => decodeURIComponent(raw));
	if (!decoded.ok) {
		throw new Halt(
			invalidReply([
				{ loc: ['path', name], msg: 'Invalid percent-encoding', type: 'value_error', input: raw },
			]),
		);
	}
	return parseWith(z.object({ [name]: schema }), { [name]: decoded.value }, 'path')[
		name
	] as z.output<T>;
}

function attempt<T>(run: () => T): { ok: true; value: T } | { ok: false } {
	try {
		return { ok: true, value: run() };
	} catch {
		return { ok: false };
	}
}

/** The cursor in `from`, checked against the fingerprint of the request's other parameters. */
export function cursorFor<P = number>(
	from: string,
	expected: string,
	location: ErrorLocation,
	isPosition?: (p: unknown) => p is P,
): Cursor<P> {
	const cursor = decodeCursor(from, isPosition);
	const fail = (msg: string) =>
		new Halt(invalidReply([{ loc: [location, 'from'], msg, type: 'value_error', input: from }]));
	if (!cursor) throw fail('Invalid cursor');
	if (cursor.f !== expected) {
		throw fail(
			'The cursor belongs to a request with other parameters: only from may change between pages',
		);
	}
	return cursor;
}
