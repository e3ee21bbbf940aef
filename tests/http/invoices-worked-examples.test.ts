import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Dec, formatAmount, minorUnits } from '../../src/lib/money';
import { createTestCustomer } from '../factories/customer';
import { createTestOrganization } from '../factories/organization';
import { createReceivablesSetup, issueTestDocument } from '../factories/receivables';
import { useTestApp } from '../helpers/app';
import { httpHelpers } from '../helpers/http';
import { expectProblem } from '../helpers/problem';

const t = useTestApp();
const { post, get } = httpHelpers(t);
const URL = '/v1/receivables/invoices';

async function world() {
  const org = await createTestOrganization(t.db);
  const ref = await createReceivablesSetup(t.db, org.id);
  const customer = await createTestCustomer(t.db, org.id);
  return { org, ref, customer };
}

const totalsOf = (d: any) => [d.net_total, d.tax_total, d.gross_amount, d.gross_base, d.outstanding, d.outstanding_base];
const lineAmounts = (l: any) => [l.net_amount, l.tax_amount, l.net_base, l.tax_base];

describe('worked examples, to the sen', () => {
  it('MYR with SST service tax 8% and a line discount, beside a sales tax 10% line', async () => {
    const w = await world();
    const res = await post(URL, {
      kind: 'sales_invoice',
      customer_id: w.customer.id,
      lines: [
        // 3 × 120.50 = 361.50 − 10.00 = 351.50; 8% = 28.12
        { account_id: w.ref.services.id, description: 'Installation', quantity: '3', unit_price: '120.50', discount_amount: '10.00', tax_code_id: w.ref.sv8.id, unit_code: 'HUR' },
        // 2.5 × 45.99 = 114.975 → 114.98; 10% = 11.498 → 11.50
        { account_id: w.ref.revenue.id, description: 'Cable', quantity: '2.5', unit_price: '45.99', tax_code_id: w.ref.st10.id, unit_code: 'MTR', classification_code: '001' },
      ],
    }, w.org.owner.apiKey);
    expect(res.statusCode, res.body).toBe(201);
    const d = res.json();
    expect(d.lines.map(lineAmounts)).toEqual([
      ['351.50', '28.12', '351.50', '28.12'],
      ['114.98', '11.50', '114.98', '11.50'],
    ]);
    expect(d.lines.map((l: any) => [l.tax_code, l.tax_rate, l.discount_amount, l.quantity, l.unit_code, l.classification_code])).toEqual([
      ['SV8', '8', '10.00', '3', 'HUR', '022'],
      ['ST10', '10', '0.00', '2.5', 'MTR', '001'],
    ]);
    expect(totalsOf(d)).toEqual(['466.48', '39.62', '506.10', '506.10', '506.10', '506.10']);
  });

  it('USD at fx_rate 4.4712: base amounts per line, gross_base the sum of them', async () => {
    const w = await world();
    const res = await post(URL, {
      kind: 'sales_invoice',
      customer_id: w.customer.id,
      currency: 'USD',
      fx_rate: '4.47120',
      lines: [
        // 10 × 99.99 = 999.90; 8% = 79.992 → 79.99; × 4.4712: 4470.752888 → 4470.75, 357.651288 → 357.65
        { account_id: w.ref.services.id, description: 'Support', quantity: '10', unit_price: '99.99', tax_code_id: w.ref.sv8.id },
        // 0.05; 8% = 0.004 → 0.00; × 4.4712 = 0.22356 → 0.22
        { account_id: w.ref.services.id, description: 'Rounding probe', quantity: '1', unit_price: '0.05', tax_code_id: w.ref.sv8.id },
      ],
    }, w.org.owner.apiKey);
    expect(res.statusCode, res.body).toBe(201);
    const d = res.json();
    expect(d.fx_rate).toBe('4.4712');
    expect(d.lines.map(lineAmounts)).toEqual([
      ['999.90', '79.99', '4470.75', '357.65'],
      ['0.05', '0.00', '0.22', '0.00'],
    ]);
    // gross_base = Σ(net_base + tax_base) = 4828.62, not round(1079.94 × 4.4712) = 4828.63.
    expect(totalsOf(d)).toEqual(['999.95', '79.99', '1079.94', '4828.62', '1079.94', '4828.62']);
  });

  it('JPY has no minor units: amounts without decimals, a unit price of more than 6 places refused', async () => {
    const w = await world();
    const body = (unit_price: string) => ({
      kind: 'sales_invoice',
      customer_id: w.customer.id,
      currency: 'JPY',
      fx_rate: '0.0312',
      // 3 × 1999 = 5997 − 100 = 5897; 8% = 471.76 → 472; base 183.9864 → 183.99, 14.7264 → 14.73
      lines: [{ account_id: w.ref.services.id, description: 'Licence', quantity: '3', unit_price, discount_amount: '100', tax_code_id: w.ref.sv8.id }],
    });
    const res = await post(URL, body('1999'), w.org.owner.apiKey);
    expect(res.statusCode, res.body).toBe(201);
    const d = res.json();
    expect(d.lines.map((l: any) => [l.unit_price, l.discount_amount, ...lineAmounts(l)])).toEqual([['1999', '100', '5897', '472', '183.99', '14.73']]);
    expect(totalsOf(d)).toEqual(['5897', '472', '6369', '198.72', '6369', '198.72']);
    const p = expectProblem(await post(URL, body('1999.5000001'), w.org.owner.apiKey), 422, 'validation');
    expect(p.errors).toEqual([{ pointer: '/lines/0/unit_price', detail: 'must have at most 6 decimal places' }]);
  });

  it('an exempt line carries its reason and no tax', async () => {
    const w = await world();
    const reason = 'Exempted under the Service Tax (Persons Exempted from Payment of Tax) Order 2018';
    const res = await post(URL, {
      kind: 'sales_invoice',
      customer_id: w.customer.id,
      lines: [
        { account_id: w.ref.services.id, description: 'Training for a statutory body', quantity: '1', unit_price: '2500.00', tax_code_id: w.ref.exempt.id, tax_exemption_reason: reason },
        { account_id: w.ref.revenue.id, description: 'Printed manuals', quantity: '20', unit_price: '12.35', tax_code_id: w.ref.na.id },
      ],
    }, w.org.owner.apiKey);
    expect(res.statusCode, res.body).toBe(201);
    const d = res.json();
    expect(d.lines[0]).toMatchObject({ tax_code: 'EX', tax_rate: '0', tax_amount: '0.00', net_amount: '2500.00', tax_exemption_reason: reason });
    expect(d.lines[1]).toMatchObject({ tax_code: 'NA', tax_rate: '0', tax_amount: '0.00', net_amount: '247.00', tax_exemption_reason: null });
    expect(totalsOf(d)).toEqual(['2747.00', '0.00', '2747.00', '2747.00', '2747.00', '2747.00']);
  });

  it('a credit note against an issued invoice, capped by what credit notes already took', async () => {
    const w = await world();
    const inv = (
      await post(URL, {
        kind: 'sales_invoice',
        customer_id: w.customer.id,
        lines: [{ account_id: w.ref.services.id, description: 'Installation', quantity: '3', unit_price: '120.50', discount_amount: '10.00', tax_code_id: w.ref.sv8.id }],
      }, w.org.owner.apiKey)
    ).json();
    await issueTestDocument(t.db, w.org.id, inv.id, w.org.owner.id);
    const credit = (unit_price: string, reason = 'One hour not delivered') => ({
      kind: 'customer_credit_note',
      customer_id: w.customer.id,
      reason,
      original_invoice_id: inv.id,
      lines: [{ account_id: w.ref.services.id, description: 'Installation, credited', quantity: '1', unit_price, tax_code_id: w.ref.sv8.id }],
    });
    // 100.00 + 8% = 108.00
    const cn = await post(URL, credit('100.00'), w.org.owner.apiKey);
    expect(cn.statusCode, cn.body).toBe(201);
    expect(cn.json()).toMatchObject({ kind: 'customer_credit_note', reason: 'One hour not delivered', original_invoice_id: inv.id, semantic: 'draft', reference: null });
    expect(totalsOf(cn.json())).toEqual(['100.00', '8.00', '108.00', '108.00', '108.00', '108.00']);
    await issueTestDocument(t.db, w.org.id, cn.json().id, w.org.owner.id);
    expect((await get(`${URL}/${cn.json().id}`, w.org.owner.apiKey)).json().reference).toMatch(/^CN-\d{4}-00001$/);

    // 379.62 − 108.00 = 271.62 left: 251.50 + 8% = 271.62 passes, 251.51 (271.63) does not.
    const over = expectProblem(await post(URL, credit('251.51'), w.org.owner.apiKey), 422, 'validation');
    expect(over.errors).toEqual([{ pointer: '/lines', detail: expect.stringContaining('(271.62)') }]);
    expect((await post(URL, credit('251.50'), w.org.owner.apiKey)).statusCode).toBe(201);
  });

  it('a debit note, with and without the invoice it adds to', async () => {
    const w = await world();
    const res = await post(URL, {
      kind: 'customer_debit_note',
      customer_id: w.customer.id,
      reason: 'Freight charged after delivery',
      lines: [{ account_id: w.ref.revenue.id, description: 'Freight', quantity: '1', unit_price: '85.00', tax_code_id: w.ref.st10.id }],
    }, w.org.owner.apiKey);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ kind: 'customer_debit_note', semantic: 'draft', reason: 'Freight charged after delivery', original_invoice_id: null });
    expect(totalsOf(res.json())).toEqual(['85.00', '8.50', '93.50', '93.50', '93.50', '93.50']);
  });
});

const CURRENCIES = [
  { currency: 'MYR', fx: '1' },
  { currency: 'USD', fx: '4.4712' },
  { currency: 'JPY', fx: '0.0312' },
  { currency: 'KWD', fx: '15.123456' },
];

describe('pricing properties through the HTTP answer', () => {
  it('gross = net + tax, totals = Σ formatted lines, base = line × fx_rate, minor units exact', async () => {
    const w = await world();
    const taxIds = [w.ref.sv8.id, w.ref.st10.id, w.ref.na.id];
    const lineArb = (mu: number) =>
      fc
        .record({
          qtyUnits: fc.integer({ min: 1, max: 100_000 }),
          qtyScale: fc.integer({ min: 0, max: 3 }),
          priceUnits: fc.integer({ min: 0, max: 10_000_000 }),
          discountShare: fc.integer({ min: 0, max: 100 }),
          tax: fc.integer({ min: 0, max: taxIds.length - 1 }),
        })
        .map((r) => {
          const quantity = new Dec(r.qtyUnits).div(new Dec(10).pow(r.qtyScale)).toFixed();
          const unit_price = new Dec(r.priceUnits).div(new Dec(10).pow(mu)).toFixed(mu);
          const extended = new Dec(quantity).times(unit_price).toDecimalPlaces(mu, Dec.ROUND_DOWN);
          const discount_amount = extended.times(r.discountShare).div(100).toDecimalPlaces(mu, Dec.ROUND_DOWN).toFixed(mu);
          return { account_id: w.ref.revenue.id, description: 'Item', quantity, unit_price, discount_amount, tax_code_id: taxIds[r.tax]! };
        });
    const docArb = fc.constantFrom(...CURRENCIES).chain((c) => fc.record({ c: fc.constant(c), lines: fc.array(lineArb(minorUnits(c.currency)), { minLength: 1, maxLength: 6 }) }));

    await fc.assert(
      fc.asyncProperty(docArb, async ({ c, lines }) => {
        const res = await post(URL, { kind: 'sales_invoice', customer_id: w.customer.id, currency: c.currency, fx_rate: c.fx, lines }, w.org.owner.apiKey);
        expect(res.statusCode, res.body).toBe(201);
        const d = res.json();
        const mu = minorUnits(c.currency);
        const exact = (s: string, places: number) => expect(s).toMatch(places === 0 ? /^-?\d+$/ : new RegExp(`^-?\\d+\\.\\d{${places}}$`));
        for (const s of [d.net_total, d.tax_total, d.gross_amount, d.outstanding]) exact(s, mu);
        for (const s of [d.gross_base, d.outstanding_base]) exact(s, 2);
        const sum = (xs: string[]) => xs.reduce((a, x) => a.plus(x), new Dec(0));
        expect(new Dec(d.gross_amount).eq(new Dec(d.net_total).plus(d.tax_total))).toBe(true);
        expect(new Dec(d.net_total).eq(sum(d.lines.map((l: any) => l.net_amount)))).toBe(true);
        expect(new Dec(d.tax_total).eq(sum(d.lines.map((l: any) => l.tax_amount)))).toBe(true);
        expect(new Dec(d.gross_base).eq(sum(d.lines.flatMap((l: any) => [l.net_base, l.tax_base])))).toBe(true);
        for (const l of d.lines) {
          for (const s of [l.net_amount, l.tax_amount, l.unit_price, l.discount_amount]) exact(s, mu);
          exact(l.net_base, 2);
          exact(l.tax_base, 2);
          expect(l.net_base).toBe(formatAmount(new Dec(l.net_amount).times(c.fx), 'MYR'));
          expect(l.tax_base).toBe(formatAmount(new Dec(l.tax_amount).times(c.fx), 'MYR'));
          expect(l.tax_amount).toBe(formatAmount(new Dec(l.net_amount).times(l.tax_rate).div(100), c.currency));
        }
      }),
      { numRuns: 25 },
    );
  }, 120_000);
});
