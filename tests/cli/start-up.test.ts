import { execFile } from 'node:child_process';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startServerProcess } from '../helpers/server-process';
import { TEST_PAYOUT_ENCRYPTION_KEY } from '../helpers/keys';
import { withDatabaseName } from '../helpers/worker-database';

/**
 * `npm start` (src/main.ts) and the admin CLI as an operator meets them on PostgreSQL (docs/design.md
 * §10): an empty database gets no demo and no key printed unless SEED_DEMO=true; a database
 * that cannot be reached is reported with its cause and a non-zero exit code, never as a failed query.
 */

const url = process.env.TEST_DATABASE_URL;
/** PostgreSQL itself (not the pooler of the pooled pass): what it answers for a database name is what is under test. */
const directUrl = process.env.TEST_DATABASE_DIRECT_URL ?? url;

function run(script: string, args: string[], env: Record<string, string>): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', script, ...args],
      { cwd: process.cwd(), timeout: 60_000, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', PAYOUT_ENCRYPTION_KEY: TEST_PAYOUT_ENCRYPTION_KEY, ...env } },
      (error, stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}` }),
    );
  });
}

const withDatabase = (name: string) => withDatabaseName(directUrl!, name);

describe('start-up and the CLI on an unreachable database', { timeout: 120_000 }, () => {
  it('npm start on a port nothing listens on says the connection was refused and exits non-zero', async () => {
    const port = await freePort();
    const ran = await run('src/main.ts', [], { DATABASE_URL: `postgres://finance:secret-password@127.0.0.1:${port}/finance`, PORT: '0' });
    expect(ran.code).not.toBe(0);
    expect(ran.out).toContain(`Cannot connect to the database at 127.0.0.1:${port}/finance: connection refused`);
    expect(ran.out).not.toMatch(/Failed query|CREATE SCHEMA|secret-password|    at /);
  });

  it('the admin CLI says the same under --json', async () => {
    const port = await freePort();
    const ran = await run('src/cli/admin.ts', ['org', 'list', '--json'], { DATABASE_URL: `postgres://finance:secret-password@127.0.0.1:${port}/finance` });
    expect(ran.code).not.toBe(0);
    const error = JSON.parse(ran.out).error;
    expect(error.code).toBe('unavailable');
    expect(error.detail).toContain(`Cannot connect to the database at 127.0.0.1:${port}/finance: connection refused`);
    expect(ran.out).not.toContain('secret-password');
  });

  it.skipIf(!url)('an unknown database name is reported as such, by npm start and by the CLI', async () => {
    const name = `no_such_db_${Math.random().toString(36).slice(2, 10)}`;
    const started = await run('src/main.ts', [], { DATABASE_URL: withDatabase(name), PORT: '0' });
    expect(started.code).not.toBe(0);
    expect(started.out).toContain(`database "${name}" does not exist`);
    expect(started.out).not.toMatch(/Failed query|CREATE SCHEMA/);
    const cli = await run('src/cli/admin.ts', ['org', 'list', '--json'], { DATABASE_URL: withDatabase(name) });
    expect(cli.code).not.toBe(0);
    expect(JSON.parse(cli.out).error.detail).toContain(`database "${name}" does not exist`);
  });
});

describe.skipIf(!url)('npm start on an empty PostgreSQL database', { timeout: 180_000 }, () => {
  const name = `startup_empty_${Math.random().toString(36).slice(2, 10)}`;
  const admin = directUrl ? postgres(directUrl, { max: 1, onnotice: () => {} }) : undefined;
  afterAll(async () => {
    await admin?.unsafe(`drop database if exists ${name} with (force)`).catch(() => {});
    await admin?.end();
  });

  it('migrates, seeds nothing and prints no key (SEED_DEMO unset)', async () => {
    await admin!.unsafe(`create database ${name}`);
    // The server process as `npm start` runs it: no SEED_DEMO in its environment.
    const server = await startServerProcess({ DATABASE_URL: withDatabase(name), SEED_DEMO: undefined, LOG_LEVEL: 'info' });
    let output = '';
    try {
      output = server.output();
      const ready = await fetch(`${server.url}/readyz`);
      expect(ready.status).toBe(200);
    } finally {
      await server.stop();
    }
    const db = postgres(withDatabase(name), { max: 1, onnotice: () => {} });
    try {
      const [counts] = await db`select (select count(*)::int from organizations) as organizations, (select count(*)::int from members) as members, (select count(*)::int from api_keys) as keys`;
      expect(counts).toEqual({ organizations: 0, members: 0, keys: 0 });
    } finally {
      await db.end();
    }
    expect(output).not.toMatch(/fk_[0-9a-f-]{36}_|Demo API key|Demo login|seeded the demo/);
    expect(output).toContain('Nothing seeded on PostgreSQL');
  });
});
