/**
 * Test helpers for the MyInvois simulator: a simulator on a fixed clock with a supplier, a buyer and
 * a third taxpayer registered, the research brief's minimal v1.0 invoice (section 1.5) as a builder,
 * the submission envelope (base64 + hex SHA-256) and token/submit shortcuts through `app.inject`.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createSimulator, type SimulatorOptions } from '../../src/integrations/myinvois/simulator';

export const START = Date.parse('2026-08-03T02:20:00Z');
export const SUPPLIER = { clientId: 'supplier-erp', clientSecret: 'supplier-secret', tin: 'C1234567890' };
export const BUYER = { clientId: 'buyer-erp', clientSecret: 'buyer-secret', tin: 'C9876543210' };
export const OTHER = { clientId: 'other-erp', clientSecret: 'other-secret', tin: 'C5555555550' };

export type Doc = Record<string, any>;

const m = (value: number | string) => [{ _: value, currencyID: 'MYR' }];
const taxCategory = (id: string) => [{ ID: [{ _: id }], TaxScheme: [{ ID: [{ _: 'OTH', schemeID: 'UN/ECE 5153', schemeAgencyID: '6' }] }] }];
const address = (city: string, postcode: string, state: string, line: string) => [{
  CityName: [{ _: city }], PostalZone: [{ _: postcode }], CountrySubentityCode: [{ _: state }],
  AddressLine: [{ Line: [{ _: line }] }], Country: [{ IdentificationCode: [{ _: 'MYS', listID: 'ISO3166-1', listAgencyID: '6' }] }],
}];

/** The brief's minimal valid v1.0 invoice: 2 × 100.00, service tax 8 % = 16.00, payable 216.00. */
export function minimalInvoice(id = 'INV-2026-0001'): Doc {
  return {
    _D: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
    _A: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
    _B: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
    Invoice: [{
      ID: [{ _: id }], IssueDate: [{ _: '2026-08-03' }], IssueTime: [{ _: '02:15:00Z' }],
      InvoiceTypeCode: [{ _: '01', listVersionID: '1.0' }], DocumentCurrencyCode: [{ _: 'MYR' }],
      AccountingSupplierParty: [{ Party: [{
        IndustryClassificationCode: [{ _: '62010', name: 'Computer programming activities' }],
        PartyIdentification: [{ ID: [{ _: SUPPLIER.tin, schemeID: 'TIN' }] }, { ID: [{ _: '202001234567', schemeID: 'BRN' }] }, { ID: [{ _: 'A01-2345-67891012', schemeID: 'SST' }] }, { ID: [{ _: 'NA', schemeID: 'TTX' }] }],
        PostalAddress: address('Kuala Lumpur', '50480', '14', 'Lot 66, Bangunan Merdeka'),
        PartyLegalEntity: [{ RegistrationName: [{ _: 'Contoh Software Sdn. Bhd.' }] }],
        Contact: [{ Telephone: [{ _: '+60123456789' }], ElectronicMail: [{ _: 'billing@contoh.my' }] }],
      }] }],
      AccountingCustomerParty: [{ Party: [{
        PartyIdentification: [{ ID: [{ _: BUYER.tin, schemeID: 'TIN' }] }, { ID: [{ _: '201901234567', schemeID: 'BRN' }] }, { ID: [{ _: 'NA', schemeID: 'SST' }] }],
        PostalAddress: address('Shah Alam', '40000', '10', 'No. 1, Jalan Plumbum'),
        PartyLegalEntity: [{ RegistrationName: [{ _: 'Pelanggan Berhad' }] }],
        Contact: [{ Telephone: [{ _: '+60355551234' }] }],
      }] }],
      TaxTotal: [{ TaxAmount: m(16.0), TaxSubtotal: [{ TaxableAmount: m(200.0), TaxAmount: m(16.0), TaxCategory: taxCategory('02') }] }],
      LegalMonetaryTotal: [{ LineExtensionAmount: m(200.0), TaxExclusiveAmount: m(200.0), TaxInclusiveAmount: m(216.0), PayableAmount: m(216.0) }],
      InvoiceLine: [{
        ID: [{ _: '1' }], InvoicedQuantity: [{ _: 2, unitCode: 'C62' }], LineExtensionAmount: m(200.0),
        TaxTotal: [{ TaxAmount: m(16.0), TaxSubtotal: [{ TaxableAmount: m(200.0), TaxAmount: m(16.0), Percent: [{ _: 8 }], TaxCategory: taxCategory('02') }] }],
        Item: [{ CommodityClassification: [{ ItemClassificationCode: [{ _: '022', listID: 'CLASS' }] }], Description: [{ _: 'Software maintenance, August 2026' }] }],
        Price: [{ PriceAmount: m(100.0) }], ItemPriceExtension: [{ Amount: m(200.0) }],
      }],
    }],
  };
}

/** The invoice root of a document built above (for edits in tests). */
export const inv = (doc: Doc): Doc => doc['Invoice'][0];

/** A credit note for 50.00 + 4.00 tax referring to `original` (uuid and number). */
export function creditNote(original: { uuid: string; id: string }, id = 'CN-2026-0001'): Doc {
  const doc = minimalInvoice(id);
  const root = inv(doc);
  root.InvoiceTypeCode = [{ _: '02', listVersionID: '1.0' }];
  root.BillingReference = [{ InvoiceDocumentReference: [{ ID: [{ _: original.id }], UUID: [{ _: original.uuid }] }] }];
  const line = root.InvoiceLine[0];
  line.InvoicedQuantity = [{ _: 1, unitCode: 'C62' }];
  line.Price = [{ PriceAmount: m(50) }];
  line.ItemPriceExtension = [{ Amount: m(50) }];
  line.LineExtensionAmount = m(50);
  line.TaxTotal = [{ TaxAmount: m(4), TaxSubtotal: [{ TaxableAmount: m(50), TaxAmount: m(4), Percent: [{ _: 8 }], TaxCategory: taxCategory('02') }] }];
  root.TaxTotal = [{ TaxAmount: m(4), TaxSubtotal: [{ TaxableAmount: m(50), TaxAmount: m(4), TaxCategory: taxCategory('02') }] }];
  root.LegalMonetaryTotal = [{ LineExtensionAmount: m(50), TaxExclusiveAmount: m(50), TaxInclusiveAmount: m(54), PayableAmount: m(54) }];
  return doc;
}

export function envelopeEntry(doc: Doc | string, codeNumber?: string) {
  const text = typeof doc === 'string' ? doc : JSON.stringify(doc);
  const bytes = Buffer.from(text, 'utf8');
  const code = codeNumber ?? (typeof doc === 'string' ? 'RAW' : String(inv(doc)?.['ID']?.[0]?._ ?? 'X'));
  return { format: 'JSON', document: bytes.toString('base64'), documentHash: createHash('sha256').update(bytes).digest('hex'), codeNumber: code };
}

export function loadSample(file: string): Doc {
  return JSON.parse(readFileSync(new URL(`../../data/myinvois/${file}`, import.meta.url), 'utf8'));
}

export function setup(options: SimulatorOptions = {}) {
  const sim = createSimulator({
    clock: () => new Date(START),
    clients: [SUPPLIER, BUYER, OTHER],
    taxpayers: [
      { tin: SUPPLIER.tin, idType: 'BRN', idValue: '202001234567', name: 'Contoh Software Sdn. Bhd.' },
      { tin: BUYER.tin, idType: 'BRN', idValue: '201901234567', name: 'Pelanggan Berhad' },
      { tin: OTHER.tin, idType: 'BRN', idValue: '201801234567', name: 'Lain Berhad' },
    ],
    ...options,
  });
  const { app, control } = sim;

  async function token(client: { clientId: string; clientSecret: string } = SUPPLIER, headers: Record<string, string> = {}): Promise<string> {
    const res = await app.inject({
      method: 'POST', url: '/connect/token', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      payload: new URLSearchParams({ client_id: client.clientId, client_secret: client.clientSecret, grant_type: 'client_credentials', scope: 'InvoicingAPI' }).toString(),
    });
    if (res.statusCode !== 200) throw new Error(`token: ${res.statusCode} ${res.body}`);
    return res.json().access_token as string;
  }

  function submitRaw(bearer: string, body: unknown) {
    return app.inject({ method: 'POST', url: '/api/v1.0/documentsubmissions', headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  }

  async function submit(bearer: string, ...docs: Doc[]) {
    return submitRaw(bearer, { documents: docs.map((doc) => envelopeEntry(doc)) });
  }

  /** Submits one document, validates it, and answers its uuid and details. */
  async function submitAndValidate(bearer: string, doc: Doc) {
    const res = await submit(bearer, doc);
    if (res.statusCode !== 202) throw new Error(`submit: ${res.statusCode} ${res.body}`);
    const body = res.json();
    if (body.acceptedDocuments.length !== 1) throw new Error(`not accepted: ${res.body}`);
    const uuid = body.acceptedDocuments[0].uuid as string;
    control.validatePending();
    const details = await get(bearer, `/api/v1.0/documents/${uuid}/details`);
    return { uuid, details: details.json() };
  }

  function get(bearer: string, url: string) {
    return app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${bearer}` } });
  }

  function setState(bearer: string, uuid: string, status: string, reason = 'Wrong buyer details') {
    return app.inject({ method: 'PUT', url: `/api/v1.0/documents/state/${uuid}/state`, headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' }, payload: { status, reason } });
  }

  /** The inner errors of the step named `name` (by its suffix) in a details answer. */
  function stepErrors(details: any, name: string): any[] {
    const step = details.validationResults.validationSteps.find((s: any) => s.name.endsWith(name));
    return step?.error?.innerError ?? [];
  }

  return { app, control, token, submit, submitRaw, submitAndValidate, get, setState, stepErrors };
}
