import { and, eq } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { claimLines } from '../../src/db/schema';
import { createTestCustomer } from '../factories/customer';
import { bearer, createTestOrganization } from '../factories/organization';
import { createReceivablesSetup } from '../factories/receivables';
import { useTestApp } from '../helpers/app';
import { claimLinesKit, receipt } from './claim-lines-kit';

/** Lines per document and per claim are capped (README "Limits and transport"): 422 naming lines. */
const t = useTestApp();
const { add, fileClaim, setup } = claimLinesKit(t);

async function invoiceWorld() {
  const org = await createTestOrganization(t.db);
  const ref = await createReceivablesSetup(t.db, org.id);
  const customer = await createTestCustomer(t.db, org.id);
  const line = (i: number) => ({ account_id: ref.revenue.id, description: `Item ${i}`, quantity: '1', unit_price: '10.00', tax_code_id: ref.sv8.id });
  const body = (n: number) => ({ kind: 'sales_invoice', customer_id: customer.id, lines: Array.from({ length: n }, (_, i) => line(i + 1)) });
  const post = (n: number) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/receivables/invoices',
      headers: { ...bearer(org.owner.apiKey), 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      payload: JSON.stringify(body(n)),
    });
  return { org, post };
}

describe('lines per document: at most 200', () => {
  it('201 lines are refused with 422 naming /lines; nothing is written', async () => {
    const { post } = await invoiceWorld();
    const res = await post(201);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({ code: 'validation', errors: [{ pointer: '/lines', detail: expect.stringContaining('200') }] });
  });

  it('200 lines are taken, every one stored with totals that add up', async () => {
    const { post } = await invoiceWorld();
    const res = await post(200);
    expect(res.statusCode, res.body).toBe(201);
    const doc = res.json() as { lines: { line_no: number }[]; net_total: string; gross_amount: string };
    expect(doc.lines).toHaveLength(200);
    expect(doc.lines.map((l) => l.line_no)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(doc.net_total).toBe('2000.00');
    expect(doc.gross_amount).toBe('2160.00');
  }, 60_000);
});

describe('lines per claim: at most 300, withdrawn ones included', () => {
  it('the 301st line is refused with 422 naming lines; the 300 stay', async () => {
    const { employee, ref } = await setup();
    const filed = await fileClaim(employee.apiKey);
    const first = await add(employee.apiKey, filed.claim.id, filed.claim.revision, receipt(ref.meals.id));
    expect(first.statusCode, first.body).toBe(201);
    // Lines 2 to 300 as copies of the first, written straight to the table (300 requests would take minutes).
    const [row] = await t.db.select().from(claimLines).where(eq(claimLines.claimId, filed.claim.id));
    const { id: _id, ...rest } = row!;
    await t.db.insert(claimLines).values(Array.from({ length: 299 }, (_, i) => ({ ...rest, lineNo: i + 2 })));
    const revision = (first.json() as { claim: { revision: number } }).claim.revision;

    const res = await add(employee.apiKey, filed.claim.id, revision, receipt(ref.meals.id));
    expect(res.statusCode, res.body).toBe(422);
    const problem = res.json() as { code: string; detail: string };
    expect(problem.code).toBe('validation');
    expect(problem.detail).toMatch(/lines: a claim holds at most 300 lines/);
    const stored = await t.db.select({ id: claimLines.id }).from(claimLines).where(and(eq(claimLines.organizationId, row!.organizationId), eq(claimLines.claimId, filed.claim.id)));
    expect(stored).toHaveLength(300);
  }, 60_000);
});
