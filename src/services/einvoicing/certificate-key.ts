/**
 * Opening an uploaded certificate's private key: node:crypto decrypts a PEM key with the passphrase
 * (the key derivation it names runs here, synchronously) and checks it against the certificate; a
 * PKCS#12 file (.p12 / .pfx) is opened with its password first (node-forge, integrations/myinvois/
 * pkcs12.ts: its MAC and key derivations run here too) and yields the certificate and its key. Costly
 * by design, so certificate.ts runs it in a worker thread (certificate-key-worker.ts), never on the
 * event loop, with a time limit; a PEM key's derivation cost is bounded before it gets here
 * (lib/key-encryption.ts).
 */
import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { pemFromPkcs12, Pkcs12Error } from '../../integrations/myinvois/pkcs12';

export type KeyToOpen = { pem: string; private_key: string; passphrase?: string } | { pkcs12: string; passphrase: string };

/** `opened`: the key as unencrypted PKCS#8 PEM (the sealed store protects it from then on); `pem`: its certificate. */
export type KeyOpening = { ok: true; opened: string; pem: string } | { ok: false; why: 'passphrase' | 'mismatch' } | { ok: false; why: 'pkcs12'; detail: string };

export function openCertificateKey(upload: KeyToOpen): KeyOpening {
  let pem: string;
  let keyPem: string;
  let passphrase: string | undefined;
  if ('pkcs12' in upload) {
    try {
      const opened = pemFromPkcs12(Buffer.from(upload.pkcs12, 'base64'), upload.passphrase);
      pem = opened.certificatePem;
      keyPem = opened.privateKeyPem;
    } catch (error) {
      return { ok: false, why: 'pkcs12', detail: error instanceof Pkcs12Error ? error.message : 'could not be read' };
    }
  } else {
    pem = upload.pem;
    keyPem = upload.private_key;
    passphrase = upload.passphrase || undefined;
  }
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: keyPem, format: 'pem', ...(passphrase ? { passphrase } : {}) });
  } catch {
    return { ok: false, why: 'passphrase' };
  }
  if (!new X509Certificate(pem).checkPrivateKey(key)) return { ok: false, why: 'mismatch' };
  return { ok: true, opened: key.export({ type: 'pkcs8', format: 'pem' }).toString(), pem };
}
