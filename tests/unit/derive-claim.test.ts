import { describe, it, expect } from 'vitest';
import {
  deriveClaim,
  possibleDuplicates,
  type ClaimLineInput,
  type DeriveClaimContext,
  type OtherClaimHashRow,
} from '../../src/services/expenses/derive-claim';

const projectNames = new Map<string, string>([
  ['acc-proj-zeta', 'Zeta Tower'],
  ['acc-proj-alpha', 'Alpha Bridge'],
  ['acc-proj-mid', 'Mid Valley'],
]);

// Amounts are formatted with lib/money: the currency's ISO 4217 minor units (MYR 2, JPY 0, BHD 3).
const ctx: DeriveClaimContext = { baseCurrency: 'MYR', projectNames };

let counter = 0;
function line(overrides: Partial<ClaimLineInput> & { line_no: number }): ClaimLineInput {
  counter += 1;
  return {
    withdrawn: false,
    currency: 'MYR',
    amount: '10.00',
    base_amount: '10.00',
    category_id: `cat-${counter}`,
    supplier_name: null,
    shares: [],
    ...overrides,
  };
}

describe('deriveClaim', () => {
  it('derives nothing from no lines', () => {
    expect(deriveClaim([], ctx)).toEqual({
      total: '0.00',
      original_currency: null,
      original_total: null,
      multiple_currencies: false,
      merchant: null,
      category_ids: [],
      project_names: [],
    });
  });

  it('derives nothing but a zero total when every line is withdrawn', () => {
    const lines = [
      line({ line_no: 1, withdrawn: true, currency: 'USD', amount: '5', base_amount: '22', supplier_name: 'Grab', category_id: 'cat-taxi', shares: [{ analytic_account_id: 'acc-proj-alpha', percentage: '100' }] }),
      line({ line_no: 2, withdrawn: true, currency: 'SGD', amount: '5', base_amount: '17' }),
    ];
    expect(deriveClaim(lines, ctx)).toEqual({
      total: '0.00',
      original_currency: null,
      original_total: null,
      multiple_currencies: false,
      merchant: null,
      category_ids: [],
      project_names: [],
    });
  });

  it('handles lines of every kind in mixed order, excluding withdrawn lines from everything', () => {
    const lines: ClaimLineInput[] = [
      // per-diem line: no supplier
      line({ line_no: 4, currency: 'MYR', amount: '100.00', base_amount: '100.00', category_id: 'cat-perdiem', supplier_name: null,
        shares: [{ analytic_account_id: 'acc-proj-mid', percentage: '100' }] }),
      // withdrawn receipt: would otherwise be the merchant, a category, a project and a currency
      line({ line_no: 1, withdrawn: true, currency: 'USD', amount: '99.99', base_amount: '470.00', category_id: 'cat-withdrawn', supplier_name: 'Withdrawn Supplier',
        shares: [{ analytic_account_id: 'acc-proj-zeta', percentage: '100' }] }),
      // mileage line: blank supplier, split between a project and a non-project account
      line({ line_no: 3, currency: 'MYR', amount: '34.10', base_amount: '34.10', category_id: 'cat-mileage', supplier_name: '   ',
        shares: [
          { analytic_account_id: 'acc-dept-finance', percentage: '50' },
          { analytic_account_id: 'acc-proj-alpha', percentage: '50' },
        ] }),
      // receipt line naming a supplier
      line({ line_no: 2, currency: 'MYR', amount: '1100.47', base_amount: '1100.47', category_id: 'cat-meals', supplier_name: 'Restoran Nasi Kandar',
        shares: [] }),
      // another receipt, same category as line 2
      line({ line_no: 5, currency: 'MYR', amount: '0.00', base_amount: '0.00', category_id: 'cat-meals', supplier_name: 'Later Supplier' }),
    ];
    expect(deriveClaim(lines, ctx)).toEqual({
      total: '1234.57',
      original_currency: null,
      original_total: null,
      multiple_currencies: false,
      merchant: 'Restoran Nasi Kandar',
      category_ids: ['cat-meals', 'cat-mileage', 'cat-perdiem'],
      project_names: ['Alpha Bridge', 'Mid Valley'],
    });
  });

  it('sums exactly, without binary floating point error', () => {
    const lines = [
      line({ line_no: 1, base_amount: '0.1' }),
      line({ line_no: 2, base_amount: '0.2' }),
      line({ line_no: 3, base_amount: '1234.27' }),
    ];
    expect(deriveClaim(lines, ctx).total).toBe('1234.57');
  });

  it('formats the total to the base currency minor units, rounding half up', () => {
    expect(deriveClaim([line({ line_no: 1, base_amount: '1234.565' })], ctx).total).toBe('1234.57');
    expect(deriveClaim([line({ line_no: 1, base_amount: '7' })], ctx).total).toBe('7.00');
    expect(deriveClaim([line({ line_no: 1, base_amount: '7' })], { ...ctx, baseCurrency: 'BHD' }).total).toBe('7.000');
    expect(deriveClaim([line({ line_no: 1, base_amount: '123456789012345678.99' }), line({ line_no: 2, base_amount: '0.01' })], ctx).total)
      .toBe('123456789012345679.00');
  });

  it('never reports a negative zero total', () => {
    const lines = [line({ line_no: 1, base_amount: '10.00' }), line({ line_no: 2, base_amount: '-10.004' })];
    expect(deriveClaim(lines, ctx).total).toBe('0.00');
  });

  it('reports several currencies with no original currency', () => {
    const lines = [
      line({ line_no: 1, currency: 'USD', amount: '10.00', base_amount: '47.10' }),
      line({ line_no: 2, currency: 'SGD', amount: '20.00', base_amount: '70.00' }),
      line({ line_no: 3, currency: 'MYR', amount: '5.00', base_amount: '5.00' }),
    ];
    const d = deriveClaim(lines, ctx);
    expect(d.multiple_currencies).toBe(true);
    expect(d.original_currency).toBeNull();
    expect(d.original_total).toBeNull();
    expect(d.total).toBe('122.10');
  });

  it('counts a foreign currency and base currency as several currencies', () => {
    const d = deriveClaim([line({ line_no: 1, currency: 'USD', amount: '1', base_amount: '4.7' }), line({ line_no: 2 })], ctx);
    expect(d.multiple_currencies).toBe(true);
    expect(d.original_currency).toBeNull();
  });

  it('ignores the currency of withdrawn lines', () => {
    const lines = [
      line({ line_no: 1, currency: 'USD', amount: '10.00', base_amount: '47.10' }),
      line({ line_no: 2, withdrawn: true, currency: 'SGD', amount: '20.00', base_amount: '70.00' }),
      line({ line_no: 3, withdrawn: true, currency: 'MYR' }),
    ];
    const d = deriveClaim(lines, ctx);
    expect(d.multiple_currencies).toBe(false);
    expect(d.original_currency).toBe('USD');
    expect(d.original_total).toBe('10.00');
    expect(d.total).toBe('47.10');
  });

  it('reports the original total when all active lines are in one foreign currency', () => {
    const lines = [
      line({ line_no: 2, currency: 'USD', amount: '12.345', base_amount: '58.15' }),
      line({ line_no: 1, currency: 'USD', amount: '0.1', base_amount: '0.47' }),
    ];
    expect(deriveClaim(lines, ctx)).toMatchObject({
      total: '58.62',
      original_currency: 'USD',
      original_total: '12.45', // 12.445 rounded half up
      multiple_currencies: false,
    });
  });

  it('formats a JPY original total with 0 places', () => {
    const lines = [
      line({ line_no: 1, currency: 'JPY', amount: '1500', base_amount: '45.30' }),
      line({ line_no: 2, currency: 'JPY', amount: '2300.5', base_amount: '69.47' }),
    ];
    expect(deriveClaim(lines, ctx)).toMatchObject({
      total: '114.77',
      original_currency: 'JPY',
      original_total: '3801',
      multiple_currencies: false,
    });
  });

  it('has no original currency when all active lines are in the base currency', () => {
    const lines = [line({ line_no: 1, amount: '1.50', base_amount: '1.50' }), line({ line_no: 2, amount: '2.25', base_amount: '2.25' })];
    expect(deriveClaim(lines, ctx)).toMatchObject({
      total: '3.75',
      original_currency: null,
      original_total: null,
      multiple_currencies: false,
    });
  });

  it('takes the merchant from the first active line naming a non-blank supplier', () => {
    const lines = [
      line({ line_no: 5, supplier_name: 'Fifth' }),
      line({ line_no: 1, supplier_name: 'Withdrawn', withdrawn: true }),
      line({ line_no: 2, supplier_name: '' }),
      line({ line_no: 3, supplier_name: ' \t ' }),
      line({ line_no: 4, supplier_name: 'Kedai Runcit Ah Seng' }),
    ];
    expect(deriveClaim(lines, ctx).merchant).toBe('Kedai Runcit Ah Seng');
  });

  it('has no merchant when no active line names a supplier', () => {
    const lines = [line({ line_no: 1, supplier_name: null }), line({ line_no: 2, supplier_name: 'W', withdrawn: true }), line({ line_no: 3, supplier_name: '  ' })];
    expect(deriveClaim(lines, ctx).merchant).toBeNull();
  });

  it('lists distinct categories in order of first line', () => {
    const lines = [
      line({ line_no: 30, category_id: 'cat-a' }),
      line({ line_no: 10, category_id: 'cat-c' }),
      line({ line_no: 20, category_id: 'cat-a' }),
      line({ line_no: 15, category_id: 'cat-w', withdrawn: true }),
      line({ line_no: 40, category_id: 'cat-b' }),
      line({ line_no: 50, category_id: 'cat-c' }),
    ];
    expect(deriveClaim(lines, ctx).category_ids).toEqual(['cat-c', 'cat-a', 'cat-b']);
  });

  it('lists project names by first line, then by name within a line, without repeats', () => {
    const share = (id: string) => ({ analytic_account_id: id, percentage: '25' });
    const lines = [
      line({ line_no: 3, shares: [share('acc-proj-alpha'), share('acc-proj-zeta')] }),
      line({ line_no: 1, shares: [share('acc-proj-zeta'), share('acc-dept-hr'), share('acc-proj-mid')] }),
      line({ line_no: 2, shares: [share('acc-proj-mid')] }),
      line({ line_no: 0, withdrawn: true, shares: [share('acc-proj-alpha')] }),
    ];
    // line 1: Mid Valley, Zeta Tower (by name; HR is not on the project axis); line 3 adds Alpha Bridge
    expect(deriveClaim(lines, ctx).project_names).toEqual(['Mid Valley', 'Zeta Tower', 'Alpha Bridge']);
  });

  it('lists no project names when shares name only other axes', () => {
    const lines = [line({ line_no: 1, shares: [{ analytic_account_id: 'acc-dept-hr', percentage: '100' }] })];
    expect(deriveClaim(lines, ctx).project_names).toEqual([]);
  });

  it('does not mutate its input', () => {
    const lines = [line({ line_no: 2 }), line({ line_no: 1 })];
    const copy = structuredClone(lines);
    deriveClaim(lines, ctx);
    expect(lines).toEqual(copy);
  });
});

describe('possibleDuplicates', () => {
  const SHA_A = 'a'.repeat(64);
  const SHA_B = 'b'.repeat(64);
  const SHA_C = 'c'.repeat(64);
  const CURRENT = 'claim-current';

  function row(overrides: Partial<OtherClaimHashRow> & { claim_id: string }): OtherClaimHashRow {
    return {
      sha256: SHA_A,
      claim_reference: `EXP-${overrides.claim_id}`,
      claim_state_semantic: 'pending',
      claim_created_at: new Date('2026-01-01T00:00:00Z'),
      line_active: true,
      caller_may_read: true,
      ...overrides,
    };
  }

  it('flags matches against claims that left draft and are not rejected or cancelled', () => {
    const rows: OtherClaimHashRow[] = [
      row({ claim_id: 'draft', claim_reference: 'EXP-0001', claim_state_semantic: 'draft' }),
      row({ claim_id: 'pending', claim_reference: 'EXP-0002', claim_state_semantic: 'pending', claim_created_at: new Date('2026-01-02T00:00:00Z') }),
      row({ claim_id: 'committed', claim_reference: 'EXP-0003', claim_state_semantic: 'committed', claim_created_at: new Date('2026-01-03T00:00:00Z') }),
      row({ claim_id: 'payout', claim_reference: 'EXP-0004', claim_state_semantic: 'payout', claim_created_at: new Date('2026-01-04T00:00:00Z') }),
      row({ claim_id: 'rejected', claim_reference: 'EXP-0005', claim_state_semantic: 'rejected' }),
      row({ claim_id: 'cancelled', claim_reference: 'EXP-0006', claim_state_semantic: 'cancelled' }),
    ];
    const r = possibleDuplicates([{ line_no: 1, sha256s: [SHA_A] }], rows, CURRENT);
    expect(r.get(1)).toEqual({ possible_duplicate: true, duplicate_claim_references: ['EXP-0002', 'EXP-0003', 'EXP-0004'] });
  });

  it.each(['draft', 'rejected', 'cancelled'])('does not flag a match against a %s claim', (semantic) => {
    const r = possibleDuplicates([{ line_no: 1, sha256s: [SHA_A] }], [row({ claim_id: 'x', claim_state_semantic: semantic })], CURRENT);
    expect(r.get(1)).toEqual({ possible_duplicate: false, duplicate_claim_references: [] });
  });

  it.each(['pending', 'committed', 'payout'])('flags a match against a %s claim', (semantic) => {
    const r = possibleDuplicates([{ line_no: 1, sha256s: [SHA_A] }], [row({ claim_id: 'x', claim_reference: 'EXP-9', claim_state_semantic: semantic })], CURRENT);
    expect(r.get(1)).toEqual({ possible_duplicate: true, duplicate_claim_references: ['EXP-9'] });
  });

  it('ignores documents on withdrawn lines of other claims', () => {
    const r = possibleDuplicates([{ line_no: 1, sha256s: [SHA_A] }], [row({ claim_id: 'x', line_active: false })], CURRENT);
    expect(r.get(1)).toEqual({ possible_duplicate: false, duplicate_claim_references: [] });
  });

  it('excludes rows of the same claim', () => {
    const r = possibleDuplicates(
      [{ line_no: 1, sha256s: [SHA_A] }, { line_no: 2, sha256s: [SHA_A] }],
      [row({ claim_id: CURRENT, claim_state_semantic: 'committed' })],
      CURRENT,
    );
    expect(r.get(1)).toEqual({ possible_duplicate: false, duplicate_claim_references: [] });
    expect(r.get(2)).toEqual({ possible_duplicate: false, duplicate_claim_references: [] });
  });

  it('flags but hides the reference of a claim the caller may not read', () => {
    const r = possibleDuplicates(
      [{ line_no: 1, sha256s: [SHA_A] }, { line_no: 2, sha256s: [SHA_B] }],
      [
        row({ claim_id: 'hidden', sha256: SHA_A, claim_reference: 'EXP-SECRET', caller_may_read: false }),
        row({ claim_id: 'hidden', sha256: SHA_B, claim_reference: 'EXP-SECRET', caller_may_read: false }),
        row({ claim_id: 'visible', sha256: SHA_B, claim_reference: 'EXP-OPEN' }),
      ],
      CURRENT,
    );
    expect(r.get(1)).toEqual({ possible_duplicate: true, duplicate_claim_references: [] });
    expect(r.get(2)).toEqual({ possible_duplicate: true, duplicate_claim_references: ['EXP-OPEN'] });
  });

  it('lists distinct references in filing order (created_at, then reference)', () => {
    const r = possibleDuplicates(
      [{ line_no: 7, sha256s: [SHA_A, SHA_B, SHA_C] }],
      [
        row({ claim_id: 'c3', sha256: SHA_A, claim_reference: 'EXP-0300', claim_created_at: '2026-03-01T00:00:00Z' }),
        row({ claim_id: 'c1b', sha256: SHA_B, claim_reference: 'EXP-0102', claim_created_at: new Date('2026-01-01T00:00:00Z') }),
        row({ claim_id: 'c1a', sha256: SHA_C, claim_reference: 'EXP-0101', claim_created_at: new Date('2026-01-01T00:00:00Z') }),
        row({ claim_id: 'c3', sha256: SHA_B, claim_reference: 'EXP-0300', claim_created_at: '2026-03-01T00:00:00Z' }),
        row({ claim_id: 'c2', sha256: SHA_C, claim_reference: 'EXP-0200', claim_created_at: new Date('2026-02-01T00:00:00Z') }),
      ],
      CURRENT,
    );
    expect(r.get(7)).toEqual({ possible_duplicate: true, duplicate_claim_references: ['EXP-0101', 'EXP-0102', 'EXP-0200', 'EXP-0300'] });
  });

  it('answers every line, including lines with no documents, and compares hashes case-insensitively', () => {
    const r = possibleDuplicates(
      [{ line_no: 1, sha256s: [] }, { line_no: 2, sha256s: [SHA_A.toUpperCase()] }, { line_no: 3, sha256s: [SHA_C] }],
      [row({ claim_id: 'x', claim_reference: 'EXP-X' })],
      CURRENT,
    );
    expect([...r.keys()]).toEqual([1, 2, 3]);
    expect(r.get(1)).toEqual({ possible_duplicate: false, duplicate_claim_references: [] });
    expect(r.get(2)).toEqual({ possible_duplicate: true, duplicate_claim_references: ['EXP-X'] });
    expect(r.get(3)).toEqual({ possible_duplicate: false, duplicate_claim_references: [] });
  });
});
