import { describe, expect, it } from 'vitest';
import { createTaxCode } from '../factories/setup';
import { uploadClaimDocument } from '../factories/claims';
import { useTestApp } from '../helpers/app';
import { expectProblem } from '../helpers/problem';
import { claimLinesKit, EINVOICE_UUID, receipt } from './claim-lines-kit';

const t = useTestApp();
const { add, patch, withdraw, fileClaim, setup, referenceRate } = claimLinesKit(t);

type Line = Record<string, any>;
const lastLine = (body: { lines: Line[] }) => body.lines.at(-1)!;

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
