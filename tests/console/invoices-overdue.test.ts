import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { openDatabase } from '../../src/db/client';
import type { AppDeps } from '../../src/deps';
import { seedDemo } from '../../src/demo/seed-demo';
import { createRateLimits } from '../../src/services/rate-limit/limits';
import { TEST_PAYOUT_ENCRYPTION_KEY } from '../helpers/keys';
import { CHROMIUM_MISSING, DESKTOP, HAS_CHROMIUM, PHONE, useConsole } from './harness';

/**
 * Issue 28's acceptance journey 5: the Overdue tab lists exactly the documents the API says are
 * overdue. The demo is seeded as it was 50 days ago (its documents issued then, the local customer's
 * 30 days long past), so some are overdue today, some paid, some not yet due.
 */
if (!HAS_CHROMIUM) console.warn(`SKIPPED: ${CHROMIUM_MISSING}`);

const DAYS_AGO = 50;

/** The demo seeded on a clock 50 days back, written where the server process will open it. */
async function seedLongAgo(dataDir: string): Promise<void> {
  const handle = await openDatabase({ dataDir });
  await handle.migrate();
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', PAYOUT_ENCRYPTION_KEY: TEST_PAYOUT_ENCRYPTION_KEY, CURSOR_SECRET: 'seed-cursor-secret-0123456789abcdef' } as NodeJS.ProcessEnv);
  const then = new Date(Date.now() - DAYS_AGO * 86_400_000);
  const deps: AppDeps = { db: handle.db, dbKind: handle.kind, config, log: pino({ level: 'silent' }), now: () => then, rateLimits: createRateLimits(config, handle.kind, handle.db) };
  const data = await seedDemo(deps, then);
  writeFileSync(join(dataDir, 'demo.json'), `${JSON.stringify(data)}\n`);
  await handle.close();
}

// Seeded first, in its own hook (seeding the whole demo in this process takes minutes on a busy
// machine), then copied into the data directory the server process opens.
let seeded = '';
beforeAll(async () => {
  if (!HAS_CHROMIUM) return;
  seeded = mkdtempSync(join(tmpdir(), 'console-overdue-'));
  await seedLongAgo(seeded);
}, 600_000);
afterAll(() => {
  if (seeded) rmSync(seeded, { recursive: true, force: true });
});

const app = useConsole({ prepare: async (dataDir) => cpSync(seeded, dataDir, { recursive: true }) });

interface ListedDocument {
  id: string;
  reference: string | null;
  kind: string;
  state: string;
  due_on: string;
  outstanding: string;
  issued_at: string | null;
}

/** Every document of a REST list query, page after page. */
async function listAll(query: string): Promise<ListedDocument[]> {
  const key = app.member('accountant').api_key!;
  const out: ListedDocument[] = [];
  let cursor: string | null = null;
  do {
    const res: Response = await fetch(`${app.url}/v1/receivables/invoices?limit=100${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    const page = (await res.json()) as { documents: ListedDocument[]; next_cursor: string | null };
    out.push(...page.documents);
    cursor = page.next_cursor;
  } while (cursor);
  return out;
}

const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kuala_Lumpur', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());

describe.skipIf(!HAS_CHROMIUM)('the Overdue tab (issue 28, journey 5)', () => {
  it('lists exactly the documents the API answers as overdue, at desktop and phone sizes', async () => {
    const overdue = await listAll('&overdue=true');
    // The API's answer is itself what "overdue" means: issued, due before today, something outstanding.
    const all = await listAll('');
    const expected = all.filter((d) => d.issued_at !== null && d.due_on < today() && Number(d.outstanding) > 0 && d.kind !== 'customer_credit_note' && !['cancelled', 'discarded'].includes(d.state));
    expect(overdue.map((d) => d.id).sort()).toEqual(expected.map((d) => d.id).sort());
    expect(overdue.length).toBeGreaterThan(0);
    expect(all.filter((d) => d.issued_at !== null).length).toBeGreaterThan(overdue.length);

    for (const size of [DESKTOP, PHONE]) {
      const page = await app.newPage({ ...size, language: 'en' });
      await app.signIn(page, 'accountant', { next: '/invoices' });
      // The To do tile goes to the same tab.
      await page.goto(`${app.url}/invoices?view=overdue`);
      await page.locator('[data-tab="overdue"][aria-current="page"]').waitFor();
      await page.getByTestId('invoice-list').waitFor();
      await expect.poll(() => page.locator('[data-invoice-row]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-invoice-row')).sort()), { timeout: 15_000 }).toEqual(overdue.map((d) => d.id).sort());
      for (const d of overdue) await expect(page.locator(`[data-invoice-row="${d.id}"]`).textContent()).resolves.toContain(d.reference!);
      await app.axe(page);
      // The Paid tab shows none of them.
      await page.locator('[data-tab="paid"]').click();
      await page.locator('[data-tab="paid"][aria-current="page"]').waitFor();
      await expect.poll(() => page.locator('[data-invoice-row]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-invoice-row')))).not.toContain(overdue[0]!.id);
      expect(app.pageErrors(page)).toEqual([]);
    }
  });
});
