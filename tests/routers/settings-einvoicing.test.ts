import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { einvoicingSettings } from '../../src/db/schema';
import { createTestMember, createTestOrganization, type TestOrganization } from '../factories/organization';
import { useTestApp } from '../helpers/app';
import { COMPLETE_SELLER, makeCertificate, SELLER_SUBJECT, setSeller } from '../helpers/einvoicing';
import { clientOf, expectRefused, historyOf, refusal, type LooseCaller } from '../helpers/settings';

/** settings.einvoicing.get|update: LHDN MyInvois settings, secrets sealed at rest and never answered. */

const t = useTestApp();
const loose = (token: string, revision?: number): LooseCaller => clientOf(t, token, revision);
const settings = (org: TestOrganization, revision?: number) => clientOf(t, org.owner.session, revision).settings;

const DEFAULTS = {
  enabled: false,
  login: 'own',
  environment: 'sandbox',
  api_base_url: 'https://preprod-api.myinvois.hasil.gov.my',
  portal_base_url: 'https://preprod.myinvois.hasil.gov.my',
  client_id: null,
  client_secret_set: false,
  certificate: null,
  version: '1.0',
  revision: 1,
};

describe('settings.einvoicing', () => {
  it('answers the defaults at revision 1, the URLs of each environment and their overrides, with its history', async () => {
    const org = await createTestOrganization(t.db);
    expect(await settings(org).einvoicing.get()).toEqual(DEFAULTS);
    const res = await t.app.inject({
      method: 'POST',
      url: '/trpc/settings.einvoicing.update',
      headers: { authorization: `Bearer ${org.owner.session}`, 'content-type': 'application/json', 'if-match': '"1"' },
      payload: JSON.stringify({ environment: 'production' }),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers.etag).toBe('"2"');
    const production = { ...DEFAULTS, environment: 'production', api_base_url: 'https://api.myinvois.hasil.gov.my', portal_base_url: 'https://myinvois.hasil.gov.my', revision: 2 };
    expect(res.json().result.data).toEqual(production);
    const sim = await settings(org, 2).einvoicing.update({ environment: 'simulator' });
    expect([sim.api_base_url, sim.portal_base_url]).toEqual(['http://127.0.0.1:8765', 'http://127.0.0.1:8765']);
    const moved = await settings(org, 3).einvoicing.update({ api_base_url: 'http://127.0.0.1:9999' });
    expect([moved.api_base_url, moved.portal_base_url]).toEqual(['http://127.0.0.1:9999', 'http://127.0.0.1:8765']);
    const back = await settings(org, 4).einvoicing.update({ api_base_url: null });
    expect(back.api_base_url).toBe('http://127.0.0.1:8765');
    const history = await historyOf(t, org.owner.session, 'einvoicing', org.id);
    expect(history.map((h) => [h.before?.revision, h.after?.revision])).toEqual([[1, 2], [2, 3], [3, 4], [4, 5]]);
    expect(await settings(await createTestOrganization(t.db)).einvoicing.get()).toEqual(DEFAULTS);
  });

  it('keeps the client secret and the certificate sealed: answered only as client_secret_set and public facts, no plaintext in the row or the history', async () => {
    const org = await createTestOrganization(t.db);
    await setSeller(t.db, org.id);
    const cert = makeCertificate(SELLER_SUBJECT, 'pass phrase 1');
    const answer = await settings(org, 1).einvoicing.update({
      client_id: 'client-abc',
      client_secret: 'very-secret-value-123',
      certificate: { ...cert, passphrase: 'pass phrase 1' },
      version: '1.1',
    });
    expect(answer).toMatchObject({ client_id: 'client-abc', client_secret_set: true, version: '1.1', revision: 2 });
    expect(answer.certificate).toMatchObject({ subject: expect.stringContaining('organizationIdentifier=C1234567890'), issuer: expect.stringContaining('CN=Contoh Software') });
    expect(answer.certificate!.serial).toMatch(/^[0-9A-F]+$/);
    expect(Date.parse(answer.certificate!.not_after)).toBeGreaterThan(Date.now());
    const text = JSON.stringify(answer) + JSON.stringify(await settings(org).einvoicing.get()) + JSON.stringify(await historyOf(t, org.owner.session, 'einvoicing', org.id));
    for (const secret of ['very-secret-value-123', 'pass phrase 1', 'PRIVATE KEY', 'BEGIN CERTIFICATE']) expect(text).not.toContain(secret);
    const [row] = await t.db.select().from(einvoicingSettings).where(eq(einvoicingSettings.organizationId, org.id));
    const stored = JSON.stringify(row);
    for (const secret of ['very-secret-value-123', 'pass phrase 1', 'PRIVATE KEY', 'BEGIN CERTIFICATE', cert.pem.split('\n')[1]]) expect(stored).not.toContain(secret);
    expect(row!.clientSecretSealed).toMatch(/^v1\./);
    expect(row!.certificateSealed).toMatch(/^v1\./);
    // Removing them.
    const cleared = await settings(org, 2).einvoicing.update({ client_secret: null, certificate: null, version: '1.0' });
    expect(cleared).toMatchObject({ client_secret_set: false, certificate: null, version: '1.0' });
  });

  it("checks the certificate: PEM, its own key, a subject naming the organization's TIN or BRN; version 1.1 needs one", async () => {
    const org = await createTestOrganization(t.db);
    await setSeller(t.db, org.id);
    const update = settings(org, 1).einvoicing.update;
    const stranger = makeCertificate('/CN=Someone Else/O=Other Sdn Bhd/C=MY/serialNumber=199901000001/organizationIdentifier=C9999999999');
    expectRefused(await refusal(update({ certificate: stranger })), 422, 'validation', '/certificate/pem');
    const mine = makeCertificate(SELLER_SUBJECT);
    expectRefused(await refusal(update({ certificate: { pem: 'MIIB...base64 pkcs12', private_key: mine.private_key } })), 422, 'validation', '/certificate/pem');
    expectRefused(await refusal(update({ certificate: { pem: mine.pem, private_key: stranger.private_key } })), 422, 'validation', '/certificate/private_key');
    const locked = makeCertificate(SELLER_SUBJECT, 'right');
    expectRefused(await refusal(update({ certificate: { ...locked, passphrase: 'wrong' } })), 422, 'validation', '/certificate/private_key');
    expectRefused(await refusal(update({ version: '1.1' })), 422, 'validation', '/version');
    // BRN alone in the subject is enough.
    const brnOnly = makeCertificate('/CN=Contoh/C=MY/serialNumber=202001234567');
    expect((await update({ certificate: brnOnly, version: '1.1' })).version).toBe('1.1');
    // Without a seller TIN or BRN the subject cannot be checked.
    const bare = await createTestOrganization(t.db);
    expectRefused(await refusal(settings(bare, 1).einvoicing.update({ certificate: mine })), 422, 'validation', '/certificate/pem');
  });

  it('turns on only with the seller identity complete (422 listing what is missing)', async () => {
    const org = await createTestOrganization(t.db);
    const e = await refusal(settings(org, 1).einvoicing.update({ enabled: true }));
    expectRefused(e, 422, 'validation');
    const pointers = e.fieldErrors!.map((f) => f.pointer);
    for (const p of ['/seller/tin', '/seller/registration_no', '/seller/msic', '/seller/phone', '/seller/address/line1', '/seller/address/city', '/seller/address/state']) expect(pointers).toContain(p);
    await setSeller(t.db, org.id, { ...COMPLETE_SELLER, phone: '012-345 6789', address: { ...COMPLETE_SELLER.address, state: '17' } });
    const again = await refusal(settings(org, 1).einvoicing.update({ enabled: true }));
    expect(again.fieldErrors!.map((f) => f.pointer)).toEqual(['/seller/phone', '/seller/address/state']);
    await setSeller(t.db, org.id);
    // And only with the MyInvois client credentials, which it then keeps.
    const creds = await refusal(settings(org, 1).einvoicing.update({ enabled: true }));
    expect(creds.fieldErrors!.map((f) => f.pointer)).toEqual(['/client_id', '/client_secret']);
    expect((await settings(org, 1).einvoicing.update({ enabled: true, client_id: 'erp', client_secret: 's3cret' })).enabled).toBe(true);
    expectRefused(await refusal(settings(org, 2).einvoicing.update({ client_secret: null })), 422, 'validation', '/client_secret');
    expect((await settings(org, 2).einvoicing.update({ enabled: false, client_secret: null })).client_secret_set).toBe(false);
  });

  it('refuses wrong types and unknown fields (400), blank and too long (422), a stale (409) or missing (428) If-Match, a caller without the permission (403)', async () => {
    const org = await createTestOrganization(t.db);
    const update = settings(org, 1).einvoicing.update;
    const l = loose(org.owner.session, 1).settings.einvoicing.update;
    expectRefused(await refusal(l({ enabled: 'true' })), 400, 'invalid_request', '/enabled');
    expectRefused(await refusal(l({ environment: 'staging' })), 400, 'invalid_request', '/environment');
    expectRefused(await refusal(l({ version: '1.2' })), 400, 'invalid_request', '/version');
    expectRefused(await refusal(l({ client_id: 42 })), 400, 'invalid_request', '/client_id');
    expectRefused(await refusal(l({ certificate: { pem: 'x', private_key: 'y', pfx: 'z' } })), 400, 'invalid_request', '/certificate/pfx');
    expectRefused(await refusal(l({ colour: 'red' })), 400, 'invalid_request', '/colour');
    expectRefused(await refusal(update({ client_id: '  ' })), 422, 'validation', '/client_id');
    expectRefused(await refusal(update({ client_secret: '' })), 422, 'validation', '/client_secret');
    expectRefused(await refusal(update({ client_id: 'x'.repeat(201) })), 422, 'validation', '/client_id');
    expectRefused(await refusal(update({ client_secret: 'x'.repeat(501) })), 422, 'validation', '/client_secret');
    expectRefused(await refusal(update({ api_base_url: 'ftp://example.test' })), 422, 'validation', '/api_base_url');
    expectRefused(await refusal(update({ portal_base_url: `https://example.test/${'a'.repeat(500)}` })), 422, 'validation', '/portal_base_url');
    expectRefused(await refusal(settings(org, 2).einvoicing.update({ client_id: 'a' })), 409, 'revision_mismatch', '/headers/if-match');
    expectRefused(await refusal(settings(org).einvoicing.update({ client_id: 'a' })), 428, 'revision_required', '/headers/if-match');
    const viewer = await createTestMember(t.db, org.id, { role: 'viewer' });
    expectRefused(await refusal(clientOf(t, viewer.session, 1).settings.einvoicing.update({ client_id: 'a' })), 403, 'forbidden');
    const noKey = await createTestMember(t.db, org.id, { role: 'owner', keyPermissions: [] });
    expectRefused(await refusal(clientOf(t, noKey.apiKey).settings.einvoicing.get()), 403, 'forbidden');
    // Another organization's settings are its own: this one's change does not reach it.
    const other = await createTestOrganization(t.db);
    await settings(org, 1).einvoicing.update({ client_id: 'mine' });
    expect((await settings(other).einvoicing.get()).client_id).toBeNull();
    expect((await settings(org).einvoicing.get()).revision).toBe(2);
  });
});
