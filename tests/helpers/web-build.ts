import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { withDirectoryLock } from './directory-lock';

/**
 * The built console (dist/web) as test files share it. Several files run at once: a console file
 * builds it when it is missing or older than web/, and `tests/cli/build.test.ts` runs `npm run build`,
 * whose `vite build` empties dist/web before writing it again. So every write of dist/web and every
 * copy of it is made holding one lock directory, and each console server serves its own copy
 * (WEB_DIST_DIR): a rebuild by another file never leaves a running server without its scripts.
 */

const ROOT = process.cwd();
const WEB = join(ROOT, 'web');
const BUILT_DIR = join(ROOT, 'dist/web');
const BUILT = join(BUILT_DIR, 'index.html');
const LOCK = join(ROOT, 'dist/.web-build.lock');
/** A lock older than this was left by a process that died (a build takes well under it). */
const STALE_LOCK_MS = 300_000;

function newestChange(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestChange(join(path, name))));
}

/** dist/web is there and no file under web/ changed after it was written. */
function fresh(): boolean {
  return existsSync(BUILT) && statSync(BUILT).mtimeMs >= newestChange(WEB);
}

/** Runs `work` holding the build lock (waiting up to ten minutes for another holder). */
export async function withWebBuildLock<T>(work: () => T | Promise<T>): Promise<T> {
  mkdirSync(join(ROOT, 'dist'), { recursive: true });
  return withDirectoryLock(LOCK, work, { waitMs: 2 * STALE_LOCK_MS, staleMs: STALE_LOCK_MS });
}

/**
 * A copy of the built console in `dest` (built first with `vite build` when missing or stale, as
 * production builds it: vitest's NODE_ENV=test would give React's development build).
 */
export async function copyBuiltConsole(dest: string): Promise<void> {
  await withWebBuildLock(() => {
    if (!fresh()) execFileSync(join(ROOT, 'node_modules/.bin/vite'), ['build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'pipe', timeout: 240_000, env: { ...process.env, NODE_ENV: 'production' } });
    cpSync(BUILT_DIR, dest, { recursive: true });
  });
}
