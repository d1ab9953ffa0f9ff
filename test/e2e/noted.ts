/**
 * What a case's `before` notes for its `check`, kept per fake Flare API. The n8n lines run side by
 * side, each on its own fake (run.ts): a variable of the module would hold the other line's records.
 */
import type { FakeFlare } from '../fake-flare';

export class NotedPerFake<T> {
	private readonly values = new WeakMap<FakeFlare, T>();

	set(fake: FakeFlare, value: T): T {
		this.values.set(fake, value);
		return value;
	}

	get(fake: FakeFlare): T {
		if (!this.values.has(fake))
			throw new Error('nothing was noted for this fake before the execution');
		return this.values.get(fake)!;
	}
}
