import { describe, expect, it } from 'vitest';
import { createReceiptWorld } from '../factories/receipts';
import { allocate, reverseAllocation } from '../factories/receivables';
import { useTestApp } from '../helpers/app';
import { httpHelpers } from '../helpers/http';
import { compactJournal, expectBalanced } from '../helpers/journal';
import { transitionDocument } from '../../src/services/receivables/transition-document';
import { contextFor } from '../factories/context';
import { and, eq } from 'drizzle-orm';
import { accounts } from '../../src/db/schema';
import { callerFor } from '../helpers/settings';
import { issueTestDocument } from '../factories/receivables';

/**
 * The journal entries written with each receivables event, to the sen: an invoice issued, a receipt,
 * an allocation at another rate (the realized difference to exchange difference) and its reversal, a
 * credit note issued and applied, a document cancelled.
 */
const t = useTestApp();
const { post } = httpHelpers(t);

describe('journal entries of receivables events', () => {
  it('a USD invoice at 4.4712 settled at 4.5000: 28.80 gain on 1,000.00 USD, and the reversal undoes it', async () => {
    const w = await createReceiptWorld(t);
    const inv = await w.usdInvoice();
    const res = await post('/v1/receivables/receipts', w.receiptBody({ customer_id: w.usdCustomer.id, currency: 'USD', fx_rate: '4.5000', amount: '1000.00', allocations: [{ invoice_id: inv.id, amount: '1000.00' }] }), w.token);
    expect(res.statusCode, res.body).toBe(201);
    const allocationId = res.json().allocations[0].id as string;
    await reverseAllocation(t.db, { organizationId: w.org.id, allocationId, effectiveOn: '2025-03-02', createdBy: w.issuer.id });

    expect(await compactJournal(t.db, w.org.id)).toEqual([
      [
        'document_issued',
        [
          ['1110', '4471.20', '', 'USD', '1000.00'],
          ['4000', '', '4140.02', 'USD', '925.93'],
          ['2110', '', '331.18', 'USD', '74.07'],
        ],
      ],
      ['receipt', [['1020', '4500.00', '', 'USD', '1000.00'], ['2040', '', '4500.00', 'USD', '1000.00']]],
      ['allocation', [['2040', '4500.00', '', 'USD', '1000.00'], ['1110', '', '4471.20', 'USD', '1000.00'], ['4530', '', '28.80', 'MYR', '28.80']]],
      ['allocation_reversed', [['2040', '', '4500.00', 'USD', '1000.00'], ['1110', '4471.20', '', 'USD', '1000.00'], ['4530', '28.80', '', 'MYR', '28.80']]],
    ]);
    await expectBalanced(t.db, w.org.id);
  });

  it('a credit note issued is the invoice reversed; applied, it moves receivables between the two documents; a cancellation reverses the issue', async () => {
    const w = await createReceiptWorld(t);
    const inv = await w.invoice();
    const note = await w.creditNote(inv.id);
    await allocate(t.db, { organizationId: w.org.id, invoiceId: inv.id, creditNoteId: note.id, amount: '54.00', effectiveOn: '2025-03-03', createdBy: w.issuer.id });
    const other = await w.invoice();
    await transitionDocument(await contextFor(t.db, w.org.id, w.org.owner.id), { id: other.id, action_key: 'cancel', reason: 'Raised in error' });

    expect(await compactJournal(t.db, w.org.id)).toEqual([
      ['document_issued', [['1110', '379.62', '', 'MYR', '379.62'], ['4000', '', '351.50', 'MYR', '351.50'], ['2110', '', '28.12', 'MYR', '28.12']]],
      ['document_issued', [['1110', '', '54.00', 'MYR', '54.00'], ['4000', '50.00', '', 'MYR', '50.00'], ['2110', '4.00', '', 'MYR', '4.00']]],
      ['credit_note_applied', [['1110', '54.00', '', 'MYR', '54.00'], ['1110', '', '54.00', 'MYR', '54.00']]],
      ['document_issued', [['1110', '379.62', '', 'MYR', '379.62'], ['4000', '', '351.50', 'MYR', '351.50'], ['2110', '', '28.12', 'MYR', '28.12']]],
      ['document_cancelled', [['1110', '', '379.62', 'MYR', '379.62'], ['4000', '351.50', '', 'MYR', '351.50'], ['2110', '28.12', '', 'MYR', '28.12']]],
    ]);
    await expectBalanced(t.db, w.org.id);
  });

  it('a control account that resolves to no active account is named by readiness, and issuing is refused (409 journal_account_missing) with nothing written', async () => {
    const w = await createReceiptWorld(t);
    await t.db.update(accounts).set({ active: false }).where(and(eq(accounts.organizationId, w.org.id), eq(accounts.code, '1110')));
    const answer = (await callerFor(t, w.org.owner.session).organization.readiness()) as { areas: { key: string; items: { key: string; done: boolean; detail: string }[] }[] };
    const item = answer.areas.find((a) => a.key === 'invoicing')!.items.find((i) => i.key === 'journal.receivables_accounts')!;
    expect(item.done).toBe(false);
    expect(item.detail).toContain('receivables control account');
    const draft = await post('/v1/receivables/invoices', w.body(), w.token);
    expect(draft.statusCode).toBe(201);
    await expect(issueTestDocument(t.db, w.org.id, draft.json().id, w.issuer.id)).rejects.toMatchObject({ appCode: 'journal_account_missing' });
    expect(await compactJournal(t.db, w.org.id)).toEqual([]);
  });
});
