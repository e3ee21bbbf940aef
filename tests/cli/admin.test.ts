import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { openDatabase } from '../../src/db/client';
import { login, loginSettings } from '../../src/services/access/login';
import { testDatabase, testDatabaseEnv } from '../helpers/app';
import { TEST_PAYOUT_ENCRYPTION_KEY } from '../helpers/keys';

/**
 * The admin CLI as an operator runs it: a process per command (node --import tsx, as `npx tsx` does
 * without the wrapper), against a fresh embedded database in a temporary DATA_DIR, or the test
 * PostgreSQL when TEST_DATABASE_URL is set. Spawns are slow: a handful, each checking several things.
 */

const url = process.env.TEST_DATABASE_URL;
const dataDir = mkdtempSync(join(tmpdir(), 'admin-cli-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
  json: any;
}

/** The test database as an operator names it to the CLI (through the pooler: with DATABASE_POOLER and the direct URL), or the embedded one's folder. */
function where(): Record<string, string> {
  if (!url) return { DATA_DIR: dataDir };
  const env = testDatabaseEnv();
  return { DATABASE_URL: env.DATABASE_URL, DATABASE_POOLER: env.DATABASE_POOLER, ...(env.DATABASE_DIRECT_URL ? { DATABASE_DIRECT_URL: env.DATABASE_DIRECT_URL } : {}) };
}

function admin(...args: string[]): Promise<Ran> {
  return adminWith(where(), ...args);
}

/** The CLI on the database `where` names (DATABASE_URL or DATA_DIR). */
function adminWith(where: Record<string, string>, ...args: string[]): Promise<Ran> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    LOG_LEVEL: 'silent',
    PAYOUT_ENCRYPTION_KEY: TEST_PAYOUT_ENCRYPTION_KEY,
    ...where,
  };
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'src/cli/admin.ts', ...args], { cwd: process.cwd(), env, timeout: 120_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      let json: unknown;
      try {
        json = JSON.parse(stdout);
      } catch {
        json = undefined;
      }
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr, json });
    });
  });
}

const unique = Math.random().toString(36).slice(2, 8);
const ownerEmail = `owner.${unique}@example.test`;
const clerkEmail = `clerk.${unique}@example.test`;

/** Never anything internal in what the CLI prints. */
function expectNoInternals(ran: Ran) {
  expect(`${ran.stdout}${ran.stderr}`).not.toMatch(/\b(select|insert into|update .* set)\b|Failed query|    at |argon2id|secret_hash|token_hash/i);
}

/**
 * The CLI's answer read through a pipe whose reader waits before reading (as a busy caller does):
 * everything written arrives, however long. process.exit() right after the write used to cut it at
 * 64 KiB.
 */
function adminReadLate(...args: string[]): Promise<{ code: number | null; stdout: string }> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    LOG_LEVEL: 'silent',
    PAYOUT_ENCRYPTION_KEY: TEST_PAYOUT_ENCRYPTION_KEY,
    ...where(),
  };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/admin.ts', ...args], { cwd: process.cwd(), env, stdio: ['ignore', 'pipe', 'ignore'] });
    const chunks: Buffer[] = [];
    // The listener first, then paused: a stream without one is drained and discarded by Node when the
    // child exits (so a CLI that ended within the three seconds read as empty, not as cut).
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.stdout.pause();
    setTimeout(() => child.stdout.resume(), 3_000);
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(chunks).toString('utf8') }));
  });
}

describe('admin CLI', { timeout: 240_000 }, () => {
  let orgId = '';
  let clerkId = '';

  it('org create makes the organization and its owner with a password in one step; org list shows it', async () => {
    const created = await admin('org', 'create', '--name', `CLI Co ${unique}`, '--owner-email', ownerEmail, '--owner-password', 'owner password 123', '--owner-name', 'Puan Zaleha', '--json');
    expect(created.code, created.stdout + created.stderr).toBe(0);
    expect(created.json).toMatchObject({
      name: `CLI Co ${unique}`,
      base_currency: 'MYR',
      owner: { name: 'Puan Zaleha', email: ownerEmail, active: true, roles: ['owner'], revision: 1 },
    });
    orgId = created.json.id;
    expectNoInternals(created);

    const listed = await admin('org', 'list', '--json');
    expect(listed.code).toBe(0);
    expect(listed.json.organizations).toEqual(expect.arrayContaining([expect.objectContaining({ id: orgId, name: `CLI Co ${unique}` })]));
  });

  it('refuses arguments as the API refuses input: every error is JSON under --json, with a non-zero exit code', async () => {
    const refused = await admin('member', 'add', '--org', orgId, '--name', ' ', '--email', 'not-an-email', '--password', 'short', '--roles', 'clerk,wizard', '--json');
    expect(refused.code).not.toBe(0);
    expect(refused.json.error.code).toBe('validation');
    expect(refused.json.error.errors.map((e: { pointer: string }) => e.pointer)).toEqual(['/name', '/email', '/password', '/roles/1']);
    expectNoInternals(refused);

    const badId = await admin('key', 'list', '--org', 'not-a-uuid', '--json');
    expect(badId.code).not.toBe(0);
    expect(badId.json).toEqual({ error: { code: 'invalid_request', detail: '--org must be a UUID', errors: [{ pointer: '/org', detail: 'must be a UUID' }] } });
  });

  it('member add, set-password and key list (never the secret)', async () => {
    const added = await admin('member', 'add', '--org', orgId, '--name', 'Kumar', '--email', clerkEmail, '--password', 'first password 1', '--roles', 'clerk', '--json');
    expect(added.code, added.stdout).toBe(0);
    expect(added.json).toMatchObject({ name: 'Kumar', email: clerkEmail, roles: ['clerk'], active: true });
    clerkId = added.json.id;

    const reset = await admin('member', 'set-password', '--org', orgId, '--member', clerkId, '--password', 'second password 2', '--json');
    expect(reset.code, reset.stdout).toBe(0);
    expect(reset.json).toMatchObject({ id: clerkId, revision: 2, sessions_ended: 0 });

    const listed = await admin('key', 'list', '--org', orgId, '--member', clerkId, '--json');
    expect(listed.code).toBe(0);
    expect(listed.json).toEqual({ keys: [] });
    expectNoInternals(listed);

  });

  it('never creates an already-expired key or session: a past --expires-at and hours below 1 are refused, nothing is written', async () => {
    const pastKey = await admin('key', 'create', '--org', orgId, '--member', clerkId, '--expires-at', '2001-01-01T00:00:00Z', '--json');
    expect(pastKey.code).not.toBe(0);
    expect(pastKey.json.error).toMatchObject({ code: 'validation', errors: [{ pointer: '/expires_at' }] });
    const notADate = await admin('key', 'create', '--org', orgId, '--member', clerkId, '--expires-at', 'tomorrow', '--json');
    expect(notADate.code).not.toBe(0);
    expect(notADate.json.error.code).toBe('invalid_request');
    for (const hours of ['0', '-5', '721', '1.5']) {
      const session = await admin('session', 'create', '--org', orgId, '--member', clerkId, `--hours=${hours}`, '--json');
      expect(session.code, hours).not.toBe(0);
      expect(session.json.error.code, hours).toMatch(/^(validation|invalid_request)$/);
      expect(session.stdout).not.toMatch(/fs_[A-Za-z0-9_-]{20}/);
      expectNoInternals(session);
    }
    const keys = await admin('key', 'list', '--org', orgId, '--member', clerkId, '--json');
    expect(keys.json).toEqual({ keys: [] });
    // Refused before the database is opened: the same answer with no database to reach.
    const noDatabase = await adminWith({ DATABASE_URL: 'postgres://postgres@127.0.0.1:9/nowhere' }, 'session', 'create', '--org', orgId, '--member', clerkId, '--hours=0', '--json');
    expect(noDatabase.code).not.toBe(0);
    expect(noDatabase.json.error).toMatchObject({ code: 'validation', errors: [{ pointer: '/hours' }] });
  });

  it('the people the CLI made log in with their passwords (the old one no longer works)', async () => {
    const handle = await openDatabase(url ? testDatabase({ poolSize: 1 }) : { dataDir });
    try {
      const settings = loginSettings(loadConfig({ PAYOUT_ENCRYPTION_KEY: TEST_PAYOUT_ENCRYPTION_KEY } as NodeJS.ProcessEnv));
      const ctx = { db: handle.db, now: new Date(), ip: `10.77.${unique.length}.1`, settings };
      const owner = await login(ctx, { email: ownerEmail, password: 'owner password 123' });
      expect(owner.organization.id).toBe(orgId);
      expect(owner.member.name).toBe('Puan Zaleha');
      const old = await login(ctx, { email: clerkEmail, password: 'first password 1' }).catch((e) => e);
      expect(old.appCode).toBe('unauthenticated');
      expect((await login(ctx, { email: clerkEmail, password: 'second password 2' })).member.id).toBe(clerkId);
    } finally {
      await handle.close();
    }
  });

  it.skipIf(!url)('org list --json arrives whole when it is long (over 64 KiB) and its reader reads late (PostgreSQL: where the run found it cut)', async () => {
    // Enough organizations for a long answer (each is about 200 bytes of JSON).
    const handle = await openDatabase(url ? testDatabase({ poolSize: 1 }) : { dataDir });
    try {
      await handle.migrate();
      await handle.db.execute(sql`insert into organizations (name) select 'Bulk organization for a long CLI answer ' || g from generate_series(1, 400) g`);
    } finally {
      await handle.close();
    }
    const listed = await adminReadLate('org', 'list', '--json');
    expect(listed.code).toBe(0);
    expect(listed.stdout.length).toBeGreaterThan(65_536);
    const parsed = JSON.parse(listed.stdout) as { organizations: { name: string }[] };
    expect(parsed.organizations.filter((o) => o.name.startsWith('Bulk organization for a long CLI answer')).length).toBeGreaterThanOrEqual(400);
  });
});
