import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { claimLines } from '../../src/db/schema';
import { createMileageRate } from '../../src/services/expenses/reference-data';
import { createTaxCode } from '../../src/services/receivables/reference-data';
import { uploadClaimDocument } from '../factories/claims';
import { useTestApp } from '../helpers/app';
import { expectProblem } from '../helpers/problem';
import { claimLinesKit, EINVOICE_UUID, receipt } from './claim-lines-kit';

const t = useTestApp();
const { add, patch, withdraw, fileClaim, setup, referenceRate } = claimLinesKit(t);

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
    const amount = expectProblem(await add(employee.apiKey, filed.claim.id, 1, line({ rate_id: ref.mileage.id, amount: '12.00', quantity: '0' })), 422);
    expect(amount.errors).toEqual([
      { pointer: '/amount', detail: 'does not apply to a mileage line (its amount is computed from the rate)' },
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

describe('document_basis', () => {
  it.each([
    ['receipt without a basis', { document_basis: undefined, relaxation_reason: undefined }, [['/document_basis', 'is required on a receipt line (einvoice_company, einvoice_employee, foreign_supplier or relaxation_receipt)']]],
    ['einvoice_company without uuid', { document_basis: 'einvoice_company', relaxation_reason: undefined }, [['/einvoice_uuid', 'is required with document_basis einvoice_company']]],
    ['einvoice_employee with 25 characters', { document_basis: 'einvoice_employee', relaxation_reason: undefined, einvoice_uuid: EINVOICE_UUID.slice(1) }, [['/einvoice_uuid', 'must be the 26 letters and digits of a MyInvois document UUID']]],
    ['einvoice_company with a dash', { document_basis: 'einvoice_company', relaxation_reason: undefined, einvoice_uuid: `${EINVOICE_UUID.slice(1)}-` }, [['/einvoice_uuid', 'must be the 26 letters and digits of a MyInvois document UUID']]],
    ['relaxation_receipt without reason', { relaxation_reason: undefined }, [['/relaxation_reason', 'is required with document_basis relaxation_receipt']]],
    ['relaxation_receipt with a blank reason', { relaxation_reason: '   ' }, [['/relaxation_reason', 'must not be blank']]],
    ['relaxation_receipt with 501 characters', { relaxation_reason: 'r'.repeat(501) }, [['/relaxation_reason', 'must be at most 500 characters']]],
    ['foreign_supplier on MYR without a country', { document_basis: 'foreign_supplier', relaxation_reason: undefined }, [['/document_basis', 'foreign_supplier needs a currency other than MYR or a supplier_country other than MY']]],
    ['foreign_supplier on MYR in MY', { document_basis: 'foreign_supplier', relaxation_reason: undefined, supplier_country: 'MY' }, [['/document_basis', 'foreign_supplier needs a currency other than MYR or a supplier_country other than MY']]],
    ['an unknown supplier_country', { supplier_country: 'XX' }, [['/supplier_country', 'is not an ISO 3166-1 alpha-2 country code']]],
    ['einvoice_uuid with relaxation_receipt', { einvoice_uuid: EINVOICE_UUID }, [['/einvoice_uuid', 'applies only to an e-invoice document basis']]],
    ['relaxation_reason with an e-invoice', { document_basis: 'einvoice_employee', einvoice_uuid: EINVOICE_UUID }, [['/relaxation_reason', 'applies only to document_basis relaxation_receipt']]],
  ] as [string, Record<string, unknown>, [string, string][]][])('%s: 422', async (_name, extra, errors) => {
    const { employee, ref } = await setup();
    const filed = await fileClaim(employee.apiKey);
    const body = expectProblem(await add(employee.apiKey, filed.claim.id, 1, receipt(ref.meals.id, extra)), 422, 'validation');
    expect(body.errors).toEqual(errors.map(([pointer, detail]) => ({ pointer, detail })));
  });

  it('accepted: both e-invoice bases with 26 alphanumerics, a foreign supplier by country or by currency, a relaxation with reason', async () => {
    const { org, employee, ref } = await setup();
    await referenceRate(org.id, 'THB', '2026-01-01', '0.13');
    const filed = await fileClaim(employee.apiKey);
    let revision = 1;
    for (const extra of [
      { document_basis: 'einvoice_company', relaxation_reason: undefined, einvoice_uuid: EINVOICE_UUID },
      { document_basis: 'einvoice_employee', relaxation_reason: undefined, einvoice_uuid: 'abcdefghij0123456789ABCDEF' },
      { document_basis: 'foreign_supplier', relaxation_reason: undefined, supplier_country: 'SG' },
      { document_basis: 'foreign_supplier', relaxation_reason: undefined, currency: 'THB', amount: '100.00' },
      {},
    ]) {
      const res = await add(employee.apiKey, filed.claim.id, revision, receipt(ref.meals.id, extra));
      expect(res.statusCode, res.body).toBe(201);
      revision = res.json().claim.revision;
    }
    const lines = (await add(employee.apiKey, filed.claim.id, revision, receipt(ref.meals.id))).json().lines as Line[];
    expect(lines.map((l) => [l.document_basis, l.einvoice_uuid, l.relaxation_reason])).toEqual([
      ['einvoice_company', EINVOICE_UUID, null],
      ['einvoice_employee', 'abcdefghij0123456789ABCDEF', null],
      ['foreign_supplier', null, null],
      ['foreign_supplier', null, null],
      ['relaxation_receipt', null, 'Hawker stall, no e-invoice'],
      ['relaxation_receipt', null, 'Hawker stall, no e-invoice'],
    ]);
    expect(lines[3]).toMatchObject({ currency: 'THB', base_amount: '13.00' });
  });
});

describe('PATCH /v1/expenses/claims/{id}/lines/{line_id} and withdraw', () => {
  it('fields left out keep their value; the line is priced again (SST from the code follows the amount); shares replaced whole; 200 with ETag', async () => {
    const { org, employee, ref } = await setup();
    const sst8 = await createTaxCode(t.db, org.id, { code: 'SV8', rate: '8', taxType: '02' });
    const filed = await fileClaim(employee.apiKey);
    const added = await add(employee.apiKey, filed.claim.id, 1, receipt(ref.meals.id, { tax_code_id: sst8.id, shares: [{ analytic_account_id: ref.zeta.id, percentage: '100' }] }));
    const lineId = lastLine(added.json()).id;
    const res = await patch(employee.apiKey, filed.claim.id, lineId, 2, { amount: '216.00', description: 'Dinner with the client', shares: [{ analytic_account_id: ref.alpha.id, percentage: '60' }, { analytic_account_id: ref.zeta.id, percentage: '40' }] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers.etag).toBe('"3"');
    expect(res.headers.location).toBeUndefined();
    const line = res.json().lines[0];
    expect(line).toMatchObject({ id: lineId, line_no: 1, description: 'Dinner with the client', amount: '216.00', base_amount: '216.00', tax_amount: '16.00', tax_code_id: sst8.id, document_basis: 'relaxation_receipt', relaxation_reason: 'Hawker stall, no e-invoice' });
    expect(line.shares).toEqual(expect.arrayContaining([{ analytic_account_id: ref.alpha.id, percentage: '60' }, { analytic_account_id: ref.zeta.id, percentage: '40' }]));
    expect(line.shares).toHaveLength(2);
    expect(res.json().claim).toMatchObject({ revision: 3, total: '216.00', project_names: ['Alpha Bridge', 'Zeta Tower'] });

    // Changing the basis drops what no longer applies; null clears the tax code.
    const basis = await patch(employee.apiKey, filed.claim.id, lineId, 3, { document_basis: 'einvoice_employee', einvoice_uuid: EINVOICE_UUID, tax_code_id: null, tax_amount: '0' });
    expect(basis.statusCode, basis.body).toBe(200);
    expect(basis.json().lines[0]).toMatchObject({ document_basis: 'einvoice_employee', einvoice_uuid: EINVOICE_UUID, relaxation_reason: null, tax_code_id: null, tax_amount: '0.00', shares: expect.any(Array) });
    expect(basis.json().lines[0].shares).toHaveLength(2);
  });

  it('a foreign line moves from the reference rate to an override and to the bank figure, and back', async () => {
    const { org, employee, ref } = await setup();
    await referenceRate(org.id, 'USD', '2026-04-01', '4.4712');
    const filed = await fileClaim(employee.apiKey);
    const added = await add(employee.apiKey, filed.claim.id, 1, receipt(ref.travel.id, { currency: 'USD', amount: '50.00' }));
    const id = lastLine(added.json()).id;
    const o = await patch(employee.apiKey, filed.claim.id, id, 2, { fx_rate: '4.5', fx_rate_reason: 'Card slip' });
    expect(o.json().lines[0]).toMatchObject({ base_amount: '225.00', fx_rate_source: 'override' });
    const amount = await patch(employee.apiKey, filed.claim.id, id, 3, { amount: '60.00' });
    expect(amount.json().lines[0]).toMatchObject({ base_amount: '270.00', fx_rate: '4.5', fx_rate_source: 'override' });
    const bank = await patch(employee.apiKey, filed.claim.id, id, 4, { bank_charged_amount: '271.10' });
    expect(bank.json().lines[0]).toMatchObject({ base_amount: '271.10', fx_rate: '4.5183333333', fx_rate_source: 'bank_statement', reimbursement_basis: 'bank_charged' });
    const back = await patch(employee.apiKey, filed.claim.id, id, 5, { bank_charged_amount: null });
    expect(back.json().lines[0]).toMatchObject({ base_amount: '268.27', fx_rate: '4.4712', fx_rate_source: 'reference', reimbursement_basis: 'expense_date_rate' });
    const myr = await patch(employee.apiKey, filed.claim.id, id, 6, { currency: 'MYR' });
    expect(myr.json().lines[0]).toMatchObject({ currency: 'MYR', amount: '60.00', base_amount: '60.00', fx_rate: '1', fx_rate_source: 'identity' });
  });

  it('documents: the sent list replaces the supporting documents (new bound, dropped detached, a dropped one sent back supports again)', async () => {
    const { org, employee, ref } = await setup();
    const [d1, d2, d3] = await Promise.all(['one', 'two', 'three'].map((x) => uploadClaimDocument(t.db, org.id, employee.id, `receipt ${x}`)));
    const filed = await fileClaim(employee.apiKey);
    const added = await add(employee.apiKey, filed.claim.id, 1, receipt(ref.meals.id, { documents: [d1!.id, d2!.id] }));
    const id = lastLine(added.json()).id;
    expect(lastLine(added.json()).documents).toEqual([d1!.id, d2!.id]);
    const swapped = await patch(employee.apiKey, filed.claim.id, id, 2, { documents: [d2!.id, d3!.id] });
    expect(swapped.statusCode, swapped.body).toBe(200);
    expect(swapped.json().lines[0].documents).toEqual([d2!.id, d3!.id]);
    const back = await patch(employee.apiKey, filed.claim.id, id, 3, { documents: [d1!.id, d2!.id, d3!.id] });
    expect(back.json().lines[0].documents).toEqual([d1!.id, d2!.id, d3!.id]);
    const stranger = await uploadClaimDocument(t.db, org.id, org.owner.id, 'owner receipt');
    expectProblem(await patch(employee.apiKey, filed.claim.id, id, 4, { documents: [stranger.id] }), 422, 'document_not_yours');
    // A document of this line cannot back another line.
    expectProblem(await add(employee.apiKey, filed.claim.id, 4, receipt(ref.meals.id, { documents: [d1!.id] })), 409, 'document_bound_elsewhere');
  });

  it('withdraw: the line stays, withdrawn, out of the total; again is 409; a withdrawn line cannot be changed (409)', async () => {
    const { employee, ref } = await setup();
    const filed = await fileClaim(employee.apiKey);
    await add(employee.apiKey, filed.claim.id, 1, receipt(ref.meals.id, { amount: '20.00' }));
    const second = await add(employee.apiKey, filed.claim.id, 2, receipt(ref.meals.id, { amount: '12.50' }));
    expect(second.json().claim.total).toBe('32.50');
    const id = lastLine(second.json()).id;
    const res = await withdraw(employee.apiKey, filed.claim.id, id, 3);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers.etag).toBe('"4"');
    expect(res.json().claim).toMatchObject({ revision: 4, total: '20.00' });
    expect(res.json().lines.map((l: Line) => [l.line_no, l.withdrawn])).toEqual([[1, false], [2, true]]);
    expectProblem(await withdraw(employee.apiKey, filed.claim.id, id, 4), 409, 'conflict');
    expectProblem(await patch(employee.apiKey, filed.claim.id, id, 4, { amount: '1.00' }), 409, 'conflict');
  });
});
