import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import postgres from 'postgres';
import { MIGRATIONS_FOLDER, openDatabase, type DatabasePooler } from '../../src/db/client';
import { projectPath } from '../../src/lib/project-root';
import { databaseName, perWorkerDatabases, TEST_WORKERS, withDatabaseName, workerDatabaseName } from './worker-database';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Path of a migrated embedded-database dump each test file starts from (PGlite runs only). */
    pgliteTemplate: string | null;
  }
}

/**
 * On PostgreSQL, apply the migrations once before any worker starts. On the embedded database, one
 * migrated PGlite dumped to a file: each test file loads the dump (about 1 s) instead of initialising
 * and migrating its own database (about 6 s). The dump is kept under node_modules/.cache, named by a
 * digest of the migrations and the PGlite version, so the next run that changed neither skips the
 * migration too. Vitest calls this for the root and for each project (fast, slow); the work is done
 * once and every project is given the same template.
 */
export default async function setup(project: TestProject) {
  // Each project loads this file anew: the one preparation is kept on the main process's global.
  const shared = globalThis as { testTemplate?: Promise<string | null> };
  // A copy per worker the run may start (a --maxWorkers given on the command line included).
  shared.testTemplate ??= prepare(Math.max(TEST_WORKERS, project.vitest.config.maxWorkers));
  project.provide('pgliteTemplate', await shared.testTemplate);
}

async function prepare(workers: number): Promise<string | null> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    // Straight to PostgreSQL when a direct URL is given: a connection PgBouncer kept to this database
    // would keep it from being copied for the workers.
    const direct = process.env.TEST_DATABASE_DIRECT_URL;
    const handle = await openDatabase(direct ? { url: direct, poolSize: 1, pooler: 'none' } : { url, poolSize: 1, pooler: (process.env.TEST_DATABASE_POOLER ?? 'none') as DatabasePooler });
    try {
      await handle.migrate();
    } finally {
      await handle.close();
    }
    if (perWorkerDatabases) await copyForWorkers(direct ?? url, workers);
    return null;
  }
  const dir = projectPath('node_modules/.cache/finance-api-tests');
  const file = join(dir, `migrated-${templateKey()}.tar`);
  if (existsSync(file)) return file;
  const handle = await openDatabase({ dataDir: 'memory://' });
  try {
    await handle.migrate();
    const dump = await handle.dump!();
    mkdirSync(dir, { recursive: true });
    // Written aside and renamed: a run started meanwhile never reads half a file.
    const partial = `${file}.${process.pid}`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, file);
    // Dumps of earlier migrations are of no further use.
    for (const old of readdirSync(dir)) if (old.startsWith('migrated-') && join(dir, old) !== file && !old.includes('.tar.')) rmSync(join(dir, old), { force: true });
  } finally {
    await handle.close();
  }
  return file;
}

/**
 * A fresh copy of the migrated database per worker (worker-database.ts), made anew each run: a copy
 * is taken from the database as the migrations left it, never from another run's rows.
 */
async function copyForWorkers(url: string, workers: number) {
  const base = databaseName(url);
  const admin = postgres(withDatabaseName(url, 'postgres'), { max: 1, onnotice: () => {} });
  try {
    for (let id = 1; id <= workers; id++) {
      const copy = workerDatabaseName(base, id);
      await admin.unsafe(`drop database if exists "${copy}" with (force)`);
      // The migration's connections may still be closing on the server (the copy needs none open to base).
      for (let attempt = 1; ; attempt++) {
        try {
          await admin.unsafe(`create database "${copy}" template "${base}"`);
          break;
        } catch (error) {
          if (attempt >= 50 || !String((error as Error).message).includes('being accessed by other users')) throw error;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
    }
  } finally {
    await admin.end();
  }
}

/** A digest of every migration file (names and contents) and of the PGlite version that ran them. */
function templateKey(): string {
  const hash = createHash('sha256');
  const visit = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) visit(path);
      else hash.update(`${path.slice(MIGRATIONS_FOLDER.length)}\0`).update(readFileSync(path)).update('\0');
    }
  };
  visit(MIGRATIONS_FOLDER);
  hash.update(JSON.parse(readFileSync(projectPath('node_modules/@electric-sql/pglite/package.json'), 'utf8')).version);
  return hash.digest('hex').slice(0, 16);
}
