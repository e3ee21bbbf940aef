import Decimal from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { isAppError } from '../../src/lib/errors';
import { allocate, createInvoiceWorld, issueTestDocument, recordReceipt, reverseAllocation, type InvoiceWorld } from '../factories/receivables';
import { onPostgres, useTestApp } from '../helpers/app';
import { httpHelpers } from '../helpers/http';

/**
 * Balances and amounts as a reader sees them: the credit-note cap at issue, one source for
 * `outstanding` in GET and the list, and every amount with its currency's minor units.
 */

const t = useTestApp();
const { post, get } = httpHelpers(t);
const URL = '/v1/receivables/invoices';

const world = () => createInvoiceWorld(t.db);
type World = InvoiceWorld;

async function prepared(w: World, over: Record<string, unknown> = {}) {
  const res = await post(URL, w.body(over), w.org.owner.apiKey);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; gross_amount: string; currency: string };
}

async function issued(w: World, over: Record<string, unknown> = {}) {
  const doc = await prepared(w, over);
  await issueTestDocument(t.db, w.org.id, doc.id, w.org.owner.id);
  return doc;
}

/** A draft credit note of `gross` (no tax) against the invoice. */
function creditNote(w: World, invoiceId: string, gross: string) {
  return prepared(w, {
    kind: 'customer_credit_note',
    reason: 'Returned goods',
    original_invoice_id: invoiceId,
    lines: [w.line({ tax_code_id: w.ref.na.id, quantity: '1', unit_price: gross, discount_amount: '0' })],
  });
}

describe('issuing a credit note re-checks what is left to credit on the invoice', () => {
  it('two drafts that each fit when prepared: the second is refused at issue (409 conflict) and stays a draft', async () => {
    const w = await world();
    const inv = await issued(w); // gross 379.62
    const first = await creditNote(w, inv.id, '300.00');
    const second = await creditNote(w, inv.id, '300.00');
    await issueTestDocument(t.db, w.org.id, first.id, w.org.owner.id);
    const refused = await issueTestDocument(t.db, w.org.id, second.id, w.org.owner.id).catch((e: unknown) => e);
    expect(isAppError(refused) && refused.appCode, String(refused)).toBe('conflict');
    expect(isAppError(refused) && refused.detail).toContain('79.62');
    const again = (await get(`${URL}/${second.id}`, w.org.owner.apiKey)).json();
    expect(again).toMatchObject({ state: 'draft', reference: null, issued_at: null });
    // What is left may still be credited.
    const rest = await creditNote(w, inv.id, '79.62');
    await issueTestDocument(t.db, w.org.id, rest.id, w.org.owner.id);
    expect((await get(`${URL}/${rest.id}`, w.org.owner.apiKey)).json().state).toBe('issued');
  });

  describe.skipIf(!onPostgres)('on PostgreSQL, concurrently', () => {
    it('two credit notes issued at the same time: exactly one is issued', async () => {
      const w = await world();
      const inv = await issued(w);
      const a = await creditNote(w, inv.id, '200.00');
      const b = await creditNote(w, inv.id, '200.00');
      const results = await Promise.allSettled(
        [a, b].map((cn) => t.db.transaction((tx) => issueTestDocument(tx, w.org.id, cn.id, w.org.owner.id))),
      );
      expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
      const rejected = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')!;
      expect(isAppError(rejected.reason) && rejected.reason.appCode).toBe('conflict');
      const states = await Promise.all([a, b].map(async (cn) => (await get(`${URL}/${cn.id}`, w.org.owner.apiKey)).json().state));
      expect(states.sort()).toEqual(['draft', 'issued']);
    });
  });
});

describe('outstanding: one source for GET and the list', () => {
  it('after allocations, a reversal and a credit note, GET and the list agree and equal gross less the allocations not reversed', async () => {
    const w = await world();
    const inv = await issued(w); // gross 379.62
    const receipt = await recordReceipt(t.db, { organizationId: w.org.id, customerId: w.customer.id, reference: 'OR-9', currency: 'MYR', amount: '250.00', receivedOn: '2025-03-01', createdBy: w.org.owner.id });
    const first = await allocate(t.db, { organizationId: w.org.id, invoiceId: inv.id, receiptId: receipt.id, amount: '120.00', effectiveOn: '2025-03-01', createdBy: w.org.owner.id });
    await allocate(t.db, { organizationId: w.org.id, invoiceId: inv.id, receiptId: receipt.id, amount: '50.10', effectiveOn: '2025-03-02', createdBy: w.org.owner.id });
    await reverseAllocation(t.db, { organizationId: w.org.id, allocationId: first.id, effectiveOn: '2025-03-03', createdBy: w.org.owner.id });
    const cn = await creditNote(w, inv.id, '30.00');
    await issueTestDocument(t.db, w.org.id, cn.id, w.org.owner.id);
    await allocate(t.db, { organizationId: w.org.id, invoiceId: inv.id, creditNoteId: cn.id, amount: '12.34', effectiveOn: '2025-03-04', createdBy: w.org.owner.id });

    const list = (await get(`${URL}?limit=100`, w.org.owner.apiKey)).json().documents as any[];
    for (const id of [inv.id, cn.id]) {
      const doc = (await get(`${URL}/${id}`, w.org.owner.apiKey)).json();
      const item = list.find((d) => d.id === id);
      expect([item.outstanding, item.outstanding_base]).toEqual([doc.outstanding, doc.outstanding_base]);
      // gross less the allocations that are neither reversed nor reversals (against the invoice, or made from the credit note).
      const mine = (doc.allocations as any[]).filter((a) => (doc.kind === 'customer_credit_note' ? a.credit_note_id === id : a.invoice_id === id));
      const counted = mine.filter((a) => !a.reverses_id && !a.reversed_by_id);
      const expected = counted.reduce((left: Decimal, a) => left.minus(a.amount), new Decimal(doc.gross_amount)).toFixed(2);
      expect(doc.outstanding).toBe(expected);
    }
    expect(list.find((d) => d.id === inv.id).outstanding).toBe('317.18'); // 379.62 − 50.10 − 12.34
    expect(list.find((d) => d.id === cn.id).outstanding).toBe('17.66'); // 30.00 − 12.34
  });
});

describe('GET: every amount has exactly its currency minor units (MYR, USD, JPY, KWD)', () => {
  const MINOR: Record<string, number> = { MYR: 2, USD: 2, JPY: 0, KWD: 3 };
  const shape = (mu: number) => (mu === 0 ? /^-?\d+$/ : new RegExp(`^-?\\d+\\.\\d{${mu}}$`));
  const HEADER_AMOUNTS = ['net_total', 'tax_total', 'gross_amount', 'outstanding', 'original_total'];
  const HEADER_BASE = ['gross_base', 'outstanding_base'];
  const LINE_AMOUNTS = ['unit_price', 'discount_amount', 'net_amount', 'tax_amount'];
  const LINE_BASE = ['net_base', 'tax_base'];
  const RATES = ['fx_rate', 'quantity', 'tax_rate', 'percentage'];
  /** Codes made of digits, not decimals: MyInvois classification codes, and the frozen parties' identifiers. */
  const CODES = ['classification_code', 'buyer', 'seller', 'custom_fields'];

  /** Every decimal-looking string in the document is a known amount (checked here) or a known rate. */
  function checkDocument(doc: any, base: string) {
    const cur = doc.currency as string;
    const seen: string[] = [];
    const expectShape = (value: unknown, currency: string, where: string) => {
      expect(value, where).toMatch(shape(MINOR[currency]!));
      seen.push(where);
    };
    for (const k of HEADER_AMOUNTS) if (doc[k] !== undefined) expectShape(doc[k], cur, k);
    for (const k of HEADER_BASE) expectShape(doc[k], base, k);
    for (const [i, l] of (doc.lines as any[]).entries()) {
      for (const k of LINE_AMOUNTS) expectShape(l[k], cur, `lines.${i}.${k}`);
      for (const k of LINE_BASE) expectShape(l[k], base, `lines.${i}.${k}`);
    }
    for (const [i, a] of (doc.allocations as any[]).entries()) {
      expectShape(a.amount, a.currency, `allocations.${i}.amount`);
      expectShape(a.base_amount, base, `allocations.${i}.base_amount`);
    }
    // No amount field goes unchecked: any other decimal string must be a rate.
    const walk = (v: unknown, path: string[]) => {
      if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...path, String(i)]));
      else if (v && typeof v === 'object') {
        for (const [k, x] of Object.entries(v)) if (!CODES.includes(k)) walk(x, [...path, k]);
      }
      else if (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v) && !seen.includes(path.join('.'))) {
        expect(RATES, `unchecked decimal field ${path.join('.')}`).toContain(path[path.length - 1]);
      }
    };
    walk(doc, []);
    expect(seen.length).toBeGreaterThan(10);
  }

  it('for invoices, a credit note and allocations (with a reversal) in each currency, base MYR', async () => {
    const w = await world();
    const specs = [
      { currency: 'MYR', fx: undefined, price: '120.50', discount: '10.00', small: '10.00' },
      { currency: 'USD', fx: '4.4712', price: '19.99', discount: '0.99', small: '1.50' },
      { currency: 'JPY', fx: '0.0301', price: '1500', discount: '7', small: '100' },
      { currency: 'KWD', fx: '15.2345', price: '12.345', discount: '0.005', small: '1.250' },
    ];
    const ids: string[] = [];
    for (const s of specs) {
      const lines = [
        w.line({ unit_price: s.price, discount_amount: s.discount }),
        w.line({ tax_code_id: w.ref.st10.id, quantity: '0.5', unit_price: s.price, discount_amount: '0' }),
      ];
      const inv = await issued(w, { currency: s.currency, ...(s.fx ? { fx_rate: s.fx } : {}), lines });
      const receipt = await recordReceipt(t.db, {
        organizationId: w.org.id,
        customerId: w.customer.id,
        reference: `OR-${s.currency}`,
        currency: s.currency,
        amount: s.small,
        fxRate: s.fx,
        receivedOn: '2025-03-01',
        createdBy: w.org.owner.id,
      });
      const a = await allocate(t.db, { organizationId: w.org.id, invoiceId: inv.id, receiptId: receipt.id, amount: s.small, effectiveOn: '2025-03-01', createdBy: w.org.owner.id });
      await reverseAllocation(t.db, { organizationId: w.org.id, allocationId: a.id, effectiveOn: '2025-03-02', createdBy: w.org.owner.id });
      const cn = await prepared(w, {
        kind: 'customer_credit_note',
        reason: 'Returned goods',
        currency: s.currency,
        ...(s.fx ? { fx_rate: s.fx } : {}),
        original_invoice_id: inv.id,
        lines: [w.line({ quantity: '1', unit_price: s.small, discount_amount: '0' })],
      });
      await issueTestDocument(t.db, w.org.id, cn.id, w.org.owner.id);
      await allocate(t.db, { organizationId: w.org.id, invoiceId: inv.id, creditNoteId: cn.id, amount: s.small, effectiveOn: '2025-03-03', createdBy: w.org.owner.id });
      ids.push(inv.id, cn.id);
    }
    for (const id of ids) {
      const res = await get(`${URL}/${id}`, w.org.owner.apiKey);
      expect(res.statusCode).toBe(200);
      checkDocument(res.json(), 'MYR');
    }
  });
});
