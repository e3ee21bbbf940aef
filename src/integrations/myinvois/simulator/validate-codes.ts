/**
 * Step "Code Validator": every code against LHDN's tables (data/myinvois): classification, tax type,
 * state (17 only for an address outside Malaysia or the General Public buyer), country alpha-3,
 * document and tax currency, MSIC, unit codes.
 */
import { CODES } from './codes';
import { vError } from './errors';
import type { ValidationError } from './types';
import { customerParty, list, node, partyId, supplierParty, text, type UblNode } from './ubl';
import { GENERAL_PUBLIC_TIN } from './validate-core';

function checkAddress(errors: ValidationError[], party: UblNode | undefined, path: string, generalPublic: boolean): void {
  const address = node(party, 'PostalAddress');
  const state = text(address, 'CountrySubentityCode');
  const country = text(address, 'Country', 'IdentificationCode');
  if (country !== undefined && !CODES.country.has(country)) errors.push(vError('CV401', `Country code ${country} is not an ISO 3166-1 alpha-3 code`, `${path}.PostalAddress.Country.IdentificationCode`));
  if (state !== undefined && !CODES.state.has(state)) errors.push(vError('CV402', `State code ${state} is not valid`, `${path}.PostalAddress.CountrySubentityCode`));
  else if (state === '17' && country === 'MYS' && !generalPublic) errors.push(vError('CV403', 'State code 17 (Not Applicable) is allowed only for an address outside Malaysia or a consolidated e-invoice', `${path}.PostalAddress.CountrySubentityCode`));
}

function checkUnit(errors: ValidationError[], element: UblNode | undefined, attribute: string, path: string): void {
  const unit = element?.[attribute];
  if (unit !== undefined && (typeof unit !== 'string' || !CODES.unit.has(unit))) errors.push(vError('CV404', `Unit code ${String(unit)} is not valid`, path));
}

function checkTaxType(errors: ValidationError[], subtotal: UblNode, path: string): void {
  const type = text(subtotal, 'TaxCategory', 'ID');
  if (type !== undefined && !CODES.taxType.has(type)) errors.push(vError('CV405', `Tax type ${type} is not valid`, `${path}.TaxCategory.ID`));
}

export function codesStep(invoice: UblNode): ValidationError[] {
  const errors: ValidationError[] = [];
  const supplier = supplierParty(invoice);
  const buyer = customerParty(invoice);
  const generalPublic = partyId(buyer, 'TIN') === GENERAL_PUBLIC_TIN;
  checkAddress(errors, supplier, '$.Invoice[0].AccountingSupplierParty.Party', false);
  checkAddress(errors, buyer, '$.Invoice[0].AccountingCustomerParty.Party', generalPublic);
  const msic = text(supplier, 'IndustryClassificationCode');
  if (msic !== undefined && !CODES.msic.has(msic)) errors.push(vError('CV406', `MSIC code ${msic} is not valid`, '$.Invoice[0].AccountingSupplierParty.Party.IndustryClassificationCode'));
  for (const field of ['DocumentCurrencyCode', 'TaxCurrencyCode']) {
    const currency = text(invoice, field);
    if (currency !== undefined && !CODES.currency.has(currency)) errors.push(vError('CV407', `Currency code ${currency} is not valid`, `$.Invoice[0].${field}`));
  }
  list(node(invoice, 'TaxTotal'), 'TaxSubtotal').forEach((sub, i) => checkTaxType(errors, sub, `$.Invoice[0].TaxTotal.TaxSubtotal[${i}]`));
  list(invoice, 'InvoiceLine').forEach((line, i) => {
    const at = `$.Invoice[0].InvoiceLine[${i}]`;
    list(node(line, 'Item'), 'CommodityClassification').forEach((c, j) => {
      const code = node(c, 'ItemClassificationCode');
      const value = text(c, 'ItemClassificationCode');
      if (code?.['listID'] === 'CLASS' && (value === undefined || !CODES.classification.has(value))) {
        errors.push(vError('CV408', `Classification code ${String(value)} is not valid`, `${at}.Item.CommodityClassification[${j}].ItemClassificationCode`));
      }
    });
    checkUnit(errors, node(line, 'InvoicedQuantity'), 'unitCode', `${at}.InvoicedQuantity.unitCode`);
    const country = text(line, 'Item', 'OriginCountry', 'IdentificationCode');
    if (country !== undefined && !CODES.country.has(country)) errors.push(vError('CV401', `Country code ${country} is not an ISO 3166-1 alpha-3 code`, `${at}.Item.OriginCountry.IdentificationCode`));
    list(node(line, 'TaxTotal'), 'TaxSubtotal').forEach((sub, j) => {
      checkTaxType(errors, sub, `${at}.TaxTotal.TaxSubtotal[${j}]`);
      checkUnit(errors, node(sub, 'BaseUnitMeasure'), 'unitCode', `${at}.TaxTotal.TaxSubtotal[${j}].BaseUnitMeasure.unitCode`);
    });
  });
  return errors;
}
