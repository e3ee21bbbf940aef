import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app';
import { BUYER, useMyinvois, type MyinvoisHarness, type MyinvoisWorld } from '../helpers/myinvois-world';

/**
 * Cancelling a validated e-invoice (docs/myinvois.md point 5) and a buyer's rejection request (point 6),
 * against the simulator on a test clock: within 72 hours the cancel job asks LHDN and the document
 * is cancelled on its confirmation; after 72 hours the descriptor is refused with a detail pointing
 * to a credit note and LHDN is never asked; a rejection request found while polling puts the
 * document in `rejection_requested` with the buyer's reason on the timeline, then `keep` or `cancel`.
 */
const t = useTestApp();
const m = useMyinvois(t);
const HOUR = 3_600_000;

async function validInvoice(h: MyinvoisHarness, w: MyinvoisWorld) {
  const draft = await h.draft(w);
  await h.issue(w, draft);
  await h.runJobs();
  h.advance(15_000);
  await h.runJobs();
  const doc = await h.read(w, draft.id);
  expect(doc.state).toBe('issued');
  return doc;
}

/** The buyer's ERP asks LHDN to reject the document (the simulator's own API, as the buyer). */
async function buyerRejects(h: MyinvoisHarness, uuid: string, reason: string) {
  h.sim.control.registerClient({ clientId: 'buyer-erp', clientSecret: 'buyer-secret', tin: BUYER.tin });
  const token = await h.sim.app.inject({ method: 'POST', url: '/connect/token', payload: 'grant_type=client_credentials&client_id=buyer-erp&client_secret=buyer-secret&scope=InvoicingAPI', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  const res = await h.sim.app.inject({
    method: 'PUT',
    url: `/api/v1.0/documents/state/${uuid}/state`,
    headers: { authorization: `Bearer ${token.json().access_token}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ status: 'rejected', reason }),
  });
  expect(res.statusCode, res.body).toBe(200);
}

const cancelDescriptor = (doc: any) => doc.available_transitions.find((d: any) => d.action_key === 'cancel');

describe('cancelling a validated e-invoice', () => {
  it('within 72 hours: asked of LHDN by the job, cancelled on its confirmation', async () => {
    const w = await m.world();
    const doc = await validInvoice(m, w);
    const uuid = (await m.einvoice(w, doc.id)).uuid;
    m.advance(71 * HOUR);
    expect(cancelDescriptor(await m.read(w, doc.id))).toMatchObject({ allowed: true, requires_reason: true });
    const before = m.sim.control.requestCount('state');

    const res = await m.transition(w, doc.id, 'cancel', doc.revision, 'Wrong customer billed');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result.data).toMatchObject({ state: 'cancel_requested', semantic: 'pending', available_transitions: [] });
    expect(m.sim.control.requestCount('state')).toBe(before);

    await m.runJobs();
    expect(m.sim.control.document(uuid)!.status).toBe('Cancelled');
    const cancelled = await m.read(w, doc.id);
    expect(cancelled).toMatchObject({ state: 'cancelled', semantic: 'cancelled', outstanding: '0.00' });
    expect(cancelled.timeline.slice(-2).map((e: any) => [e.action_key, e.from, e.to, e.reason])).toEqual([
      ['cancel', 'issued', 'cancel_requested', 'Wrong customer billed'],
      ['cancel_confirmed', 'cancel_requested', 'cancelled', 'Wrong customer billed'],
    ]);
    expect(await m.einvoice(w, doc.id)).toMatchObject({ status: 'cancelled', cancelled_at: m.now().toISOString() });
  });

  it('after 72 hours: refused, the detail says to issue a credit note, and LHDN is never asked', async () => {
    const w = await m.world();
    const doc = await validInvoice(m, w);
    m.advance(72 * HOUR + 60_000);
    const descriptor = cancelDescriptor(await m.read(w, doc.id));
    expect(descriptor).toMatchObject({ action_key: 'cancel', allowed: false });
    const before = m.sim.control.requestCount('state');
    const res = await m.transition(w, doc.id, 'cancel', doc.revision, 'Too late');
    expect(res.statusCode, res.body).toBe(409);
    const problem = res.json().error.data.problem;
    expect(problem.code).toBe('conflict');
    expect(problem.detail).toMatch(/72 hours/);
    expect(problem.detail).toMatch(/credit note/);
    await m.runJobs();
    expect(m.sim.control.requestCount('state')).toBe(before);
    expect((await m.read(w, doc.id)).state).toBe('issued');
  });

  it('LHDN refusing the cancellation (its window closed meanwhile) puts the document back with LHDN’s reason', async () => {
    const w = await m.world();
    const doc = await validInvoice(m, w);
    m.advance(72 * HOUR - 1_000);
    const res = await m.transition(w, doc.id, 'cancel', doc.revision, 'Duplicate');
    expect(res.statusCode, res.body).toBe(200);
    m.advance(5_000);
    await m.runJobs();
    const back = await m.read(w, doc.id);
    expect(back.state).toBe('issued');
    expect(back.timeline.at(-1)).toMatchObject({ action_key: 'cancel_refused', from: 'cancel_requested', to: 'issued', reason: expect.stringContaining('72 hours') });
    expect((await m.einvoice(w, doc.id)).errors).toEqual([expect.objectContaining({ code: 'OperationPeriodOver' })]);
  });
});

describe('a buyer’s rejection request', () => {
  it('appears as rejection_requested with the reason in the timeline; keep returns it to issued', async () => {
    const w = await m.world();
    const doc = await validInvoice(m, w);
    const { uuid } = await m.einvoice(w, doc.id);
    await buyerRejects(m, uuid, 'Quantity does not match the delivery order');
    m.advance(HOUR + 1_000);
    await m.runJobs();
    const requested = await m.read(w, doc.id);
    expect(requested).toMatchObject({ state: 'rejection_requested', semantic: 'dispute' });
    expect(requested.timeline.at(-1)).toMatchObject({ action_key: 'request_rejection', from: 'issued', to: 'rejection_requested', reason: expect.stringContaining('Quantity does not match the delivery order') });
    expect(requested.available_transitions.map((d: any) => [d.action_key, d.allowed])).toEqual([
      ['keep', true],
      ['cancel', true],
    ]);
    expect(await m.einvoice(w, doc.id)).toMatchObject({ status: 'rejection_requested' });

    const kept = await m.transition(w, doc.id, 'keep', requested.revision, 'The buyer confirmed the quantity by phone');
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json().result.data.state).toBe('issued');
  });

  it('cancel from rejection_requested goes to LHDN like any cancellation', async () => {
    const w = await m.world();
    const doc = await validInvoice(m, w);
    const { uuid } = await m.einvoice(w, doc.id);
    await buyerRejects(m, uuid, 'Not our order');
    m.advance(HOUR + 1_000);
    await m.runJobs();
    const requested = await m.read(w, doc.id);
    expect(requested.state).toBe('rejection_requested');
    const res = await m.transition(w, doc.id, 'cancel', requested.revision, 'The buyer is right');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result.data.state).toBe('cancel_requested');
    await m.runJobs();
    expect((await m.read(w, doc.id)).state).toBe('cancelled');
    expect(m.sim.control.document(uuid)!.status).toBe('Cancelled');
  });

  it('a person cannot take a system edge', async () => {
    const w = await m.world();
    const draft = await m.draft(w);
    const submitted = await m.issue(w, draft);
    const res = await m.transition(w, draft.id, 'validate', submitted.revision);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error.data.problem.detail).toMatch(/not one of its exits \(none\)/);
  });
});
