/**
 * The e-invoicing signing certificate as uploaded (PEM only: certificate and private key, the key
 * optionally encrypted with a passphrase): parsed with node:crypto, its key checked against it, its
 * subject checked to name the organization's TIN or BRN (LHDN: organizationIdentifier = TIN,
 * serialNumber = BRN). PKCS#12 is not accepted (it would need a library).
 */
import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import type { EinvoiceCertificateFacts } from '../../db/schema/einvoicing';
import type { Refusals } from '../../lib/refusals';

export interface CertificateUpload {
  pem: string;
  private_key: string;
  passphrase?: string;
}

/** The subject's attribute values (`CN=…\nserialNumber=…` or comma-joined). */
function subjectValues(subject: string): string[] {
  return subject.split(/\n|,\s*(?=[A-Za-z0-9.]+=)/).map((part) => part.slice(part.indexOf('=') + 1).trim());
}

/** Checks the upload; answers its public facts, or undefined (refusals added at `/certificate/...`). */
export function checkCertificate(r: Refusals, upload: CertificateUpload, identity: { tin?: string | null; brn?: string | null }): EinvoiceCertificateFacts | undefined {
  if (upload.pem.length > 20_000) return void r.add('/certificate/pem', 'must be at most 20000 characters');
  if (upload.private_key.length > 20_000) return void r.add('/certificate/private_key', 'must be at most 20000 characters');
  let cert: X509Certificate;
  try {
    if (!upload.pem.includes('-----BEGIN CERTIFICATE-----')) throw new Error('not PEM');
    cert = new X509Certificate(upload.pem);
  } catch {
    return void r.add('/certificate/pem', 'is not a PEM X.509 certificate (-----BEGIN CERTIFICATE-----); PKCS#12 is not accepted');
  }
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: upload.private_key, format: 'pem', ...(upload.passphrase ? { passphrase: upload.passphrase } : {}) });
  } catch {
    return void r.add('/certificate/private_key', 'is not a PEM private key this passphrase opens');
  }
  if (!cert.checkPrivateKey(key)) return void r.add('/certificate/private_key', 'is not the key of this certificate');
  const values = subjectValues(cert.subject);
  const wanted = [identity.tin, identity.brn].filter((v): v is string => Boolean(v && v.trim())).map((v) => v.trim());
  if (!wanted.length) return void r.add('/certificate/pem', "cannot be checked: the organization's TIN and BRN are not set (organization.profile)");
  if (!wanted.some((w) => values.includes(w))) {
    return void r.add('/certificate/pem', `its subject names neither the organization's TIN nor its BRN (${wanted.join(', ')})`);
  }
  return { subject: cert.subject.replace(/\n/g, ', '), issuer: cert.issuer.replace(/\n/g, ', '), serial: cert.serialNumber, not_after: new Date(cert.validTo).toISOString() };
}
