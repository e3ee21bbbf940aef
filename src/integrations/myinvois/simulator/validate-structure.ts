/**
 * Step "Structure Validator": the document is UBL 2.1 JSON as LHDN reads it: the three namespace
 * keys, one `Invoice` object, every element an array of objects with its value in `_` and attributes as
 * scalar siblings, a known type code and version. The signature parts (UBLExtensions, Signature) carry
 * XAdES attribute names and are only checked to be lists.
 */
import { CODES } from './codes';
import { vError } from './errors';
import type { ValidationError } from './types';
import { isNode, list, node } from './ubl';

const NAMESPACES: Record<string, string> = {
  _D: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  _A: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  _B: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
};

export const SUPPORTED_VERSIONS = ['1.0', '1.1', '1.2', '1.3'];

function walk(value: Record<string, unknown>, path: string, errors: ValidationError[]): void {
  for (const [key, child] of Object.entries(value)) {
    const at = `${path}.${key}`;
    if (key === '_') {
      if (typeof child === 'object' && child !== null) errors.push(vError('CV301', `Element value must be a scalar at ${at}`, at));
      continue;
    }
    if (Array.isArray(child)) {
      child.forEach((item, index) => {
        if (!isNode(item)) errors.push(vError('CV301', `Element must be an object at ${at}[${index}]`, `${at}[${index}]`));
        else walk(item, `${at}[${index}]`, errors);
      });
      continue;
    }
    // An attribute: a scalar whose name starts lower-case (currencyID, schemeID, listVersionID, name...).
    const scalar = ['string', 'number', 'boolean'].includes(typeof child);
    if (!scalar || /^[A-Z]/.test(key)) errors.push(vError('CV301', `Element ${key} must be an array of objects at ${at}`, at));
  }
}

export function structureStep(document: unknown): ValidationError[] {
  const errors: ValidationError[] = [];
  if (!isNode(document)) return [vError('CV300', 'Document is not a JSON object', '$')];
  for (const [key, uri] of Object.entries(NAMESPACES)) {
    if (document[key] !== uri) errors.push(vError('CV302', `Namespace ${key} must be ${uri}`, `$.${key}`));
  }
  const invoices = list(document, 'Invoice');
  if (invoices.length !== 1 || !Array.isArray(document['Invoice']) || document['Invoice'].length !== 1) {
    errors.push(vError('CV303', 'Document must contain exactly one Invoice element', '$.Invoice'));
    return errors;
  }
  const invoice = invoices[0]!;
  for (const [key, child] of Object.entries(invoice)) {
    const at = `$.Invoice[0].${key}`;
    if (!Array.isArray(child)) {
      errors.push(vError('CV301', `Element ${key} must be an array of objects`, at));
      continue;
    }
    if (key === 'UBLExtensions' || key === 'Signature') continue;
    child.forEach((item, index) => {
      if (!isNode(item)) errors.push(vError('CV301', `Element must be an object at ${at}[${index}]`, `${at}[${index}]`));
      else walk(item, `${at}[${index}]`, errors);
    });
  }
  const typeCode = node(invoice, 'InvoiceTypeCode');
  const code = typeof typeCode?.['_'] === 'string' ? typeCode['_'] : undefined;
  if (!code || !CODES.documentType.has(code)) errors.push(vError('CV304', 'Unknown document type code', '$.Invoice[0].InvoiceTypeCode'));
  const version = typeCode?.['listVersionID'];
  if (typeof version !== 'string' || !SUPPORTED_VERSIONS.includes(version)) {
    errors.push(vError('CV305', 'Unsupported document type version (listVersionID)', '$.Invoice[0].InvoiceTypeCode.listVersionID'));
  }
  return errors;
}
