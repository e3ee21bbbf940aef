/**
 * The e-invoicing signing certificate as uploaded (PEM only: certificate and private key, the key
 * optionally encrypted with a passphrase): parsed with node:crypto, its key checked against it, its
 * subject checked to name the organization's TIN or BRN (LHDN: organizationIdentifier = TIN,
 * serialNumber = BRN). PKCS#12 is not accepted (it would need a library).
 * The key's encryption names its own cost, so it is bounded before decryption (lib/key-encryption.ts)
 * and the key is opened in a worker thread with a time limit, never on the event loop.
 */
import { X509Certificate } from 'node:crypto';
import type { EinvoiceCertificateFacts } from '../../db/schema/einvoicing';
import { boundedWorker } from '../../lib/bounded-worker';
import { keyEncryptionProblem } from '../../lib/key-encryption';
import type { Refusals } from '../../lib/refusals';
import type { KeyOpening, KeyToOpen } from './certificate-key';

export interface CertificateUpload {
  pem: string;
  private_key: string;
  passphrase?: string;
}

/** What an accepted upload gives: its public facts, and the key opened (unencrypted PKCS#8 PEM) to seal. */
export interface CheckedCertificate {
  facts: EinvoiceCertificateFacts;
  pem: string;
  private_key: string;
}

/** How long opening a key may take (a save waits for it, inside its transaction): then 422. */
export const KEY_OPEN_TIMEOUT_MS = 10_000;

const openKeyInWorker = boundedWorker<KeyToOpen, KeyOpening>({
  entry: 'certificate-key-worker',
  from: import.meta.url,
  timeoutMs: KEY_OPEN_TIMEOUT_MS,
  resourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 8 },
});

/** The subject's attribute values (`CN=…\nserialNumber=…` or comma-joined). */
function subjectValues(subject: string): string[] {
  return subject.split(/\n|,\s*(?=[A-Za-z0-9.]+=)/).map((part) => part.slice(part.indexOf('=') + 1).trim());
}

/** Checks the upload; answers its facts and opened key, or undefined (refusals added at `/certificate/...`). */
export async function checkCertificate(r: Refusals, upload: CertificateUpload, identity: { tin?: string | null; brn?: string | null }): Promise<CheckedCertificate | undefined> {
  if (upload.pem.length > 20_000) return void r.add('/certificate/pem', 'must be at most 20000 characters');
  if (upload.private_key.length > 20_000) return void r.add('/certificate/private_key', 'must be at most 20000 characters');
  let cert: X509Certificate;
  try {
    if (!upload.pem.includes('-----BEGIN CERTIFICATE-----')) throw new Error('not PEM');
    cert = new X509Certificate(upload.pem);
  } catch {
    return void r.add('/certificate/pem', 'is not a PEM X.509 certificate (-----BEGIN CERTIFICATE-----); PKCS#12 is not accepted');
  }
  const tooCostly = keyEncryptionProblem(upload.private_key);
  if (tooCostly) return void r.add('/certificate/private_key', tooCostly);
  const outcome = await openKeyInWorker({ pem: upload.pem, private_key: upload.private_key, ...(upload.passphrase ? { passphrase: upload.passphrase } : {}) }).catch(
    () => ({ ok: false, reason: 'failed' }) as const,
  );
  if (!outcome.ok) {
    return void r.add('/certificate/private_key', outcome.reason === 'timeout' ? `took longer than ${KEY_OPEN_TIMEOUT_MS} ms to open: re-export it with \`openssl pkcs8 -topk8 -v2 aes-256-cbc -iter 100000\`` : 'could not be opened');
  }
  const opening = outcome.value;
  if (!opening.ok) return void r.add('/certificate/private_key', opening.why === 'passphrase' ? 'is not a PEM private key this passphrase opens' : 'is not the key of this certificate');
  const values = subjectValues(cert.subject);
  const wanted = [identity.tin, identity.brn].filter((v): v is string => Boolean(v && v.trim())).map((v) => v.trim());
  if (!wanted.length) return void r.add('/certificate/pem', "cannot be checked: the organization's TIN and BRN are not set (organization.profile)");
  if (!wanted.some((w) => values.includes(w))) {
    return void r.add('/certificate/pem', `its subject names neither the organization's TIN nor its BRN (${wanted.join(', ')})`);
  }
  const facts = { subject: cert.subject.replace(/\n/g, ', '), issuer: cert.issuer.replace(/\n/g, ', '), serial: cert.serialNumber, not_after: new Date(cert.validTo).toISOString() };
  return { facts, pem: upload.pem, private_key: opening.opened };
}
