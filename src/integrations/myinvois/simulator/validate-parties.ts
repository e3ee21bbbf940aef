/**
 * Steps "Taxpayer Validator" (the supplier's and buyer's TINs are registered taxpayers or LHDN's general
 * TINs, and a registration ID of the registered type matches) and "Referenced Documents Validator" (a
 * note's billing references name a Valid e-invoice of the same family and issuer by its UUID and number).
 */
import { vError } from './errors';
import type { SimStore } from './store';
import type { ValidationError } from './types';
import { customerParty, isNote, isSelfBilled, list, node, partyId, supplierParty, text, type UblNode } from './ubl';

export function taxpayerStep(invoice: UblNode, store: SimStore): ValidationError[] {
  const errors: ValidationError[] = [];
  const parties: [string, UblNode | undefined, string][] = [
    ['Supplier', supplierParty(invoice), '$.Invoice[0].AccountingSupplierParty.Party'],
    ['Buyer', customerParty(invoice), '$.Invoice[0].AccountingCustomerParty.Party'],
  ];
  for (const [role, party, path] of parties) {
    const tin = partyId(party, 'TIN');
    if (tin === undefined) continue;
    if (!store.isKnownTin(tin)) {
      errors.push(vError('TP301', `${role} TIN ${tin} is not a registered taxpayer`, `${path}.PartyIdentification.ID[TIN]`));
      continue;
    }
    const registered = store.taxpayers.get(tin);
    if (!registered) continue;
    const documented = partyId(party, registered.idType);
    if (documented !== undefined && documented !== registered.idValue) {
      errors.push(vError('TP302', `${role} ${registered.idType} ${documented} does not match the one registered for TIN ${tin}`, `${path}.PartyIdentification.ID[${registered.idType}]`));
    }
  }
  return errors;
}

export function referencedDocumentsStep(invoice: UblNode, store: SimStore): ValidationError[] {
  const typeCode = text(invoice, 'InvoiceTypeCode') ?? '';
  if (!isNote(typeCode)) return [];
  const errors: ValidationError[] = [];
  list(node(invoice, 'BillingReference'), 'InvoiceDocumentReference').forEach((ref, i) => {
    const at = `$.Invoice[0].BillingReference.InvoiceDocumentReference[${i}]`;
    const uuid = text(ref, 'UUID');
    const number = text(ref, 'ID');
    if (!uuid) return;
    const original = store.documents.get(uuid);
    if (!original || original.status !== 'Valid') {
      errors.push(vError('RD301', `Referenced document ${uuid} is not a valid document`, `${at}.UUID`));
      return;
    }
    if (isSelfBilled(original.typeCode) !== isSelfBilled(typeCode) || !['01', '11'].includes(original.typeCode)) {
      errors.push(vError('RD302', `Referenced document ${uuid} must be ${isSelfBilled(typeCode) ? 'a self-billed' : 'an'} e-invoice`, `${at}.UUID`));
    }
    const issuer = isSelfBilled(typeCode) ? customerParty(invoice) : supplierParty(invoice);
    if (partyId(issuer, 'TIN') !== original.issuerTin) {
      errors.push(vError('RD304', `Referenced document ${uuid} was not issued by the issuer of this note`, `${at}.UUID`));
    }
    if (number !== undefined && number !== original.internalId) {
      errors.push(vError('RD303', `Referenced document number ${number} does not match ${original.internalId} of document ${uuid}`, `${at}.ID`));
    }
  });
  return errors;
}
