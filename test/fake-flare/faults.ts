/** Fault injection: tests queue rules; the server asks for the fault of each request as it arrives. */

export type Fault =
	| { status: number; body?: unknown; rawBody?: string; headers?: Record<string, string> }
	| { reset: true }
	| { delayMs: number }
	| { malformedJson: true }
	| { repeatCursor: true }
	/** Expires every issued token, then the request is handled normally (a bearer request gets 401). */
	| { expireTokens: true };

export interface FaultRule {
	/** Matches the request path without query, raw or percent-decoded; default any. */
	path?: string | RegExp;
	method?: string;
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
	take(method: string, rawPath: string): FaultRule | undefined {
		let chosen: ActiveRule | undefined;
		for (const active of this.rules) {
			const { rule } = active;
			if (active.applied >= (rule.times ?? 1) || !matches(rule, method, rawPath)) continue;
			active.seen++;
			if (!chosen && active.seen > (rule.skip ?? 0)) chosen = active;
		}
		if (chosen) chosen.applied++;
		return chosen?.rule;
	}
}

function matches(rule: FaultRule, method: string, rawPath: string): boolean {
	if (rule.method && rule.method.toUpperCase() !== method) return false;
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
