/**
 * Flare's alert channel, pushing: the alerts a Flare webhook alert channel sends, signed as a channel
 * with a request signature secret signs them, POSTed to a URL (the Flare Alert Trigger's). Used by
 * the integration tests, the end-to-end suite, the benchmark, the sandbox and `npm run fake-flare --
 * --push <url>`.
 *
 * The shape of an alert is the record of Flare's pushed alerts as its Microsoft Sentinel connector
 * declares it (docs/api-contract.md, "Alert webhook"): uid, url, event_type, source, source_name,
 * keyword, content, highlights, risk {score}, tags, identifiers, actor, timestamp, … plus the full
 * event's `data`. The signature is the bet written there: `t=<seconds>,v1=<hex HMAC-SHA256 of
 * "<t>.<raw body>">`.
 */
import { createHmac } from 'crypto';

import type { EventStore } from './events';

export type FlareAlert = Record<string, unknown>;

/**
 * The fake's Test alert (what Flare's Test button sends is not documented: this is the fake's own
 * sample, shaped as the other alerts).
 */
export const TEST_ALERT_UID = 'test/flare/alert-channel-test';

/** The alert Flare pushes for an event of the feeds, as `tenantId` sees it. */
export function alertFor(events: EventStore, uid: string, tenantId: number): FlareAlert {
	const full = events.fullEvent(uid, tenantId);
	if (!full) throw new Error(`No event ${uid} in the fake's feeds`);
	const { data, header, metadata } = full.activity;
	return {
		uid: header.uid,
		url: metadata.flare_url,
		external_url: data.url,
		event_type: header.type,
		event_title: header.title,
		source: header.source,
		source_name: header.source_name,
		id: header.id,
		keyword: (data.features as { domains?: string[] }).domains?.[0] ?? null,
		category_name: header.category_name,
		content: data.content,
		content_preview: header.content_preview,
		highlights: {},
		risk: header.risk,
		user_risk_score: header.user_risk_score,
		tags: header.tags,
		identifiers: [],
		actor: header.actor,
		timestamp: header.timestamp,
		first_crawled_at: metadata.first_crawled_at,
		data,
	};
}

/** The fake's Test alert, dated `nowMs`. */
export function testAlert(nowMs: number): FlareAlert {
	return {
		uid: TEST_ALERT_UID,
		url: 'https://app.flare.io/#/test',
		event_type: 'test',
		event_title: 'Test alert',
		source: 'flare',
		source_name: 'Flare',
		content: 'This is a test alert sent from your Flare alert channel.',
		risk: { score: 1 },
		tags: [],
		identifiers: [],
		actor: null,
		timestamp: new Date(nowMs).toISOString(),
	};
}

/** The v1 signature of a body at time `t` (seconds), as the alert channel computes it. */
export function signature(secret: string, t: number | string, rawBody: string | Buffer): string {
	return createHmac('sha256', secret).update(`${t}.`).update(rawBody).digest('hex');
}

/** `t=<t>,v1=<hex>` for each secret given (several while Flare rotates the channel's secret). */
export function signatureHeader(
	secrets: string[],
	t: number | string,
	rawBody: string | Buffer,
): string {
	return [`t=${t}`, ...secrets.map((secret) => `v1=${signature(secret, t, rawBody)}`)].join(',');
}

export interface PushOptions {
	/** Signs with these secrets (one v1 each); none: the request has no X-Flare-Signature. */
	secrets?: string[];
	/** The signature's time, seconds since the epoch (default: now). */
	t?: number | string;
	/** Replaces the X-Flare-Signature header as is (after signing, if secrets are given). */
	header?: string;
	/** Default application/json. */
	contentType?: string;
	/** Sent as is instead of the JSON of the alerts. */
	rawBody?: string | Buffer;
	/** Gives up after this many ms (default 30 s). */
	timeoutMs?: number;
	/** Other headers to send (the benchmark's reference: n8n's Webhook node with Header Auth). */
	headers?: Record<string, string>;
}

export interface PushResult {
	status: number;
	/** The answer's body, parsed when it is JSON. */
	body: unknown;
	/** When the request was sent and answered (ms since the epoch). */
	sentAt: number;
	answeredAt: number;
	/** The bytes sent. */
	rawBody: string | Buffer;
}

/**
 * Each alert goes on a new connection, as the suites' other requests to n8n (test/e2e/server.ts
 * NEW_CONNECTION), except a body larger than n8n reads (N8N_PAYLOAD_SIZE_MAX, 16 MiB): n8n answers it
 * unread, and would end a connection marked to close while the body is still being sent (EPIPE, in 3
 * of 10 pushes: hostile review 48).
 */
const UNREAD_ABOVE = 16 * 1024 * 1024; // as test/harness/webhook.ts N8N_PAYLOAD_SIZE_MAX_MB

/** POSTs one alert (or an array of them) to `url` as the alert channel does. */
export async function pushAlert(
	url: string,
	alert: FlareAlert | FlareAlert[],
	options: PushOptions = {},
): Promise<PushResult> {
	const rawBody = options.rawBody ?? JSON.stringify(alert);
	const headers: Record<string, string> = {
		'content-type': options.contentType ?? 'application/json',
		'user-agent': 'Flare-Webhook (fake)',
		...(Buffer.byteLength(rawBody) > UNREAD_ABOVE ? {} : { connection: 'close' }),
		...options.headers,
	};
	if (options.secrets?.length) {
		const t = options.t ?? Math.floor(Date.now() / 1000);
		headers['x-flare-signature'] = signatureHeader(options.secrets, t, rawBody);
	}
	if (options.header !== undefined) headers['x-flare-signature'] = options.header;
	const sentAt = Date.now();
	const response = await fetch(url, {
		method: 'POST',
		headers,
		body: rawBody,
		signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
	});
	const text = await response.text();
	let body: unknown = text;
	try {
		body = JSON.parse(text);
	} catch {
		// not JSON: kept as text
	}
	return { status: response.status, body, sentAt, answeredAt: Date.now(), rawBody };
}
