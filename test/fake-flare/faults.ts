/** Fault injection: tests queue rules; the server asks for the fault of each request as it arrives. */
import type { KeyRole } from './server';

/**
 * Faults of the routes that page with `from`/`next`: the answer's `next` (and maybe its items) are
 * replaced, and the cursors they hand out are accepted later (they fetch the walk's first page).
 * Meant for `times: Infinity`.
 */
export type PagingFault =
	/** `next` walks the cycle: no or a real `from` gets the first, each cursor of the cycle the one after it. */
	| { cursorCycle: string[] }
	/** `{ items: [], next: <a new unique cursor> }`. */
	| { freshEmptyPages: true }
	/** The items of the walk's first page, with a new unique cursor. */
	| { freshDuplicatePages: true };

export type Fault =
	| { status: number; body?: unknown; rawBody?: string; headers?: Record<string, string> }
	| { reset: true }
	| { delayMs: number }
	| { malformedJson: true }
	| { repeatCursor: true }
	/** Expires every issued token, then the request is handled normally (a bearer request gets 401). */
	| { expireTokens: true }
	/** `Location`: the other origin + the same path and query, or `to` (sent as given). */
	| { redirect: { status: 301 | 302 | 303 | 307 | 308; to?: string } }
	/** 200 and a JSON content type at once, then a JSON page one byte every `intervalMs`, never complete. */
	| { drip: { intervalMs: number; bytes?: number } }
	/**
	 * 200 and a JSON content type, then an endless body as fast as the socket takes it; past
	 * `limitBytes` (default 1 GiB, far beyond the node's caps) the fake cuts the connection, so that a
	 * client that lost its cap fails instead of filling the machine's memory.
	 */
	| { endlessBody: true; limitBytes?: number }
	/** Reads the request and never answers, until the client goes away or the fake stops. */
	| { silent: true }
	| PagingFault;

export function isPagingFault(fault: Fault): fault is PagingFault {
	return 'cursorCycle' in fault || 'freshEmptyPages' in fault || 'freshDuplicatePages' in fault;
}

export interface FaultRule {
	/** Matches the request path without query, raw or percent-decoded; default any. */
	path?: string | RegExp;
	method?: string;
	/** Matches requests made with this demo key: at the token exchange the key, else the key of the token. */
	key?: KeyRole;
	/** Let this many matching requests through first (default 0). */
	skip?: number;
	/** How many matching requests get the fault (default 1). */
	times?: number;
	/** 'after': the request is processed (state changes, writes recorded), then the fault replaces the response. */
	phase?: 'before' | 'after';
	fault: Fault;
}

interface ActiveRule {
	rule: FaultRule;
	seen: number;
	applied: number;
}

export class Faults {
	private rules: ActiveRule[] = [];

	add(rule: FaultRule): void {
		if ('cursorCycle' in rule.fault && rule.fault.cursorCycle.length === 0)
			throw new Error('Faults.add: a cursorCycle needs at least one cursor');
		this.rules.push({ rule, seen: 0, applied: 0 });
	}

	clear(): void {
		this.rules = [];
	}

	/** Rules that still have faults to give. */
	pending(): FaultRule[] {
		return this.rules
			.filter((active) => active.applied < (active.rule.times ?? 1))
			.map((active) => active.rule);
	}

	/**
	 * Counts the request against every matching rule and returns the fault of the first rule whose turn it
	 * is, if any.
	 */
	take(request: IncomingRequest): FaultRule | undefined {
		let chosen: ActiveRule | undefined;
		for (const active of this.rules) {
			const { rule } = active;
			if (active.applied >= (rule.times ?? 1) || !matches(rule, request)) continue;
			active.seen++;
			if (!chosen && active.seen > (rule.skip ?? 0)) chosen = active;
		}
		if (chosen) chosen.applied++;
		return chosen?.rule;
	}
}

/** What a rule is matched against. */
export interface IncomingRequest {
	method: string;
	rawPath: string;
	/** The demo key the request was made with, when it is one. */
	key?: KeyRole;
}

function matches(rule: FaultRule, { method, rawPath, key }: IncomingRequest): boolean {
	if (rule.method && rule.method.toUpperCase() !== method) return false;
	if (rule.key !== undefined && rule.key !== key) return false;
	if (rule.path === undefined) return true;
	const pattern = rule.path;
	return [rawPath, safeDecode(rawPath)].some((path) => {
		if (typeof pattern === 'string') return pattern === path;
		pattern.lastIndex = 0;
		return pattern.test(path);
	});
}

function safeDecode(path: string): string {
	try {
		return decodeURIComponent(path);
	} catch {
		return path;
	}
}
