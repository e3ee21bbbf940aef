/**
 * Step "Document Signature Validator" for versions 1.1 and 1.3. The check itself is a hook,
 * `SignatureVerifier`: the structural one checks that the UBLExtensions XAdES signature parts and the
 * cac:Signature element are present and name each other; the default (`digestSignatureVerifier`) then
 * recomputes DocDigest, PropsDigest and CertDigest and verifies the RSA-SHA256 signature through
 * `src/integrations/myinvois/signature.ts`. Tests may pass their own as `createSimulator({ verifySignature })`.
 */
import { LHDN_SIGNATURE_ERROR, verifySignature } from '../signature';
import { vError } from './errors';
import type { SignatureVerifier, ValidationError } from './types';
import { invoiceRoot, list, node, text } from './ubl';

const XADES = 'urn:oasis:names:specification:ubl:dsig:enveloped:xades';
const SIGNATURE_ID = 'urn:oasis:names:specification:ubl:signature:Invoice';

/** Versions whose signature LHDN validates. */
export function isSignedVersion(version: string): boolean {
  return version === '1.1' || version === '1.3';
}

export const structuralSignatureVerifier: SignatureVerifier = (documentJson) => {
  const invoice = invoiceRoot(documentJson);
  const missing: ValidationError[] = [];
  const extension = list(node(invoice, 'UBLExtensions'), 'UBLExtension').find((ext) => text(ext, 'ExtensionURI') === XADES);
  if (!extension) missing.push(vError('DS300', `UBLExtensions must contain a UBLExtension with ExtensionURI ${XADES}`, 'Invoice.UBLExtensions'));
  const info = node(extension, 'ExtensionContent', 'UBLDocumentSignatures', 'SignatureInformation');
  if (extension && !info) missing.push(vError('DS300', 'SignatureInformation is missing from the signature extension', 'Invoice.UBLExtensions.UBLExtension.ExtensionContent'));
  if (info && text(info, 'ReferencedSignatureID') !== SIGNATURE_ID) missing.push(vError('DS300', `ReferencedSignatureID must be ${SIGNATURE_ID}`, 'Invoice.UBLExtensions.SignatureInformation.ReferencedSignatureID'));
  const signature = node(info, 'Signature');
  if (info && !signature) missing.push(vError('DS300', 'ds:Signature is missing', 'Invoice.UBLExtensions.SignatureInformation.Signature'));
  if (signature) {
    if (!text(signature, 'SignatureValue')) missing.push(vError('DS333', 'SignatureValue is missing', 'Signature.SignatureValue'));
    if (!text(signature, 'KeyInfo', 'X509Data', 'X509Certificate')) missing.push(vError('DS300', 'X509Certificate is missing', 'Signature.KeyInfo.X509Data.X509Certificate'));
    const references = list(node(signature, 'SignedInfo'), 'Reference');
    const docRef = references.find((ref) => ref['URI'] === '');
    const propsRef = references.find((ref) => ref['URI'] === '#id-xades-signed-props');
    if (!docRef || !text(docRef, 'DigestValue')) missing.push(vError('DS322', 'The document digest reference (URI "") is missing', 'Signature.SignedInfo.Reference'));
    if (!propsRef || !text(propsRef, 'DigestValue')) missing.push(vError('DS320', 'The signed properties digest reference (#id-xades-signed-props) is missing', 'Signature.SignedInfo.Reference'));
    const props = node(signature, 'Object', 'QualifyingProperties', 'SignedProperties', 'SignedSignatureProperties');
    if (!text(props, 'SigningTime')) missing.push(vError('DS300', 'SigningTime is missing', 'Signature.Object.QualifyingProperties.SignedProperties'));
    if (!text(props, 'SigningCertificate', 'Cert', 'CertDigest', 'DigestValue')) missing.push(vError('DS300', 'The certificate digest is missing', 'Signature.Object.QualifyingProperties.SignedProperties'));
  }
  const cacSignature = node(invoice, 'Signature');
  if (text(cacSignature, 'ID') !== SIGNATURE_ID || text(cacSignature, 'SignatureMethod') !== XADES) {
    missing.push(vError('DS300', `cac:Signature must have ID ${SIGNATURE_ID} and SignatureMethod ${XADES}`, 'Invoice.Signature'));
  }
  if (missing.length === 0) return { ok: true };
  return { error: vError('DS300', 'The document signature is missing or incomplete', 'Invoice.UBLExtensions', missing) };
};

export function signatureStep(documentJson: unknown, version: string, verify: SignatureVerifier): ValidationError[] {
  if (!isSignedVersion(version)) return [];
  const result = verify(documentJson);
  return 'error' in result && result.error ? [result.error] : [];
}

/**
 * The default verifier: the structure above, then every digest and the RSA-SHA256 signature recomputed
 * by the service's own signature module (one procedure for signing and checking), each failure answered
 * with LHDN's DS code where LHDN names one.
 */
export const digestSignatureVerifier: SignatureVerifier = (documentJson) => {
  const structural = structuralSignatureVerifier(documentJson);
  if ('error' in structural) return structural;
  const checked = verifySignature(documentJson as object);
  if (checked.ok) return { ok: true };
  return { error: vError(LHDN_SIGNATURE_ERROR[checked.error.code] ?? 'DS300', `The document signature is not valid: ${checked.error.message}`, 'Invoice.UBLExtensions') };
};
