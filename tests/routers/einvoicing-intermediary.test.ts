import { describe, expect, it } from 'vitest';
import { createTestOrganization } from '../factories/organization';
import { useTestApp } from '../helpers/app';
import { COMPLETE_SELLER, setSeller } from '../helpers/einvoicing';
import { useMyinvois, type MyinvoisWorld } from '../helpers/myinvois-world';
import { clientOf, expectRefused, refusal } from '../helpers/settings';

/**
 * Intermediary login: an organization that appointed the operator in MyTax e-invoices through the
 * operator's intermediary system (MYINVOIS_INTERMEDIARY_CLIENT_ID and _SECRET), the token asked with
 * `onbehalfof: <its TIN>`, with no client secret of its own. The simulator, as LHDN, refuses an
 * intermediary acting for a taxpayer that did not appoint it; tokens are kept per organization and TIN.
 */

const OPERATOR = { clientId: 'operator-intermediary', clientSecret: 'operator-intermediary-secret' };
const t = useTestApp({ MYINVOIS_INTERMEDIARY_CLIENT_ID: OPERATOR.clientId, MYINVOIS_INTERMEDIARY_CLIENT_SECRET: OPERATOR.clientSecret });
const h = useMyinvois(t);
const appointedBy: string[] = [];

const revisionOf = async (w: MyinvoisWorld) => (await clientOf(t, w.org.owner.session).settings.einvoicing.get()).revision;
/** The world's organization switches to the intermediary login, its own credentials removed. */
async function viaIntermediary(w: MyinvoisWorld, appointed = true) {
  if (appointed) appointedBy.push(w.tin);
  h.sim.control.registerClient({ ...OPERATOR, tin: 'C00000000000', onBehalfOf: [...appointedBy] });
  return clientOf(t, w.org.owner.session, await revisionOf(w)).settings.einvoicing.update({ login: 'intermediary', client_id: null, client_secret: null });
}

describe('e-invoicing through the operator’s intermediary system', () => {
  it('logs in on behalf of the organization’s TIN without a secret of its own: the connection test passes and documents of two organizations validate, each under its own TIN', async () => {
    const a = await h.world();
    const b = await h.world();
    for (const w of [a, b]) {
      const settings = await viaIntermediary(w);
      expect(settings).toMatchObject({ enabled: true, login: 'intermediary', client_id: null, client_secret_set: false });
      expect(await clientOf(t, w.org.owner.session).settings.einvoicing.testConnection()).toEqual({
        ok: true,
        steps: [
          { key: 'credentials', ok: true, detail: `Logging in as the operator's intermediary system on behalf of TIN ${w.tin}.` },
          { key: 'token', ok: true, detail: `MyInvois at ${h.url} gave a token.` },
          { key: 'taxpayer', ok: true, detail: `MyInvois knows TIN ${w.tin} with BRN ${COMPLETE_SELLER.registration_no}.` },
        ],
      });
      const readiness = await clientOf(t, w.org.owner.session).organization.readiness();
      expect(readiness.areas.find((x: { key: string }) => x.key === 'einvoicing')).toMatchObject({ ready: true });
    }
    const drafts = [await h.draft(a), await h.draft(b)];
    const issued = [await h.issue(a, drafts[0]), await h.issue(b, drafts[1])];
    await h.runJobs();
    h.advance(15_000);
    await h.runJobs();
    for (const [i, w] of [a, b].entries()) {
      expect(await h.einvoice(w, drafts[i].id)).toMatchObject({ status: 'valid', errors: [] });
      // Sent by the intermediary (the two organizations' first invoices share their number), never by the organization's former client.
      expect(h.sim.control.submissionCount(issued[i].reference, OPERATOR.clientId)).toBe(issued.filter((d) => d.reference === issued[i].reference).length);
      expect(h.sim.control.submissionCount(issued[i].reference, w.clientId)).toBe(0);
    }

    // Another organization naming a TIN already e-invoiced here cannot act for it through the intermediary.
    const squatter = await createTestOrganization(t.db);
    await setSeller(t.db, squatter.id, { ...COMPLETE_SELLER, tin: a.tin });
    const refused = expectRefused(
      await refusal(clientOf(t, squatter.owner.session, 1).settings.einvoicing.update({ enabled: true, login: 'intermediary', environment: 'simulator', api_base_url: h.url })),
      422,
      'validation',
      '/login',
    );
    expect(refused.fieldErrors![0]!.detail).toContain(`cannot act for TIN ${a.tin}: it is already e-invoiced by another organization`);
  });

  it('says exactly what failed when the taxpayer has not appointed the operator (unauthorized_client)', async () => {
    const w = await h.world();
    await viaIntermediary(w, false);
    const answer = await clientOf(t, w.org.owner.session).settings.einvoicing.testConnection();
    expect(answer.ok).toBe(false);
    expect(answer.steps[1]).toEqual({
      key: 'token',
      ok: false,
      detail: `MyInvois refused to let the operator's intermediary system act for TIN ${w.tin} (unauthorized_client): appoint the operator as intermediary in MyTax, or log in with the organization's own client id and secret.`,
    });
  });

  it('changing the login is a person’s decision (API key: 403 person_required)', async () => {
    const w = await h.world();
    const res = await t.app.inject({
      method: 'POST',
      url: '/trpc/settings.einvoicing.update',
      headers: { authorization: `Bearer ${w.org.owner.apiKey}`, 'content-type': 'application/json', 'if-match': `"${await revisionOf(w)}"`, 'idempotency-key': `login-${w.org.id}` },
      payload: JSON.stringify({ login: 'intermediary' }),
    });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.body).toContain('person_required');
  });
});
