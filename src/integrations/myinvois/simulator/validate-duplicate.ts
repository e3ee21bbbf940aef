/**
 * Steps "Duplicate Document Validator" (same type and version, issue date-time, internal ID and issuer
 * TIN as a document accepted in the past 2 hours: DS302) and "Currency Validator" (a document not in
 * MYR carries TaxExchangeRate from its currency to MYR with a positive rate).
 */
import { amount } from './amounts';
import { vError } from './errors';
import type { SimStore } from './store';
import type { SimDocument, ValidationError } from './types';
import { node, text, type UblNode } from './ubl';

const HOURS_2 = 2 * 3600 * 1000;

export function duplicateStep(doc: SimDocument, store: SimStore): ValidationError[] {
  for (const other of store.documents.values()) {
    if (other.uuid === doc.uuid || other.status === 'Invalid' || other.status === 'Submitted') continue;
    if (doc.dateTimeReceived - other.dateTimeReceived > HOURS_2 || other.dateTimeReceived > doc.dateTimeReceived) continue;
    const same = other.typeCode === doc.typeCode && other.typeVersion === doc.typeVersion && other.dateTimeIssued === doc.dateTimeIssued
      && other.internalId === doc.internalId && other.issuerTin === doc.issuerTin;
    if (same) {
      return [vError('DS302', `Duplicated submitted document with UUID ${doc.uuid} where the values of configured attributes match with values for the document with UUID: ${other.uuid}`, 'document')];
    }
  }
  return [];
}

export function currencyStep(invoice: UblNode): ValidationError[] {
  const currency = text(invoice, 'DocumentCurrencyCode');
  if (currency === undefined || currency === 'MYR') return [];
  const rate = node(invoice, 'TaxExchangeRate');
  const path = '$.Invoice[0].TaxExchangeRate';
  if (!rate) return [vError('CR301', `Exchange rate (TaxExchangeRate) is mandatory for a document in ${currency}`, path)];
  const errors: ValidationError[] = [];
  if (text(rate, 'SourceCurrencyCode') !== currency) errors.push(vError('CR302', `SourceCurrencyCode must be the document currency ${currency}`, `${path}.SourceCurrencyCode`));
  if (text(rate, 'TargetCurrencyCode') !== 'MYR') errors.push(vError('CR303', 'TargetCurrencyCode must be MYR', `${path}.TargetCurrencyCode`));
  const value = amount(rate, 'CalculationRate');
  if (!value || value.lte(0)) errors.push(vError('CR304', 'CalculationRate must be a positive number', `${path}.CalculationRate`));
  return errors;
}
