/**
 * The e-invoicing signing certificate as uploaded: PEM (certificate and private key, the key
 * optionally encrypted with a passphrase) or PKCS#12 (a .p12 / .pfx file, base64, with its password,
 * as Malaysian CAs issue them). The key is checked against the certificate, the subject checked to
 * name the organization's TIN or BRN (LHDN: organizationIdentifier = TIN, serialNumber = BRN).
 * A PEM key's encryption names its own cost, so it is bounded before decryption
 * (lib/key-encryption.ts); a PKCS#12 file is bounded in size. Either is opened in a worker thread with
 * a time limit, never on the event loop (so a file asking for endless key derivation costs 10 s).
 */
import { X509Certificate } from 'node:crypto';
import type { EinvoiceCertificateFacts } from '../../db/schema/einvoicing';
import { boundedWorker } from '../../lib/bounded-worker';
import { keyEncryptionProblem } from '../../lib/key-encryption';
import type { Refusals } from '../../lib/refusals';
import type { KeyOpening, KeyToOpen } from './certificate-key';

export type CertificateUpload = { pem: string; private_key: string; passphrase?: string } | { pkcs12: string; passphrase: string };

/** A PKCS#12 upload's base64 text at most (a certificate, its key and a CA chain fit in far less). */
const PKCS12_MAX_CHARS = 40_000;

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
/** A PEM upload's own checks before its key is opened: the refusal added, or the key to open. */
function pemToOpen(r: Refusals, upload: { pem: string; private_key: string; passphrase?: string }): KeyToOpen | undefined {
  if (upload.pem.length > 20_000) return void r.add('/certificate/pem', 'must be at most 20000 characters');
  if (upload.private_key.length > 20_000) return void r.add('/certificate/private_key', 'must be at most 20000 characters');
  try {
    if (!upload.pem.includes('-----BEGIN CERTIFICATE-----')) throw new Error('not PEM');
    new X509Certificate(upload.pem);
  } catch {
    return void r.add('/certificate/pem', 'is not a PEM X.509 certificate (-----BEGIN CERTIFICATE-----); send a PKCS#12 file as pkcs12 (base64) with its passphrase instead');
  }
  const tooCostly = keyEncryptionProblem(upload.private_key);
  if (tooCostly) return void r.add('/certificate/private_key', tooCostly);
  return { pem: upload.pem, private_key: upload.private_key, ...(upload.passphrase ? { passphrase: upload.passphrase } : {}) };
}

function pkcs12ToOpen(r: Refusals, upload: { pkcs12: string; passphrase: string }): KeyToOpen | undefined {
  if (upload.pkcs12.length > PKCS12_MAX_CHARS) return void r.add('/certificate/pkcs12', `must be at most ${PKCS12_MAX_CHARS} characters of base64`);
  const text = upload.pkcs12.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text) || text.length % 4 !== 0) return void r.add('/certificate/pkcs12', 'must be the .p12 / .pfx file in base64');
  return { pkcs12: text, passphrase: upload.passphrase };
}

export async function checkCertificate(r: Refusals, upload: CertificateUpload, identity: { tin?: string | null; brn?: string | null }): Promise<CheckedCertificate | undefined> {
  const pkcs12 = 'pkcs12' in upload;
  const keyPointer = pkcs12 ? '/certificate/pkcs12' : '/certificate/private_key';
  const toOpen = pkcs12 ? pkcs12ToOpen(r, upload) : pemToOpen(r, upload);
  if (!toOpen) return undefined;
  const outcome = await openKeyInWorker(toOpen).catch(() => ({ ok: false, reason: 'failed' }) as const);
  if (!outcome.ok) {
    const reexport = pkcs12 ? 'export it again with fewer key derivation iterations' : 're-export it with `openssl pkcs8 -topk8 -v2 aes-256-cbc -iter 100000`';
    return void r.add(keyPointer, outcome.reason === 'timeout' ? `took longer than ${KEY_OPEN_TIMEOUT_MS} ms to open: ${reexport}` : 'could not be opened');
  }
  const opening = outcome.value;
  if (!opening.ok) {
    if (opening.why === 'pkcs12') return void r.add('/certificate/pkcs12', `could not be used: ${opening.detail}`);
    if (opening.why === 'passphrase') return void r.add(keyPointer, pkcs12 ? 'holds a key that could not be opened' : 'is not a PEM private key this passphrase opens');
    return void r.add(keyPointer, pkcs12 ? 'holds no certificate of its key' : 'is not the key of this certificate');
  }
  const cert = new X509Certificate(opening.pem);
  const values = subjectValues(cert.subject);
  const wanted = [identity.tin, identity.brn].filter((v): v is string => Boolean(v && v.trim())).map((v) => v.trim());
  if (!wanted.length) return void r.add(pkcs12 ? '/certificate/pkcs12' : '/certificate/pem', "cannot be checked: the organization's TIN and BRN are not set (organization.profile)");
  if (!wanted.some((w) => values.includes(w))) {
    return void r.add(pkcs12 ? '/certificate/pkcs12' : '/certificate/pem', `its subject names neither the organization's TIN nor its BRN (${wanted.join(', ')})`);
  }
  const facts = { subject: cert.subject.replace(/\n/g, ', '), issuer: cert.issuer.replace(/\n/g, ', '), serial: cert.serialNumber, not_after: new Date(cert.validTo).toISOString() };
  return { facts, pem: opening.pem, private_key: opening.opened };
}
