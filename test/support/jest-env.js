// Environment glue kept in plain JavaScript: the strict lint config bans `process` in TypeScript files.
const os = require('node:os');
const path = require('node:path');
const fs = require('node:fs');

// n8n-core writes an instance config (with an encryption key) under N8N_USER_FOLDER on first use.
if (!process.env.N8N_USER_FOLDER) {
	process.env.N8N_USER_FOLDER = fs.mkdtempSync(path.join(os.tmpdir(), 'flare-n8n-'));
}
process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
// n8n's own log goes to a file, so that tests can read it and the runner's output stays readable.
// Under the jest global setup the file lies in the secret-scan folder, where the global teardown
// scans every log of the run for keys and tokens; n8n logs at debug level so that the scan sees all
// it writes.
process.env.N8N_LOG_OUTPUT = 'file';
const scanDir = process.env.FLARE_SECRET_SCAN_DIR;
if (scanDir && fs.existsSync(path.join(scanDir, 'n8n-logs'))) {
	process.env.N8N_LOG_LEVEL ??= 'debug';
	process.env.N8N_LOG_FILE_LOCATION ??= path.join(
		scanDir,
		'n8n-logs',
		`${path.basename(process.env.N8N_USER_FOLDER)}.log`,
	);
}
process.env.N8N_LOG_FILE_LOCATION ??= path.join(process.env.N8N_USER_FOLDER, 'n8n.log');
