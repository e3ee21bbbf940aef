import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/db/client';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Path of a migrated embedded-database dump each test file starts from (PGlite runs only). */
    pgliteTemplate: string | null;
  }
}

/**
 * On PostgreSQL, apply the migrations once before any worker starts. On the embedded database,
 * migrate one PGlite once and dump it: each test file loads the dump (about 1 s) instead of
 * initialising and migrating its own database (about 6 s).
 */
export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const handle = await openDatabase({ url, poolSize: 1 });
    try {
      await handle.migrate();
    } finally {
      await handle.close();
    }
    project.provide('pgliteTemplate', null);
    return;
  }
  const handle = await openDatabase({ dataDir: 'memory://' });
  const dir = mkdtempSync(join(tmpdir(), 'pglite-template-'));
  const file = join(dir, 'migrated.tar');
  try {
    await handle.migrate();
    const dump = await handle.dump!();
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await handle.close();
  }
  project.provide('pgliteTemplate', file);
  return () => rmSync(dir, { recursive: true, force: true });
}
