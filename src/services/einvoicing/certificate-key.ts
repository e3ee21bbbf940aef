/**
 * Opening an uploaded certificate's private key: node:crypto decrypts it with the passphrase (the
 * key derivation it names runs here, synchronously) and checks it against the certificate. Costly by
 * design, so certificate.ts runs it in a worker thread (certificate-key-worker.ts), never on the
 * event loop; the key's derivation cost is bounded before it gets here (lib/key-encryption.ts).
 */
import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';

export interface KeyToOpen {
  pem: string;
  private_key: string;
  passphrase?: string;
}

/** `opened`: the key as unencrypted PKCS#8 PEM (the sealed store protects it from then on). */
export type KeyOpening = { ok: true; opened: string } | { ok: false; why: 'passphrase' | 'mismatch' };

export function openCertificateKey(upload: KeyToOpen): KeyOpening {
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: upload.private_key, format: 'pem', ...(upload.passphrase ? { passphrase: upload.passphrase } : {}) });
  } catch {
    return { ok: false, why: 'passphrase' };
  }
  if (!new X509Certificate(upload.pem).checkPrivateKey(key)) return { ok: false, why: 'mismatch' };
  return { ok: true, opened: key.export({ type: 'pkcs8', format: 'pem' }).toString() };
}
