/**
 * The differential check: the harness (test/harness) against a real n8n, on the trigger scenarios of
 * test/e2e/differential-scenario.ts (activation, polls with new events, a changed parameter, a save
 * with the trigger unchanged, an expression error at one poll, a restart, a save while a poll runs, a
 * deactivation, a publish again). For each line, n8n 2.41.1
 * and 1.123.81 side by side, a real n8n (`n8n start`, SQLite) runs the scenario with the packed
 * package and the lifecycle probe (test/harness/probe.ts) as a custom node, against the fake Flare
 * API; every poll (n8n's log at debug level), what each emitted (its execution, read through n8n's REST
 * API) and the static data n8n stored after each frame (its database) make the transcript. Then the
 * harness replays it in a process of its own, at the same times, and any difference in polls, items,
 * errors or stored static data fails the check.
 *
 * The check also replays each transcript with harnesses broken on purpose (`DRIFTS`: `contextPerPoll`,
 * a new PollContext per tick, as the harness was before issue 39, on both lines; `noIsCurrent`, n8n
 * 2.41 emitting a poll a save superseded) and fails unless each replay differs: the check shows it
 * can catch a harness that drifts from n8n.
 *
 *   npm run test:differential                     (about 10 minutes: one-minute ticks)
 *   FLARE_E2E_LINES=2 npm run test:differential   (n8n 2.41.1 only)
 *   npx tsx test/e2e/differential.ts --replay <transcript.json> [--variant contextPerPoll|noIsCurrent]
 *                                                 (the harness side alone, on a transcript kept in
 *                                                  .n8n-e2e/differential/)
 */
import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { FakeFlare } from '../fake-flare';
import { writeProbe } from '../harness/probe';
import type { N8nLine } from '../harness/static-data';
import { childProcess, fs, path, processRef } from '../support/node';
import {
	type Added,
	ACTION_SECOND,
	compare,
	DRIFTS,
	fakeOptions,
	FEED_PATH,
	flareParameters,
	type Frame,
	type FrameKind,
	itemsOf,
	type Poll,
	probeParameters,
	replay,
	TICK_SECOND,
	type Transcript,
	type Variant,
	WORKFLOW,
	type WorkflowKey,
	WORKFLOWS,
} from './differential-scenario';
import { ensureN8n, type InstalledN8n, type LineKey, LINES } from './install';
import { EditorSession } from './manual';
import { N8nInstance } from './n8n';
import { E2eSecretScan } from './secrets';
import { type N8nServer, startServer } from './server';
import { buildAndPack, CREDENTIAL_ID, CREDENTIAL_NAME, flareCredential, repositoryRoot, say, workFolder } from './suite';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
/** What n8n logs when a poll starts (debug level), by line. */
const POLL_LOGGED: Record<N8nLine, string> = {
	'2.41': 'Poll trigger initiated for workflow',
	'1.123': 'Polling trigger initiated for workflow',
};
const LINE_OF: Record<LineKey, N8nLine> = { '2': '2.41', '1': '1.123' };

/** The next time (ms) whose second of the minute is `second`, at least `after` from now. */
function nextSecond(second: number, after = 0): number {
	const from = Date.now() + after;
	const minute = Math.floor(from / MINUTE) * MINUTE;
	const candidate = minute + second * SECOND;
	return candidate >= from ? candidate : candidate + MINUTE;
}

async function until(time: number): Promise<void> {
	const wait = time - Date.now();
	if (wait > 0) await sleep(wait);
}

/** A workflow file as `n8n import:workflow` takes it: the trigger, then a No Operation node. */
function workflowFile(key: WorkflowKey, parameters: IDataObject, nextPosition = 220): IDataObject {
	const { id, name, node, type } = WORKFLOW[key];
	return {
		id,
		name,
		active: false,
		nodes: nodesOf(key, parameters, nextPosition),
		connections: { [node]: { main: [[{ node: 'Next', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
	function nodesOf(_key: WorkflowKey, nodeParameters: IDataObject, position: number): IDataObject[] {
		return [
			{
				id: `${id}-trigger`,
				name: node,
				type,
				typeVersion: 1,
				position: [0, 0],
				parameters: nodeParameters,
				...(key === 'flare' ? { credentials: { flareApi: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME } } } : {}),
			},
			{ id: `${id}-next`, name: 'Next', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [position, 0], parameters: {} },
		];
	}
}

interface ExecutionSummary {
	id: string;
	status: string;
	/** None for the error execution of a failed poll (n8n 2.41 `createErrorExecution`). */
	startedAt: string | null;
	createdAt: string;
}

/** One line's real n8n running the scenario. */
class RealRun {
	private server?: N8nServer;
	private session?: EditorSession;
	private readonly frames: Frame[] = [];
	private pending: Added[] = [];
	/** Polls already put in a frame, by workflow. */
	private readonly counted: Record<WorkflowKey, number> = { flare: 0, probe: 0 };

	constructor(
		readonly line: N8nLine,
		private readonly n8n: N8nInstance,
		private readonly fake: FakeFlare,
		private readonly customFolder: string,
		private readonly log: (text: string) => void,
	) {}

	async start(): Promise<void> {
		this.server = await startServer(this.n8n, {
			env: { N8N_LOG_LEVEL: 'debug', N8N_CUSTOM_EXTENSIONS: this.customFolder },
		});
		// On a busy machine a first request may fail at the socket: the owner's set-up is tried again,
		// and a log-in serves when the set-up went through after all.
		const server = this.server;
		const signIn = async () => await EditorSession.signIn(server, this.n8n.userFolder);
		const logIn = async () => await EditorSession.logIn(server, this.n8n.userFolder);
		let failure: unknown;
		for (let attempt = 1; attempt <= 3; attempt++) {
			try {
				this.session = this.signedIn ? await logIn() : await signIn().catch(async () => await logIn());
				this.signedIn = true;
				return;
			} catch (error) {
				failure = error;
				await sleep(2 * SECOND);
			}
		}
		throw new Error(`n8n ${this.line} did not let the owner in: ${(failure as Error).message}`);
	}

	private signedIn = false;

	private get rest(): EditorSession {
		if (!this.session) throw new Error('n8n is not running');
		return this.session;
	}

	/** Poll starts n8n logged for the workflow, in order (ms). */
	private pollsLogged(key: WorkflowKey): number[] {
		return this.n8n.logged(`${POLL_LOGGED[this.line]} "${WORKFLOW[key].name}"`).map((at) => Date.parse(at));
	}

	private async executions(key: WorkflowKey): Promise<ExecutionSummary[]> {
		const filter = encodeURIComponent(JSON.stringify({ workflowId: WORKFLOW[key].id }));
		const { results } = await this.rest.request<{ results: ExecutionSummary[] }>('GET', `/executions?filter=${filter}&limit=100`);
		return [...results].sort((a, b) => Number(a.id) - Number(b.id));
	}

	/** A new event in tenant 202's feed, kept for the next frame (and its replay). */
	addEvent(severity: Added['severity']): void {
		const [item] = this.fake.addEvents(1, { tenantId: 202, severity });
		this.pending.push({ at: Date.now(), uid: item.metadata.uid, severity, materializedAt: item.metadata.matched_at ?? new Date().toISOString() });
	}

	/**
	 * A frame: `act` at `at` (an action, or nothing for the ticks), then until `end`: the polls n8n
	 * logged meanwhile, and the static data n8n stored by then. What each poll emitted (its execution:
	 * an emit, or the error n8n recorded) is read at the end ({@link attribute}), by when it started.
	 */
	async frame(
		kind: FrameKind,
		at: number,
		end: number | (() => number),
		act: () => Promise<void> = async () => {},
		saved?: Frame['saved'],
		saveAt?: number,
	): Promise<void> {
		await until(at);
		await act();
		await until(typeof end === 'number' ? end : end());
		const polls: Frame['polls'] = { flare: [], probe: [] };
		for (const key of WORKFLOWS) {
			const starts = this.pollsLogged(key).slice(this.counted[key]);
			this.counted[key] += starts.length;
			polls[key] = starts.map((start) => ({ at: start, items: null }));
		}
		const stored = { flare: await this.n8n.storedStaticData(WORKFLOW.flare.id), probe: await this.n8n.storedStaticData(WORKFLOW.probe.id) };
		this.frames.push({ kind, at, ...(saved ? { saved } : {}), ...(saveAt ? { saveAt } : {}), added: this.pending, polls, stored: stored as Frame['stored'] });
		this.pending = [];
		this.log(`  ${this.line}: ${kind} at ${new Date(at).toISOString()}: polls ${WORKFLOWS.map((key) => `${key} ${polls[key].length}`).join(', ')}`);
	}

	/**
	 * Each poll's executions: those n8n started (or, for an error, created) from its start to the next
	 * poll's of the workflow. Read once every frame is over, so that a slow execution is not missed.
	 */
	async attribute(): Promise<void> {
		for (const key of WORKFLOWS) {
			const polls = this.frames.flatMap((frame) => frame.polls[key]);
			const executions = await this.executions(key);
			for (const [index, poll] of polls.entries()) {
				const next = polls[index + 1]?.at ?? Infinity;
				const mine = executions.filter((execution) => {
					const at = Date.parse(execution.startedAt ?? execution.createdAt);
					return at >= poll.at - SECOND && at < next;
				});
				Object.assign(poll, await this.pollOf(key, poll.at, mine));
			}
		}
	}

	/** A poll as the transcript keeps it: what its executions emitted, or the error n8n recorded. */
	private async pollOf(key: WorkflowKey, at: number, executions: ExecutionSummary[]): Promise<Poll> {
		const poll: Poll = { at, items: null };
		for (const execution of executions) {
			const { run } = await this.rest.execution(execution.id);
			const error = run?.data.resultData.error;
			if (error) {
				poll.error = error.message;
				continue;
			}
			const items = run?.data.resultData.runData[WORKFLOW[key].node]?.[0]?.data?.main?.[0] ?? [];
			poll.items = [...(poll.items ?? []), ...(itemsOf(key, items as never) ?? [])];
		}
		return poll;
	}

	/** Publishes a workflow (the editor's Publish; n8n 1.123: Activate). */
	async publish(key: WorkflowKey): Promise<void> {
		await this.rest.activate(WORKFLOW[key].id);
	}

	/** Unpublishes a workflow (the editor's Unpublish; n8n 1.123: Deactivate). */
	async deactivate(key: WorkflowKey): Promise<void> {
		await this.rest.request('POST', `/workflows/${WORKFLOW[key].id}/deactivate`, {});
	}

	/** The fake holds its next answer of the tenant feed `ms` (a slow poll). */
	holdFeed(ms: number): void {
		this.fake.faults.add({ path: FEED_PATH, fault: { delayMs: ms } });
	}

	/**
	 * Saves the workflow as the editor does (PATCH with the version it read), the trigger's parameters
	 * and the No Operation node's place given; n8n 2.41 then publishes that version, as its Publish
	 * button does (n8n 1.123 applies a save of an active workflow at once).
	 */
	async save(key: WorkflowKey, parameters: IDataObject, nextPosition: number): Promise<void> {
		const { id } = WORKFLOW[key];
		const current = await this.rest.request<{ versionId: string }>('GET', `/workflows/${id}`);
		const file = workflowFile(key, parameters, nextPosition);
		await this.rest.request('PATCH', `/workflows/${id}`, { versionId: current.versionId, nodes: file.nodes, connections: file.connections });
		if (this.line === '2.41') await this.rest.activate(id);
	}

	/**
	 * n8n stopped (SIGTERM) and started again; waits for both workflows' start-up activation polls and
	 * the executions they started (both emit in this scenario), and no longer: the next tick is not
	 * part of the frame.
	 */
	async restart(): Promise<void> {
		const executions: number[] = [];
		for (const key of WORKFLOWS) executions.push((await this.executions(key)).length);
		await this.server?.stop();
		this.server = undefined;
		const before = WORKFLOWS.map((key) => this.pollsLogged(key).length);
		await this.start();
		const deadline = Date.now() + 2 * MINUTE;
		while (WORKFLOWS.some((key, index) => this.pollsLogged(key).length <= before[index]) && Date.now() < deadline) await sleep(SECOND);
		const settled = Date.now() + 15 * SECOND;
		for (const [index, key] of WORKFLOWS.entries()) {
			while ((await this.executions(key)).length <= executions[index] && Date.now() < settled) await sleep(SECOND / 2);
		}
		await sleep(SECOND);
	}

	async stop(): Promise<void> {
		await this.server?.stop();
		this.server = undefined;
	}

	transcript(fakeStart: string): Transcript {
		return { line: this.line, fakeStart, fakePort: Number(new URL(this.fake.url).port), frames: this.frames };
	}
}

/** Runs the scenario on one line of n8n; returns its transcript. */
async function realRun(lineKey: LineKey, install: InstalledN8n, tarball: string, root: string, secrets: E2eSecretScan): Promise<Transcript> {
	const line = LINE_OF[lineKey];
	const folder = path.join(workFolder(root), 'differential', line);
	const fakeStart = new Date(Date.now() - 5 * 24 * 60 * MINUTE).toISOString();
	const fake = await FakeFlare.start(fakeOptions(fakeStart));
	const log = (text: string) => say(text);
	try {
		const n8n = N8nInstance.create(install, path.join(folder, 'n8n'));
		const customFolder = path.join(folder, 'custom');
		writeProbe(customFolder);
		await n8n.installPackage(tarball);
		await n8n.importCredentials([flareCredential(fake)]);
		const files = (['flare', 'probe'] as const).map((key) => {
			const file = path.join(folder, `${key}.json`);
			fs.writeFileSync(file, JSON.stringify(workflowFile(key, key === 'flare' ? flareParameters() : probeParameters('a')), null, 2));
			return file;
		});
		await n8n.importWorkflows(files);
		const run = new RealRun(line, n8n, fake, customFolder, log);
		try {
			await run.start();
			log(`  ${line}: n8n started (${path.relative(root, folder)}), the workflows imported.`);
			// Publish both at second 41; the ticks come at second 30.
			let at = nextSecond(ACTION_SECOND, 5 * SECOND);
			const tick = (time: number) => time - ACTION_SECOND * SECOND + MINUTE + TICK_SECOND * SECOND;
			const frameEnd = (time: number) => tick(time) - 5 * SECOND;
			await run.frame('publish', at, frameEnd(at), async () => {
				await run.publish('flare');
				await run.publish('probe');
			});
			run.addEvent('medium');
			await run.frame('tick', frameEnd(at), tick(at) + 9 * SECOND);
			// The Flare Trigger saved changed (severity medium or more; a Tenant that gives nothing
			// around the next tick), the probe's workflow saved with the probe unchanged.
			at += MINUTE;
			const window = { from: tick(at) - 10 * SECOND, to: tick(at) + 25 * SECOND };
			const flareSaved = flareParameters(window);
			await run.frame('save', at, frameEnd(at), async () => {
				await run.save('flare', flareSaved, 220);
				await run.save('probe', probeParameters('a'), 440);
			}, { flare: flareSaved, probe: probeParameters('a') });
			run.addEvent('medium');
			await run.frame('tick', frameEnd(at), tick(at) + 9 * SECOND);
			// The probe saved changed; the next tick reads the Tenant again.
			at += MINUTE;
			await run.frame('save', at, frameEnd(at), async () => await run.save('probe', probeParameters('b'), 440), { probe: probeParameters('b') });
			await run.frame('tick', frameEnd(at), tick(at) + 9 * SECOND);
			run.addEvent('critical');
			at += MINUTE;
			// The restart frame ends with the tick after start-up (however slow the start): its
			// activations and that tick, which the replay runs at the times n8n logged.
			await run.frame('restart', at, () => nextSecond(TICK_SECOND) + 9 * SECOND, async () => await run.restart());
			// A tick whose feed answer the fake holds 25 s; the Flare Trigger saved changed (severity high
			// or more) while it runs.
			at = nextSecond(ACTION_SECOND) + MINUTE;
			const heldFrom = at - 16 * SECOND;
			await until(heldFrom);
			run.addEvent('critical');
			run.holdFeed(25 * SECOND);
			await run.frame('heldSave', heldFrom, frameEnd(at), async () => {
				await until(at);
				await run.save('flare', flareParameters(), 220);
			}, { flare: flareParameters() }, at);
			await run.frame('tick', frameEnd(at), tick(at) + 9 * SECOND);
			// Both unpublished; an event; a tick (none runs); both published again.
			at += MINUTE;
			await run.frame('deactivate', at, frameEnd(at), async () => {
				await run.deactivate('flare');
				await run.deactivate('probe');
			});
			run.addEvent('critical');
			await run.frame('tick', frameEnd(at), tick(at) + 9 * SECOND);
			at += MINUTE;
			await run.frame('publish', at, frameEnd(at), async () => {
				await run.publish('flare');
				await run.publish('probe');
			});
			await run.frame('tick', frameEnd(at), tick(at) + 9 * SECOND);
			await run.attribute();
		} finally {
			await run.stop();
			await secrets.addInstanceFiles(n8n.userFolder);
		}
		const transcript = run.transcript(fakeStart);
		fs.writeFileSync(path.join(folder, 'transcript.json'), JSON.stringify(transcript, null, 2));
		return transcript;
	} finally {
		await fake.stop();
	}
}

/** The harness's replay of a transcript file, in a process of its own (fresh module state: a new "n8n"). */
async function replayIn(child: { transcript: string; variant: Variant; out: string }): Promise<Transcript> {
	await new Promise<void>((resolve, reject) => {
		const script = path.join(repositoryRoot(), 'test', 'e2e', 'differential.ts');
		const replaying = childProcess.spawn('npx', ['tsx', script, '--replay', child.transcript, '--variant', child.variant, '--out', child.out], {
			stdio: ['ignore', 'inherit', 'inherit'],
		});
		replaying.on('error', reject);
		replaying.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`the replay (${child.variant}) ended with ${code}`))));
	});
	return JSON.parse(fs.readFileSync(child.out, 'utf8')) as Transcript;
}

const argument = (name: string) => {
	const index = processRef.argv.indexOf(`--${name}`);
	return index === -1 ? undefined : processRef.argv[index + 1];
};

async function replayMain(file: string): Promise<void> {
	const real = JSON.parse(fs.readFileSync(file, 'utf8')) as Transcript;
	const variant = (argument('variant') ?? 'none') as Variant;
	const replayed = await replay(real, path.resolve(path.dirname(file), `probe-replay-${variant}`), variant);
	const out = argument('out');
	if (out) fs.writeFileSync(out, JSON.stringify(replayed, null, 2));
	else say(compare(real, replayed).join('\n') || 'no difference');
}

async function main(): Promise<void> {
	const root = repositoryRoot();
	const started = Date.now();
	const lines = (processRef.env.FLARE_E2E_LINES === '2' ? ['2'] : ['2', '1']) as LineKey[];
	const installs = lines.map((line) => ensureN8n(line, say));
	for (const install of installs) install.catch(() => undefined);
	const tarball = await buildAndPack(root, path.join(workFolder(root), 'differential-pack'));
	const secrets = new E2eSecretScan(fakeOptions('').apiKeys!.full!, 'differential');
	say(`== The harness against a real n8n: ${lines.map((line) => LINES[line].label).join(' and ')}`);
	const runs = await Promise.allSettled(lines.map(async (line, index) => await realRun(line, await installs[index], tarball, root, secrets)));
	const failures: string[] = [];
	const transcripts: Transcript[] = [];
	for (const [index, run] of runs.entries()) {
		if (run.status === 'fulfilled') transcripts.push(run.value);
		else failures.push(`${LINES[lines[index]].label}: the scenario could not run: ${(run.reason as Error).stack ?? String(run.reason)}`);
	}
	for (const real of transcripts) {
		const folder = path.join(workFolder(root), 'differential', real.line);
		const file = path.join(folder, 'transcript.json');
		const faithful = compare(real, await replayIn({ transcript: file, variant: 'none', out: path.join(folder, 'replay.json') }));
		say(`n8n ${real.line}: ${real.frames.length} frames, ${real.frames.reduce((sum, frame) => sum + frame.polls.flare.length + frame.polls.probe.length, 0)} polls; the harness: ${faithful.length ? `${faithful.length} differences` : 'the same'}`);
		for (const difference of faithful) failures.push(`n8n ${real.line}: ${difference}`);
		// Each harness broken on purpose must differ (DRIFTS: on the lines where the drift matters).
		for (const [variant, lines] of Object.entries(DRIFTS) as Array<[Variant, N8nLine[]]>) {
			if (!lines.includes(real.line)) continue;
			const broken = compare(real, await replayIn({ transcript: file, variant, out: path.join(folder, `replay-${variant}.json`) }));
			say(`  a harness broken on purpose (${variant}): ${broken.length} differences`);
			for (const difference of broken.slice(0, 3)) say(`    ${difference}`);
			if (broken.length === 0) failures.push(`n8n ${real.line}: a harness broken on purpose (${variant}) gave the same transcript: the check cannot catch it`);
		}
	}
	say(await secrets.write(root));
	if (secrets.leaks) failures.push(secrets.describe());
	say(`Done in ${Math.round((Date.now() - started) / 1000)} s.`);
	if (failures.length) {
		say(failures.map((failure) => `✗ ${failure}`).join('\n'));
		processRef.exitCode = 1;
	}
}

const replayFile = argument('replay');
(replayFile ? replayMain(replayFile) : main()).catch((error: Error) => {
	processRef.stderr.write(`The differential check could not run: ${error.stack ?? error.message}\n`);
	processRef.exitCode = 1;
});
