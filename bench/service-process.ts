/**
 * Servers as child processes for the benchmarks: the service as `npm start` runs it (the compiled
 * bundle of `npm run build`, `node --max-old-space-size=256 dist/main.js`, BENCH_NODE_FLAGS replacing
 * the flags) and any other server script, each on a free port, ready once `/readyz` answers.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from '../tests/helpers/server-process';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Rate limits far above anything a benchmark sends: they measure the work, not the limiter. */
export const LIMITS_OUT_OF_REACH = '1000000000';

export interface Child {
  name: string;
  url: string;
  child: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

/** `npm run build` (the service's bundle in dist/), as `npm start` does first. */
export function buildService(): void {
  const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build failed');
}

/** `node <args>` in the project's folder on a free port (PORT, HOST), once its /readyz answers 200 (within 60 s). */
export async function startChild(name: string, args: string[], env: Record<string, string>): Promise<Child> {
  const port = await freePort();
  let out = '';
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => (out = (out + String(d)).slice(-20_000)));
  child.stderr?.on('data', (d) => (out = (out + String(d)).slice(-20_000)));
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGTERM');
    });
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited (${child.exitCode}):\n${out}`);
    try {
      const res = await fetch(`${base}/readyz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${name} did not become ready:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { name, url: base, child, output: () => out, stop };
}

/**
 * The built service (buildService first) as `npm start` runs it, in production mode, without the
 * demo data, background jobs or purges, limits out of reach and a pool of 10; `env` adds the database
 * and the secrets (and replaces any of these).
 */
export function startBuiltService(name: string, env: Record<string, string>): Promise<Child> {
  const nodeFlags = (process.env.BENCH_NODE_FLAGS ?? '--max-old-space-size=256').split(' ').filter(Boolean);
  return startChild(name, [...nodeFlags, 'dist/main.js'], {
    NODE_ENV: 'production',
    SEED_DEMO: 'false',
    LOG_LEVEL: 'warn',
    JOB_POLL_INTERVAL_MS: '0',
    IDEMPOTENCY_PURGE_INTERVAL_SECONDS: '0',
    RATE_LIMIT_PER_KEY: LIMITS_OUT_OF_REACH,
    RATE_LIMIT_PER_ORGANIZATION: LIMITS_OUT_OF_REACH,
    RATE_LIMIT_PER_MEMBER: LIMITS_OUT_OF_REACH,
    RATE_LIMIT_AUTH_FAILURES: LIMITS_OUT_OF_REACH,
    DATABASE_POOL_SIZE: '10',
    ...env,
  });
}
