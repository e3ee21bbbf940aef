/**
 * Signing credentials from PKCS#12: a .p12 made at test time (node-forge) from the test CA's
 * organisation certificate and key, with the CA certificate first in the file, signs a document that
 * verifies; a wrong password and a file without key are refused.
 */
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildDocument } from '../../src/integrations/myinvois/document';
import { Pkcs12Error, credentialsFromPkcs12 } from '../../src/integrations/myinvois/pkcs12';
import { serializeDocument } from '../../src/integrations/myinvois/serialize';
import { certificateIdentity, signDocument, verifySignature } from '../../src/integrations/myinvois/signature';
import { invoiceInput } from './fixtures';
import { makeTestSigner, type TestSigner } from './test-certificate';

const forge = createRequire(import.meta.url)('node-forge') as any;

function p12(certs: string[], keyPem: string | null, password: string): Buffer {
  const forgeCerts = certs.map((pem) => forge.pki.certificateFromPem(pem));
  const key = keyPem ? forge.pki.privateKeyFromPem(keyPem) : null;
  const asn1 = forge.pkcs12.toPkcs12Asn1(key, forgeCerts, password, { algorithm: '3des' });
  return Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary');
}

let signer: TestSigner;
let other: TestSigner;
beforeAll(() => {
  signer = makeTestSigner({ tin: 'C20830570210', brn: '202005123456', name: 'Contoh Software Sdn. Bhd.' });
  other = makeTestSigner({ tin: 'C1', brn: '1', name: 'Other' });
});

describe('credentialsFromPkcs12', () => {
  it('loads the key and its certificate, skipping another certificate in the file, and signs', () => {
    const file = p12([other.certificatePem, signer.certificatePem], signer.privateKeyPem, 'secret');
    const creds = credentialsFromPkcs12(file, 'secret');
    expect(creds.certificate.raw.equals(signer.certificate.raw)).toBe(true);
    expect(certificateIdentity(creds.certificate)).toEqual({ tin: 'C20830570210', brn: '202005123456' });
    const signed = serializeDocument(signDocument(buildDocument(invoiceInput({ version: '1.1' })), creds));
    expect(verifySignature(signed)).toEqual({ ok: true });
  });

  it('refuses a wrong password, garbage, a file without key and a key without its certificate', () => {
    const file = p12([signer.certificatePem], signer.privateKeyPem, 'secret');
    expect(() => credentialsFromPkcs12(file, 'wrong')).toThrow(Pkcs12Error);
    expect(() => credentialsFromPkcs12(Buffer.from('not a p12'), 'secret')).toThrow(/not a PKCS#12/);
    expect(() => credentialsFromPkcs12(p12([signer.certificatePem], null, 'secret'), 'secret')).toThrow(/no private key/);
    expect(() => credentialsFromPkcs12(p12([other.certificatePem], signer.privateKeyPem, 'secret'), 'secret')).toThrow(/belongs/);
  });
});
