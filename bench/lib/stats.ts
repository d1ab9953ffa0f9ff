import { median } from './proc';

/** One measured figure: the median of its samples, and the samples. */
export interface Stat {
	median: number;
	samples: number[];
}

export function stat(samples: number[]): Stat {
	return { median: median(samples), samples: samples.map((value) => round(value, 1)) };
}

export function round(value: number, digits = 0): number {
	const factor = 10 ** digits;
	return Math.round(value * factor) / factor;
}

export function ratio(numerator: number, denominator: number): number {
	return round(numerator / denominator, 2);
}

/** Thousands separated with commas: 1,000,000. */
export function count(value: number): string {
	return Math.round(value).toLocaleString('en-US');
}

export function seconds(ms: number): string {
	return ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${(ms / 1000).toFixed(2)} s`;
}

export function mib(value: number): string {
	return value >= 1024 ? `${(value / 1024).toFixed(2)} GiB` : `${Math.round(value)} MiB`;
}
