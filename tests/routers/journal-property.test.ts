/**
 * Properties of the journal over random sequences of events in one organization (fast-check):
 * receivables (issues of MYR and USD invoices, credit notes, receipts in either currency at various
 * rates, allocations, their reversals and cancellations) interleaved with claims (approved on a day,
 * a bank-charged SGD line split over one to three projects, paid on a later day at a bank figure a
 * little off the approved amount). After any sequence: every entry balances to the sen; and as at
 * each day, receivables control together with customer deposits (the receipts not yet applied, which
 * the ageing counts against the customer) equals the ageing total_base; exchange difference equals
 * the realized differences of the allocations effective by then; claims payable equals the total of
 * the claims approved and not yet paid by then; bank charges equal the bank figures less the
 * approved amounts of the lines paid by then. The claims' figures come from their answers, not from
 * the journal.
 */
import fc from 'fast-check';
import { and, eq, lte } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { allocations } from '../../src/db/schema';
import { findDocumentRow } from '../../src/db/queries/receivable-documents';
import { findReceipt } from '../../src/db/queries/receipts';
import { Dec } from '../../src/lib/money';
import { ageingReport } from '../../src/services/receivables/reports';
import { journalTrialBalance } from '../../src/services/journal/exports';
import { transitionDocument } from '../../src/services/receivables/transition-document';
import { readClaim } from '../factories/approvals';
import { fileTestClaim } from '../factories/claim-filing';
import { approveTestClaim, createClaimApprovalWorld, payTestClaim, type ClaimApprovalWorld } from '../factories/claim-world';
import { addClaimLine } from '../factories/claims';
import { contextFor } from '../factories/context';
import { createReceiptWorld, type ReceiptWorld } from '../factories/receipts';
import { allocate, issueTestDocument, reverseAllocation } from '../factories/receivables';
import { useTestApp } from '../helpers/app';
import { httpHelpers } from '../helpers/http';
import { expectBalanced } from '../helpers/journal';

const t = useTestApp();
const { post } = httpHelpers(t);
afterEach(() => t.setNow(undefined));

const DAYS = ['2025-01-10', '2025-02-10', '2025-03-10', '2025-04-10'] as const;
const day = fc.integer({ min: 0, max: DAYS.length - 1 });
const later = (a: string, b: string) => (a > b ? a : b);
const SHARES = [['100'], ['50', '50'], ['33.3333333333', '33.3333333333', '33.3333333334']] as const;

const command = fc.oneof(
  { weight: 3, arbitrary: fc.record({ t: fc.constant('invoice' as const), usd: fc.boolean(), qty: fc.integer({ min: 1, max: 4 }), price: fc.constantFrom('120.50', '33.33', '925.93', '7.01'), rate: fc.constantFrom('4.4712', '4.5', '4.3'), day }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('note' as const), of: fc.nat(), net: fc.constantFrom('10.00', '25.55'), day }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('receipt' as const), usd: fc.boolean(), amount: fc.constantFrom('100.00', '333.33', '1000.00', '57.77'), rate: fc.constantFrom('4.4712', '4.5', '4.2999'), day }) },
  { weight: 4, arbitrary: fc.record({ t: fc.constant('allocate' as const), from: fc.nat(), to: fc.nat(), part: fc.constantFrom(1, 0.5, 0.37) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('apply' as const), from: fc.nat(), to: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('reverse' as const), of: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('cancel' as const), of: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('claim' as const), bank: fc.constantFrom('45.00', '100.01', '60.33'), shares: fc.integer({ min: 0, max: 2 }), day }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('pay' as const), of: fc.nat(), delta: fc.constantFrom('0', '1.00', '-0.50'), day }) },
);

type Command = typeof command extends fc.Arbitrary<infer C> ? C : never;
const pick = <T>(xs: T[], i: number) => (xs.length ? xs[i % xs.length] : undefined);

/** The receivables commands, run through the same services and HTTP routes people reach; remembers what was made. */
function receivablesRunner(w: ReceiptWorld) {
  const org = w.org.id;
  const docs: { id: string; currency: string; day: string; kind: string }[] = [];
  const receipts: { id: string; currency: string; day: string }[] = [];
  const allocationIds: { id: string; day: string }[] = [];
  const issue = async (body: Record<string, unknown>, onDay: string) => {
    const res = await post('/v1/receivables/invoices', w.body(body), w.token);
    if (res.statusCode !== 201) return undefined;
    // A credit note of an invoice cancelled meanwhile is refused at issue (nothing to credit): not issued.
    const issued = await issueTestDocument(t.db, org, res.json().id, w.issuer.id, new Date(`${onDay}T04:00:00Z`)).then(
      () => true,
      (e: Error) => {
        if (/is cancelled: there is nothing to credit/.test(e.message)) return false;
        throw e;
      },
    );
    return issued ? (res.json().id as string) : undefined;
  };
  const settle = async (c: Extract<Command, { t: 'allocate' | 'apply' }>) => {
    const source = c.t === 'allocate' ? pick(receipts, c.from) : pick(docs.filter((d) => d.kind === 'customer_credit_note'), c.from);
    const to = source && pick(docs.filter((d) => d.kind === 'sales_invoice' && d.currency === source.currency), c.to);
    if (!source || !to) return;
    const docRow = await findDocumentRow(t.db, { organizationId: org, id: to.id });
    const left = c.t === 'allocate' ? (await findReceipt(t.db, { organizationId: org, id: source.id }))!.unallocated : (await findDocumentRow(t.db, { organizationId: org, id: source.id }))!.outstanding;
    const part = c.t === 'allocate' ? c.part : 1;
    const amount = Dec.min(left, docRow!.outstanding).times(part).toDecimalPlaces(2, Dec.ROUND_DOWN);
    if (amount.lte(0)) return;
    const onDay = later(source.day, to.day);
    const q = { organizationId: org, invoiceId: to.id, amount: amount.toFixed(2), effectiveOn: onDay, createdBy: w.issuer.id };
    const row = await allocate(t.db, c.t === 'allocate' ? { ...q, receiptId: source.id } : { ...q, creditNoteId: source.id }).catch(() => undefined);
    if (row) allocationIds.push({ id: row.id, day: onDay });
  };
  return async (c: Command) => {
    if (c.t === 'invoice') {
      const over = c.usd ? { customer_id: w.usdCustomer.id, currency: 'USD', fx_rate: c.rate } : {};
      const id = await issue({ ...over, lines: [w.line({ quantity: String(c.qty), unit_price: c.price, discount_amount: '0' })] }, DAYS[c.day]!);
      if (id) docs.push({ id, currency: c.usd ? 'USD' : 'MYR', day: DAYS[c.day]!, kind: 'sales_invoice' });
    } else if (c.t === 'note') {
      const of = pick(docs.filter((d) => d.kind === 'sales_invoice' && d.currency === 'MYR'), c.of);
      if (!of) return;
      const onDay = later(of.day, DAYS[c.day]!);
      const id = await issue({ kind: 'customer_credit_note', reason: 'Returned', original_invoice_id: of.id, lines: [w.line({ quantity: '1', unit_price: c.net, discount_amount: '0' })] }, onDay);
      if (id) docs.push({ id, currency: 'MYR', day: onDay, kind: 'customer_credit_note' });
    } else if (c.t === 'receipt') {
      const over = c.usd ? { customer_id: w.usdCustomer.id, currency: 'USD', fx_rate: c.rate } : {};
      const res = await post('/v1/receivables/receipts', w.receiptBody({ ...over, amount: c.amount, received_on: DAYS[c.day] }), w.token);
      expect(res.statusCode, res.body).toBe(201);
      receipts.push({ id: res.json().id, currency: c.usd ? 'USD' : 'MYR', day: DAYS[c.day]! });
    } else if (c.t === 'allocate' || c.t === 'apply') {
      await settle(c);
    } else if (c.t === 'reverse') {
      const a = pick(allocationIds, c.of);
      if (a) await reverseAllocation(t.db, { organizationId: org, allocationId: a.id, effectiveOn: a.day, createdBy: w.issuer.id }).catch(() => undefined);
    } else if (c.t === 'cancel') {
      const d = pick(docs, c.of);
      if (d) await transitionDocument(await contextFor(t.db, org, w.org.owner.id), { id: d.id, action_key: 'cancel', reason: 'Raised in error' }).catch(() => undefined);
    }
  };
}

interface ClaimMade {
  id: string;
  approvedOn: string;
  /** What the claim's answer said it reimburses when approved. */
  total: string;
  bankLine: { id: string; approved: string };
  paid?: { on: string; figure: string };
}

/** The claims commands: each on its day (the clock moved there), as the claimant, the approvers and the payer. */
function claimsRunner(w: ClaimApprovalWorld, made: ClaimMade[]) {
  const at = (onDay: string) => new Date(`${onDay}T04:00:00Z`);
  return async (c: Command) => {
    if (c.t === 'claim') {
      const onDay = DAYS[c.day]!;
      t.setNow(at(onDay));
      const claim = await fileTestClaim(t, w.employee, { title: 'Site visit', payout_channel_id: w.channel.id });
      const q = { organizationId: w.org.id, claimId: claim.id, now: at(onDay), type: 'receipt' as const, expenseDate: '2025-01-02', categoryId: w.ref.travel.id };
      const parking = await addClaimLine(t.db, {
        ...q,
        description: 'Parking',
        currency: 'SGD',
        amount: '13.00',
        bankChargedAmount: c.bank,
        documentBasis: 'foreign_supplier',
        supplierCountry: 'SG',
        shares: SHARES[c.shares]!.map((percentage, i) => ({ analyticAccountId: w.projects[i]!.id, percentage })),
      });
      const approved = await approveTestClaim(t, w, claim.id);
      expect(approved.claim.state).toBe('approved');
      const line = approved.lines.find((l: { id: string }) => l.id === parking.id);
      made.push({ id: claim.id, approvedOn: onDay, total: approved.claim.total, bankLine: { id: parking.id, approved: line.base_amount } });
    } else if (c.t === 'pay') {
      const claim = pick(made.filter((m) => !m.paid), c.of);
      if (!claim) return;
      const onDay = later(claim.approvedOn, DAYS[c.day]!);
      const figure = new Dec(claim.bankLine.approved).plus(c.delta).toFixed(2);
      t.setNow(at(onDay));
      expect((await payTestClaim(t, w, claim.id, [{ line_id: claim.bankLine.id, amount: figure }])).claim.state).toBe('paid');
      claim.paid = { on: onDay, figure };
    }
    t.setNow(undefined);
  };
}

/** The four properties as at each day, and the claims' states as their answers give them now. */
async function checkAsAtEachDay(w: ReceiptWorld, cw: ClaimApprovalWorld, made: ClaimMade[]) {
  const org = w.org.id;
  await expectBalanced(t.db, org);
  const ctx = await contextFor(t.db, org, w.org.owner.id);
  for (const asOf of DAYS) {
    const tb = await journalTrialBalance(ctx, { as_of: asOf });
    const balance = (code: string) => new Dec(tb.accounts.find((a) => a.account_code === code)?.balance ?? '0');
    const ageing = await ageingReport(ctx, { as_of: asOf });
    expect(balance('1110').plus(balance('2040')).toFixed(2), `control and deposits as at ${asOf}`).toBe(new Dec(ageing.total_base).toFixed(2));
    const rows = await t.db.select().from(allocations).where(and(eq(allocations.organizationId, org), lte(allocations.effectiveOn, asOf)));
    const realized = rows.reduce((s, r) => s.plus(r.exchangeDifference), new Dec(0));
    expect(balance('4530').negated().toFixed(2), `exchange difference as at ${asOf}`).toBe(realized.toFixed(2));

    const owed = made.filter((m) => m.approvedOn <= asOf && !(m.paid && m.paid.on <= asOf)).reduce((s, m) => s.plus(m.total), new Dec(0));
    expect(balance('2030').negated().toFixed(2), `claims payable as at ${asOf}`).toBe(owed.toFixed(2));
    const paidBy = made.filter((m) => m.paid && m.paid.on <= asOf);
    const charges = paidBy.reduce((s, m) => s.plus(m.paid!.figure).minus(m.bankLine.approved), new Dec(0));
    expect(balance('6140').toFixed(2), `bank charges as at ${asOf}`).toBe(charges.toFixed(2));
  }
  for (const m of made) {
    const answer = (await readClaim(t, cw.payer.session, m.id)).claim;
    expect({ state: answer.state, total: answer.total }, `claim ${m.id}`).toEqual({ state: m.paid ? 'paid' : 'approved', total: m.total });
  }
}

describe('journal properties (fast-check)', () => {
  it('receivables and claims in one organization: every entry balances; control and deposits, exchange difference, claims payable and bank charges as at each day', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 8, maxLength: 14 }), async (commands) => {
        const w = await createReceiptWorld(t);
        const cw = await createClaimApprovalWorld(t, w.org);
        const made: ClaimMade[] = [];
        const receivables = receivablesRunner(w);
        const claims = claimsRunner(cw, made);
        // Each run starts with an invoice and a receipt in each currency and one claim, so the random part has something to settle.
        const start: Command[] = [
          { t: 'invoice', usd: false, qty: 2, price: '120.50', rate: '4.5', day: 0 },
          { t: 'invoice', usd: true, qty: 1, price: '925.93', rate: '4.4712', day: 0 },
          { t: 'receipt', usd: false, amount: '100.00', rate: '4.5', day: 1 },
          { t: 'receipt', usd: true, amount: '1000.00', rate: '4.5', day: 1 },
          { t: 'claim', bank: '45.00', shares: 2, day: 0 },
        ];
        for (const c of [...start, ...commands]) await (c.t === 'claim' || c.t === 'pay' ? claims(c) : receivables(c));
        await checkAsAtEachDay(w, cw, made);
      }),
      { numRuns: 4, endOnFailure: true },
    );
  }, 600_000);
});
