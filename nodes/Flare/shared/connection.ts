import { createHash } from 'crypto';
import type { ICredentialDataDecryptedObject, IHttpRequestOptions } from 'n8n-workflow';

import { version } from '../../../package.json';

/**
 * Where Flare requests go and with which key: the Flare API credential's settings, checked before
 * anything is sent (docs/api-contract.md, "Credential settings"), and the two digests derived from
 * them: what an access token was issued for, and the organization that Flare's rate limits count.
 */

export const CREDENTIAL_TYPE = 'flareApi';
export const DEFAULT_BASE_URL = 'https://api.flare.io';
export const DEFAULT_SEGMENT = 'firework';

/**
 * The hosts of Flare's API: the one Flare documents, and the EU one its Python SDK allows
 * (docs/api-contract.md, "Credential settings"), on their default port. The API key goes to another
 * host or port only when the credential's Allow Another Host is on; loopback hosts (tests, a local
 * proxy) are always allowed, whatever listens there (docs/usage.md, "Credentials").
 */
export const FLARE_API_HOSTS = ['api.flare.io', 'api.eu.flare.io'] as const;

/**
 * Sent on every request to Flare, as Flare's own clients identify themselves
 * (`python-flareio/<version> requests/<version>`). n8n-workflow exposes no n8n version to a node,
 * so n8n goes without one; the package's version is read from its package.json at build time.
 */
export const USER_AGENT = `n8n-nodes-flareio/${version} n8n`;

/**
 * Marks the credential data a node hands to n8n for a request in another tenant than its
 * credential's (transport.ts): the token in it is that tenant's, held by the node, and the
 * credential's `preAuthentication` leaves it alone (n8n 1.x would otherwise store it, and that
 * tenant, as the credential's own after a 401).
 */
export const NODE_TENANT_VIEW = 'flareNodeTenantView';

/** Display names of the credential's fields: the credential's form and every message use these. */
export const CREDENTIAL_FIELDS = {
	apiKey: 'API Key',
	tenantId: 'Tenant ID',
	baseUrl: 'Base URL',
	allowOtherHost: 'Allow Another Host',
	productSegment: 'Product Segment',
} as const;

export interface FlareSettings {
	/** Base URL without trailing slashes. */
	baseUrl: string;
	/** Product segment, e.g. `firework`. */
	segment: string;
	/** Tenant to work in; undefined for the key's default tenant. */
	tenantId?: number;
	apiKey: string;
}

/** A credential setting that cannot be used; the message names the field and never holds the key. */
export class FlareSettingsError extends Error {
	constructor(
		readonly field: string,
		problem: string,
		readonly hint: string,
	) {
		super(`The Flare API credential's '${field}' ${problem}`);
		this.name = 'FlareSettingsError';
	}
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;
/** A tenant ID: a positive whole number (of at most 15 digits, so that it stays exact). */
export const TENANT_ID = /^\d{1,15}$/;
const SEGMENT = /^[A-Za-z0-9_-]+$/;

function parseUrl(text: string): URL | undefined {
	try {
		return new URL(text);
	} catch {
		return undefined;
	}
}

function baseUrlOf(value: unknown, allowOtherHost: boolean): string {
	const field = CREDENTIAL_FIELDS.baseUrl;
	const text = String(value ?? '').trim() || DEFAULT_BASE_URL;
	const example = `Enter Flare's address, e.g. ${DEFAULT_BASE_URL}.`;
	const url = parseUrl(text);
	if (!url) throw new FlareSettingsError(field, `is not a URL: "${text}"`, example);
	if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.test(url.hostname))) {
		throw new FlareSettingsError(
			field,
			`must start with https://, not "${url.protocol}//"`,
			`${example} Plain http:// is accepted only for localhost, which tests use.`,
		);
	}
	if (url.username || url.password || url.search || url.hash || /[?#]/.test(text)) {
		throw new FlareSettingsError(
			field,
			'must not contain a user name, a password, a query (?) or a fragment (#)',
			example,
		);
	}
	// A fully qualified name ("api.flare.io.") is the same host: requests go to it without the dot.
	if (url.hostname.endsWith('.')) url.hostname = url.hostname.slice(0, -1);
	const host = url.hostname.toLowerCase();
	if (!allowOtherHost && !isFlareHost(host) && !LOOPBACK.test(host)) {
		throw new FlareSettingsError(
			field,
			`points to ${host}, which is not Flare's API (${FLARE_API_HOSTS.join(' or ')}), so the API key was not sent. To send it to ${host} on purpose, turn on '${CREDENTIAL_FIELDS.allowOtherHost}' in the credential`,
			`Correct the Base URL, e.g. ${DEFAULT_BASE_URL}. Turn on '${CREDENTIAL_FIELDS.allowOtherHost}' only for a proxy or a test API you trust: that host receives the API key and can act in Flare as you.`,
		);
	}
	if (!allowOtherHost && isFlareHost(host) && url.port !== '') {
		throw new FlareSettingsError(
			field,
			`points to port ${url.port} of ${host}, where Flare's API does not answer (it answers on the default port, 443), so the API key was not sent. To send it there on purpose, turn on '${CREDENTIAL_FIELDS.allowOtherHost}' in the credential`,
			`Remove the port: ${url.protocol}//${host}.`,
		);
	}
	return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

/** Whether `host` (lowercase) is one of Flare's API hosts, exactly (not a subdomain of another). */
const isFlareHost = (host: string) => (FLARE_API_HOSTS as readonly string[]).includes(host);

/** The host (and port, if any) requests go to, for messages: e.g. `api.flare.io`. */
export function hostOf(settings: Pick<FlareSettings, 'baseUrl'>): string {
	return parseUrl(settings.baseUrl)?.host ?? settings.baseUrl;
}

function segmentOf(value: unknown): string {
	const segment = String(value ?? '')
		.trim()
		.replace(/^\/+|\/+$/g, '');
	if (segment === '') return DEFAULT_SEGMENT;
	if (!SEGMENT.test(segment)) {
		throw new FlareSettingsError(
			CREDENTIAL_FIELDS.productSegment,
			`may contain only letters, digits, - and _, not "${segment}"`,
			`Keep the default, ${DEFAULT_SEGMENT}, unless Flare tells you otherwise.`,
		);
	}
	return segment;
}

function tenantOf(value: unknown): number | undefined {
	if (value === '' || value === null || value === undefined) return undefined;
	const text = typeof value === 'number' ? String(value) : String(value).trim();
	if (!TENANT_ID.test(text) || Number(text) < 1) {
		throw new FlareSettingsError(
			CREDENTIAL_FIELDS.tenantId,
			`must be empty or a positive whole number, not "${String(value)}"`,
			'Use the tenant ID shown in Flare under Profile → Tenants, or leave it empty for the default tenant.',
		);
	}
	return Number(text);
}

/** The credential's settings, checked; throws {@link FlareSettingsError} naming the field. */
export function readSettings(credentials: ICredentialDataDecryptedObject): FlareSettings {
	const apiKey = String(credentials.apiKey ?? '').trim();
	if (apiKey === '') {
		throw new FlareSettingsError(
			CREDENTIAL_FIELDS.apiKey,
			'is empty',
			'Create an API key in Flare under Profile → API Keys and paste it into the credential.',
		);
	}
	return {
		baseUrl: baseUrlOf(credentials.baseUrl, credentials.allowOtherHost === true),
		segment: segmentOf(credentials.productSegment),
		tenantId: tenantOf(credentials.tenantId),
		apiKey,
	};
}

/**
 * Whether `options` (as n8n's HTTP client reads them: `url`, after `baseURL` unless absolute) go to
 * `baseUrl` (readSettings' form): the same origin (scheme, host, port), and a path under its path.
 */
export function goesTo(options: Pick<IHttpRequestOptions, 'url' | 'baseURL'>, baseUrl: string) {
	const url = String(options.url ?? '');
	const full =
		/^[a-z][a-z\d+.-]*:\/\//i.test(url) || !options.baseURL
			? url
			: `${options.baseURL.replace(/\/+$/, '')}/${url.replace(/^\/+/, '')}`;
	const target = parseUrl(full);
	const base = parseUrl(baseUrl);
	// "api.flare.io." is the same host (readSettings drops the dot; the credential's Test keeps it).
	if (target?.hostname.endsWith('.')) target.hostname = target.hostname.slice(0, -1);
	if (!target || !base || target.origin !== base.origin) return false;
	const path = base.pathname.replace(/\/+$/, '');
	return target.pathname === path || target.pathname.startsWith(`${path}/`);
}

/**
 * The credential settings a request was made with (transport.ts): their {@link tokenFingerprint}, the
 * tenant the request works in included. The credential's `authenticate` sends nothing for a request
 * whose credential no longer has them (edited while it waited), and marks it `changed`.
 */
export interface MadeWith {
	fingerprint: string;
	changed?: boolean;
}

/** Where a request carries its {@link MadeWith} (hidden from n8n's copies, as rateGate.ts `reportSendTo`). */
const MADE_WITH = Symbol.for('n8n-nodes-flareio.madeWith');

/** Makes `options` carry the settings it was made with. */
export function madeWith<T extends object>(options: T, read: MadeWith): T {
	Object.defineProperty(options, MADE_WITH, { value: read });
	return options;
}

/** The settings `options` were made with, when a Flare node made them. */
export function madeWithOf(options: object): MadeWith | undefined {
	return (options as { [MADE_WITH]?: MadeWith })[MADE_WITH];
}

const digest = (...parts: Array<string | number | undefined>) =>
	createHash('sha256')
		.update(parts.map((part) => String(part ?? '')).join('\n'))
		.digest('hex');

/**
 * What an access token was issued for: a digest of Base URL, Tenant ID and API key (never the key
 * itself). A stored token whose fingerprint no longer matches the settings is not sent.
 */
export function tokenFingerprint(settings: FlareSettings): string {
	return digest('flare-token-v1', settings.baseUrl, settings.tenantId, settings.apiKey).slice(
		0,
		32,
	);
}

/**
 * The feeds a credential reads: a digest of its Base URL, product segment and Tenant ID, or, without
 * a Tenant ID, of its API key (whose default tenant Flare then uses). A rotated key of a credential
 * with a Tenant ID reads the same feeds.
 */
export function tenantKey(settings: FlareSettings): string {
	const tenant = settings.tenantId ?? `default tenant of ${digest('flare-key-v1', settings.apiKey)}`;
	return digest('flare-tenant-v1', settings.baseUrl, settings.segment, tenant).slice(0, 16);
}

/**
 * The organization that Flare's rate limits count, as far as the node can know one: the Base URL and
 * a digest of the API key. Two credentials with different keys never share a rate gate.
 */
export function organizationKey(settings: FlareSettings): string {
	return `${settings.baseUrl}|${digest('flare-organization-v1', settings.apiKey).slice(0, 16)}`;
}
