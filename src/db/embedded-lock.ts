import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The embedded database (PGlite) serves exactly one process: a second process opening the same
 * folder would work on its own copy and the two would overwrite each other's writes. A lock file
 * holding the owner's pid makes the second process stop with a clear message instead.
 */
export function acquireEmbeddedLock(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = join(dataDir, 'server.lock');
  let holder: number | undefined;
  try {
    holder = Number(readFileSync(file, 'utf8').trim()) || undefined;
  } catch {
    holder = undefined;
  }
  if (holder && holder !== process.pid && isAlive(holder)) {
    throw new Error(
      `The embedded database in ${dataDir} is in use by process ${holder}. PGlite serves one process at a time: ` +
        'stop that process first (or run both against PostgreSQL with DATABASE_URL).',
    );
  }
  writeFileSync(file, String(process.pid), { mode: 0o600 });
  return () => {
    try {
      if (Number(readFileSync(file, 'utf8').trim()) === process.pid) rmSync(file, { force: true });
    } catch {
      // already gone
    }
  };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
