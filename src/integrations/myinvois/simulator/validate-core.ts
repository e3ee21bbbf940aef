/**
 * Step "Core Fields Validator": the mandatory fields of an e-invoice (research brief 1.2) with their
 * lengths and formats, the issue date-time (UTC, at most 72 hours before receipt, not in the future),
 * classification 004 ⇔ the General Public buyer, and the arithmetic of amounts.ts.
 */
import { arithmeticErrors } from './amounts';
import { vError } from './errors';
import type { ValidationError } from './types';
import { customerParty, isNote, list, node, partyId, supplierParty, text, type UblNode } from './ubl';

const HOURS_72 = 72 * 3600 * 1000;
/** 8 to 20 characters in all, digits with an optional leading + (so at least 8 digits without the +). */
const PHONE = /^(?=.{8,20}$)\+?[0-9]+$/;
const EXEMPTION_REASON = /^[A-Za-z0-9 .,\-()]*$/;
const REGISTRATION_SCHEMES = ['BRN', 'NRIC', 'PASSPORT', 'ARMY'];
export const GENERAL_PUBLIC_TIN = 'EI00000000010';

type Add = (code: string, message: string, path: string) => void;

/** Mandatory means a value: an identification written as "" (or spaces) is as missing as an absent one. */
function required(add: Add, value: string | undefined, max: number, label: string, path: string): void {
  if (value === undefined || value.trim() === '') add('CF321', `${label} is mandatory`, path);
  else if (value.length > max) add('CF322', `${label} must be at most ${max} characters`, path);
}

function checkParty(add: Add, party: UblNode | undefined, role: 'Supplier' | 'Buyer', path: string, consolidated: boolean): void {
  if (!party) {
    add('CF321', `${role} party is mandatory`, path);
    return;
  }
  required(add, text(party, 'PartyLegalEntity', 'RegistrationName'), 300, `${role} name`, `${path}.PartyLegalEntity.RegistrationName`);
  required(add, partyId(party, 'TIN'), 14, `${role} TIN`, `${path}.PartyIdentification.ID[TIN]`);
  const scheme = REGISTRATION_SCHEMES.find((s) => partyId(party, s) !== undefined);
  if (!scheme) add('CF321', `${role} registration ID (BRN, NRIC, PASSPORT or ARMY) is mandatory`, `${path}.PartyIdentification.ID`);
  else required(add, partyId(party, scheme), scheme === 'BRN' ? 20 : 12, `${role} ${scheme}`, `${path}.PartyIdentification.ID[${scheme}]`);
  const sst = partyId(party, 'SST');
  if (sst !== undefined && (sst.length > 35 || sst.split(';').length > 2)) add('CF322', `${role} SST number must be at most 35 characters and 2 numbers`, `${path}.PartyIdentification.ID[SST]`);
  required(add, sst, 35, `${role} SST number (NA when not registered)`, `${path}.PartyIdentification.ID[SST]`);
  if (role === 'Supplier') {
    required(add, partyId(party, 'TTX'), 17, 'Supplier tourism tax number (NA when not registered)', `${path}.PartyIdentification.ID[TTX]`);
    const msic = text(party, 'IndustryClassificationCode');
    if (!msic || !/^\d{5}$/.test(msic)) add('CF323', 'Supplier MSIC code must be 5 digits', `${path}.IndustryClassificationCode`);
    const activity = node(party, 'IndustryClassificationCode')?.['name'];
    if (typeof activity !== 'string' || activity.trim() === '' || activity.length > 300) add('CF321', 'Supplier business activity description (IndustryClassificationCode name) is mandatory, at most 300 characters', `${path}.IndustryClassificationCode.name`);
  }
  const phone = text(party, 'Contact', 'Telephone');
  const phoneOk = phone !== undefined && (PHONE.test(phone) || (consolidated && role === 'Buyer' && phone === 'NA'));
  if (!phoneOk) add('CF324', `${role} telephone must be 8 to 20 characters, digits with an optional leading +`, `${path}.Contact.Telephone`);
  const email = text(party, 'Contact', 'ElectronicMail');
  if (email !== undefined && (email.length > 320 || !email.includes('@'))) add('CF325', `${role} e-mail is not valid`, `${path}.Contact.ElectronicMail`);
  const address = node(party, 'PostalAddress');
  const at = `${path}.PostalAddress`;
  if (!address) {
    add('CF321', `${role} address is mandatory`, at);
    return;
  }
  const lines = list(address, 'AddressLine');
  required(add, text(lines[0], 'Line'), 150, `${role} address line`, `${at}.AddressLine.Line`);
  if (lines.length > 3) add('CF322', `${role} address has at most 3 lines`, `${at}.AddressLine`);
  lines.forEach((line, i) => {
    if ((text(line, 'Line') ?? '').length > 150) add('CF322', `${role} address line must be at most 150 characters`, `${at}.AddressLine[${i}].Line`);
  });
  required(add, text(address, 'CityName'), 50, `${role} city`, `${at}.CityName`);
  required(add, text(address, 'CountrySubentityCode'), 2, `${role} state code`, `${at}.CountrySubentityCode`);
  required(add, text(address, 'Country', 'IdentificationCode'), 3, `${role} country code`, `${at}.Country.IdentificationCode`);
  const postcode = text(address, 'PostalZone');
  const country = text(address, 'Country', 'IdentificationCode');
  if (postcode !== undefined && (country === 'MYS' ? !/^\d{1,5}$/.test(postcode) : postcode.length > 50)) add('CF326', `${role} postcode is not valid`, `${at}.PostalZone`);
}

function checkIssueDateTime(add: Add, invoice: UblNode, receivedAt: number): void {
  const date = text(invoice, 'IssueDate');
  const time = text(invoice, 'IssueTime');
  if (!date || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return add('CF321', 'Issue date is mandatory (YYYY-MM-DD)', '$.Invoice[0].IssueDate');
  if (!time || !/^\d{2}:\d{2}:\d{2}Z$/.test(time)) return add('CF321', 'Issue time is mandatory, in UTC (hh:mm:ssZ)', '$.Invoice[0].IssueTime');
  const issued = Date.parse(`${date}T${time}`);
  if (Number.isNaN(issued)) return add('CF327', 'Issue date and time are not valid', '$.Invoice[0].IssueDate');
  if (issued > receivedAt) add('CF328', 'Document issuance date and time is in the future', '$.Invoice[0].IssueDate');
  else if (receivedAt - issued > HOURS_72) add('CF329', 'Document issuance date and time is more than 72 hours before submission', '$.Invoice[0].IssueDate');
}

function checkLines(add: Add, invoice: UblNode, generalPublicBuyer: boolean): void {
  const lines = list(invoice, 'InvoiceLine');
  if (lines.length === 0) add('CF321', 'At least one invoice line is mandatory', '$.Invoice[0].InvoiceLine');
  lines.forEach((line, i) => {
    const at = `$.Invoice[0].InvoiceLine[${i}]`;
    const classes = list(node(line, 'Item'), 'CommodityClassification')
      .map((c) => node(c, 'ItemClassificationCode'))
      .filter((c) => c?.['listID'] === 'CLASS');
    if (classes.length === 0) add('CF321', 'Line classification code (listID CLASS) is mandatory', `${at}.Item.CommodityClassification`);
    const is004 = classes.some((c) => c?.['_'] === '004');
    if (is004 && !generalPublicBuyer) add('CF330', 'Classification 004 (consolidated e-invoice) requires the General Public buyer (EI00000000010)', `${at}.Item.CommodityClassification`);
    if (!is004 && generalPublicBuyer) add('CF331', "Buyer's details cannot be general TIN (010) for issuance of individual e-Invoice: every line of a consolidated e-invoice uses classification 004", `${at}.Item.CommodityClassification`);
    required(add, text(line, 'Item', 'Description'), 300, 'Line description', `${at}.Item.Description`);
    if (text(line, 'Price', 'PriceAmount') === undefined) add('CF321', 'Line unit price is mandatory', `${at}.Price.PriceAmount`);
    if (text(line, 'ItemPriceExtension', 'Amount') === undefined) add('CF321', 'Line subtotal is mandatory', `${at}.ItemPriceExtension.Amount`);
    if (text(line, 'LineExtensionAmount') === undefined) add('CF321', 'Line total excluding tax is mandatory', `${at}.LineExtensionAmount`);
    const taxTotal = node(line, 'TaxTotal');
    if (text(taxTotal, 'TaxAmount') === undefined) add('CF321', 'Line tax amount is mandatory', `${at}.TaxTotal.TaxAmount`);
    const subtotals = list(taxTotal, 'TaxSubtotal');
    if (subtotals.length === 0) add('CF321', 'Line tax type is mandatory', `${at}.TaxTotal.TaxSubtotal`);
    subtotals.forEach((sub, j) => {
      const category = node(sub, 'TaxCategory');
      const type = text(category, 'ID');
      if (type === undefined) add('CF321', 'Line tax type is mandatory', `${at}.TaxTotal.TaxSubtotal[${j}].TaxCategory.ID`);
      if (type === 'E') {
        const reason = text(category, 'TaxExemptionReason');
        if (!reason || reason.length > 300 || !EXEMPTION_REASON.test(reason)) add('CF332', 'Tax exemption reason is mandatory for tax type E, at most 300 characters, only letters, digits, spaces and . - , ( )', `${at}.TaxTotal.TaxSubtotal[${j}].TaxCategory.TaxExemptionReason`);
      }
    });
  });
}

export function coreFieldsStep(invoice: UblNode, receivedAt: number): ValidationError[] {
  const errors: ValidationError[] = [];
  const add: Add = (code, message, path) => {
    errors.push(vError(code, message, path));
  };
  required(add, text(invoice, 'ID'), 50, 'e-Invoice number', '$.Invoice[0].ID');
  checkIssueDateTime(add, invoice, receivedAt);
  const typeCode = text(invoice, 'InvoiceTypeCode') ?? '';
  if (text(invoice, 'DocumentCurrencyCode') === undefined) add('CF321', 'Document currency code is mandatory', '$.Invoice[0].DocumentCurrencyCode');
  const buyer = customerParty(invoice);
  const generalPublicBuyer = partyId(buyer, 'TIN') === GENERAL_PUBLIC_TIN;
  checkParty(add, supplierParty(invoice), 'Supplier', '$.Invoice[0].AccountingSupplierParty.Party', generalPublicBuyer);
  checkParty(add, buyer, 'Buyer', '$.Invoice[0].AccountingCustomerParty.Party', generalPublicBuyer);
  checkLines(add, invoice, generalPublicBuyer);
  if (isNote(typeCode)) {
    const refs = list(node(invoice, 'BillingReference'), 'InvoiceDocumentReference');
    if (refs.length === 0) add('CF333', 'A credit, debit or refund note must reference the original e-invoice (BillingReference.InvoiceDocumentReference)', '$.Invoice[0].BillingReference');
    refs.forEach((ref, i) => {
      const at = `$.Invoice[0].BillingReference.InvoiceDocumentReference[${i}]`;
      if (!text(ref, 'UUID')) add('CF333', "The original e-invoice's UUID is mandatory", `${at}.UUID`);
      if (!text(ref, 'ID')) add('CF333', "The original e-invoice's number is mandatory", `${at}.ID`);
    });
  }
  const docTax = node(invoice, 'TaxTotal');
  if (text(docTax, 'TaxAmount') === undefined) add('CF321', 'Total tax amount is mandatory', '$.Invoice[0].TaxTotal.TaxAmount');
  if (list(docTax, 'TaxSubtotal').length === 0) add('CF321', 'Tax amount per tax type is mandatory', '$.Invoice[0].TaxTotal.TaxSubtotal');
  const totals = node(invoice, 'LegalMonetaryTotal');
  for (const field of ['TaxExclusiveAmount', 'TaxInclusiveAmount', 'PayableAmount']) {
    if (text(totals, field) === undefined) add('CF321', `${field} is mandatory`, `$.Invoice[0].LegalMonetaryTotal.${field}`);
  }
  errors.push(...arithmeticErrors(invoice));
  return errors;
}
