import { describe, expect, it } from 'vitest';
import { queryRows, sql } from '../../src/db/client';
import { isCountryCode } from '../../src/lib/code-lists';
import { useTestApp } from '../helpers/app';
import { demoOnce } from '../helpers/demo';
import { httpHelpers } from '../helpers/http';

const t = useTestApp();
const { get } = httpHelpers(t);
// Both tests read the demo: one seeding serves them.
const seeded = demoOnce(t);

const expectAlpha2 = (code: unknown, where: string) => {
  expect(typeof code, where).toBe('string');
  expect(isCountryCode(code as string), `${where}: ${String(code)}`).toBe(true);
};

describe('demo data set: receivables', () => {
  it('gives every organization reference data and documents whose every field has a real example', async () => {
    const data = await seeded();
    const [acme, borneo, solo] = data.organizations as any[];
    for (const org of [acme, borneo, solo]) {
      // The SST codes every organization is created with (data/default-tax-codes.json); the demo adds none.
      expect(org.tax_codes.map((c: any) => [c.code, c.rate, c.tax_type])).toEqual(
        expect.arrayContaining([
          ['SV-8', '8', '02'],
          ['SV-6', '6', '02'],
          ['ST-10', '10', '01'],
          ['ST-5', '5', '01'],
          ['EXEMPT', '0', 'E'],
          ['NOT-APPLICABLE', '0', '06'],
        ]),
      );
      expect(org.tax_codes).toHaveLength(6);
      expect(org.projects).toHaveLength(2);
      expect(org.invoices.length).toBeGreaterThanOrEqual(5);
    }
    const owner = acme.members.find((m: any) => m.role === 'owner');
    const docs = await Promise.all(acme.invoices.map(async (d: any) => (await get(`/v1/receivables/invoices/${d.id}`, owner.api_key)).json()));
    const kinds = new Set(docs.map((d) => d.kind));
    expect(kinds).toEqual(new Set(['sales_invoice', 'customer_credit_note', 'customer_debit_note']));
    const issued = docs.filter((d) => d.semantic === 'accrual');
    expect(issued.length).toBe(3);
    for (const d of issued) {
      expect(d.reference).toEqual(expect.any(String));
      expect(d.buyer).not.toBeNull();
      expect(d.seller).toMatchObject({ name: 'Acme Trading Sdn Bhd', tin: 'C20880050010' });
      // The issue, then one entry per allocation or reversal touching the document (docs/design.md §16).
      expect(d.timeline.filter((e: any) => e.action_key === 'issue')).toHaveLength(1);
      expect(d.timeline.length).toBe(1 + d.allocations.length);
    }
    const allocations = docs.flatMap((d) => d.allocations);
    expect(allocations.some((a) => a.source_kind === 'credit_note')).toBe(true);
    expect(allocations.some((a) => a.reversed_by_id)).toBe(true);
    const inv1 = docs.find((d) => d.customer_reference === 'PO-7702');
    expect(inv1).toMatchObject({ gross_amount: '1423.00', outstanding: '870.75', multiple_projects: true, project: null });
    // Lines on the default chart and SST codes: sales revenue at sales tax 10%, service revenue at service tax 8%.
    const accountCode = (id: string) => acme.accounts.find((a: any) => a.id === id)?.code;
    expect(inv1.lines.map((l: any) => [accountCode(l.account_id), l.tax_code, l.tax_rate])).toEqual([
      ['4010', 'ST-10', '10'],
      ['4020', 'SV-8', '8'],
    ]);
    // Issued by the accountant (not the clerk who prepared them), through receivables.invoices.transition.
    const accountant = acme.members.find((m: any) => m.role === 'accountant');
    for (const d of issued) {
      expect(d.timeline.find((e: any) => e.action_key === 'issue')).toMatchObject({ actor_member_id: accountant.id, from: 'draft', to: 'issued' });
      expect(d.prepared_by).not.toBe(accountant.id);
    }
    // The receipts are readable over REST, as the receipts operations made them.
    const receipts = (await get('/v1/receivables/receipts?sort=created_at&order=asc', owner.api_key)).json().receipts;
    expect(receipts.map((r: any) => [r.reference, r.amount, r.allocated, r.unallocated])).toEqual([
      ['OR-0001', '500.00', '500.00', '0.00'],
      ['OR-0002', '2747.00', '1000.00', '1747.00'],
    ]);
    expect(receipts[1].allocations.map((a: any) => [a.amount, Boolean(a.reverses_id), Boolean(a.reversed_by_id)])).toEqual([
      ['2747.00', false, true],
      // The reversal is written as the negative of what it reverses.
      ['-2747.00', true, false],
      ['1000.00', false, false],
    ]);
    const draft = docs.find((d) => d.customer_reference === 'PO-7781');
    expect(draft).toMatchObject({ semantic: 'draft', attachment_ids: [expect.any(String)], project: { code: 'P-KLCC' }, custom_fields: { po_number: 'PO-7781' } });
    expect(docs.some((d) => d.currency === 'USD' && d.fx_rate === '4.4712')).toBe(true);

    // The sole owner's organization: issued under the sole-owner exception, with its reason.
    const soloOwner = solo.members[0];
    const soloIssued = (await Promise.all(solo.invoices.map(async (d: any) => (await get(`/v1/receivables/invoices/${d.id}`, soloOwner.api_key)).json()))).find(
      (d: any) => d.semantic === 'accrual',
    );
    expect(soloIssued.timeline.find((e: any) => e.action_key === 'issue').reason).toMatch(/Sole owner/);
  });

  // Country codes are ISO 3166-1 alpha-2 everywhere (tests/http/country-codes.test.ts), the demo's documents included.
  it("every issued document of the demo: buyer and seller alpha-2, the demo seller's MY included", async () => {
    const data = await seeded();
    let issued = 0;
    for (const org of data.organizations as any[]) {
      const owner = org.members.find((m: any) => m.role === 'owner' && m.active !== false);
      for (const summary of org.invoices as any[]) {
        const doc = (await get(`/v1/receivables/invoices/${summary.id}`, owner.api_key)).json();
        if (doc.reference === null) {
          expect(doc.buyer).toBeNull();
          continue;
        }
        issued += 1;
        expectAlpha2(doc.buyer.address.country_code, `${doc.reference} buyer`);
        expectAlpha2(doc.seller.address.country_code, `${doc.reference} seller`);
      }
      for (const c of org.customers as any[]) {
        expectAlpha2((await get(`/v1/receivables/customers/${c.id}`, owner.api_key)).json().country_code, `customer ${c.code}`);
      }
    }
    expect(issued).toBeGreaterThanOrEqual(5);
    const acme = (data.organizations as any[])[0];
    const rows = await queryRows<{ code: string | null }>(t.db, sql`select seller #>> '{address,country_code}' as code from organizations where id = ${acme.id}`);
    expect(rows[0]!.code).toBe('MY');
  });
});
