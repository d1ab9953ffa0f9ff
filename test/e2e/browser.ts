/**
 * What the editor tests share: Chromium's flags, n8n's test ids, checks that say what the editor
 * showed, and screenshots (the README's also written into docs/images/).
 */
import { sleep } from 'n8n-workflow';
import type { Locator, Page } from 'playwright-core';

import { fs, path } from '../support/node';
import { repositoryRoot, say } from './suite';

/** Playwright's per-action timeout: n8n's editor on a busy 2-core machine is slow to load. */
export const ACTION_TIMEOUT = 30_000;

export const CHROMIUM_ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	// Without these, Chromium's own connections are refused by a closed network and slow it down.
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

/** Selectors are n8n's own test ids (data-test-id), as its Playwright tests use them. */
export const testId = (id: string) => `[data-test-id="${id}"]`;

/** The checks passed so far, in order. */
export const passed: string[] = [];

/** Throws with what was expected and what the editor showed, unless `ok`. */
export function check(ok: boolean, what: string, detail = ''): void {
	if (!ok) throw new Error(`FAILED: ${what}${detail ? `\n${detail}` : ''}`);
	passed.push(what);
	say(`  ✓ ${what}`);
}

/**
 * Saves a screenshot into `folder`: the page, or the part of it `around` the given elements (with a
 * margin, default 16 px), which stays readable in the README. With a `docsImage` name, also into
 * docs/images/ (the README's pictures), so that they always show the package of this run; the checks
 * before each such screenshot say what it must show.
 */
export async function screenshot(
	page: Page,
	folder: string,
	name: string,
	options: { docsImage?: string; around?: Locator[]; margin?: number } = {},
): Promise<string> {
	const root = repositoryRoot();
	const file = path.join(folder, name);
	const clip = await around(page, options.around, options.margin);
	await page.screenshot({ path: file, animations: 'disabled', clip });
	say(`  screenshot ${path.relative(root, file)}`);
	if (options.docsImage) {
		const docs = path.join(root, 'docs', 'images', options.docsImage);
		fs.mkdirSync(path.dirname(docs), { recursive: true });
		fs.copyFileSync(file, docs);
		say(`  copied to ${path.relative(root, docs)}`);
	}
	return file;
}

/** The box around everything the locators match, `margin` wider on each side, within the viewport. */
async function around(page: Page, elements: Locator[] = [], margin = 16) {
	const matched = (await Promise.all(elements.map(async (element) => await element.all()))).flat();
	const boxes = (
		await Promise.all(matched.map(async (element) => await element.boundingBox()))
	).filter((box) => box !== null);
	if (boxes.length === 0) return undefined;
	const viewport = page.viewportSize() ?? { width: Infinity, height: Infinity };
	const left = Math.max(0, Math.min(...boxes.map((box) => box.x)) - margin);
	const top = Math.max(0, Math.min(...boxes.map((box) => box.y)) - margin);
	const right = Math.min(
		viewport.width,
		Math.max(...boxes.map((box) => box.x + box.width)) + margin,
	);
	const bottom = Math.min(
		viewport.height,
		Math.max(...boxes.map((box) => box.y + box.height)) + margin,
	);
	return { x: left, y: top, width: right - left, height: bottom - top };
}

/** Closes n8n's notifications, which would cover part of a screenshot. */
export async function closeToasts(page: Page): Promise<void> {
	for (const close of await page.locator('.el-notification__closeBtn').all()) {
		await close.click().catch(() => undefined); // closed by itself meanwhile
	}
	for (let waited = 0; waited < 5_000; waited += 100) {
		if ((await page.locator('.el-notification').count()) === 0) return;
		await sleep(100);
	}
}
