import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { openDatabase } from '../../src/db/client';
import type { DemoData } from '../../src/demo/seed-demo';
import { login, loginSettings } from '../../src/services/access/login';
import { testDatabase, testDatabaseEnv } from '../helpers/app';
import { TEST_PAYOUT_ENCRYPTION_KEY } from '../helpers/keys';

/**
 * `npm run admin -- demo --json` as an operator runs it (a process, as tests/cli/admin.test.ts does),
 * on a fresh embedded database or the test PostgreSQL: one JSON object with every member's e-mail
 * and password, and those log in.
 */

const url = process.env.TEST_DATABASE_URL;
const dataDir = mkdtempSync(join(tmpdir(), 'demo-cli-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function demo(): Promise<{ code: number; stdout: string; stderr: string }> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    LOG_LEVEL: 'silent',
    PAYOUT_ENCRYPTION_KEY: TEST_PAYOUT_ENCRYPTION_KEY,
    // Other files fail logins from this machine into the per-address counter the database shares.
    RATE_LIMIT_AUTH_FAILURES: '1000000',
    ...(url ? testDatabaseEnv() : { DATA_DIR: dataDir }),
  };
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'src/cli/admin.ts', 'demo', '--json'], { cwd: process.cwd(), env, timeout: 180_000, maxBuffer: 32 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('admin CLI: demo --json', { timeout: 240_000 }, () => {
  it("prints every member's e-mail and password beside the ids and credentials; the active ones log in with them", async () => {
    const ran = await demo();
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
    const data = JSON.parse(ran.stdout) as DemoData;
    expect(data.organizations.map((o) => o.name)).toEqual(['Acme Trading Sdn Bhd', 'Borneo Logistics Sdn Bhd', 'Siti Consulting']);
    const members = data.organizations.flatMap((o) => o.members.map((m) => ({ organizationId: o.id, m })));
    for (const o of data.organizations) {
      // Every key scripts rely on, and the approval set-up's ids.
      for (const key of ['id', 'name', 'base_currency', 'members', 'customers', 'accounts', 'tax_codes', 'analytic_axes', 'projects', 'departments', 'custom_fields', 'trade_lines', 'invoices', 'expense_categories', 'claim_groups', 'payout_channels', 'org_units', 'positions', 'mileage_rates', 'per_diem_rates', 'exchange_rates', 'claims', 'approval_grants', 'delegations']) {
        expect(o, key).toHaveProperty(key);
      }
      expect(o.approval_grants.map((g) => g.id)).toEqual(o.approval_grants.map(() => expect.any(String)));
    }
    expect(data.organizations[0]!.delegations).toHaveLength(1);
    for (const { m } of members) {
      expect(Object.keys(m).sort()).toEqual(['active', 'api_key', 'email', 'id', 'name', 'password', 'permissions', 'role', 'session_token']);
      expect(m.email).toMatch(/@.+\.demo\.example\.my$/);
      expect(m.password).toEqual(expect.any(String));
      if (m.active) {
        expect(m.api_key).toMatch(/^fk_/);
        expect(m.session_token).toMatch(/^fs_/);
      } else {
        expect(m).toMatchObject({ api_key: null, session_token: null });
      }
    }

    const handle = await openDatabase(url ? testDatabase({ poolSize: 1 }) : { dataDir });
    try {
      const settings = loginSettings(loadConfig({ PAYOUT_ENCRYPTION_KEY: TEST_PAYOUT_ENCRYPTION_KEY } as NodeJS.ProcessEnv));
      const ctx = { db: handle.db, now: new Date(), ip: '10.78.0.1', settings };
      for (const { organizationId, m } of members.filter(({ m }) => m.active)) {
        const answer = await login(ctx, { email: m.email, password: m.password });
        expect(answer).toMatchObject({ member: { id: m.id }, organization: { id: organizationId } });
      }
    } finally {
      await handle.close();
    }
  });
});
