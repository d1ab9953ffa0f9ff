/** Deterministic, seeded number helpers: everything in the fake dataset derives from these. */

/** Murmur3 finaliser: a well-mixed uint32 from a uint32. */
function fmix(value: number): number {
	let h = value >>> 0;
	h ^= h >>> 16;
	h = Math.imul(h, 0x85ebca6b);
	h ^= h >>> 13;
	h = Math.imul(h, 0xc2b2ae35);
	h ^= h >>> 16;
	return h >>> 0;
}

/** A uint32 hash of up to four integers (seed, index, salt, ...). Cheap enough to call per record. */
export function hash32(a: number, b = 0, c = 0, d = 0): number {
	let h = fmix(0x811c9dc5 ^ Math.imul(a | 0, 0x9e3779b1)) + 0x6b43a9b5;
	h = fmix(h ^ Math.imul(b | 0, 0x9e3779b1)) + 0x6b43a9b5;
	h = fmix(h ^ Math.imul(c | 0, 0x9e3779b1)) + 0x6b43a9b5;
	h = fmix(h ^ Math.imul(d | 0, 0x9e3779b1)) + 0x6b43a9b5;
	return fmix(h);
}

/** A seeded stream of uint32 values (mulberry32). */
export function seededStream(seed: number): () => number {
	let state = hash32(seed, 0x5eed) >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return (t ^ (t >>> 14)) >>> 0;
	};
}

/** A copy of `items` in a seeded order (Fisher-Yates). */
export function shuffled<T>(items: readonly T[], next: () => number): T[] {
	const copy = items.slice();
	for (let i = copy.length - 1; i > 0; i--) {
		const j = next() % (i + 1);
		[copy[i], copy[j]] = [copy[j], copy[i]];
	}
	return copy;
}

const BYTE_HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/** 8 lowercase hex digits of a uint32 (table lookup: Number#toString(16) is slow on hot paths). */
export function hex8(value: number): string {
	return (
		BYTE_HEX[(value >>> 24) & 255] +
		BYTE_HEX[(value >>> 16) & 255] +
		BYTE_HEX[(value >>> 8) & 255] +
		BYTE_HEX[value & 255]
	);
}

/** A version-4 UUID built from a seeded stream. */
export function seededUuid(next: () => number): string {
	const hex = hex8(next()) + hex8(next()) + hex8(next()) + hex8(next());
	const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** `YYYY-MM-DDTHH:MM:SS+00:00`, the API's date-time with offset (second precision). */
export function isoWithOffset(ms: number): string {
	return `${new Date(ms).toISOString().slice(0, 19)}+00:00`;
}

/** `YYYY-MM-DDTHH:MM:SS`, the events' date-time without offset. */
export function isoNaive(ms: number): string {
	return new Date(ms).toISOString().slice(0, 19);
}
