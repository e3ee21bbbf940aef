#!/usr/bin/env node
/**
 * `npm run dev`: the API under `tsx watch` (restarts on a change in src/) and the console under Vite's
 * dev server (reloads in the browser), together; Ctrl-C stops both. Open the console at Vite's
 * address (printed below, http://localhost:5173 unless CONSOLE_PORT says otherwise): it proxies /trpc,
 * /v1 and /docs to the API on PORT (3000 by default), so the session cookie stays on one origin.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => fileURLToPath(new URL(`../node_modules/.bin/${name}`, import.meta.url));
const apiPort = process.env.PORT ?? '3000';

const children = [
  spawn(bin('tsx'), ['watch', 'src/main.ts'], { cwd: root, stdio: 'inherit', env: { ...process.env, PORT: apiPort } }),
  spawn(bin('vite'), ['--config', 'web/vite.config.ts'], { cwd: root, stdio: 'inherit', env: { ...process.env, API_PORT: apiPort } }),
];

let stopping = false;
function stop(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 200).unref();
}
for (const child of children) child.on('exit', (code) => stop(code ?? 0));
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
