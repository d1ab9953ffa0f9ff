/**
 * Completes package-lock.json for `npm ci` on this project's machines.
 *
 * Some optional, platform-specific packages (e.g. `@unrs/resolver-binding-darwin-x64`, pulled in by
 * n8n's lint tooling) are missing from the package registry these machines reach. `npm install`
 * then leaves them out of the lockfile, and `npm ci` refuses the lockfile as out of sync. This adds an
 * entry, marked optional with its operating system and CPU, for each such package, so `npm ci` skips
 * it on Linux x64 exactly as it would skip a package of another platform.
 *
 * Run after changing dependencies: `npm install && node .ci/complete-lockfile.mjs`.
 */
import fs from 'node:fs';

const file = process.argv[2] ?? 'package-lock.json';
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const { packages } = lock;
const PLATFORM = /-(android|darwin|freebsd|linux|openharmony|win32|wasm32)-([a-z0-9]+)/;

let added = 0;
for (const [location, entry] of Object.entries(packages)) {
	for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
		const nested = `${location ? `${location}/` : ''}node_modules/${name}`;
		const hoisted = `node_modules/${name}`;
		if (packages[nested] || packages[hoisted]) continue;
		const platform = name.match(PLATFORM);
		packages[hoisted] = {
			version,
			dev: true,
			optional: true,
			...(platform ? { os: [platform[1]], cpu: [platform[2]] } : {}),
		};
		added++;
	}
}
fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: added ${added} entries`);
