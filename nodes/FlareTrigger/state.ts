import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

/**
 * What the Flare Trigger keeps in the workflow's static data between polls. It stays small: one
 * instant, the ids of the credentials emitted at that instant, and at most one cursor.
 */
export interface TriggerState {
	/** `imported_at` of the newest credential emitted so far (ISO 8601), or where the trigger started. */
	watermark: string;
	/** Ids of the credentials already emitted whose `imported_at` is the watermark instant. */
	idsAtWatermark: string[];
	/** A walk that the poll time budget cut short, continued by the next poll. */
	resume?: ResumePoint;
}

export interface ResumePoint {
	/** `filters.imported_at.gte` of the cut walk: Flare accepts a cursor only with the same parameters. */
	gte: string;
	/** Cursor of the next page. */
	from: string;
	/** Fingerprint of the query of the cut walk; after a change of query, a new walk starts. */
	query: string;
}

/** The state stored by an earlier poll, or undefined on first activation (or if it is unreadable). */
export function readState(data: IDataObject): TriggerState | undefined {
	const { watermark, idsAtWatermark, resume } = data;
	if (typeof watermark !== 'string' || Number.isNaN(instantOf(watermark))) return undefined;
	const state: TriggerState = {
		watermark,
		idsAtWatermark: Array.isArray(idsAtWatermark) ? idsAtWatermark.map(String) : [],
	};
	const point = resume as IDataObject | undefined;
	if (
		typeof point?.gte === 'string' &&
		typeof point.from === 'string' &&
		typeof point.query === 'string'
	) {
		state.resume = { gte: point.gte, from: point.from, query: point.query };
	}
	return state;
}

function serialise(state: TriggerState): string {
	const { watermark, idsAtWatermark, resume } = state;
	return JSON.stringify([watermark, idsAtWatermark, resume ?? null]);
}

/**
 * Stores `state` in the static data (in place, as n8n expects) when it differs from what is stored,
 * so that a poll that changes nothing leaves the static data untouched.
 */
export function writeState(data: IDataObject, state: TriggerState): void {
	const stored = readState(data);
	if (stored && serialise(stored) === serialise(state)) return;
	data.watermark = state.watermark;
	data.idsAtWatermark = [...state.idsAtWatermark];
	if (state.resume) data.resume = { ...state.resume };
	else delete data.resume;
}

/** Milliseconds since the epoch of a date-time; one without an offset is UTC, as Flare means it. */
export function instantOf(value: unknown): number {
	if (typeof value !== 'string') return Number.NaN;
	const hasOffset = /(Z|[+-]\d{2}:?\d{2})$/i.test(value);
	return Date.parse(hasOffset ? value : `${value}Z`);
}

/** A short, stable fingerprint of the query (the query itself may hold a password). */
export function queryFingerprint(query: IDataObject): string {
	return createHash('sha256').update(JSON.stringify(query)).digest('hex').slice(0, 16);
}

/**
 * Picks, from the credentials of a walk in ascending `imported_at` order, those not emitted before:
 * imported after the watermark, or at the watermark instant with an id not emitted yet; and works out
 * the state that follows from emitting them.
 */
export class NewCredentials {
	private readonly watermarkMs: number;
	private readonly emittedAtWatermark: Set<string>;
	/** Ids taken during this poll, so that a credential appears once even if Flare repeats it. */
	private readonly taken = new Set<string>();
	private newestMs: number;
	private idsAtNewest: string[] = [];

	constructor(private readonly state: TriggerState) {
		this.watermarkMs = instantOf(state.watermark);
		this.emittedAtWatermark = new Set(state.idsAtWatermark);
		this.newestMs = this.watermarkMs;
	}

	/** The credentials of one page that are new, in order; they count as emitted from now on. */
	take(records: IDataObject[]): IDataObject[] {
		const fresh: IDataObject[] = [];
		for (const record of records) {
			const id = record.id ?? record.credential_hash;
			const key = id === undefined || id === null ? undefined : String(id);
			// A credential without a readable time cannot be placed: it counts as at the watermark.
			const parsed = instantOf(record.imported_at);
			const at = Number.isNaN(parsed) ? this.watermarkMs : parsed;
			if (at < this.watermarkMs) continue;
			if (key !== undefined) {
				if (at === this.watermarkMs && this.emittedAtWatermark.has(key)) continue;
				if (this.taken.has(key)) continue;
				this.taken.add(key);
			}
			fresh.push(record);
			if (at > this.newestMs) {
				this.newestMs = at;
				this.idsAtNewest = [];
			}
			if (at === this.newestMs && key !== undefined) this.idsAtNewest.push(key);
		}
		return fresh;
	}

	/** Watermark and ids after emitting everything taken (the resume point is left out). */
	next(): TriggerState {
		if (this.newestMs === this.watermarkMs) {
			return {
				watermark: this.state.watermark,
				idsAtWatermark: [...this.state.idsAtWatermark, ...this.idsAtNewest],
			};
		}
		return {
			watermark: new Date(this.newestMs).toISOString(),
			idsAtWatermark: [...this.idsAtNewest],
		};
	}
}
