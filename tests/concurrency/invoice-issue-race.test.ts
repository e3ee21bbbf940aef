import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayIn } from '../../src/lib/dates';
import { createTestMember } from '../factories/organization';
import { createInvoiceWorld, type InvoiceWorld } from '../factories/receivables';
import { onPostgres, testDatabaseEnv, useTestApp } from '../helpers/app';
import { httpHelpers } from '../helpers/http';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';

/**
 * Issuing under load, across two real server processes sharing one PostgreSQL (docs/design.md §11
 * and §14): the number comes from the organization's gapless per-kind, per-year sequence taken in the
 * issuing transaction, and a credit note's cap is re-checked under its invoice's lock. PostgreSQL only.
 */
describe.skipIf(!onPostgres)('issuing concurrently across two server processes', () => {
  const t = useTestApp();
  const { post } = httpHelpers(t);
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    const env = { ...testDatabaseEnv(), DATABASE_POOL_SIZE: '10', RATE_LIMIT_PER_KEY: '100000', RATE_LIMIT_PER_ORGANIZATION: '100000', RATE_LIMIT_PER_MEMBER: '100000' };
    servers.push(await startServerProcess(env));
    servers.push(await startServerProcess(env));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
  });

  const year = () => todayIn('Asia/Kuala_Lumpur', new Date()).slice(0, 4);

  async function draft(w: InvoiceWorld, key: string, over: Record<string, unknown> = {}) {
    const res = await post('/v1/receivables/invoices', w.body(over), key);
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string; revision: number };
  }

  async function transition(server: ServerProcess, token: string, id: string, revision: number, action_key = 'issue') {
    const res = await fetch(`${server.url}/trpc/receivables.invoices.transition`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'if-match': `"${revision}"` },
      body: JSON.stringify({ id, action_key }),
    });
    return { status: res.status, body: (await res.json()) as any };
  }

  it('50 drafts issued at once, half on each process: 50 distinct consecutive numbers, no gap', async () => {
    const w = await createInvoiceWorld(t.db);
    const clerk = await createTestMember(t.db, w.org.id, { role: 'clerk' });
    const accountant = await createTestMember(t.db, w.org.id, { role: 'accountant' });
    const drafts = [];
    for (let i = 0; i < 50; i++) drafts.push(await draft(w, clerk.apiKey));

    const answers = await Promise.all(drafts.map((d, i) => transition(servers[i % 2]!, accountant.session, d.id, d.revision)));
    for (const a of answers) expect(a.status, JSON.stringify(a.body)).toBe(200);
    const references = answers.map((a) => a.body.result.data.reference as string).sort();
    expect(new Set(references).size).toBe(50);
    expect(references).toEqual(Array.from({ length: 50 }, (_, i) => `INV-${year()}-${String(i + 1).padStart(5, '0')}`));
  }, 240_000);

  it('two credit notes that together exceed their invoice, issued at once on both processes: exactly one succeeds', async () => {
    const w = await createInvoiceWorld(t.db);
    const clerk = await createTestMember(t.db, w.org.id, { role: 'clerk' });
    const accountant = await createTestMember(t.db, w.org.id, { role: 'accountant' });
    for (let round = 0; round < 3; round++) {
      const inv = await draft(w, clerk.apiKey, { lines: [w.line({ quantity: '1', unit_price: '1000.00', discount_amount: '0.00' })] });
      const issued = await transition(servers[0]!, accountant.session, inv.id, inv.revision);
      expect(issued.status, JSON.stringify(issued.body)).toBe(200);
      // Each 700.00 + 8% = 756.00 of the invoice's 1080.00: either fits alone (and each passed the cap
      // when prepared), not both.
      const cn = () =>
        draft(w, clerk.apiKey, {
          kind: 'customer_credit_note',
          original_invoice_id: inv.id,
          reason: 'Returned goods',
          lines: [w.line({ quantity: '1', unit_price: '700.00', discount_amount: '0.00' })],
        });
      const [a, b] = [await cn(), await cn()];
      const answers = await Promise.all([transition(servers[0]!, accountant.session, a.id, a.revision), transition(servers[1]!, accountant.session, b.id, b.revision)]);
      expect(answers.map((x) => x.status).sort(), JSON.stringify(answers.map((x) => x.body))).toEqual([200, 409]);
      const refused = answers.find((x) => x.status === 409)!;
      expect(refused.body.error.data.problem.code).toBe('conflict');
      // Gapless: the refused issue gave its number back.
      expect(answers.find((x) => x.status === 200)!.body.result.data.reference).toBe(`CN-${year()}-${String(round + 1).padStart(5, '0')}`);
    }
  }, 240_000);
});
