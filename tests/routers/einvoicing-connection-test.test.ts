import { describe, expect, it } from 'vitest';
import { payoutEncryptionKey } from '../../src/config';
import { MyInvoisError } from '../../src/integrations/myinvois/client';
import { outboundOf } from '../../src/services/einvoicing/build-client';
import { connectionFor } from '../../src/services/einvoicing/connection';
import { createTestOrganization } from '../factories/organization';
import { useTestApp } from '../helpers/app';
import { COMPLETE_SELLER, setSeller } from '../helpers/einvoicing';
import { useMyinvois, type MyinvoisWorld } from '../helpers/myinvois-world';
import { clientOf, expectRefused, refusal } from '../helpers/settings';

/**
 * settings.einvoicing.testConnection against the simulator: a token with the saved credentials, then
 * the seller's TIN with its BRN; each failure says which step and what to do. A changed secret is
 * used at once: no token of the old secret serves the test or a job.
 */

const t = useTestApp();
const h = useMyinvois(t);

const testConnection = (token: string) => clientOf(t, token).settings.einvoicing.testConnection();
const revisionOf = async (w: MyinvoisWorld) => (await clientOf(t, w.org.owner.session).settings.einvoicing.get()).revision;
const update = async (w: MyinvoisWorld, input: Record<string, unknown>) => clientOf(t, w.org.owner.session, await revisionOf(w)).settings.einvoicing.update(input);

describe('settings.einvoicing.testConnection', () => {
  it('passes every step with the saved credentials and a TIN MyInvois knows', async () => {
    const w = await h.world();
    expect(await testConnection(w.org.owner.session)).toEqual({
      ok: true,
      steps: [
        { key: 'credentials', ok: true, detail: `Logging in with client id ${w.clientId}.` },
        { key: 'token', ok: true, detail: `MyInvois at ${h.url} gave a token.` },
        { key: 'taxpayer', ok: true, detail: `MyInvois knows TIN ${w.tin} with BRN ${COMPLETE_SELLER.registration_no}.` },
      ],
    });
  });

  it('a changed secret takes effect at once: the test and the jobs never use a token of the old secret', async () => {
    const w = await h.world();
    expect((await testConnection(w.org.owner.session)).ok).toBe(true);
    const deps = { key: payoutEncryptionKey(t.deps.config), outbound: outboundOf(t.deps) };
    // A job's connection with the good secret: its token is cached.
    const before = await connectionFor(t.db, w.org.id, deps, h.now());
    if ('missing' in before) throw new Error(before.missing);
    expect(await before.client.validateTin(w.tin, 'BRN', COMPLETE_SELLER.registration_no!)).toBe(true);

    await update(w, { client_secret: 'not-the-secret' });
    const failed = await testConnection(w.org.owner.session);
    expect(failed.ok).toBe(false);
    expect(failed.steps.map((s: { key: string; ok: boolean }) => [s.key, s.ok])).toEqual([
      ['credentials', true],
      ['token', false],
    ]);
    expect(failed.steps[1]!.detail).toBe(`MyInvois refused client id ${w.clientId} with the saved secret (invalid_client): copy the client id and secret again from the MyInvois portal and save them.`);
    const after = await connectionFor(t.db, w.org.id, deps, h.now());
    if ('missing' in after) throw new Error(after.missing);
    const error = await after.client.validateTin(w.tin, 'BRN', COMPLETE_SELLER.registration_no!).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MyInvoisError);
    expect((error as MyInvoisError).code).toBe('invalid_client');

    await update(w, { client_secret: `secret-${w.clientId}` });
    expect((await testConnection(w.org.owner.session)).ok).toBe(true);
  });

  it('says MyInvois does not know the TIN with this BRN', async () => {
    const w = await h.world();
    await setSeller(t.db, w.org.id, { ...COMPLETE_SELLER, tin: w.tin, registration_no: '199901000001' });
    const answer = await testConnection(w.org.owner.session);
    expect(answer.ok).toBe(false);
    expect(answer.steps.at(-1)).toEqual({
      key: 'taxpayer',
      ok: false,
      detail: `MyInvois does not know TIN ${w.tin} with BRN 199901000001: check both in the organization's profile against the MyInvois portal.`,
    });
  });

  it('says an address that does not answer could not be reached', async () => {
    const w = await h.world();
    const closed = new URL(h.url);
    closed.port = '1';
    await update(w, { api_base_url: closed.origin, client_secret: `secret-${w.clientId}` });
    const answer = await testConnection(w.org.owner.session);
    expect(answer.ok).toBe(false);
    expect(answer.steps[1]).toMatchObject({ key: 'token', ok: false });
    expect(answer.steps[1]!.detail).toMatch(new RegExp(`^MyInvois could not be reached at ${closed.origin.replace(/\./g, '\\.')}: .*Check the environment and API address in the e-invoicing settings\\.$`));
  });

  it('says what to save when the credentials or the TIN are missing, without asking MyInvois', async () => {
    const org = await createTestOrganization(t.db);
    expect(await testConnection(org.owner.session)).toEqual({
      ok: false,
      steps: [{ key: 'credentials', ok: false, detail: 'E-invoicing was never set up: save the MyInvois client id and secret in the e-invoicing settings.' }],
    });
    await clientOf(t, org.owner.session, 1).settings.einvoicing.update({ environment: 'simulator', api_base_url: h.url, client_id: 'erp-x', client_secret: 'secret-x' });
    const noTin = await testConnection(org.owner.session);
    expect(noTin.steps).toEqual([{ key: 'credentials', ok: false, detail: "Save the organization's TIN and BRN in the profile: the test checks them at MyInvois." }]);
  });

  it('refuses the intermediary login while the operator has configured no intermediary system (422 at /login), and the checklist says so', async () => {
    const w = await h.world();
    const refused = expectRefused(await refusal(update(w, { login: 'intermediary' })), 422, 'validation', '/login');
    expect(refused.fieldErrors![0]!.detail).toMatch(/^is not available: the operator has configured no MyInvois intermediary system/);
  });

  it('is session only (API key: 403 person_required) and needs organization.settings.manage (403)', async () => {
    const w = await h.world();
    expectRefused(await refusal(testConnection(w.org.owner.apiKey)), 403, 'person_required');
    expectRefused(await refusal(testConnection(w.clerk.session)), 403, 'forbidden');
  });
});
