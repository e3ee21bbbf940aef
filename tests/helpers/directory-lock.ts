import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';

/**
 * Runs `work` holding a lock directory shared by the test processes of one machine (mkdir is atomic):
 * waits up to `waitMs` for another holder; a lock older than `staleMs` was left by a process that
 * died and is taken over.
 */
export async function withDirectoryLock<T>(lock: string, work: () => T | Promise<T>, opts: { waitMs: number; staleMs?: number }): Promise<T> {
  const deadline = Date.now() + opts.waitMs;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (opts.staleMs !== undefined && existsSync(lock) && Date.now() - statSync(lock).mtimeMs > opts.staleMs) rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`waited ${Math.round(opts.waitMs / 1000)} s for ${lock}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
