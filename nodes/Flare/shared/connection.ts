import { createHash } from 'crypto';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

/**
 * Where Flare requests go and with which key: the Flare API credential's settings, checked before
 * anything is sent (docs/api-contract.md, "Credential settings"), and the two digests derived from
 * them: what an access token was issued for, and the organization that Flare's rate limits count.
 */

export const CREDENTIAL_TYPE = 'flareApi';
export const DEFAULT_BASE_URL = 'https://api.flare.io';
export const DEFAULT_SEGMENT = 'firework';

/** Display names of the credential's fields: the credential's form and every message use these. */
export const CREDENTIAL_FIELDS = {
	apiKey: 'API Key',
	tenantId: 'Tenant ID',
	baseUrl: 'Base URL',
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
const SEGMENT = /^[A-Za-z0-9_-]+$/;

function parseUrl(text: string): URL | undefined {
	try {
		return new URL(text);
	} catch {
		return undefined;
	}
}

function baseUrlOf(value: unknown): string {
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
	return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
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
	if (!/^\d{1,15}$/.test(text) || Number(text) < 1) {
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
		baseUrl: baseUrlOf(credentials.baseUrl),
		segment: segmentOf(credentials.productSegment),
		tenantId: tenantOf(credentials.tenantId),
		apiKey,
	};
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
