import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client';
import { addDays, todayIn } from '../../src/lib/dates';
import { createTestMember, createTestOrganization, type TestMember } from '../factories/organization';
import { allocate, createInvoiceWorld, recordReceipt, reverseAllocation, type InvoiceWorld } from '../factories/receivables';
import { useTestApp } from '../helpers/app';
import { httpHelpers } from '../helpers/http';

/**
 * receivables.invoices.transition over /trpc (a people's decision: tRPC only, session only): every
 * edge of the default receivables workflow (docs/design.md §11), its refusals as the descriptor shows
 * them beforehand, If-Match, and the on-enter work of issue (number, date, frozen parties).
 */
const t = useTestApp();
const { post, get } = httpHelpers(t);

const today = () => todayIn('Asia/Kuala_Lumpur', new Date());
const year = () => today().slice(0, 4);

function transition(id: string, action_key: string, token: string, revision: number | null, reason?: string, extra: Record<string, unknown> = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/trpc/receivables.invoices.transition',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(revision === null ? {} : { 'if-match': `"${revision}"` }) },
    payload: JSON.stringify({ id, action_key, ...(reason !== undefined ? { reason } : {}), ...extra }),
  });
}

type Injected = Awaited<ReturnType<typeof transition>>;
const ok = (res: Injected) => {
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers.etag).toBe(`"${res.json().result.data.revision}"`);
  return res.json().result.data;
};
const problem = (res: Injected, status: number, code: string) => {
  expect(res.statusCode, res.body).toBe(status);
  const p = res.json().error.data.problem;
  expect(p).toMatchObject({ status, code });
  return p;
};

interface World extends InvoiceWorld {
  accountant: TestMember;
  clerk: TestMember;
}

/** An organization with an owner, an accountant and a clerk; the clerk prepares. */
async function world(): Promise<World> {
  const w = await createInvoiceWorld(t.db);
  const accountant = await createTestMember(t.db, w.org.id, { role: 'accountant', name: 'Aisyah Accountant' });
  const clerk = await createTestMember(t.db, w.org.id, { role: 'clerk', name: 'Chong Clerk' });
  return { ...w, accountant, clerk };
}

async function draft(w: InvoiceWorld, preparerKey: string, over: Record<string, unknown> = {}) {
  const res = await post('/v1/receivables/invoices', w.body(over), preparerKey);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const read = async (id: string, token: string) => (await get(`/v1/receivables/invoices/${id}`, token)).json();
const descriptor = async (id: string, token: string, action: string) => (await read(id, token)).available_transitions.find((d: any) => d.action_key === action);

describe('issue', () => {
  it('by an accountant: the next number of the year, invoice date today, due date moved, buyer and seller frozen, a timeline entry', async () => {
    const w = await world();
    const doc = await draft(w, w.clerk.apiKey);
    expect(doc.available_transitions).toBeDefined();
    expect(await descriptor(doc.id, w.accountant.session, 'issue')).toMatchObject({ allowed: true, requires_reason: false, gate: 'target', to: 'issued' });

    const issued = ok(await transition(doc.id, 'issue', w.accountant.session, doc.revision));
    expect(issued).toMatchObject({ state: 'issued', semantic: 'accrual', reference: `INV-${year()}-00001`, revision: doc.revision + 1, invoice_date: today() });
    expect(issued.due_on).toBe(addDays(today(), 30));
    expect(issued.issued_at).toEqual(expect.any(String));
    expect(issued.buyer).toMatchObject({ name: expect.stringMatching(/^Customer \d+ Sdn Bhd$/), address: { country_code: 'MY' } });
    expect(issued.seller).toMatchObject({ address: { country_code: 'MY' } });
    expect(issued.timeline).toEqual([
      { action_key: 'issue', actor_member_id: w.accountant.id, decided_at: expect.any(String), from: 'draft', to: 'issued', reason: '' },
    ]);
    // Its exits now: dispute and cancel.
    expect(issued.available_transitions.map((d: any) => d.action_key).sort()).toEqual(['cancel', 'dispute']);
    expect(issued.available_transitions.every((d: any) => d.requires_reason === true)).toBe(true);
    for (const d of issued.available_transitions) expect(Object.keys(d.labels).sort()).toEqual(['en', 'ms', 'zh']);

    // The GET agrees, and the next one is 00002.
    expect(await read(doc.id, w.clerk.apiKey)).toMatchObject({ reference: `INV-${year()}-00001`, revision: issued.revision });
    const second = await draft(w, w.clerk.apiKey);
    expect(ok(await transition(second.id, 'issue', w.accountant.session, second.revision)).reference).toBe(`INV-${year()}-00002`);
  });

  it('refused for the preparer (403 transition_refused, self_approval), as the descriptor said', async () => {
    const w = await world();
    const doc = await draft(w, w.accountant.apiKey);
    const shown = await descriptor(doc.id, w.accountant.session, 'issue');
    expect(shown).toMatchObject({ allowed: false, refusal: { code: 'self_approval' } });
    const p = problem(await transition(doc.id, 'issue', w.accountant.session, doc.revision), 403, 'transition_refused');
    expect(p.refusal).toEqual(shown.refusal);
    expect(p.detail).toBe(shown.refusal.detail);
    // Nothing was written: still a draft at the same revision, no number taken.
    expect(await read(doc.id, w.accountant.apiKey)).toMatchObject({ state: 'draft', revision: doc.revision, reference: null, timeline: [] });
    const other = ok(await transition(doc.id, 'issue', w.org.owner.session, doc.revision));
    expect(other.reference).toBe(`INV-${year()}-00001`);
  });

  it('without the authority: 403 forbidden, and the descriptor is not allowed without a refusal', async () => {
    const w = await world();
    const doc = await draft(w, w.accountant.apiKey);
    const shown = await descriptor(doc.id, w.clerk.session, 'issue');
    expect(shown.allowed).toBe(false);
    expect(shown.refusal).toBeUndefined();
    problem(await transition(doc.id, 'issue', w.clerk.session, doc.revision), 403, 'forbidden');
  });

  it('the sole owner: allowed only with a reason (422 sole_owner_reason_required), logged via the exception', async () => {
    const w = await createInvoiceWorld(t.db);
    const doc = await draft(w, w.org.owner.apiKey);
    expect(await descriptor(doc.id, w.org.owner.session, 'issue')).toMatchObject({ allowed: true, requires_reason: true, sole_owner_exception: true });
    for (const reason of [undefined, '', '   ']) {
      const p = problem(await transition(doc.id, 'issue', w.org.owner.session, doc.revision, reason), 422, 'sole_owner_reason_required');
      expect(p.errors).toEqual([expect.objectContaining({ pointer: '/reason' })]);
    }
    problem(await transition(doc.id, 'issue', w.org.owner.session, doc.revision, '只有我一个人'), 422, 'validation');
    const issued = ok(await transition(doc.id, 'issue', w.org.owner.session, doc.revision, 'Saya satu-satunya ahli aktif'));
    expect(issued.timeline).toEqual([expect.objectContaining({ action_key: 'issue', actor_member_id: w.org.owner.id, reason: 'Saya satu-satunya ahli aktif' })]);
    const rows = await queryRows<{ via: string }>(t.db, sql`select via from receivable_timeline where organization_id = ${w.org.id} and document_id = ${doc.id}`);
    expect(rows).toEqual([{ via: 'sole_owner_exception' }]);

    // A second active member ends the exception: the owner's own draft is then self_approval.
    const next = await draft(w, w.org.owner.apiKey);
    await createTestMember(t.db, w.org.id, { role: 'viewer' });
    const p = problem(await transition(next.id, 'issue', w.org.owner.session, next.revision, 'still me'), 403, 'transition_refused');
    expect(p.refusal.code).toBe('self_approval');
  });

  it('a credit note: CN numbers, and never beyond what its invoice has left (409 conflict, shown as not allowed)', async () => {
    const w = await world();
    const inv = await draft(w, w.clerk.apiKey);
    const invoice = ok(await transition(inv.id, 'issue', w.accountant.session, inv.revision));
    const cn = (amount: string) => draft(w, w.clerk.apiKey, { kind: 'customer_credit_note', original_invoice_id: invoice.id, reason: 'Returned goods', lines: [w.line({ quantity: '1', unit_price: amount, discount_amount: '0.00' })] });
    const first = await cn('200.00');
    const second = await cn('200.00');
    expect(ok(await transition(first.id, 'issue', w.accountant.session, first.revision)).reference).toBe(`CN-${year()}-00001`);
    const shown = await descriptor(second.id, w.accountant.session, 'issue');
    expect(shown).toMatchObject({ allowed: false });
    expect(shown.refusal).toBeUndefined();
    const p = problem(await transition(second.id, 'issue', w.accountant.session, second.revision), 409, 'conflict');
    expect(p.detail).toMatch(/more than is left to credit/);
  });
});

describe('discard', () => {
  it('by the preparer only (not_reporter for anyone else); a discarded draft keeps no number', async () => {
    const w = await world();
    const doc = await draft(w, w.clerk.apiKey);
    expect(await descriptor(doc.id, w.accountant.session, 'discard')).toMatchObject({ allowed: false, refusal: { code: 'not_reporter' } });
    const p = problem(await transition(doc.id, 'discard', w.accountant.session, doc.revision), 403, 'transition_refused');
    expect(p.refusal.code).toBe('not_reporter');
    const gone = ok(await transition(doc.id, 'discard', w.clerk.session, doc.revision));
    expect(gone).toMatchObject({ state: 'discarded', semantic: 'cancelled', reference: null, available_transitions: [] });
    expect(gone.timeline).toEqual([expect.objectContaining({ action_key: 'discard', actor_member_id: w.clerk.id, from: 'draft', to: 'discarded' })]);
  });
});

describe('dispute and resolve', () => {
  it('a reason is required to dispute; the raiser may not resolve (dispute_raiser), another member may', async () => {
    const w = await world();
    const doc = await draft(w, w.clerk.apiKey);
    let cur = ok(await transition(doc.id, 'issue', w.org.owner.session, doc.revision));
    const missing = problem(await transition(doc.id, 'dispute', w.accountant.session, cur.revision), 422, 'validation');
    expect(missing.errors).toEqual([expect.objectContaining({ pointer: '/reason' })]);
    problem(await transition(doc.id, 'dispute', w.accountant.session, cur.revision, '  '), 422, 'validation');
    const long = problem(await transition(doc.id, 'dispute', w.accountant.session, cur.revision, 'x'.repeat(501)), 422, 'validation');
    expect(long.errors).toEqual([expect.objectContaining({ pointer: '/reason' })]);
    // The clerk holds no dispute authority.
    problem(await transition(doc.id, 'dispute', w.clerk.session, cur.revision, 'Customer says so'), 403, 'forbidden');

    cur = ok(await transition(doc.id, 'dispute', w.accountant.session, cur.revision, 'Customer disputes the quantity'));
    expect(cur).toMatchObject({ state: 'disputed', semantic: 'dispute' });
    expect(cur.available_transitions).toEqual([expect.objectContaining({ action_key: 'resolve', allowed: false, refusal: expect.objectContaining({ code: 'dispute_raiser' }) })]);
    const p = problem(await transition(doc.id, 'resolve', w.accountant.session, cur.revision), 403, 'transition_refused');
    expect(p.refusal.code).toBe('dispute_raiser');
    expect(await descriptor(doc.id, w.org.owner.session, 'resolve')).toMatchObject({ allowed: true, requires_reason: false });

    cur = ok(await transition(doc.id, 'resolve', w.org.owner.session, cur.revision));
    expect(cur).toMatchObject({ state: 'issued', reference: `INV-${year()}-00001` });
    expect(cur.timeline.map((e: any) => [e.action_key, e.actor_member_id, e.from, e.to, e.reason])).toEqual([
      ['issue', w.org.owner.id, 'draft', 'issued', ''],
      ['dispute', w.accountant.id, 'issued', 'disputed', 'Customer disputes the quantity'],
      ['resolve', w.org.owner.id, 'disputed', 'issued', ''],
    ]);
    // A second dispute, raised by the owner this time: now the accountant may resolve it.
    cur = ok(await transition(doc.id, 'dispute', w.org.owner.session, cur.revision, 'Again'));
    expect(await descriptor(doc.id, w.accountant.session, 'resolve')).toMatchObject({ allowed: true });
    problem(await transition(doc.id, 'resolve', w.org.owner.session, cur.revision), 403, 'transition_refused');
    ok(await transition(doc.id, 'resolve', w.accountant.session, cur.revision));
  });
});

describe('cancel', () => {
  it('refused while something is allocated (409 conflict, shown as not allowed); allowed once reversed, with a reason; owes nothing after', async () => {
    const w = await world();
    const doc = await draft(w, w.clerk.apiKey);
    let cur = ok(await transition(doc.id, 'issue', w.accountant.session, doc.revision));
    const receipt = await recordReceipt(t.db, { organizationId: w.org.id, customerId: w.customer.id, reference: 'RCPT-1', currency: 'MYR', amount: '100.00', receivedOn: today(), createdBy: w.clerk.id });
    const allocation = await allocate(t.db, { organizationId: w.org.id, invoiceId: doc.id, receiptId: receipt.id, amount: '100.00', effectiveOn: today(), createdBy: w.clerk.id });
    cur = await read(doc.id, w.accountant.session);

    const shown = cur.available_transitions.find((d: any) => d.action_key === 'cancel');
    expect(shown).toMatchObject({ allowed: false, requires_reason: true });
    // Only the contract's members: no refusal code (the record's condition is not the caller's standing).
    expect(Object.keys(shown).sort()).toEqual(['action_key', 'allowed', 'gate', 'labels', 'requires_reason', 'to']);
    const p = problem(await transition(doc.id, 'cancel', w.accountant.session, cur.revision, 'Issued in error'), 409, 'conflict');
    expect(p.detail).toMatch(/allocation/);
    // Without the authority the answer stays 403 (nothing about the record is told).
    problem(await transition(doc.id, 'cancel', w.clerk.session, cur.revision, 'Issued in error'), 403, 'forbidden');

    await reverseAllocation(t.db, { organizationId: w.org.id, allocationId: allocation.id, effectiveOn: today(), createdBy: w.clerk.id });
    cur = await read(doc.id, w.accountant.session);
    expect(cur.available_transitions.find((d: any) => d.action_key === 'cancel')).toMatchObject({ allowed: true, requires_reason: true });
    problem(await transition(doc.id, 'cancel', w.accountant.session, cur.revision), 422, 'validation');
    const cancelled = ok(await transition(doc.id, 'cancel', w.accountant.session, cur.revision, 'Issued to the wrong customer'));
    expect(cancelled).toMatchObject({ state: 'cancelled', semantic: 'cancelled', outstanding: '0.00', outstanding_base: '0.00', available_transitions: [] });
    expect(cancelled.timeline.at(-1)).toMatchObject({ action_key: 'cancel', from: 'issued', to: 'cancelled', reason: 'Issued to the wrong customer' });
  });
});

describe('refusals of the step itself', () => {
  it('an action that is not an exit of the current state is 409 conflict', async () => {
    const w = await world();
    const doc = await draft(w, w.clerk.apiKey);
    for (const action of ['resolve', 'cancel', 'frobnicate']) problem(await transition(doc.id, action, w.org.owner.session, doc.revision, 'x'), 409, 'conflict');
    const issued = ok(await transition(doc.id, 'issue', w.org.owner.session, doc.revision));
    problem(await transition(doc.id, 'issue', w.org.owner.session, issued.revision), 409, 'conflict');
  });

  it('If-Match: stale is 409 revision_mismatch, missing is 428 revision_required; nothing changes', async () => {
    const w = await world();
    const doc = await draft(w, w.clerk.apiKey);
    problem(await transition(doc.id, 'issue', w.accountant.session, doc.revision + 1), 409, 'revision_mismatch');
    problem(await transition(doc.id, 'issue', w.accountant.session, null), 428, 'revision_required');
    const issued = ok(await transition(doc.id, 'issue', w.accountant.session, doc.revision));
    // The revision the issue answered with is the one the next decision must name.
    problem(await transition(doc.id, 'dispute', w.accountant.session, doc.revision, 'Stale view'), 409, 'revision_mismatch');
    ok(await transition(doc.id, 'dispute', w.accountant.session, issued.revision, 'Fresh view'));
  });

  it('an API key is 403 person_required, whatever its permissions', async () => {
    const w = await world();
    const doc = await draft(w, w.clerk.apiKey);
    const res = await t.app.inject({
      method: 'POST',
      url: '/trpc/receivables.invoices.transition',
      headers: { authorization: `Bearer ${w.org.owner.apiKey}`, 'content-type': 'application/json', 'if-match': `"${doc.revision}"`, 'idempotency-key': 'k-1' },
      payload: JSON.stringify({ id: doc.id, action_key: 'issue' }),
    });
    problem(res, 403, 'person_required');
    expect((await read(doc.id, w.clerk.apiKey)).state).toBe('draft');
  });

  it('another organization’s document is 404; an unknown field is 400; not served on /v1', async () => {
    const w = await world();
    const doc = await draft(w, w.clerk.apiKey);
    const stranger = await createTestOrganization(t.db);
    problem(await transition(doc.id, 'issue', stranger.owner.session, doc.revision, 'x'), 404, 'not_found');
    problem(await transition(doc.id, 'issue', w.accountant.session, doc.revision, undefined, { note: 'hi' }), 400, 'invalid_request');
    const rest = await post(`/v1/receivables/invoices/${doc.id}/transition`, { action_key: 'issue' }, w.accountant.session);
    expect([404, 405]).toContain(rest.statusCode);
  });
});
