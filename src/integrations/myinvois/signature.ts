/**
 * LHDN MyInvois v1.1 signature for the JSON document (SDK "Signing a JSON document"): an enveloped,
 * XAdES-style signature carried in `UBLExtensions` plus the `Signature` block.
 *
 *   DocDigest   = base64 SHA-256 of the minified document without `UBLExtensions` and `Signature`
 *   Sig         = RSA-SHA256 (PKCS#1 v1.5) of those same bytes with the certificate's key
 *   CertDigest  = base64 SHA-256 of the certificate (DER)
 *   PropsDigest = base64 SHA-256 of the minified {"Target":"signature","SignedProperties":[…]} holding
 *                 signing time, CertDigest, issuer name and decimal serial number
 *
 * `verifySignature` recomputes every one of them; LHDN's own signed sample verifies (see the tests).
 */
import { X509Certificate, createHash, createPrivateKey, sign, verify, type KeyObject } from 'node:crypto';
import { keyEncryptionProblem } from '../../lib/key-encryption';

const SHA256_URI = 'http://www.w3.org/2001/04/xmlenc#sha256';
const RSA_SHA256_URI = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
const SIGNED_PROPS_TYPE = 'http://uri.etsi.org/01903/v1.3.2#SignedProperties';
const SIGNED_PROPS_ID = 'id-xades-signed-props';
const EXTENSION_URI = 'urn:oasis:names:specification:ubl:dsig:enveloped:xades';
const SIGNATURE_ID = 'urn:oasis:names:specification:ubl:signature:Invoice';
const SIGNATURE_INFORMATION_ID = 'urn:oasis:names:specification:ubl:signature:1';

type Node = Record<string, unknown>;

export interface SigningCredentials {
  certificate: X509Certificate;
  privateKey: KeyObject;
}

/** Certificate and RSA private key from PEM; refuses a non-RSA key or a key that is not the certificate's. */
export function credentialsFromPem(certificatePem: string, privateKeyPem: string, passphrase?: string): SigningCredentials {
  const certificate = new X509Certificate(certificatePem);
  // A key stored before uploads were bounded may still ask for minutes of key derivation: never here.
  const tooCostly = passphrase === undefined ? undefined : keyEncryptionProblem(privateKeyPem);
  if (tooCostly) throw new Error(`the signing key cannot be opened: ${tooCostly}`);
  const privateKey = createPrivateKey(passphrase === undefined ? privateKeyPem : { key: privateKeyPem, passphrase });
  if (privateKey.asymmetricKeyType !== 'rsa') throw new Error('the signing key must be RSA');
  if (!certificate.checkPrivateKey(privateKey)) throw new Error('the private key does not belong to the certificate');
  return { certificate, privateKey };
}

/** A distinguished name as LHDN writes it (RFC 4514 order, last RDN first, ", " between): "CN=…, O=…, C=MY". */
function distinguishedName(nodeName: string): string {
  return nodeName.split('\n').reverse().join(', ');
}

export function certificateIssuerName(cert: X509Certificate): string {
  return distinguishedName(cert.issuer);
}

export function certificateSerialDecimal(cert: X509Certificate): string {
  return BigInt(`0x${cert.serialNumber}`).toString(10);
}

/** TIN (organizationIdentifier, 2.5.4.97) and BRN (serialNumber, 2.5.4.5) of the certificate's subject. */
export function certificateIdentity(cert: X509Certificate): { tin?: string; brn?: string } {
  const fields = new Map(cert.subject.split('\n').map((rdn) => [rdn.slice(0, rdn.indexOf('=')), rdn.slice(rdn.indexOf('=') + 1)]));
  return { tin: fields.get('organizationIdentifier') ?? fields.get('2.5.4.97'), brn: fields.get('serialNumber') };
}

function sha256Base64(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('base64');
}

/** The minified document without `UBLExtensions` and `Signature`: the bytes DocDigest and Sig cover. */
export function signedDocumentBytes(document: Node): Buffer {
  const [invoice, ...others] = document.Invoice as Node[];
  const { UBLExtensions: _ext, Signature: _sig, ...rest } = invoice as Node;
  return Buffer.from(JSON.stringify({ ...document, Invoice: [rest, ...others] }), 'utf8');
}

function signedPropertiesBytes(signedProperties: unknown): Buffer {
  return Buffer.from(JSON.stringify({ Target: 'signature', SignedProperties: signedProperties }), 'utf8');
}

const v = (value: string) => [{ _: value }];
const digestMethod = () => [{ _: '', Algorithm: SHA256_URI }];

/** The signed v1.1 document: `document` with `UBLExtensions` and `Signature` appended to the Invoice. */
export function signDocument(document: object, creds: SigningCredentials, options: { signingTime?: Date } = {}): Node {
  const doc = document as Node;
  const invoice = (doc.Invoice as Node[] | undefined)?.[0];
  const version = ((invoice?.InvoiceTypeCode as Node[] | undefined)?.[0] as Node | undefined)?.listVersionID;
  if (version !== '1.1') throw new Error('only a version 1.1 document is signed');
  const { certificate, privateKey } = creds;
  const bytes = signedDocumentBytes(doc);
  const docDigest = sha256Base64(bytes);
  const signatureValue = sign('sha256', bytes, privateKey).toString('base64');
  const signingTime = `${(options.signingTime ?? new Date()).toISOString().slice(0, 19)}Z`;
  const issuerSerial = [{ X509IssuerName: v(certificateIssuerName(certificate)), X509SerialNumber: v(certificateSerialDecimal(certificate)) }];
  const signedProperties = [
    {
      Id: SIGNED_PROPS_ID,
      SignedSignatureProperties: [
        {
          SigningTime: v(signingTime),
          SigningCertificate: [
            { Cert: [{ CertDigest: [{ DigestMethod: digestMethod(), DigestValue: v(sha256Base64(certificate.raw)) }], IssuerSerial: issuerSerial }] },
          ],
        },
      ],
    },
  ];
  const dsSignature = {
    Id: 'signature',
    Object: [{ QualifyingProperties: [{ Target: 'signature', SignedProperties: signedProperties }] }],
    KeyInfo: [
      {
        X509Data: [
          {
            X509Certificate: v(certificate.raw.toString('base64')),
            X509SubjectName: v(distinguishedName(certificate.subject)),
            X509IssuerSerial: issuerSerial,
          },
        ],
      },
    ],
    SignatureValue: v(signatureValue),
    SignedInfo: [
      {
        SignatureMethod: [{ _: '', Algorithm: RSA_SHA256_URI }],
        Reference: [
          {
            Type: SIGNED_PROPS_TYPE,
            URI: `#${SIGNED_PROPS_ID}`,
            DigestMethod: digestMethod(),
            DigestValue: v(sha256Base64(signedPropertiesBytes(signedProperties))),
          },
          { Type: '', URI: '', DigestMethod: digestMethod(), DigestValue: v(docDigest) },
        ],
      },
    ],
  };
  const UBLExtensions = [
    {
      UBLExtension: [
        {
          ExtensionURI: v(EXTENSION_URI),
          ExtensionContent: [
            {
              UBLDocumentSignatures: [
                {
                  SignatureInformation: [
                    { ID: v(SIGNATURE_INFORMATION_ID), ReferencedSignatureID: v(SIGNATURE_ID), Signature: [dsSignature] },
                  ],
                },
              ],
            },
          ],
        },
      ],
    },
  ];
  const Signature = [{ ID: v(SIGNATURE_ID), SignatureMethod: v(EXTENSION_URI) }];
  const { UBLExtensions: _e, Signature: _s, ...rest } = invoice as Node;
  const [, ...others] = doc.Invoice as Node[];
  return { ...doc, Invoice: [{ ...rest, UBLExtensions, Signature }, ...others] };
}

export type SignatureErrorCode =
  | 'signature_missing'
  | 'signature_malformed'
  | 'certificate_invalid'
  | 'certificate_digest_mismatch'
  | 'issuer_serial_mismatch'
  | 'signed_properties_digest_mismatch'
  | 'document_digest_mismatch'
  | 'signature_invalid';

/** LHDN's validation codes for the failures the research brief names (DS3xx, PosDigicert guideline). */
export const LHDN_SIGNATURE_ERROR: Partial<Record<SignatureErrorCode, string>> = {
  signed_properties_digest_mismatch: 'DS320',
  document_digest_mismatch: 'DS322',
  issuer_serial_mismatch: 'DS326',
  signature_invalid: 'DS333',
};

export type SignatureCheck = { ok: true } | { ok: false; error: { code: SignatureErrorCode; message: string } };

class SignatureFailure extends Error {
  constructor(readonly code: SignatureErrorCode, message: string) {
    super(message);
  }
}

/** `node[k1][0][k2][0]…`, failing as a malformed signature when a step is missing. */
function at(node: unknown, ...keys: string[]): Node {
  let cur = node;
  for (const key of keys) {
    const next = (cur as Node | undefined)?.[key];
    cur = Array.isArray(next) ? next[0] : undefined;
    if (cur === null || typeof cur !== 'object') throw new SignatureFailure('signature_malformed', `missing ${keys.join('/')}`);
  }
  return cur as Node;
}

function text(node: unknown, ...keys: string[]): string {
  const value = at(node, ...keys)._;
  if (typeof value !== 'string') throw new SignatureFailure('signature_malformed', `${keys.join('/')} is not text`);
  return value;
}

function expect(ok: boolean, code: SignatureErrorCode, message: string): void {
  if (!ok) throw new SignatureFailure(code, message);
}

function check(doc: Node): void {
  const invoice = at(doc, 'Invoice');
  expect(Array.isArray(invoice.UBLExtensions) && Array.isArray(invoice.Signature), 'signature_missing', 'the document has no UBLExtensions and Signature');
  expect(text(invoice, 'Signature', 'ID') === SIGNATURE_ID, 'signature_malformed', 'Signature/ID is wrong');
  expect(text(invoice, 'Signature', 'SignatureMethod') === EXTENSION_URI, 'signature_malformed', 'Signature/SignatureMethod is wrong');
  const extension = at(invoice, 'UBLExtensions', 'UBLExtension');
  expect(text(extension, 'ExtensionURI') === EXTENSION_URI, 'signature_malformed', 'ExtensionURI is wrong');
  const ds = at(extension, 'ExtensionContent', 'UBLDocumentSignatures', 'SignatureInformation', 'Signature');
  const signedInfo = at(ds, 'SignedInfo');
  expect(at(signedInfo, 'SignatureMethod').Algorithm === RSA_SHA256_URI, 'signature_malformed', 'SignatureMethod must be rsa-sha256');
  const refs = (signedInfo.Reference ?? []) as Node[];
  const propsRef = refs.find((r) => r.URI === `#${SIGNED_PROPS_ID}`);
  const docRef = refs.find((r) => r.URI === '');
  expect(!!propsRef && !!docRef, 'signature_malformed', 'SignedInfo needs the signed-properties and document references');
  for (const ref of [propsRef, docRef]) expect(at(ref, 'DigestMethod').Algorithm === SHA256_URI, 'signature_malformed', 'digests must be SHA-256');

  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(Buffer.from(text(ds, 'KeyInfo', 'X509Data', 'X509Certificate'), 'base64'));
  } catch (e) {
    if (e instanceof SignatureFailure) throw e;
    throw new SignatureFailure('certificate_invalid', 'X509Certificate is not a certificate');
  }
  expect(certificate.publicKey.asymmetricKeyType === 'rsa', 'certificate_invalid', 'the certificate key is not RSA');

  const qualifying = at(ds, 'Object', 'QualifyingProperties');
  const cert = at(qualifying, 'SignedProperties', 'SignedSignatureProperties', 'SigningCertificate', 'Cert');
  expect(text(cert, 'CertDigest', 'DigestValue') === sha256Base64(certificate.raw), 'certificate_digest_mismatch', 'CertDigest does not match the certificate');
  expect(
    text(cert, 'IssuerSerial', 'X509IssuerName') === certificateIssuerName(certificate) &&
      text(cert, 'IssuerSerial', 'X509SerialNumber') === certificateSerialDecimal(certificate),
    'issuer_serial_mismatch',
    'IssuerSerial does not match the certificate issuer and serial number',
  );
  const propsDigest = sha256Base64(signedPropertiesBytes(qualifying.SignedProperties));
  expect(text(propsRef, 'DigestValue') === propsDigest, 'signed_properties_digest_mismatch', 'the signed properties digest does not match');

  const bytes = signedDocumentBytes(doc);
  expect(text(docRef, 'DigestValue') === sha256Base64(bytes), 'document_digest_mismatch', 'the document changed after its digest was taken');
  const signatureValue = Buffer.from(text(ds, 'SignatureValue'), 'base64');
  expect(verify('sha256', bytes, certificate.publicKey, signatureValue), 'signature_invalid', 'the signature does not verify with the certificate');
}

/** Recompute every digest and the RSA signature of a signed v1.1 document (JSON text or parsed object). */
export function verifySignature(documentJson: string | object): SignatureCheck {
  try {
    const doc = (typeof documentJson === 'string' ? JSON.parse(documentJson) : documentJson) as Node;
    check(doc);
    return { ok: true };
  } catch (e) {
    if (e instanceof SignatureFailure) return { ok: false, error: { code: e.code, message: e.message } };
    if (e instanceof SyntaxError) return { ok: false, error: { code: 'signature_malformed', message: 'the document is not JSON' } };
    throw e;
  }
}
