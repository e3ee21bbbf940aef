import type { CertificateUpload } from '../../src/services/einvoicing/certificate';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect } from 'vitest';
import { customers, einvoices, jobs } from '../../src/db/schema';
import { createSimulator, type Simulator, type SimulatorOptions } from '../../src/integrations/myinvois/simulator';
import { JobRunner } from '../../src/jobs/runner';
import { buildJobRegistry } from '../../src/jobs/standard-jobs';
import type { MyinvoisDeps } from '../../src/services/einvoicing/connection';
import { createTestMember, type TestMember } from '../factories/organization';
import { createInvoiceWorld, type InvoiceWorld } from '../factories/receivables';
import type { TestApp } from './app';
import { COMPLETE_SELLER, setSeller } from './einvoicing';
import { httpHelpers } from './http';
import { clientOf } from './settings';

/**
 * An organization e-invoicing through an in-process MyInvois simulator on one test clock: the
 * simulator listens on a free port, the organization's settings point at it, and `runJobs()` runs
 * the job table's due jobs (the MyInvois ones among them) at the clock's time. The clock starts at a
 * fixed instant and only moves when a test says so (`advance`).
 */

export const SELLER_TIN = COMPLETE_SELLER.tin!;
export const BUYER = { tin: 'C9876543210', brn: '201901234567', name: 'Pelanggan Berhad' };
export const PORTAL = 'https://portal.simulator.test';

export interface MyinvoisWorld extends InvoiceWorld {
  accountant: TestMember;
  clerk: TestMember;
  clientId: string;
  /** The organization's TIN: its own in every world, so worlds never see each other's documents at LHDN. */
  tin: string;
}

export interface MyinvoisHarness {
  sim: Simulator;
  url: string;
  now(): Date;
  advance(ms: number): Date;
  /** One batch of due jobs at the clock's time (repeated while a batch is full). */
  runJobs(): Promise<void>;
  /** The runner of another process on the same database (PostgreSQL tests). */
  runner(seams?: Partial<Omit<MyinvoisDeps, 'key'>>): JobRunner;
  world(opts?: { version?: '1.0' | '1.1'; certificate?: CertificateUpload; tin?: string }): Promise<MyinvoisWorld>;
  /** Issues a draft as the accountant (session, If-Match): the tRPC answer's document. */
  issue(w: MyinvoisWorld, doc: { id: string; revision: number }): Promise<any>;
  draft(w: MyinvoisWorld, body?: Record<string, unknown>): Promise<any>;
  read(w: MyinvoisWorld, id: string): Promise<any>;
  einvoice(w: MyinvoisWorld, id: string): Promise<any>;
  transition(w: MyinvoisWorld, id: string, action_key: string, revision: number, reason?: string, token?: string): Promise<{ statusCode: number; body: string; json(): any }>;
  rows(documentId: string): Promise<(typeof einvoices.$inferSelect)[]>;
}

export function useMyinvois(t: TestApp, opts: { start?: string; seams?: Partial<Omit<MyinvoisDeps, 'key'>>; rateLimits?: SimulatorOptions['rateLimits'] } = {}): MyinvoisHarness {
  let clock = new Date(opts.start ?? '2026-08-03T02:20:00Z');
  const sim = createSimulator({ clock: () => clock, validationDelayMs: 5_000, ...(opts.rateLimits ? { rateLimits: opts.rateLimits } : {}) });
  const h = { sim, url: '' } as MyinvoisHarness;
  let runner: JobRunner;
  let n = 0;

  beforeAll(async () => {
    h.url = await sim.app.listen({ port: 0, host: '127.0.0.1' });
    t.setNow(clock);
    runner = h.runner(opts.seams);
  });
  afterAll(async () => {
    t.setNow(undefined);
    await sim.app.close();
  });

  const { post, get } = httpHelpers(t);
  h.now = () => clock;
  h.advance = (ms) => {
    clock = new Date(clock.getTime() + ms);
    t.setNow(clock);
    return clock;
  };
  h.runner = (seams) =>
    new JobRunner({
      db: t.db,
      registry: buildJobRegistry({ ...t.deps.config, MYINVOIS_TIMEOUT_MS: 2_000 }, seams ? { myinvois: seams } : {}),
      random: () => 0,
      batchSize: 50,
    });
  h.runJobs = async () => {
    // Until nothing is due: a job's follow-up (the sweep's enqueues) runs in the same call.
    for (let i = 0; i < 8; i++) {
      const r = await runner.runOnce(clock);
      if (r.claimed === 0) return;
    }
  };
  h.world = async (o = {}) => {
    const w = await createInvoiceWorld(t.db);
    const accountant = await createTestMember(t.db, w.org.id, { role: 'accountant' });
    const clerk = await createTestMember(t.db, w.org.id, { role: 'clerk' });
    await t.db
      .update(customers)
      .set({ tin: BUYER.tin, legalName: BUYER.name, registrationType: 'brn', registrationNo: BUYER.brn, phone: '+60355551234', address: { line1: 'No. 1, Jalan Plumbum', city: 'Shah Alam', postcode: '40000', state: '10' } })
      .where(eq(customers.id, w.customer.id));
    n += 1;
    const tin = o.tin ?? `C${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}${n % 10}0`;
    await setSeller(t.db, w.org.id, { ...COMPLETE_SELLER, tin });
    const clientId = `erp-${n}-${w.org.id.slice(0, 8)}`;
    sim.control.registerClient({ clientId, clientSecret: `secret-${clientId}`, tin });
    sim.control.registerTaxpayer({ tin, idType: 'BRN', idValue: COMPLETE_SELLER.registration_no!, name: COMPLETE_SELLER.name! });
    sim.control.registerTaxpayer({ tin: BUYER.tin, idType: 'BRN', idValue: BUYER.brn, name: BUYER.name });
    const settings = await clientOf(t, w.org.owner.session, 1).settings.einvoicing.update({
      enabled: true,
      environment: 'simulator',
      api_base_url: h.url,
      portal_base_url: PORTAL,
      client_id: clientId,
      client_secret: `secret-${clientId}`,
      ...(o.certificate ? { certificate: o.certificate } : {}),
      ...(o.version ? { version: o.version } : {}),
    });
    expect(settings).toMatchObject({ enabled: true, environment: 'simulator', client_secret_set: true });
    return { ...w, accountant, clerk, clientId, tin };
  };
  h.draft = async (w, body = {}) => {
    const res = await post('/v1/receivables/invoices', w.body(body), w.clerk.apiKey);
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };
  h.read = async (w, id) => {
    const res = await get(`/v1/receivables/invoices/${id}`, w.accountant.apiKey);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  h.einvoice = async (w, id) => {
    const res = await get(`/v1/receivables/invoices/${id}/einvoice`, w.accountant.apiKey);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  h.transition = (w, id, action_key, revision, reason, token) =>
    t.app.inject({
      method: 'POST',
      url: '/trpc/receivables.invoices.transition',
      headers: { authorization: `Bearer ${token ?? w.accountant.session}`, 'content-type': 'application/json', 'if-match': `"${revision}"` },
      payload: JSON.stringify({ id, action_key, ...(reason !== undefined ? { reason } : {}) }),
    });
  h.issue = async (w, doc) => {
    const res = await h.transition(w, doc.id, 'issue', doc.revision);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().result.data;
  };
  h.rows = (documentId) => t.db.select().from(einvoices).where(eq(einvoices.documentId, documentId));
  return h;
}

/** The job rows of one kind for an organization (assertions on the outbox). */
export async function jobsOf(t: TestApp, organizationId: string) {
  return t.db.select().from(jobs).where(eq(jobs.organizationId, organizationId));
}
