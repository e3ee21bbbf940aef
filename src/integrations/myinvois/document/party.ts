/**
 * Supplier and buyer blocks of the MyInvois document (`AccountingSupplierParty/Party`,
 * `AccountingCustomerParty/Party`): identifications (TIN, registration, SST, tourism tax), address with
 * the country in alpha-3, legal name and contact. A buyer without a TIN gets LHDN's general TIN.
 */
import { countryAlpha3 } from '../../../lib/code-lists';
import { GENERAL_TIN, EinvoiceBuildError, type EinvoiceAddress, type EinvoiceBuyer, type EinvoiceParty, type EinvoiceSupplier } from './types';
import { val } from './values';

function address(a: EinvoiceAddress, pointer: string): Record<string, unknown> {
  const alpha3 = countryAlpha3(a.country);
  if (!alpha3) throw new EinvoiceBuildError(`${pointer}/country`, `unknown country ${a.country}`);
  if (a.lines.length < 1 || a.lines.length > 3) throw new EinvoiceBuildError(`${pointer}/lines`, 'one to three address lines');
  if (!/^(0[1-9]|1[0-7])$/.test(a.state)) throw new EinvoiceBuildError(`${pointer}/state`, `unknown state code ${a.state}`);
  return {
    CityName: val(a.city),
    ...(a.postcode ? { PostalZone: val(a.postcode) } : {}),
    CountrySubentityCode: val(a.state),
    AddressLine: a.lines.map((line) => ({ Line: val(line) })),
    Country: [{ IdentificationCode: val(alpha3, { listID: 'ISO3166-1', listAgencyID: '6' }) }],
  };
}

function identifications(p: EinvoiceParty, tin: string, tourismTax: string | undefined): Array<Record<string, unknown>> {
  const registration = p.registration ?? { scheme: 'BRN', id: 'NA' };
  const ids = [
    { ID: val(tin, { schemeID: 'TIN' }) },
    { ID: val(registration.id, { schemeID: registration.scheme }) },
    { ID: val(p.sst ?? 'NA', { schemeID: 'SST' }) },
  ];
  if (tourismTax !== undefined) ids.push({ ID: val(tourismTax, { schemeID: 'TTX' }) });
  return ids;
}

function contact(p: EinvoiceParty): Array<Record<string, unknown>> {
  return [{ Telephone: val(p.phone), ...(p.email ? { ElectronicMail: val(p.email) } : {}) }];
}

export function supplierParty(s: EinvoiceSupplier): Array<Record<string, unknown>> {
  if (!/^\d{5}$/.test(s.msic.code)) throw new EinvoiceBuildError('/supplier/msic/code', 'MSIC code must be 5 digits');
  return [
    {
      Party: [
        {
          IndustryClassificationCode: val(s.msic.code, { name: s.msic.description }),
          PartyIdentification: identifications(s, s.tin, s.tourismTax ?? 'NA'),
          PostalAddress: [address(s.address, '/supplier/address')],
          PartyLegalEntity: [{ RegistrationName: val(s.name) }],
          Contact: contact(s),
        },
      ],
    },
  ];
}

/** The buyer's TIN: its own, else the general TIN for the general public (Malaysia) or a foreign buyer. */
export function buyerTin(b: EinvoiceBuyer): string {
  if (b.tin) return b.tin;
  const kind = b.generalTin ?? (b.address.country === 'MY' ? 'general_public' : 'foreign');
  return GENERAL_TIN[kind];
}

export function buyerParty(b: EinvoiceBuyer): Array<Record<string, unknown>> {
  return [
    {
      Party: [
        {
          PartyIdentification: identifications(b, buyerTin(b), b.tourismTax),
          PostalAddress: [address(b.address, '/buyer/address')],
          PartyLegalEntity: [{ RegistrationName: val(b.name) }],
          Contact: contact(b),
        },
      ],
    },
  ];
}
