/**
 * The buyer as an issued document freezes it (`receivable_documents.buyer`): one mapping from the
 * customer row, used by the issue step (transition-adapter.ts) and by the e-invoice composer for a
 * draft (services/einvoicing/compose.ts), so a draft's e-invoice and the issued one name the buyer
 * alike. Pure: no I/O.
 */
import type { CustomerRow } from '../../db/queries/customers';
import type { FrozenAddress, FrozenBuyer } from '../../db/schema';
import { countryAlpha2 } from '../../lib/code-lists';

/**
 * Keeps the address lines that are set. country_code is always present and always ISO 3166-1
 * alpha-2 (docs/design.md §5): a stored alpha-3 code (the form written before) is converted here, so
 * buyer and seller of one document can never disagree on the format.
 */
export function freezeAddress(address: Record<string, string | null | undefined>, countryCode: string | null | undefined): FrozenAddress {
  const out: FrozenAddress = { country_code: countryCode ? countryAlpha2(countryCode) : null };
  for (const key of ['line1', 'line2', 'city', 'postcode', 'state'] as const) {
    const v = address[key];
    if (typeof v === 'string') out[key] = v;
  }
  return out;
}

/** The customer fields the frozen buyer is made of. */
export type BuyerSource = Pick<
  CustomerRow,
  'legalName' | 'address' | 'countryCode' | 'email' | 'phone' | 'registrationNo' | 'registrationType' | 'sstRegistrationNo' | 'tin'
>;

/** The buyer as the customer reads now (what issuing freezes on the document). */
export function buyerOf(customer: BuyerSource): FrozenBuyer {
  return {
    name: customer.legalName,
    address: freezeAddress({ ...customer.address }, customer.countryCode),
    email: customer.email,
    phone: customer.phone,
    registration_no: customer.registrationNo,
    registration_type: customer.registrationType,
    sst_no: customer.sstRegistrationNo,
    tin: customer.tin,
  };
}
