import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { claimLines } from '../../src/db/schema';
import { createMileageRate } from '../factories/setup';
import { createTaxCode } from '../factories/setup';
import { createTestMember } from '../factories/organization';
import { useTestApp } from '../helpers/app';
import { expectProblem } from '../helpers/problem';
import { claimLinesKit, receipt } from './claim-lines-kit';

const t = useTestApp();
const { add, patch, withdraw, fileClaim, setup, referenceRate, transition } = claimLinesKit(t);

type Line = Record<string, any>;
const lastLine = (body: { lines: Line[] }) => body.lines.at(-1)!;

describe('POST /v1/expenses/claims/{id}/lines: a receipt in the base currency', () => {
  it('201 with the whole claim, Location of the claim and ETag "2"; SST borne backed out of the gross (108.00 at 8% → 8.00), never recovered', async () => {
    const { org, employee, ref } = await setup();
    const sst8 = await createTaxCode(t.db, org.id, { code: 'SV8', rate: '8', taxType: '02' });
    const filed = await fileClaim(employee.apiKey);
    const res = await add(employee.apiKey, filed.claim.id, 1, receipt(ref.meals.id, { tax_code_id: sst8.id, supplier_name: 'Nasi Kandar Line Clear', supplier_tin: 'IG20000000001' }));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers.etag).toBe('"2"');
    expect(res.headers.location).toBe(`/v1/expenses/claims/${filed.claim.id}`);
    const body = res.json();
    expect(body.claim).toMatchObject({ revision: 2, total: '108.00', original_currency: null, original_total: null, multiple_currencies: false, merchant: 'Nasi Kandar Line Clear', category_ids: [ref.meals.id] });
    expect(body.lines).toEqual([
      {
        id: expect.any(String),
        line_no: 1,
        type: 'receipt',
        withdrawn: false,
        expense_date: '2026-04-08',
        category_id: ref.meals.id,
        description: 'Lunch with the client',
        currency: 'MYR',
        amount: '108.00',
        base_amount: '108.00',
        fx_rate: '1',
        fx_rate_source: 'identity',
        reimbursement_basis: 'expense_date_rate',
        quantity: '1',
        rate_id: null,
        band: null,
        tax_amount: '8.00',
        tax_code_id: sst8.id,
        supplier_name: 'Nasi Kandar Line Clear',
        supplier_tin: 'IG20000000001',
        document_basis: 'relaxation_receipt',
        einvoice_uuid: null,
        einvoice_validated_at: null,
        relaxation_reason: 'Hawker stall, no e-invoice',
        documents: [],
        possible_duplicate: false,
        duplicate_claim_references: [],
        shares: [],
      },
    ]);
  });

  it('a given tax_amount wins over the code; 6% on 106.00 backs out 6.00; no code and no tax_amount is 0', async () => {
    const { employee, ref } = await setup();
    const filed = await fileClaim(employee.apiKey);
    const a = await add(employee.apiKey, filed.claim.id, 1, receipt(ref.meals.id, { amount: '106.00', tax_code_id: ref.serviceTax.id }));
    expect(lastLine(a.json()).tax_amount).toBe('6.00');
    const b = await add(employee.apiKey, filed.claim.id, 2, receipt(ref.meals.id, { amount: '50.00', tax_code_id: ref.serviceTax.id, tax_amount: '2.50' }));
    expect(lastLine(b.json()).tax_amount).toBe('2.50');
    const c = await add(employee.apiKey, filed.claim.id, 3, receipt(ref.meals.id, { amount: '10.00' }));
    expect(lastLine(c.json()).tax_amount).toBe('0.00');
    // Borne, not recovered: the total is the gross.
    expect(c.json().claim.total).toBe('166.00');
  });
});

describe('foreign-currency receipts: reference rate, override, bank-charged', () => {
  it('the reference rate on the expense date (latest on or before it); one foreign currency gives original_currency and original_total', async () => {
    const { org, employee, ref } = await setup();
    await referenceRate(org.id, 'USD', '2026-04-01', '4.4712');
    await referenceRate(org.id, 'USD', '2026-04-10', '4.5');
    const filed = await fileClaim(employee.apiKey);
    const res = await add(employee.apiKey, filed.claim.id, 1, receipt(ref.travel.id, { currency: 'USD', amount: '50.00', document_basis: 'foreign_supplier', relaxation_reason: undefined }));
    expect(res.statusCode, res.body).toBe(201);
    expect(lastLine(res.json())).toMatchObject({ currency: 'USD', amount: '50.00', base_amount: '223.56', fx_rate: '4.4712', fx_rate_source: 'reference', reimbursement_basis: 'expense_date_rate' });
    expect(res.json().claim).toMatchObject({ total: '223.56', original_currency: 'USD', original_total: '50.00', multiple_currencies: false });
    // A second USD line after the 10 April rate: 20.00 × 4.5.
    const second = await add(employee.apiKey, filed.claim.id, 2, receipt(ref.travel.id, { currency: 'USD', amount: '20.00', expense_date: '2026-04-11', document_basis: 'foreign_supplier', relaxation_reason: undefined }));
    expect(lastLine(second.json())).toMatchObject({ base_amount: '90.00', fx_rate: '4.5' });
    expect(second.json().claim).toMatchObject({ total: '313.56', original_currency: 'USD', original_total: '70.00', multiple_currencies: false });
    // A base-currency line makes it a claim in several currencies.
    const third = await add(employee.apiKey, filed.claim.id, 3, receipt(ref.meals.id, { amount: '10.00' }));
    expect(third.json().claim).toMatchObject({ total: '323.56', original_currency: null, original_total: null, multiple_currencies: true });
  });

  it('no reference rate on or before the date and no override: 422 at /fx_rate naming the currency and date', async () => {
    const { org, employee, ref } = await setup();
    await referenceRate(org.id, 'JPY', '2026-04-09', '0.0301');
    const filed = await fileClaim(employee.apiKey);
    const body = expectProblem(await add(employee.apiKey, filed.claim.id, 1, receipt(ref.meals.id, { currency: 'JPY', amount: '1200' })), 422, 'validation');
    expect(body.errors).toEqual([{ pointer: '/fx_rate', detail: 'no reference rate for JPY on 2026-04-08: send fx_rate with fx_rate_reason, or bank_charged_amount' }]);
  });

  it('an override needs its reason (stored, not answered); fx_rate_source override', async () => {
    const { org, employee, ref } = await setup();
    await referenceRate(org.id, 'USD', '2026-04-01', '4.4712');
    const filed = await fileClaim(employee.apiKey);
    const missing = expectProblem(await add(employee.apiKey, filed.claim.id, 1, receipt(ref.travel.id, { currency: 'USD', amount: '50.00', fx_rate: '4.5' })), 422, 'validation');
    expect(missing.errors).toEqual([{ pointer: '/fx_rate_reason', detail: 'is required when fx_rate overrides the reference rate' }]);
    const blank = expectProblem(await add(employee.apiKey, filed.claim.id, 1, receipt(ref.travel.id, { currency: 'USD', amount: '50.00', fx_rate: '4.5', fx_rate_reason: '  ' })), 422);
    expect(blank.errors).toEqual([{ pointer: '/fx_rate_reason', detail: 'must not be blank' }]);
    const long = expectProblem(await add(employee.apiKey, filed.claim.id, 1, receipt(ref.travel.id, { currency: 'USD', amount: '50.00', fx_rate: '4.5', fx_rate_reason: 'x'.repeat(501) })), 422);
    expect(long.errors).toEqual([{ pointer: '/fx_rate_reason', detail: 'must be at most 500 characters' }]);

    const res = await add(employee.apiKey, filed.claim.id, 1, receipt(ref.travel.id, { currency: 'USD', amount: '50.00', fx_rate: '4.5', fx_rate_reason: 'Rate on the card slip' }));
    expect(res.statusCode, res.body).toBe(201);
    const line = lastLine(res.json());
    expect(line).toMatchObject({ base_amount: '225.00', fx_rate: '4.5', fx_rate_source: 'override', reimbursement_basis: 'expense_date_rate' });
    expect(line).not.toHaveProperty('fx_rate_reason');
    const [row] = await t.db.select().from(claimLines).where(and(eq(claimLines.organizationId, org.id), eq(claimLines.id, line.id)));
    expect(row?.fxRateReason).toBe('Rate on the card slip');
  });

  it('bank-charged: reimburses exactly the bank figure (101.37, not 30.00 × 3.3 = 99.00); fx_rate = 101.37 / 30 to 10 places', async () => {
    const { org, employee, ref } = await setup();
    await referenceRate(org.id, 'SGD', '2026-04-01', '3.3');
    const filed = await fileClaim(employee.apiKey);
    const res = await add(employee.apiKey, filed.claim.id, 1, receipt(ref.travel.id, { currency: 'SGD', amount: '30.00', bank_charged_amount: '101.37' }));
    expect(res.statusCode, res.body).toBe(201);
    expect(lastLine(res.json())).toMatchObject({ amount: '30.00', base_amount: '101.37', fx_rate: '3.379', fx_rate_source: 'bank_statement', reimbursement_basis: 'bank_charged' });
    const odd = await add(employee.apiKey, filed.claim.id, 2, receipt(ref.travel.id, { currency: 'SGD', amount: '7.00', bank_charged_amount: '23.50' }));
    expect(lastLine(odd.json())).toMatchObject({ base_amount: '23.50', fx_rate: '3.3571428571' });
    expect(odd.json().claim).toMatchObject({ total: '124.87', original_currency: 'SGD', original_total: '37.00' });
    // Not with fx_rate, and never on a base-currency line.
    const both = expectProblem(await add(employee.apiKey, filed.claim.id, 3, receipt(ref.travel.id, { currency: 'SGD', amount: '7.00', bank_charged_amount: '23.50', fx_rate: '3.3' })), 422);
    expect(both.errors?.map((e) => e.pointer)).toEqual(['/fx_rate']);
    const base = expectProblem(await add(employee.apiKey, filed.claim.id, 3, receipt(ref.travel.id, { bank_charged_amount: '23.50' })), 422);
    expect(base.errors).toEqual([{ pointer: '/bank_charged_amount', detail: 'only a foreign-currency line is reimbursed as bank-charged' }]);
  });

  it('amounts keep to the currency: JPY has no places, KWD three; a base-currency fx_rate other than 1 is refused', async () => {
    const { org, employee, ref } = await setup();
    await referenceRate(org.id, 'JPY', '2026-04-01', '0.0301');
    await referenceRate(org.id, 'KWD', '2026-04-01', '14.5');
    const filed = await fileClaim(employee.apiKey);
    const jpy = expectProblem(await add(employee.apiKey, filed.claim.id, 1, receipt(ref.meals.id, { currency: 'JPY', amount: '1200.5' })), 422);
    expect(jpy.errors).toEqual([{ pointer: '/amount', detail: 'must have at most 0 decimal places for JPY' }]);
    const kwd = await add(employee.apiKey, filed.claim.id, 1, receipt(ref.meals.id, { currency: 'KWD', amount: '1.255' }));
    expect(lastLine(kwd.json())).toMatchObject({ amount: '1.255', base_amount: '18.20' });
    const fx = expectProblem(await add(employee.apiKey, filed.claim.id, 2, receipt(ref.meals.id, { fx_rate: '1.1' })), 422);
    expect(fx.errors).toEqual([{ pointer: '/fx_rate', detail: 'must be 1 in the base currency MYR' }]);
    const unknown = expectProblem(await add(employee.apiKey, filed.claim.id, 2, receipt(ref.meals.id, { currency: 'XYZ' })), 422);
    expect(unknown.errors).toEqual([{ pointer: '/currency', detail: 'is not an ISO 4217 currency code' }]);
  });
});

describe('mileage: banded cumulatively over the claimant’s calendar year', () => {
  it('bands 0–500 at 0.60 and 500+ at 0.50: 300 km already, a 400 km line → 200 × 0.60 + 200 × 0.50 = 220.00, band "A+B"; across two claims', async () => {
    const { org, employee, ref } = await setup();
    const rate = await createMileageRate(t.db, {
      organizationId: org.id,
      name: 'Car',
      currency: 'MYR',
      validFrom: '2026-01-01',
      bands: [
        { band: 'A', fromKm: '0', toKm: '500', ratePerKm: '0.60' },
        { band: 'B', fromKm: '500', ratePerKm: '0.50' },
      ],
    });
    const mileage = (quantity: string, expense_date = '2026-03-02') => ({ type: 'mileage', expense_date, category_id: ref.travel.id, description: 'Site visits', quantity, rate_id: rate.id });
    const first = await fileClaim(employee.apiKey, 'March trips');
    const a = await add(employee.apiKey, first.claim.id, 1, mileage('300'));
    expect(a.statusCode, a.body).toBe(201);
    expect(lastLine(a.json())).toMatchObject({ type: 'mileage', currency: 'MYR', quantity: '300', amount: '180.00', base_amount: '180.00', rate_id: rate.id, band: 'A', document_basis: 'relaxation_receipt', relaxation_reason: "Mileage computed from the organization's rates" });

    const second = await fileClaim(employee.apiKey, 'April trips');
    const b = await add(employee.apiKey, second.claim.id, 1, mileage('400', '2026-04-06'));
    expect(lastLine(b.json())).toMatchObject({ quantity: '400', amount: '220.00', band: 'A+B' });
    // 700 km claimed: the next 100.5 km are all in B.
    const c = await add(employee.apiKey, second.claim.id, 2, mileage('100.5', '2026-04-07'));
    expect(lastLine(c.json())).toMatchObject({ quantity: '100.5', amount: '50.25', band: 'B' });
    expect(c.json().claim.total).toBe('270.25');

    // Another year starts again at 0 km (the rate is in force from 2026 only, so another rate).
    const lastYear = await createMileageRate(t.db, { organizationId: org.id, name: 'Car 2025', currency: 'MYR', validFrom: '2025-01-01', validTo: '2025-12-31', bands: [{ band: 'A', fromKm: '0', toKm: '500', ratePerKm: '0.60' }, { band: 'B', fromKm: '500', ratePerKm: '0.50' }] });
    const d = await add(employee.apiKey, second.claim.id, 3, { ...mileage('100', '2025-12-30'), rate_id: lastYear.id });
    expect(lastLine(d.json())).toMatchObject({ amount: '60.00', band: 'A' });

    // A withdrawn line leaves the year: without the first claim's 300 km, 500.5 km are claimed in 2026.
    const w = await withdraw(employee.apiKey, first.claim.id, lastLine(a.json()).id, 2);
    expect(w.statusCode, w.body).toBe(200);
    const e = await add(employee.apiKey, first.claim.id, 3, mileage('10', '2026-05-01'));
    expect(lastLine(e.json())).toMatchObject({ amount: '5.00', band: 'B' });

    // Changing a line prices it again without its own kilometres: 400 → 450 km on top of 110.5 (others).
    const p = await patch(employee.apiKey, second.claim.id, lastLine(b.json()).id, 4, { quantity: '450' });
    expect(p.statusCode, p.body).toBe(200);
    // Others: 100.5 + 10 = 110.5 km; this line spans 110.5–560.5: 389.5 × 0.60 + 60.5 × 0.50 = 233.70 + 30.25.
    expect(p.json().lines[0]).toMatchObject({ quantity: '450', amount: '263.95', band: 'A+B' });
  });

  it('a cancelled claim’s kilometres leave the year, and another member’s never count', async () => {
    const { org, employee, ref } = await setup();
    const colleague = await createTestMember(t.db, org.id, { role: 'employee' });
    const mileage = (quantity: string) => ({ type: 'mileage', expense_date: '2026-06-01', category_id: ref.travel.id, description: 'Trip', quantity, rate_id: ref.mileage.id });
    const theirs = await fileClaim(colleague.apiKey);
    await add(colleague.apiKey, theirs.claim.id, 1, mileage('480'));
    const cancelled = await fileClaim(employee.apiKey, 'Trips (cancelled)');
    await add(employee.apiKey, cancelled.claim.id, 1, mileage('450'));
    const current = await fileClaim(employee.apiKey, 'Trips');
    // 450 km already: 50 × 0.80 + 50 × 0.50.
    const before = await add(employee.apiKey, current.claim.id, 1, mileage('100'));
    expect(lastLine(before.json())).toMatchObject({ amount: '65.00', band: 'first_500_km+beyond_500_km' });
    await transition(employee.session, cancelled.claim.id, 2, 'cancel');
    // Priced again (a change) once the other claim is cancelled: 100 × 0.80.
    const after = await patch(employee.apiKey, current.claim.id, lastLine(before.json()).id, 2, { description: 'Trip to Ipoh' });
    expect(after.json().lines[0]).toMatchObject({ amount: '80.00', band: 'first_500_km' });
  });

  it('a rate of another kind, not in force, or deactivated is refused at /rate_id; band is computed, not sent', async () => {
    const { org, employee, ref } = await setup();
    const old = await createMileageRate(t.db, { organizationId: org.id, name: 'Old', currency: 'MYR', validFrom: '2020-01-01', validTo: '2020-12-31', bands: [{ band: 'all', fromKm: '0', ratePerKm: '0.5' }] });
    const filed = await fileClaim(employee.apiKey);
    const line = (extra: Record<string, unknown>) => ({ type: 'mileage', expense_date: '2026-03-02', category_id: ref.travel.id, description: 'Trip', quantity: '10', ...extra });
    const notInForce = expectProblem(await add(employee.apiKey, filed.claim.id, 1, line({ rate_id: old.id })), 422);
    expect(notInForce.errors).toEqual([{ pointer: '/rate_id', detail: 'is not in force on the expense date 2026-03-02' }]);
    const perDiem = expectProblem(await add(employee.apiKey, filed.claim.id, 1, line({ rate_id: ref.perDiem.id })), 422);
    expect(perDiem.errors).toEqual([{ pointer: '/rate_id', detail: 'is not a mileage rate of this organization' }]);
    const band = expectProblem(await add(employee.apiKey, filed.claim.id, 1, line({ rate_id: ref.mileage.id, band: 'first_500_km' })), 422);
    expect(band.errors).toEqual([{ pointer: '/band', detail: "is computed from the rate's bands on a mileage line" }]);
    const missing = expectProblem(await add(employee.apiKey, filed.claim.id, 1, line({ quantity: undefined })), 422);
    expect(missing.errors).toEqual([
      { pointer: '/quantity', detail: 'is required' },
      { pointer: '/rate_id', detail: 'is required' },
    ]);
    const amount = expectProblem(await add(employee.apiKey, filed.claim.id, 1, line({ rate_id: ref.mileage.id, amount: '12.00', quantity: '0', tax_amount: '999' })), 422);
    // Each field once: a field that does not apply is refused for that alone.
    expect(amount.errors).toEqual([
      { pointer: '/amount', detail: 'does not apply to a mileage line (its amount is computed from the rate)' },
      { pointer: '/tax_amount', detail: 'applies only to a receipt line (SST borne on a purchase)' },
      { pointer: '/quantity', detail: 'must be greater than 0' },
    ]);
  });
});

describe('per-diem and advance offsets', () => {
  it('days × the band amount, half days allowed: 0.5 × 150.5 = 75.25, 2.5 × 80 = 200.00; the band must be one of the rate’s', async () => {
    const { employee, ref } = await setup();
    const filed = await fileClaim(employee.apiKey);
    const perDiem = (quantity: string, band?: string) => ({ type: 'per_diem', expense_date: '2026-04-09', category_id: ref.meals.id, description: 'Allowance', quantity, rate_id: ref.perDiem.id, band });
    const half = await add(employee.apiKey, filed.claim.id, 1, perDiem('0.5', 'overseas'));
    expect(lastLine(half.json())).toMatchObject({ quantity: '0.5', amount: '75.25', band: 'overseas', rate_id: ref.perDiem.id, relaxation_reason: "Per-diem allowance computed from the organization's rates" });
    const more = await add(employee.apiKey, filed.claim.id, 2, perDiem('2.5', 'domestic'));
    expect(lastLine(more.json())).toMatchObject({ amount: '200.00', band: 'domestic' });
    const unknown = expectProblem(await add(employee.apiKey, filed.claim.id, 3, perDiem('1', 'lunar')), 422);
    expect(unknown.errors).toEqual([{ pointer: '/band', detail: 'is not a band of the rate (domestic, overseas)' }]);
    const none = expectProblem(await add(employee.apiKey, filed.claim.id, 3, perDiem('1')), 422);
    expect(none.errors).toEqual([{ pointer: '/band', detail: 'is required on a per-diem line' }]);
  });

  it('an advance offset is given positive and stored negative; the total nets it', async () => {
    const { employee, ref } = await setup();
    const filed = await fileClaim(employee.apiKey);
    await add(employee.apiKey, filed.claim.id, 1, receipt(ref.meals.id, { amount: '350.00' }));
    const res = await add(employee.apiKey, filed.claim.id, 2, { type: 'advance_offset', expense_date: '2026-04-01', category_id: ref.advance.id, description: 'Cash advance', amount: '200' });
    expect(lastLine(res.json())).toMatchObject({ type: 'advance_offset', currency: 'MYR', amount: '-200.00', base_amount: '-200.00', fx_rate_source: 'identity', relaxation_reason: 'Cash advance settled on this claim' });
    expect(res.json().claim.total).toBe('150.00');
    const negative = expectProblem(await add(employee.apiKey, filed.claim.id, 3, { type: 'advance_offset', expense_date: '2026-04-01', category_id: ref.advance.id, description: 'x', amount: '-5' }), 422);
    expect(negative.errors).toEqual([{ pointer: '/amount', detail: 'must be greater than 0' }]);
  });
});
