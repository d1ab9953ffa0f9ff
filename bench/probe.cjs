/**
 * Preloaded into the real n8n process by the benchmark (`node --require bench/probe.cjs ...`): when
 * the process exits, it writes its /proc/self/status to $FLARE_BENCH_PROBE_OUT, so the peak resident
 * memory (VmHWM) is read by the process itself at the very end, whatever happened before. With
 * $FLARE_BENCH_UNPACED_GATE (the installed package's rateGate.js), it lifts Flare's documented pace
 * from our node before n8n loads it, as the engine child does (test/harness/engine.ts
 * `withoutRatePacing`): the no-limit rows measure the node's own work.
 */
'use strict';
const fs = require('node:fs');

const gate = process.env.FLARE_BENCH_UNPACED_GATE;
if (gate) {
	const { DOCUMENTED_INTERVAL_MS } = require(gate);
	DOCUMENTED_INTERVAL_MS.search = 0;
	DOCUMENTED_INTERVAL_MS.basic = 0;
}

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
