/**
 * The import layouts of a fixture batch, byte for byte against files written by hand from each
 * vendor's layout: SQL Account's text import (journal entry MASTER/DETAIL rows), AutoCount's journal
 * entry fields and Xero's manual journal import template (the sources are named in the README).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderBatch, type Batch } from '../../src/services/journal/formats';

const line = (account_code: string, debit: string, credit: string, currency: string, amount: string) => ({
  account_id: '00000000-0000-4000-8000-0000000000' + account_code.slice(0, 2),
  account_code,
  debit,
  credit,
  currency,
  amount,
  analytic_account_id: null,
});

/** A USD invoice at 4.4712, its receipt at 4.5000 allocated (28.80 gain), a claim paid with 1.00 of bank charges. */
const batch: Batch = {
  number: 3,
  up_to: '2026-01-31',
  created_at: '2026-02-01T02:00:00.000Z',
  entries: [
    {
      id: '11111111-1111-4111-8111-111111111111',
      date: '2026-01-05',
      kind: 'document_issued',
      source: { type: 'receivable_document', id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa' },
      reference: 'INV-2026-00001',
      narration: 'sales invoice INV-2026-00001 issued',
      lines: [line('1110', '4471.20', '0.00', 'USD', '1000.00'), line('4010', '0.00', '4140.02', 'USD', '925.93'), line('2110', '0.00', '331.18', 'USD', '74.07')],
    },
    {
      id: '22222222-2222-4222-8222-222222222222',
      date: '2026-01-20',
      kind: 'receipt',
      source: { type: 'receipt', id: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb' },
      reference: 'OR-0042',
      narration: 'receipt OR-0042 (bank_transfer)',
      lines: [line('1020', '4500.00', '0.00', 'USD', '1000.00'), line('2040', '0.00', '4500.00', 'USD', '1000.00')],
    },
    {
      id: '33333333-3333-4333-8333-333333333333',
      date: '2026-01-20',
      kind: 'allocation',
      source: { type: 'allocation', id: 'cccccccc-cccc-4ccc-8ccc-cccccccccccc' },
      reference: 'INV-2026-00001',
      narration: 'allocation INV-2026-00001',
      lines: [line('2040', '4500.00', '0.00', 'USD', '1000.00'), line('1110', '0.00', '4471.20', 'USD', '1000.00'), line('4530', '0.00', '28.80', 'MYR', '28.80')],
    },
    {
      id: '44444444-4444-4444-8444-444444444444',
      date: '2026-01-28',
      kind: 'claim_paid',
      source: { type: 'expense_claim_settlement', id: 'dddddddd-dddd-4ddd-8ddd-dddddddddddd' },
      reference: 'CLM-2026-00007',
      narration: 'claim CLM-2026-00007 paid (bank_transfer)',
      lines: [line('2030', '145.00', '0.00', 'MYR', '145.00'), line('1020', '0.00', '146.00', 'MYR', '146.00'), line('6140', '1.00', '0.00', 'MYR', '1.00')],
    },
  ],
};

const fixture = (name: string) => readFileSync(new URL(`../fixtures/journal/${name}`, import.meta.url), 'utf8');

describe('journal export layouts', () => {
  it('SQL Account text import', () => expect(renderBatch(batch, 'sql_account', 'MYR')).toBe(fixture('batch-3.sql_account.txt')));
  it('AutoCount journal entry import', () => expect(renderBatch(batch, 'autocount', 'MYR')).toBe(fixture('batch-3.autocount.csv')));
  it('Xero manual journal import', () => expect(renderBatch(batch, 'xero', 'MYR')).toBe(fixture('batch-3.xero.csv')));
  it('a field holding the separator, a quote or a line break is quoted; SQL Account has none of them', () => {
    const odd = { ...batch, entries: [{ ...batch.entries[1]!, narration: 'receipt "A", B;\nC' }] };
    expect(renderBatch(odd, 'xero', 'MYR').split('\r\n')[1]).toBe('"JE3-0001 receipt ""A"", B;\nC",20/01/2026,receipt USD 1000.00,1020,Tax Exempt,4500.00,,,,');
    expect(renderBatch(odd, 'sql_account', 'MYR').split('\r\n')[0]).toBe('MASTER;JE3-0001;20/01/2026;20/01/2026;receipt "A", B  C;F;');
  });
  it("fields are cut to the vendor's sizes: AutoCount's description 80 and reference 20, SQL Account's description 150", () => {
    const long = { ...batch, entries: [{ ...batch.entries[1]!, narration: 'n'.repeat(300), reference: 'R'.repeat(30) }] };
    const [, first] = renderBatch(long, 'autocount', 'MYR').split('\r\n');
    expect(first).toBe(`JE3-0001,20/01/2026,GENERAL,MYR,1,${'n'.repeat(80)},1020,receipt USD 1000.00,${'R'.repeat(20)},4500.00,`);
    expect(renderBatch(long, 'sql_account', 'MYR').split('\r\n')[0]).toBe(`MASTER;JE3-0001;20/01/2026;20/01/2026;${'n'.repeat(150)};F;`);
  });
});
