import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { einvoicingSettings } from '../../src/db/schema';
import { verifySignature } from '../../src/integrations/myinvois/signature';
import { createTestOrganization } from '../factories/organization';
import { useTestApp } from '../helpers/app';
import { makeCertificate, SELLER_SUBJECT, setSeller, type TestCertificate } from '../helpers/einvoicing';
import { SELLER_TIN, useMyinvois } from '../helpers/myinvois-world';
import { clientOf, expectRefused, refusal } from '../helpers/settings';

/**
 * The signing certificate uploaded as a PKCS#12 file (.p12 / .pfx, base64, with its passphrase), as
 * Malaysian CAs issue them, made here with openssl: accepted and sealed like a PEM upload, refused at
 * /certificate/pkcs12 with a wrong passphrase, a file that is not PKCS#12 or not base64, or a subject
 * naming another organization; a version 1.1 document signed with its key is validated by MyInvois.
 */

const t = useTestApp();
const m = useMyinvois(t);

/** `openssl pkcs12 -export` of the certificate and its key, base64 (OpenSSL's defaults: PBES2, AES-256, SHA-256 MAC). */
function pkcs12Of(cert: TestCertificate, passphrase: string, extra: string[] = []): string {
  const dir = mkdtempSync(join(tmpdir(), 'einvoice-p12-'));
  try {
    writeFileSync(join(dir, 'c.pem'), cert.pem);
    writeFileSync(join(dir, 'k.pem'), cert.private_key);
    execFileSync('openssl', ['pkcs12', '-export', '-in', join(dir, 'c.pem'), '-inkey', join(dir, 'k.pem'), '-out', join(dir, 'f.p12'), '-passout', `pass:${passphrase}`, ...extra], { stdio: 'ignore' });
    return readFileSync(join(dir, 'f.p12')).toString('base64');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('settings.einvoicing.update with a PKCS#12 certificate', () => {
  it('accepts it: the certificate’s public facts answered, the file and passphrase never stored or answered', async () => {
    const org = await createTestOrganization(t.db);
    await setSeller(t.db, org.id);
    const cert = makeCertificate(SELLER_SUBJECT);
    const file = pkcs12Of(cert, 'p12 pass');
    const answer = await clientOf(t, org.owner.session, 1).settings.einvoicing.update({ certificate: { pkcs12: file, passphrase: 'p12 pass' }, version: '1.1' });
    expect(answer).toMatchObject({ version: '1.1', revision: 2 });
    expect(answer.certificate!.subject).toContain('organizationIdentifier=C1234567890');
    const [row] = await t.db.select().from(einvoicingSettings).where(eq(einvoicingSettings.organizationId, org.id));
    const stored = JSON.stringify(row) + JSON.stringify(answer);
    for (const secret of ['p12 pass', file.slice(0, 200), 'PRIVATE KEY']) expect(stored).not.toContain(secret);
  });

  it('refuses a wrong passphrase, a file that is not PKCS#12, text that is not base64 and a subject naming another organization (422 at /certificate/pkcs12)', async () => {
    const org = await createTestOrganization(t.db);
    await setSeller(t.db, org.id);
    const update = clientOf(t, org.owner.session, 1).settings.einvoicing.update;
    const file = pkcs12Of(makeCertificate(SELLER_SUBJECT), 'right');
    const wrong = expectRefused(await refusal(update({ certificate: { pkcs12: file, passphrase: 'wrong' } })), 422, 'validation', '/certificate/pkcs12');
    expect(wrong.fieldErrors![0]!.detail).toBe('could not be used: not a PKCS#12 file, or the password is wrong');
    expectRefused(await refusal(update({ certificate: { pkcs12: Buffer.from('not a p12 file').toString('base64'), passphrase: 'x' } })), 422, 'validation', '/certificate/pkcs12');
    const text = expectRefused(await refusal(update({ certificate: { pkcs12: '-----BEGIN CERTIFICATE-----', passphrase: 'x' } })), 422, 'validation', '/certificate/pkcs12');
    expect(text.fieldErrors![0]!.detail).toBe('must be the .p12 / .pfx file in base64');
    const stranger = pkcs12Of(makeCertificate('/CN=Someone Else/O=Other Sdn Bhd/C=MY/serialNumber=199901000001/organizationIdentifier=C9999999999'), 'x');
    const other = expectRefused(await refusal(update({ certificate: { pkcs12: stranger, passphrase: 'x' } })), 422, 'validation', '/certificate/pkcs12');
    expect(other.fieldErrors![0]!.detail).toMatch(/^its subject names neither the organization's TIN nor its BRN/);
    expectRefused(await refusal((update as (input: unknown) => Promise<unknown>)({ certificate: { pkcs12: file } })), 400, 'invalid_request');
  });

  it('a version 1.1 document signed with the PKCS#12 key is validated by MyInvois', async () => {
    const cert = makeCertificate(SELLER_SUBJECT);
    const w = await m.world({ version: '1.1', certificate: { pkcs12: pkcs12Of(cert, 'sign me'), passphrase: 'sign me' }, tin: SELLER_TIN });
    const draft = await m.draft(w);
    await m.issue(w, draft);
    await m.runJobs();
    m.advance(15_000);
    await m.runJobs();
    expect(await m.einvoice(w, draft.id)).toMatchObject({ status: 'valid', errors: [] });
    const [row] = await m.rows(draft.id);
    expect(verifySignature(row!.document!)).toEqual({ ok: true });
  });
});
