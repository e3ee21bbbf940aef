/**
 * Signing credentials from a PKCS#12 file (.p12 / .pfx, as Malaysian CAs issue them), read with
 * node-forge (pinned in package.json) and handed to `credentialsFromPem` so the same checks apply: an
 * RSA key and the certificate that key belongs to. A wrong password or a file without key or
 * certificate throws `Pkcs12Error`.
 */
import { createRequire } from 'node:module';
import { credentialsFromPem, type SigningCredentials } from './signature';

interface ForgeBag {
  cert?: unknown;
  key?: unknown;
}
interface Forge {
  asn1: { fromDer(bytes: string): unknown };
  pkcs12: {
    pkcs12FromAsn1(asn1: unknown, strict: boolean, password: string): { getBags(filter: { bagType: string }): Record<string, ForgeBag[] | undefined> };
  };
  pki: {
    oids: Record<string, string>;
    certificateToPem(cert: unknown): string;
    privateKeyToPem(key: unknown): string;
  };
}

// node-forge ships no types; this file uses the few calls typed above.
const forge = createRequire(import.meta.url)('node-forge') as Forge;

export class Pkcs12Error extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'Pkcs12Error';
  }
}

function bags(p12: ReturnType<Forge['pkcs12']['pkcs12FromAsn1']>, bagType: string): ForgeBag[] {
  return p12.getBags({ bagType })[bagType] ?? [];
}

/** The RSA key of a PKCS#12 file and the certificate it belongs to (a CA chain in the file is ignored). */
export function credentialsFromPkcs12(file: Buffer, password: string): SigningCredentials {
  const { certificatePem, privateKeyPem } = pemFromPkcs12(file, password);
  return credentialsFromPem(certificatePem, privateKeyPem);
}

/** The same, as PEM: the certificate and its RSA key (unencrypted PKCS#8 from forge's PKCS#1 export). */
export function pemFromPkcs12(file: Buffer, password: string): { certificatePem: string; privateKeyPem: string } {
  let p12: ReturnType<Forge['pkcs12']['pkcs12FromAsn1']>;
  try {
    p12 = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(file.toString('binary')), false, password);
  } catch {
    throw new Pkcs12Error('not a PKCS#12 file, or the password is wrong');
  }
  const oids = forge.pki.oids;
  const keys = [...bags(p12, oids.pkcs8ShroudedKeyBag as string), ...bags(p12, oids.keyBag as string)].filter((b) => b.key);
  const certs = bags(p12, oids.certBag as string).filter((b) => b.cert);
  if (keys.length === 0) throw new Pkcs12Error('the file holds no private key (or not an RSA one)');
  if (certs.length === 0) throw new Pkcs12Error('the file holds no certificate');
  const keyPem = forge.pki.privateKeyToPem(keys[0]!.key);
  for (const bag of certs) {
    try {
      const certificatePem = forge.pki.certificateToPem(bag.cert);
      credentialsFromPem(certificatePem, keyPem);
      return { certificatePem, privateKeyPem: keyPem };
    } catch {
      // not this certificate: a chain may come first
    }
  }
  throw new Pkcs12Error('no certificate in the file belongs to its private key');
}
