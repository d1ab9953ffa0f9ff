/**
 * This process's clock, movable: the node, n8n and the fake API all read `Date.now`, so moving it on
 * makes the next poll come later for all of them alike, without waiting.
 *
 * Every jest test file runs on virtual time (test/support/virtual-time.ts installs it): timers (the
 * node's pacing and retry waits, Retry-After, the fake's slow answers, time-outs) and the fake's rate
 * limits run on one clock, which stands still while anything real is under way and jumps to the next
 * timer once nothing but time is awaited (see {@link VirtualTime}). So no test waits, and no test
 * depends on how busy the machine is. A file that measures real time calls {@link useRealTimeHere}.
 * Outside jest (the fake's command line, the e2e suites) time is real: only `Date.now` can be moved.
 */
import { replaceTimers, timers, type Timers } from './globals';
import { diagnosticsChannel, performance } from './node';

const realNow = Date.now.bind(Date);
/** Turns of the event loop in a row with nothing to do before virtual time moves (see VirtualTime). */
const QUIET_TURNS = 5;
let shiftMs = 0;

/**
 * Moves this process's clock on by `ms`. Under virtual time, time passes (timers fire on the way);
 * a move back is a step of the host's clock: `Date.now` goes back, timers keep their time (as Node's
 * do, which run on a monotonic clock).
 */
export function moveClock(ms: number): void {
	if (virtual) {
		if (ms < 0) virtual.step(ms);
		else virtual.move(ms);
		return;
	}
	shiftMs += ms;
	Date.now = () => realNow() + shiftMs;
}

/** Moves this process's clock to `time` (ms since the epoch). */
export function moveClockTo(time: number): void {
	moveClock(time - Date.now());
}

type Callback = (...args: unknown[]) => void;

/** What closes: an answer of the fake (an http.ServerResponse). */
interface Closable {
	once(event: 'close', listener: () => void): unknown;
}

interface Timer {
	id: number;
	at: number;
	/** Order of timers due at the same time: the order they were set (then re-armed). */
	order: number;
	callback: Callback;
	args: unknown[];
	repeatMs?: number;
	/** Whether the timer alone is a reason to move time on (Node's `ref`). */
	ref: boolean;
}

/** The handle `setTimeout` returns under virtual time: what Node's Timeout offers. */
class TimerHandle {
	constructor(
		private readonly time: VirtualTime,
		readonly id: number,
	) {}

	ref(): this {
		this.time.setRef(this.id, true);
		return this;
	}

	unref(): this {
		this.time.setRef(this.id, false);
		return this;
	}

	hasRef(): boolean {
		return this.time.hasRef(this.id);
	}

	refresh(): this {
		this.time.refresh(this.id);
		return this;
	}

	[Symbol.toPrimitive](): number {
		return this.id;
	}
}

/**
 * Time that moves only when the process waits for nothing but time. `Date.now` stands still while
 * anything real is under way: an HTTP request that the client has open and the fake has not parked
 * (`parked`: a slow answer, an answer held on purpose), a timer due now, or work that goes on from
 * one turn of the event loop to the next (the clock waits {@link QUIET_TURNS} turns in which nothing
 * happened). When only timers remain, the clock moves to the earliest one and fires it, then the
 * next, in time order — at once in `auto` mode, or as far as a test asks with {@link advance} in
 * manual mode (a model test, where time is one of the commands). Timers that do not keep a process
 * alive (`unref`, and every `AbortSignal.timeout`) fire when time passes them, but time does not move
 * for them alone unless the fake holds an answer open.
 *
 * `now` is the monotonic time timers run on; `Date.now()` is `now` plus the host clock's steps
 * ({@link step}).
 */
export class VirtualTime {
	now: number;
	auto = true;
	/** How far the host's clock was stepped (`Date.now()` less `now`). */
	private wallShift = 0;
	/** Turns of the event loop in a row in which nothing happened: the clock moves at QUIET_TURNS. */
	private quietTurns = 0;
	private readonly timers = new Map<number, Timer>();
	private lastId = 0;
	private lastOrder = 0;
	private openRequests = 0;
	private parkedRequests = 0;
	private checkPending = false;
	private readonly waiters: Array<() => void> = [];
	/** The process's own timers, which run on real time. */
	get realTimers(): Timers {
		return this.saved.timers;
	}

	private readonly saved: {
		timers: Timers;
		dateNow: () => number;
		abortTimeout?: PropertyDescriptor;
	} = {
		timers: timers(),
		dateNow: Date.now,
		abortTimeout: Object.getOwnPropertyDescriptor(AbortSignal, 'timeout'),
	};

	private readonly onRequest = (message: unknown) => {
		const { request } = message as { request: { once(event: string, listener: () => void): void } };
		this.openRequests++;
		this.activity();
		request.once('close', () => {
			this.openRequests--;
			this.activity();
		});
	};

	constructor() {
		this.now = Date.now();
	}

	install(): void {
		replaceTimers({
			setTimeout: (callback, ms, ...args) => this.add(callback, ms, args),
			setInterval: (callback, ms, ...args) => this.add(callback, ms, args, true),
			clearTimeout: (handle) => this.clear(handle),
			clearInterval: (handle) => this.clear(handle),
		});
		Date.now = () => this.now + this.wallShift;
		AbortSignal.timeout = (ms: number) => {
			const controller = new AbortController();
			const reason = new DOMException('The operation was aborted due to timeout', 'TimeoutError');
			this.add(() => controller.abort(reason), ms, [], false, false);
			return controller.signal;
		};
		diagnosticsChannel.subscribe('http.client.request.start', this.onRequest);
	}

	uninstall(): void {
		diagnosticsChannel.unsubscribe('http.client.request.start', this.onRequest);
		replaceTimers(this.saved.timers);
		Date.now = this.saved.dateNow;
		if (this.saved.abortTimeout)
			Object.defineProperty(AbortSignal, 'timeout', this.saved.abortTimeout);
		this.timers.clear();
	}

	/** Moves the clock on by `ms` (timers passed on the way fire, in order, as soon as they can). */
	move(ms: number): void {
		this.now += ms;
		this.activity();
	}

	/** Steps the host's clock by `ms` (`Date.now` jumps; timers keep their time). */
	step(ms: number): void {
		this.wallShift += ms;
		this.activity();
	}

	/**
	 * Lets the clock jump while `work` runs: the fake parks an answer it holds on purpose (one that
	 * waits on time), until it is sent or `connection` (its response) closes, when the client gave up on
	 * it. An open request that is not parked holds the clock still.
	 */
	async parked<T>(work: Promise<T>, connection?: Closable): Promise<T> {
		let parked = true;
		const unpark = () => {
			if (!parked) return;
			parked = false;
			this.parkedRequests--;
			this.activity();
		};
		this.parkedRequests++;
		this.activity();
		connection?.once('close', unpark);
		try {
			return await work;
		} finally {
			unpark();
		}
	}

	/**
	 * Manual mode: lets `ms` of time pass, firing every timer due on the way once nothing real is
	 * under way; then waits until the process is idle again.
	 */
	async advance(ms: number): Promise<void> {
		const until = this.now + ms;
		for (;;) {
			await this.idle();
			const next = this.earliest(() => true);
			if (!next || next.at > until) break;
			this.now = Math.max(this.now, next.at);
			this.fire(next);
		}
		this.now = Math.max(this.now, until);
		await this.idle();
	}

	/** Runs the clock as in auto mode until `work` settles (manual mode: to let work finish). */
	async runUntil<T>(work: Promise<T>): Promise<T> {
		const auto = this.auto;
		this.auto = true;
		this.activity();
		try {
			return await work;
		} finally {
			this.auto = auto;
		}
	}

	/** Resolves once no request is under way and no timer is due. */
	async idle(): Promise<void> {
		await new Promise<void>((resolve) => {
			this.waiters.push(resolve);
			this.wake();
		});
	}

	setRef(id: number, ref: boolean): void {
		const timer = this.timers.get(id);
		if (timer) timer.ref = ref;
		this.activity();
	}

	hasRef(id: number): boolean {
		return this.timers.get(id)?.ref ?? false;
	}

	refresh(id: number): void {
		const timer = this.timers.get(id);
		if (!timer) return;
		timer.at = this.now + (timer.repeatMs ?? 0);
		timer.order = ++this.lastOrder;
	}

	private add(
		callback: Callback,
		ms: number | undefined,
		args: unknown[],
		repeat = false,
		ref = true,
	): TimerHandle {
		const delay = Math.max(0, Math.floor(Number(ms) || 0));
		const id = ++this.lastId;
		this.timers.set(id, {
			id,
			at: this.now + delay,
			order: ++this.lastOrder,
			callback,
			args,
			repeatMs: repeat ? Math.max(1, delay) : undefined,
			ref,
		});
		this.activity();
		return new TimerHandle(this, id);
	}

	private clear(handle: unknown): void {
		if (handle === undefined || handle === null) return;
		this.timers.delete(Number(handle));
	}

	private earliest(eligible: (timer: Timer) => boolean): Timer | undefined {
		let found: Timer | undefined;
		for (const timer of this.timers.values()) {
			if (!eligible(timer)) continue;
			if (!found || timer.at < found.at || (timer.at === found.at && timer.order < found.order))
				found = timer;
		}
		return found;
	}

	private fire(timer: Timer): void {
		if (timer.repeatMs === undefined) this.timers.delete(timer.id);
		else {
			timer.at += timer.repeatMs;
			timer.order = ++this.lastOrder;
		}
		timer.callback(...timer.args);
	}

	/** Whether anything real is under way: an open request that the fake has not parked. */
	private get busy(): boolean {
		return this.openRequests > this.parkedRequests;
	}

	/** Something happened: the quiet turns count again from zero, and the clock looks again. */
	private activity(): void {
		this.quietTurns = 0;
		this.wake();
	}

	/** Looks again once the current events are handled (after I/O callbacks, like setImmediate). */
	private wake(): void {
		if (this.checkPending) return;
		this.checkPending = true;
		this.saved.timers.setImmediate(() => {
			this.checkPending = false;
			this.check();
		});
	}

	/**
	 * Fires the earliest timer that is due; or, once the process has been quiet for
	 * {@link QUIET_TURNS} turns, tells waiters it is idle, or moves to the next timer when allowed.
	 */
	private check(): void {
		const due = this.earliest((timer) => timer.at <= this.now);
		if (due) {
			this.quietTurns = 0;
			this.fire(due);
			this.wake();
			return;
		}
		if (this.busy) {
			this.quietTurns = 0;
			return; // a request's close wakes the clock again
		}
		if (++this.quietTurns < QUIET_TURNS) {
			// Work that goes on in the next turns (a socket closed, an aborted request settling)
			// comes first: it may set a timer, or end what a timer would have stopped.
			this.wake();
			return;
		}
		if (this.waiters.length > 0) {
			for (const resolve of this.waiters.splice(0)) resolve();
			this.activity();
			return;
		}
		if (!this.auto) return;
		// Only time is awaited: move on when a timer keeps the process alive, or any timer when the
		// fake holds an answer open (the client then waits for its own time-out); on the way, the
		// earliest timer of all fires first, as it would in real time.
		if (!this.earliest((timer) => timer.ref || this.parkedRequests > 0)) return;
		const first = this.earliest(() => true)!;
		this.now = Math.max(this.now, first.at);
		this.quietTurns = 0;
		this.fire(first);
		this.wake();
	}
}

let virtual: VirtualTime | undefined;

/** Puts this process on virtual time (see {@link VirtualTime}) until {@link useRealTime}. */
export function installVirtualTime(): VirtualTime {
	if (virtual) return virtual;
	virtual = new VirtualTime();
	virtual.install();
	return virtual;
}

/**
 * Monotonic time in ms, what rate limits are timed by: the virtual clock's under virtual time (its
 * timers' time, which host clock steps leave alone), else `performance.now()`.
 */
export function monotonicNow(): number {
	return virtual ? virtual.now : performance.now();
}

/**
 * Waits `ms` of real time, whatever clock the process is on: for a test that waits on the fake's real
 * work (bytes it sends while the client reads nothing), when virtual time stands still.
 */
export async function realSleep(ms: number): Promise<void> {
	const { setTimeout } = virtual?.realTimers ?? timers();
	await new Promise<void>((resolve) => setTimeout(() => resolve(), ms));
}

/** Back to real time. */
export function useRealTime(): void {
	virtual?.uninstall();
	virtual = undefined;
}

/**
 * The virtual clock of this test file (every file runs on it: test/support/virtual-time.ts), e.g. to
 * switch to manual mode or to advance it.
 */
export function useVirtualTime(): { time: VirtualTime } {
	const context = {} as { time: VirtualTime };
	beforeAll(() => {
		context.time = installVirtualTime();
	});
	return context;
}

/**
 * Runs this test file on real time: for the few tests that measure the machine itself (a guard
 * against quadratic work, far above what the code needs). Waits then take real time.
 */
export function useRealTimeHere(): void {
	beforeAll(() => useRealTime());
}

/**
 * Lets virtual time move while the fake holds an answer on purpose (one that waits on time: a slow
 * answer, a drip, silence), until `connection` (the answer) closes (no effect on real time).
 */
export async function whileParked<T>(work: Promise<T>, connection?: Closable): Promise<T> {
	return virtual ? await virtual.parked(work, connection) : await work;
}
