/**
 * Servers as child processes for the benchmarks: the service as `npm start` runs it (the compiled
 * bundle of `npm run build`, `node --max-old-space-size=256 dist/main.js`, BENCH_NODE_FLAGS replacing
 * the flags) and any other server script, each on a free port, ready once `/readyz` answers.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startServerProcess, type ServerProcess } from '../tests/helpers/server-process';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Rate limits far above anything a benchmark sends: they measure the work, not the limiter. */
export const LIMITS_OUT_OF_REACH = '1000000000';

/** A server child process, named for the benchmark's report. */
export interface Child extends ServerProcess {
  name: string;
}

/** `npm run build` (the service's bundle in dist/), as `npm start` does first. */
export function buildService(): void {
  const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build failed');
}

/** `node <args>` in the project's folder on a free port, once its /readyz answers 200 (within 60 s): the tests' startServerProcess. */
export async function startChild(name: string, args: string[], env: Record<string, string>): Promise<Child> {
  return { name, ...(await startServerProcess(env, { args, cwd: ROOT, readyWithinMs: 60_000 })) };
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
