/**
 * The v1.1 signature: a document signed with a test organisation certificate verifies; any byte changed
 * after signing fails; every digest is checked on its own; and LHDN's own signed sample verifies with
 * the same procedure, which is the evidence the procedure is LHDN's.
 */
import { createHash, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildDocument } from '../../src/integrations/myinvois/document';
import { serializeDocument } from '../../src/integrations/myinvois/serialize';
import {
  certificateIdentity,
  credentialsFromPem,
  signDocument,
  signedDocumentBytes,
  verifySignature,
  type SigningCredentials,
} from '../../src/integrations/myinvois/signature';
import { ORIGINAL, discountedGoodsLine, invoiceInput, serviceLine } from './fixtures';
import { makeTestSigner, type TestSigner } from './test-certificate';

type Node = Record<string, unknown>;
function at(node: unknown, ...keys: string[]): Node {
  return keys.reduce<Node>((n, k) => (n[k] as Node[])[0]!, node as Node);
}
const dsPath = ['Invoice', 'UBLExtensions', 'UBLExtension', 'ExtensionContent', 'UBLDocumentSignatures', 'SignatureInformation', 'Signature'];

let signer: TestSigner;
let creds: SigningCredentials;
let signedJson: string;
const signingTime = new Date('2026-08-03T02:16:30.123Z');

beforeAll(() => {
  signer = makeTestSigner({ tin: 'C20830570210', brn: '202005123456', name: 'Contoh Software Sdn. Bhd.' });
  creds = credentialsFromPem(signer.certificatePem, signer.privateKeyPem);
  const doc = buildDocument(invoiceInput({ version: '1.1', lines: [serviceLine, discountedGoodsLine] }));
  signedJson = serializeDocument(signDocument(doc, creds, { signingTime }));
});

describe('signDocument', () => {
  it('the test certificate names the organisation as LHDN requires', () => {
    expect(certificateIdentity(signer.certificate)).toEqual({ tin: 'C20830570210', brn: '202005123456' });
    expect(signer.certificate.keyUsage).toContain('1.3.6.1.4.1.311.10.3.12');
  });

  it('appends UBLExtensions and Signature after the invoice content, in LHDN layout', () => {
    const signed = JSON.parse(signedJson) as Node;
    const inv = at(signed, 'Invoice');
    expect(Object.keys(inv).slice(-3)).toEqual(['InvoiceLine', 'UBLExtensions', 'Signature']);
    expect(inv.Signature).toEqual([
      { ID: [{ _: 'urn:oasis:names:specification:ubl:signature:Invoice' }], SignatureMethod: [{ _: 'urn:oasis:names:specification:ubl:dsig:enveloped:xades' }] },
    ]);
    expect(at(inv, 'UBLExtensions', 'UBLExtension').ExtensionURI).toEqual([{ _: 'urn:oasis:names:specification:ubl:dsig:enveloped:xades' }]);
    const info = at(signed, ...dsPath.slice(0, -1));
    expect(info.ID).toEqual([{ _: 'urn:oasis:names:specification:ubl:signature:1' }]);
    expect(info.ReferencedSignatureID).toEqual([{ _: 'urn:oasis:names:specification:ubl:signature:Invoice' }]);
    const ds = at(signed, ...dsPath);
    expect(Object.keys(ds)).toEqual(['Id', 'Object', 'KeyInfo', 'SignatureValue', 'SignedInfo']);
    const props = at(ds, 'Object', 'QualifyingProperties', 'SignedProperties', 'SignedSignatureProperties');
    expect(props.SigningTime).toEqual([{ _: '2026-08-03T02:16:30Z' }]);
    const cert = at(props, 'SigningCertificate', 'Cert');
    expect(at(cert, 'CertDigest', 'DigestValue')._).toBe(createHash('sha256').update(signer.certificate.raw).digest('base64'));
    expect(at(cert, 'IssuerSerial', 'X509IssuerName')._).toBe(
      'CN=Test e-Invoice Sub CA, OU=Terms of use at http://example.test, O=Test Trust Services, C=MY',
    );
    expect(at(cert, 'IssuerSerial', 'X509SerialNumber')._).toBe(BigInt('0x7a8999a2b3bed00c265b605175624cc5').toString());
    expect(at(ds, 'KeyInfo', 'X509Data', 'X509Certificate')._).toBe(signer.certificate.raw.toString('base64'));
  });

  it('the document digest is over the minified document without UBLExtensions and Signature, and the RSA signature covers the same bytes', () => {
    const signed = JSON.parse(signedJson) as Node;
    const unsigned = serializeDocument(buildDocument(invoiceInput({ version: '1.1', lines: [serviceLine, discountedGoodsLine] })));
    expect(signedDocumentBytes(signed).toString('utf8')).toBe(unsigned);
    const ds = at(signed, ...dsPath);
    const refs = at(ds, 'SignedInfo').Reference as Node[];
    expect(at(refs[1], 'DigestValue')._).toBe(createHash('sha256').update(unsigned).digest('base64'));
    const sig = Buffer.from(at(ds, 'SignatureValue')._ as string, 'base64');
    expect(verify('sha256', Buffer.from(unsigned), signer.certificate.publicKey, sig)).toBe(true);
  });

  it('signs notes too, and refuses a 1.0 document', () => {
    const note = buildDocument(invoiceInput({ typeCode: '02', version: '1.1', billingReferences: [ORIGINAL] }));
    expect(verifySignature(serializeDocument(signDocument(note, creds)))).toEqual({ ok: true });
    expect(() => signDocument(buildDocument(invoiceInput()), creds)).toThrow(/1\.1/);
  });

  it('refuses a key that is not the certificate’s', () => {
    const other = makeTestSigner({ tin: 'C1', brn: '1', name: 'Other' });
    expect(() => credentialsFromPem(signer.certificatePem, other.privateKeyPem)).toThrow(/does not belong/);
  });
});

describe('verifySignature', () => {
  it('a signed 1.1 document verifies, as text and as an object', () => {
    expect(verifySignature(signedJson)).toEqual({ ok: true });
    expect(verifySignature(JSON.parse(signedJson) as object)).toEqual({ ok: true });
  });

  it('one byte changed after signing fails: the document digest no longer matches', () => {
    const tampered = signedJson.replace('"_":"Cable, per metre"', '"_":"Cable, per metrf"');
    expect(tampered).not.toBe(signedJson);
    expect(verifySignature(tampered)).toEqual({
      ok: false,
      error: { code: 'document_digest_mismatch', message: 'the document changed after its digest was taken' },
    });
    const amount = signedJson.replace('"PayableAmount":[{"_":315,', '"PayableAmount":[{"_":316,');
    expect(amount).not.toBe(signedJson);
    expect(verifySignature(amount)).toMatchObject({ ok: false, error: { code: 'document_digest_mismatch' } });
  });

  it('a changed document with a recomputed digest fails the RSA signature', () => {
    const signed = JSON.parse(signedJson) as Node;
    (at(signed, 'Invoice', 'ID') as Node)._ = 'INV-2026-0002';
    const refs = at(signed, ...dsPath, 'SignedInfo').Reference as Node[];
    (at(refs[1], 'DigestValue') as Node)._ = createHash('sha256').update(signedDocumentBytes(signed)).digest('base64');
    expect(verifySignature(signed)).toMatchObject({ ok: false, error: { code: 'signature_invalid' } });
  });

  it('checks the signed properties, the certificate digest and the issuer serial', () => {
    const withTime = signedJson.replace('"_":"2026-08-03T02:16:30Z"', '"_":"2026-08-03T02:16:31Z"');
    expect(verifySignature(withTime)).toMatchObject({ ok: false, error: { code: 'signed_properties_digest_mismatch' } });
    const signed = JSON.parse(signedJson) as Node;
    const cert = at(signed, ...dsPath, 'Object', 'QualifyingProperties', 'SignedProperties', 'SignedSignatureProperties', 'SigningCertificate', 'Cert');
    const issuer = at(cert, 'IssuerSerial', 'X509IssuerName');
    issuer._ = 'C=MY, O=Test Trust Services, OU=Terms of use at http://example.test, CN=Test e-Invoice Sub CA';
    expect(verifySignature(signed)).toMatchObject({ ok: false, error: { code: 'issuer_serial_mismatch' } });
    const other = makeTestSigner({ tin: 'C1', brn: '1', name: 'Other' });
    const swapped = JSON.parse(signedJson) as Node;
    (at(swapped, ...dsPath, 'KeyInfo', 'X509Data', 'X509Certificate') as Node)._ = other.certificate.raw.toString('base64');
    expect(verifySignature(swapped)).toMatchObject({ ok: false, error: { code: 'certificate_digest_mismatch' } });
  });

  it('an unsigned or malformed document fails with its own code', () => {
    expect(verifySignature(serializeDocument(buildDocument(invoiceInput({ version: '1.1' }))))).toMatchObject({
      ok: false,
      error: { code: 'signature_missing' },
    });
    expect(verifySignature('{"Invoice":[')).toMatchObject({ ok: false, error: { code: 'signature_malformed' } });
    const noInfo = JSON.parse(signedJson) as Node;
    delete at(noInfo, ...dsPath).SignedInfo;
    expect(verifySignature(noInfo)).toMatchObject({ ok: false, error: { code: 'signature_malformed' } });
    const badCert = JSON.parse(signedJson) as Node;
    (at(badCert, ...dsPath, 'KeyInfo', 'X509Data', 'X509Certificate') as Node)._ = 'bm90IGEgY2VydA==';
    expect(verifySignature(badCert)).toMatchObject({ ok: false, error: { code: 'certificate_invalid' } });
  });
});

describe("LHDN's signed sample (sample-ul-invoice-2.1-signed.min.json)", () => {
  /*
   * LHDN's sample, signed with LHDN's trial certificate (subject O=Dummy, organizationIdentifier
   * C29702635060, serialNumber D12345678; issuer "Trial LHDNM Sub CA V1", PosDigicert). Despite its name
   * the stored file is pretty-printed; LHDN's procedure minifies before hashing, so the verifier
   * re-minifies the parsed document (JSON.stringify keeps key order and writes numbers as C# does:
   * 1436.5, 100). All four values recompute: DocDigest vMs/IdnS7isft…, PropsDigest Rzuzz+70GSn…
   * (SHA-256 of the minified {"Target":"signature","SignedProperties":[…]}), CertDigest KKBSTyiPKG…, and
   * the RSA-SHA256 SignatureValue verifies over the minified document bytes with the certificate's key.
   * Its X509IssuerName is the issuer DN last RDN first ("CN=…, OU=…, O=LHDNM, C=MY"), which is how
   * certificateIssuerName writes ours. (The SDK page's unsigned input says listVersionID "1.0" while the
   * signed output says "1.1"; the digests are over the "1.1" document, the one actually sent.) The
   * sample's KeyInfo X509SubjectName repeats the issuer's name; it is outside every digest, and our
   * signer writes the certificate's real subject there.
   *
   * The file is LHDN's published sample, unchanged (SDK "Files" page, via watchtower/myinvois-sdk-llm);
   * it holds LHDN's public trial certificate and no key.
   */
  const raw = readFileSync(new URL('./lhdn-sample-ul-invoice-2.1-signed.json', import.meta.url), 'utf8');

  it('verifies: every digest and the signature recompute with our procedure', () => {
    expect(verifySignature(raw)).toEqual({ ok: true });
    expect(verifySignature(JSON.stringify(JSON.parse(raw)))).toEqual({ ok: true });
  });

  it('fails once one byte of its content changes', () => {
    const tampered = raw.replace('"_": "JSON-INV12345"', '"_": "JSON-INV12346"');
    expect(tampered).not.toBe(raw);
    expect(verifySignature(tampered)).toMatchObject({ ok: false, error: { code: 'document_digest_mismatch' } });
  });
});
