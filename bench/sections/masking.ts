/**
 * Goal 8 (issue 38). Masking's speed, in CPU time (the median of the runs, each run masking a fresh
 * copy), with the compiled package as n8n loads it (`dist/`):
 *
 * - **Flare's records**: every full event of the fake's tenant (each type's free text, planted
 *   leaks in every notation, stealer logs' credentials and cookies), and a page of credentials of the
 *   search; beside the **floor** measured in the same run on the same records: `JSON.stringify` and
 *   one linear scan of its characters, the least any reading of them costs. Goal: within 10 times the
 *   floor.
 * - **Ordinary text** (prose with addresses, URLs and a few leaks, as pastes and posts are written)
 *   and **every adversarial shape** (test/support/adversarial.ts), 1 MiB each, as free text. Goal: the
 *   worst shape at most 3 times slower per byte than ordinary text.
 */
import { FakeFlare } from '../../test/fake-flare';
import { ADVERSARIAL } from '../../test/support/adversarial';
import { NOTATIONS, plantedLeak } from '../../test/support/notations';
import { planted } from '../../test/fake-flare/planted';
import { path, processRef } from '../../test/support/node';
import { ratio, round } from '../lib/stats';
import { REPO_ROOT, median } from '../lib/proc';

export interface MaskingRow {
	label: string;
	/** Characters masked, in MiB. */
	mib: number;
	/** Median CPU milliseconds of the masking. */
	cpuMs: number;
	mibPerSecond: number;
	/** Records: masking over the floor; texts: per byte, over ordinary text. */
	relative?: number;
	floorMibPerSecond?: number;
}

interface Masking {
	protectLeakedValues(record: object, mode: 'masked'): object;
	maskFreeText(text: string): string;
}

const MiB = 1_048_576;

/** Median CPU ms of `work(prepare())` over `runs` runs (what `prepare` costs is not counted). */
function cpuMs<T>(runs: number, prepare: () => T, work: (input: T) => unknown): number {
	const samples: number[] = [];
	work(prepare());
	for (let run = 0; run < runs; run++) {
		const input = prepare();
		const before = processRef.cpuUsage();
		work(input);
		const { user, system } = processRef.cpuUsage(before);
		samples.push((user + system) / 1000);
	}
	return median(samples);
}

/** The floor: one `JSON.stringify` of the records and one reading of each of its characters. */
function floorOf(records: object[]): number {
	const text = JSON.stringify(records);
	let sum = 0;
	for (let at = 0; at < text.length; at++) sum = (sum + text.charCodeAt(at)) | 0;
	return sum;
}

/** Prose as pastes and forum posts write it: words, addresses, links, a few leaks. */
function ordinaryText(bytes: number): string {
	const words = 'the of and to in is that for on with as was by leaked access dump sale forum user database account reset service acme corp vpn new old'.split(' ');
	let seed = 7;
	const next = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff);
	const context = { login: 'jane@acme.com', user: 'jane', host: 'acme.com' };
	const parts: string[] = [];
	let length = 0;
	for (let sentence = 0; length < bytes; sentence++) {
		const count = 6 + (next() % 14);
		let text = Array.from({ length: count }, () => words[next() % words.length]).join(' ');
		text += sentence % 3 === 0 ? ', contact jane@acme.com or see https://acme.com/login?next=/home.' : '.';
		if (sentence % 40 === 0) text += `\n${plantedLeak(next(), planted(`x${sentence}`), context)[0]}\n`;
		parts.push(text);
		length += text.length + 1;
	}
	return parts.join(' ');
}

export async function runMasking(options: { runs: number; log: (text: string) => void }): Promise<MaskingRow[]> {
	const masking = (await import(path.join(REPO_ROOT, 'dist/nodes/Flare/shared/masking/index.js'))) as Masking;
	const rows: MaskingRow[] = [];
	const fake = await FakeFlare.start({ credentials: 2_000, eventsPerTenant: 400 });
	try {
		const tenant = fake.options.tenants[0];
		const events = fake.events.feed(tenant).map((event) => fake.events.fullEvent(event.uid, tenant)!);
		const credentials = Array.from({ length: 1_000 }, (_, index) => fake.dataset.credential(index));
		for (const [label, records] of [
			[`Flare's full events (${events.length}, every type, leaks in ${NOTATIONS.length} notations)`, events],
			[`Flare's credentials (${credentials.length}, a search's page)`, credentials],
		] as const) {
			const json = JSON.stringify(records);
			const mibs = json.length / MiB;
			const floor = cpuMs(options.runs * 3, () => records, floorOf);
			const ours = cpuMs(options.runs, () => structuredClone(records) as object[], (copies) => {
				for (const record of copies) masking.protectLeakedValues(record, 'masked');
			});
			rows.push({
				label,
				mib: round(mibs, 2),
				cpuMs: round(ours, 1),
				mibPerSecond: round(mibs / (ours / 1000), 1),
				floorMibPerSecond: round(mibs / (Math.max(floor, 0.1) / 1000), 1),
				relative: ratio(ours, Math.max(floor, 0.1)),
			});
			options.log(`  ${label}: ${round(ours, 1)} ms for ${round(mibs, 2)} MiB; floor ${round(floor, 1)} ms`);
		}
		const ordinary = ordinaryText(MiB);
		const ordinaryMs = cpuMs(options.runs, () => ordinary, (text) => masking.maskFreeText(text));
		rows.push({ label: 'ordinary text (prose, addresses, links, a few leaks)', mib: 1, cpuMs: round(ordinaryMs, 1), mibPerSecond: round(1 / (ordinaryMs / 1000), 1), relative: 1 });
		for (const [shape, make] of Object.entries(ADVERSARIAL)) {
			const text = make(MiB);
			const ms = cpuMs(options.runs, () => text, (input) => masking.maskFreeText(input));
			const mibs = text.length / MiB;
			rows.push({
				label: shape,
				mib: round(mibs, 2),
				cpuMs: round(ms, 1),
				mibPerSecond: round(mibs / (ms / 1000), 1),
				relative: ratio(ms / mibs, ordinaryMs),
			});
		}
		options.log(`  ordinary text: ${round(ordinaryMs, 1)} ms a MiB; ${Object.keys(ADVERSARIAL).length} adversarial shapes`);
	} finally {
		await fake.stop();
	}
	return rows;
}
