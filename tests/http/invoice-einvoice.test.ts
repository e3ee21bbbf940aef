import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { customers } from '../../src/db/schema';
import { createTestMember, createTestOrganization, type TestMember } from '../factories/organization';
import { createInvoiceWorld, type InvoiceWorld } from '../factories/receivables';
import { useTestApp } from '../helpers/app';
import { setSeller } from '../helpers/einvoicing';
import { httpHelpers } from '../helpers/http';
import { expectProblem } from '../helpers/problem';
import { clientOf } from '../helpers/settings';

/**
 * GET /v1/receivables/invoices/{id}/einvoice (status and preflight), and issuing refused with 422
 * `einvoice_not_ready` when e-invoicing is on and the preflight fails — the descriptor agreeing.
 */
const t = useTestApp();
const { post, get } = httpHelpers(t);
const URL = '/v1/receivables/invoices';

interface World extends InvoiceWorld {
  accountant: TestMember;
  clerk: TestMember;
}

async function world(): Promise<World> {
  const w = await createInvoiceWorld(t.db);
  const accountant = await createTestMember(t.db, w.org.id, { role: 'accountant' });
  const clerk = await createTestMember(t.db, w.org.id, { role: 'clerk' });
  return { ...w, accountant, clerk };
}

/** Gives the world's customer everything LHDN needs of a Malaysian buyer. */
async function completeCustomer(w: InvoiceWorld) {
  await t.db
    .update(customers)
    .set({ tin: 'C9876543210', registrationType: 'brn', registrationNo: '201901234567', phone: '+60355551234', address: { line1: 'No. 1, Jalan Plumbum', city: 'Shah Alam', state: '10' } })
    .where(eq(customers.id, w.customer.id));
}

async function enable(w: InvoiceWorld) {
  await setSeller(t.db, w.org.id);
  const s = await clientOf(t, w.org.owner.session, 1).settings.einvoicing.update({ enabled: true, client_id: 'erp-client', client_secret: 'erp-secret' });
  expect(s.enabled).toBe(true);
}

async function draft(w: World, over: Record<string, unknown> = {}) {
  const res = await post(URL, w.body(over), w.clerk.apiKey);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

function transition(id: string, action_key: string, token: string, revision: number) {
  return t.app.inject({
    method: 'POST',
    url: '/trpc/receivables.invoices.transition',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'if-match': `"${revision}"` },
    payload: JSON.stringify({ id, action_key }),
  });
}

const einvoice = async (id: string, token: string) => {
  const res = await get(`${URL}/${id}/einvoice`, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const issueDescriptor = async (id: string, token: string) => (await get(`${URL}/${id}`, token)).json().available_transitions.find((d: any) => d.action_key === 'issue');

const BUYER_PROBLEMS = [
  { pointer: '/customer/tin', code: 'buyer_tin_missing' },
  { pointer: '/customer/registration_no', code: 'buyer_registration_missing' },
  { pointer: '/customer/phone', code: 'phone_not_e164' },
  { pointer: '/customer/address/line1', code: 'address_line_missing' },
  { pointer: '/customer/address/city', code: 'address_city_missing' },
  { pointer: '/customer/address/state', code: 'address_state_missing' },
];

describe('GET /v1/receivables/invoices/{id}/einvoice', () => {
  it('answers not_submitted with the preflight of the draft, in the shape submission will fill in', async () => {
    const w = await world();
    await setSeller(t.db, w.org.id);
    const doc = await draft(w);
    const answer = await einvoice(doc.id, w.accountant.apiKey);
    expect({ ...answer, preflight: answer.preflight.map((p: any) => ({ pointer: p.pointer, code: p.code })) }).toEqual({
      status: 'not_submitted',
      uuid: null,
      long_id: null,
      validation_link: null,
      submitted_at: null,
      validated_at: null,
      cancelled_at: null,
      errors: [],
      preflight: BUYER_PROBLEMS,
      document: null,
      last_error: null,
      attempts: 0,
      next_attempt_at: null,
    });
    for (const p of answer.preflight) expect(typeof p.detail).toBe('string');
    await completeCustomer(w);
    expect((await einvoice(doc.id, w.accountant.apiKey)).preflight).toEqual([]);
  });

  it('answers 404 for a random id and for another organization’s document, 400 for a malformed id, 403 without receivables.invoice.read', async () => {
    const w = await world();
    const doc = await draft(w);
    expectProblem(await get(`${URL}/${randomUUID()}/einvoice`, w.org.owner.apiKey), 404, 'not_found');
    const other = await createTestOrganization(t.db);
    expectProblem(await get(`${URL}/${doc.id}/einvoice`, other.owner.apiKey), 404, 'not_found');
    expectProblem(await get(`${URL}/nope/einvoice`, w.org.owner.apiKey), 400, 'invalid_request');
    const employee = await createTestMember(t.db, w.org.id, { role: 'employee' });
    expectProblem(await get(`${URL}/${doc.id}/einvoice`, employee.apiKey), 403, 'forbidden');
    expectProblem(await get(`${URL}/${doc.id}/einvoice`), 401, 'unauthenticated');
    const viewer = await createTestMember(t.db, w.org.id, { role: 'viewer' });
    expect((await get(`${URL}/${doc.id}/einvoice`, viewer.apiKey)).statusCode).toBe(200);
  });
});

describe('issuing with e-invoicing', () => {
  it('off: a draft with preflight problems is issued as before', async () => {
    const w = await world();
    const doc = await draft(w);
    expect((await einvoice(doc.id, w.accountant.apiKey)).preflight.length).toBeGreaterThan(0);
    expect(await issueDescriptor(doc.id, w.accountant.session)).toMatchObject({ allowed: true });
    const res = await transition(doc.id, 'issue', w.accountant.session, doc.revision);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result.data.state).toBe('issued');
    expect((await einvoice(doc.id, w.accountant.apiKey)).status).toBe('not_submitted');
  });

  it('on: refused with 422 einvoice_not_ready carrying the preflight, shown as not allowed; issued once the problems are fixed', async () => {
    const w = await world();
    await enable(w);
    const doc = await draft(w);
    const preflight = (await einvoice(doc.id, w.accountant.apiKey)).preflight;
    expect(preflight.map((p: any) => p.code)).toEqual(BUYER_PROBLEMS.map((p) => p.code));
    expect(await issueDescriptor(doc.id, w.accountant.session)).toMatchObject({ action_key: 'issue', allowed: false });
    const res = await transition(doc.id, 'issue', w.accountant.session, doc.revision);
    expect(res.statusCode, res.body).toBe(422);
    const problem = res.json().error.data.problem;
    expect(problem).toMatchObject({ status: 422, code: 'einvoice_not_ready' });
    expect(problem.errors).toEqual(preflight);
    // Nothing changed: still a draft without a number.
    const still = (await get(`${URL}/${doc.id}`, w.accountant.apiKey)).json();
    expect([still.state, still.reference, still.revision]).toEqual(['draft', null, doc.revision]);

    await completeCustomer(w);
    expect(await issueDescriptor(doc.id, w.accountant.session)).toMatchObject({ allowed: true });
    const issued = await transition(doc.id, 'issue', w.accountant.session, doc.revision);
    expect(issued.statusCode, issued.body).toBe(200);
    // Issued with e-invoicing on: numbered, and waiting for LHDN in `submitted` with its outbox row.
    expect(issued.json().result.data).toMatchObject({ state: 'submitted', reference: expect.stringMatching(/^INV-\d{4}-\d{5}$/) });
    expect(await einvoice(doc.id, w.accountant.apiKey)).toMatchObject({ status: 'submitted', uuid: null, preflight: [], errors: [], document: null });

    // A credit note of it cannot be e-invoiced until the invoice is validated by LHDN (it has no UUID yet).
    const cn = await draft(w, { kind: 'customer_credit_note', original_invoice_id: doc.id, reason: 'Returned goods', lines: [w.line({ quantity: '1', unit_price: '10.00', discount_amount: '0.00' })] });
    expect(await issueDescriptor(cn.id, w.accountant.session)).toMatchObject({ allowed: false });
    const refused = await transition(cn.id, 'issue', w.accountant.session, cn.revision);
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().error.data.problem.errors).toEqual([expect.objectContaining({ pointer: '/original_invoice_id', code: 'original_not_validated' })]);
  });

  it('on: a preflight problem of a line (an exemption reason LHDN refuses) and of the seller refuse too; the discard edge stays allowed', async () => {
    const w = await world();
    await enable(w);
    await completeCustomer(w);
    const doc = await draft(w, { lines: [w.line({ tax_code_id: w.ref.exempt.id, tax_exemption_reason: 'Exempt: item 5; schedule A' })] });
    const codes = (await einvoice(doc.id, w.accountant.apiKey)).preflight.map((p: any) => p.code);
    expect(codes).toEqual(['exemption_reason_invalid']);
    await setSeller(t.db, w.org.id, { tin: 'C1234567890' });
    const after = (await einvoice(doc.id, w.accountant.apiKey)).preflight.map((p: any) => p.pointer);
    expect(after).toContain('/seller/msic');
    const discard = (await get(`${URL}/${doc.id}`, w.clerk.apiKey)).json().available_transitions.find((d: any) => d.action_key === 'discard');
    expect(discard).toMatchObject({ allowed: true });
    const res = await transition(doc.id, 'issue', w.accountant.session, doc.revision);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().error.data.problem.code).toBe('einvoice_not_ready');
  });
});
