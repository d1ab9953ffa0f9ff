// Environment glue kept in plain JavaScript: the strict lint config bans `process` in TypeScript files.
const os = require('node:os');
const path = require('node:path');
const fs = require('node:fs');

// n8n-core writes an instance config (with an encryption key) under N8N_USER_FOLDER on first use.
if (!process.env.N8N_USER_FOLDER) {
	process.env.N8N_USER_FOLDER = fs.mkdtempSync(path.join(os.tmpdir(), 'flare-n8n-'));
}
process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
// n8n's own log goes to a file beside its instance data, so that tests can read it and the runner's
// output stays readable.
process.env.N8N_LOG_OUTPUT = 'file';
process.env.N8N_LOG_FILE_LOCATION ??= path.join(process.env.N8N_USER_FOLDER, 'n8n.log');
