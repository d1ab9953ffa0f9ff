import type { IDataObject } from 'n8n-workflow';

/**
 * Flare's alerts as the trigger outputs them: the alert as Flare sent it under `alert`, and beside it
 * a few fields that every kind of alert gets, whatever its shape (docs/api-contract.md, "Alert
 * webhook"): the flat record of Flare's pushed alerts (the columns of its Microsoft Sentinel
 * connector), a feed item (`metadata`, `tenant_metadata`) or a full event (`activity`).
 */

/** Flare's severities from the lowest, as the feed names them; a 1–5 risk score is their rank + 1. */
export const SEVERITIES = ['info', 'low', 'medium', 'high', 'critical'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** Other names seen for the lowest severity (Sentinel's "Informational"). */
const SEVERITY_ALIASES: Record<string, Severity> = { informational: 'info' };

const isRecord = (value: unknown): value is IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** The value at a dotted path, or undefined. */
function at(record: IDataObject, path: string): unknown {
	let value: unknown = record;
	for (const key of path.split('.')) {
		if (!isRecord(value)) return undefined;
		value = value[key];
	}
	return value;
}

/** The first non-empty string among the paths. */
function firstString(record: IDataObject, paths: string[]): string | null {
	for (const path of paths) {
		const value = at(record, path);
		if (typeof value === 'string' && value.trim() !== '') return value;
	}
	return null;
}

function severityNamed(value: unknown): Severity | null {
	if (typeof value !== 'string') return null;
	const name = value.trim().toLowerCase();
	if ((SEVERITIES as readonly string[]).includes(name)) return name as Severity;
	return SEVERITY_ALIASES[name] ?? null;
}

/** A 1–5 risk score (a number or a numeric string), or null. */
function scoreOf(value: unknown): number | null {
	const score = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	return typeof score === 'number' && Number.isInteger(score) && score >= 1 && score <= 5
		? score
		: null;
}

/** Where each normalised field is looked for, in order. */
const UID_PATHS = ['uid', 'metadata.uid', 'header.uid', 'activity.header.uid', 'activity.data.uid'];
const TYPE_PATHS = ['event_type', 'metadata.type', 'header.type', 'activity.header.type'];
const SEVERITY_PATHS = ['tenant_metadata.severity.override', 'metadata.severity', 'severity'];
/** The tenant's own score first (it overrides), then Flare's. */
const SCORE_PATHS = [
	'user_risk_score',
	'risk.score',
	'header.user_risk_score',
	'header.risk.score',
	'activity.header.user_risk_score',
	'activity.header.risk.score',
];
const LINK_PATHS = ['flare_url', 'metadata.flare_url', 'activity.metadata.flare_url'];
const TIME_PATHS = [
	'timestamp',
	'metadata.estimated_created_at',
	'header.timestamp',
	'activity.header.timestamp',
	'activity.metadata.estimated_created_at',
];

/** Hosts of Flare's web application: a `url` there is the alert's Flare link. */
const FLARE_HOSTS = /^https:\/\/([a-z0-9-]+\.)*flare\.(io|systems)(\/|$)/i;

/** The Flare link: a `flare_url`, else a `url` on Flare's own hosts (never a source's address). */
function linkOf(alert: IDataObject): string | null {
	const link = firstString(alert, LINK_PATHS);
	if (link) return link;
	const url = alert.url;
	return typeof url === 'string' && isFlareLink(url) ? url : null;
}

/** Whether `url` is on Flare's hosts: the pattern reads its scheme and host only (of a host's length). */
function isFlareLink(url: string): boolean {
	const hostEnd = url.indexOf('/', 'https://'.length);
	const head = hostEnd === -1 ? url : url.slice(0, hostEnd + 1);
	return head.length <= 'https://'.length + 254 && FLARE_HOSTS.test(head);
}

/** The severity name: a named severity when the alert has one, else the 1–5 score's. */
function severityAndScore(alert: IDataObject): { severity: Severity | null; score: number | null } {
	let severity: Severity | null = null;
	for (const path of SEVERITY_PATHS) {
		severity = severityNamed(at(alert, path));
		if (severity) break;
	}
	let score: number | null = null;
	for (const path of SCORE_PATHS) {
		score = scoreOf(at(alert, path));
		if (score !== null) break;
	}
	if (severity) return { severity, score: score ?? SEVERITIES.indexOf(severity) + 1 };
	return { severity: score === null ? null : SEVERITIES[score - 1], score };
}

/**
 * The item of one alert: uid, event type, severity and risk score, Flare link, when it happened, when
 * n8n received it, and the alert itself. A field the alert does not carry is null; nothing fails.
 */
export function alertItem(alert: IDataObject, receivedAt: string): IDataObject {
	const uid = firstString(alert, UID_PATHS);
	// A uid is "<type>/<source>/<id>": Flare's Sentinel rules read the type from it.
	const type = firstString(alert, TYPE_PATHS) ?? (uid?.includes('/') ? uid.split('/')[0] : null);
	const { severity, score } = severityAndScore(alert);
	return {
		uid,
		event_type: type,
		severity,
		risk_score: score,
		flare_url: linkOf(alert),
		occurred_at: firstString(alert, TIME_PATHS),
		received_at: receivedAt,
		alert,
	};
}

/** The alerts of a parsed body: one object, or an array of objects; null when it is neither. */
export function alertsOf(body: unknown): IDataObject[] | null {
	if (isRecord(body)) return [body];
	if (Array.isArray(body) && body.length > 0 && body.every(isRecord)) return body;
	return null;
}

/**
 * Whether an alert is the sample of the channel's Test button: its event type is `test` (the type
 * given, not read from a uid; docs/api-contract.md, "Alert webhook"). It starts the workflow each time
 * it is sent.
 */
export function isChannelTest(alert: IDataObject): boolean {
	return firstString(alert, TYPE_PATHS) === 'test';
}
