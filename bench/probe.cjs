/**
 * Preloaded into the real n8n process by the benchmark (`node --require bench/probe.cjs ...`): when
 * the process exits, it writes its /proc/self/status to $FLARE_BENCH_PROBE_OUT, so the peak resident
 * memory (VmHWM) is read by the process itself at the very end, whatever happened before.
 */
'use strict';
const fs = require('node:fs');

const out = process.env.FLARE_BENCH_PROBE_OUT;
if (out) {
	process.on('exit', () => {
		try {
			fs.writeFileSync(out, fs.readFileSync('/proc/self/status', 'utf8'));
		} catch {
			// nothing to report
		}
	});
}
