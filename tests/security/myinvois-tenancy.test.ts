/**
 * MyInvois tenancy (issue 25): an organization never submits with another organization's token
 * (tokens are cached per organization and per secret: naming another's client id with any secret
 * asks MyInvois, which refuses a wrong secret), a seller TIN another organization already e-invoices
 * under is claimed only with credentials MyInvois accepts for this organization, and an invoice's
 * readers see LHDN's own error fields only, never the body of whatever answered.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { payoutEncryptionKey } from '../../src/config';
import { einvoicingSettings } from '../../src/db/schema';
import { seal } from '../../src/lib/secret-box';
import { createInvoiceWorld } from '../factories/receivables';
import { useTestApp } from '../helpers/app';
import { COMPLETE_SELLER, setSeller } from '../helpers/einvoicing';
import { PORTAL, useMyinvois } from '../helpers/myinvois-world';
import { clientOf, expectRefused, refusal } from '../helpers/settings';

const t = useTestApp();
/** When set, MyInvois's submission endpoint answers this instead (a misconfigured or hostile server). */
let hostile: (() => Response) | undefined;
const m = useMyinvois(t, {
  seams: {
    fetch: async (input, init) => {
      if (hostile && init?.method === 'POST' && String(input).endsWith('/documentsubmissions')) return hostile();
      return fetch(input, init);
    },
  },
});

describe('tokens are per organization and secret', () => {
  it("an organization naming another's client id with a guessed secret submits nothing, even while the other's token is cached", async () => {
    const a = await m.world();
    const issuedA = await m.issue(a, await m.draft(a));
    await m.runJobs();
    expect(await m.einvoice(a, issuedA.id)).toMatchObject({ status: 'submitted' });
    // B e-invoices under the same TIN with its own credentials, then (a row written before this
    // check existed) A's client id with a guessed secret.
    const b = await m.world({ tin: a.tin });
    const key = payoutEncryptionKey(t.deps.config);
    await t.db.update(einvoicingSettings).set({ clientId: a.clientId, clientSecretSealed: seal(key, 'guessed', b.org.id) }).where(eq(einvoicingSettings.organizationId, b.org.id));
    const issuedB = await m.issue(b, await m.draft(b));
    const submits = m.sim.control.requestCount('submit');
    await m.runJobs();
    expect(m.sim.control.requestCount('submit')).toBe(submits);
    // MyInvois refused B's token request: the document is back with LHDN's OAuth error.
    expect(await m.einvoice(b, issuedB.id)).toMatchObject({ status: 'invalid', errors: [expect.objectContaining({ code: 'invalid_client' })] });
    // A goes on with its own token.
    const again = await m.issue(a, await m.draft(a));
    await m.runJobs();
    expect(m.sim.control.submissionCount(again.reference, a.clientId)).toBe(1);
  });
});

describe("claiming a TIN another organization e-invoices under", () => {
  it('needs credentials MyInvois accepts for this organization (422 at /client_secret otherwise)', async () => {
    const a = await m.world();
    // A's TIN is verified: MyInvois has taken one of A's documents.
    await m.issue(a, await m.draft(a));
    await m.runJobs();
    const c = await createInvoiceWorld(t.db);
    await setSeller(t.db, c.org.id, { ...COMPLETE_SELLER, tin: a.tin });
    const update = (revision: number, body: Record<string, unknown>) => clientOf(t, c.org.owner.session, revision).settings.einvoicing.update(body);
    const base = { enabled: true, environment: 'simulator', api_base_url: m.url, portal_base_url: PORTAL };
    // A's client id with a guessed secret, and a client MyInvois does not know: refused, nothing saved.
    expectRefused(await refusal(update(1, { ...base, client_id: a.clientId, client_secret: 'guessed' })), 422, 'validation', '/client_secret');
    expectRefused(await refusal(update(1, { ...base, client_id: 'nobody-erp', client_secret: 'x' })), 422, 'validation', '/client_secret');
    expect(await clientOf(t, c.org.owner.session).settings.einvoicing.get()).toMatchObject({ enabled: false, revision: 1 });
    // Its own client, registered with MyInvois for that TIN: accepted.
    m.sim.control.registerClient({ clientId: `own-${c.org.id}`, clientSecret: 'own-secret', tin: a.tin });
    expect(await update(1, { ...base, client_id: `own-${c.org.id}`, client_secret: 'own-secret' })).toMatchObject({ enabled: true, client_secret_set: true });
    // Switching to A's client id afterwards is refused the same way.
    expectRefused(await refusal(update(2, { client_id: a.clientId, client_secret: 'guessed' })), 422, 'validation', '/client_secret');
  });
});

describe("an invoice's readers see LHDN's error fields only", () => {
  it('a page or unknown fields in the answer never reach the e-invoice status or the timeline', async () => {
    const w = await m.world();
    try {
      hostile = () => new Response('<html><body>INTERNAL-ADMIN db=10.0.0.5 password=hunter2</body></html>', { status: 400, headers: { 'content-type': 'text/html' } });
      const one = await m.issue(w, await m.draft(w));
      await m.runJobs();
      hostile = () =>
        Response.json({ error: { code: 'BadStructure', message: 'Invalid structured submission', target: 'documents', internal: 'INTERNAL-FIELD' }, debug: 'INTERNAL-DEBUG' }, { status: 400 });
      const two = await m.issue(w, await m.draft(w));
      await m.runJobs();
      const first = await m.einvoice(w, one.id);
      expect(first.errors).toEqual([{ code: 'http_400', detail: 'MyInvois answered 400 to POST /api/v1.0/documentsubmissions', pointer: null }]);
      const second = await m.einvoice(w, two.id);
      expect(second.errors).toEqual([{ code: 'BadStructure', detail: 'Invalid structured submission', pointer: 'documents' }]);
      const seen = JSON.stringify([first, second, await m.read(w, one.id), await m.read(w, two.id)]);
      expect(seen).not.toMatch(/INTERNAL|hunter2|<html/);
    } finally {
      hostile = undefined;
    }
  });
});
