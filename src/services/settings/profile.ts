import { lockOrganization, organizationHasRecords, updateOrganizationRow, type OrganizationRow } from '../../db/queries/organization-profile';
import { findOrganization } from '../../db/queries/organizations';
import type { SellerIdentity } from '../../db/schema';
import type { RecordLanguage } from '../../domain/organization';
import { isCountryCode, isCurrency, isMsicCode, isStateCode } from '../../lib/code-lists';
import { isValidTimeZone } from '../../lib/dates';
import { AppError } from '../../lib/errors';
import { maxLength, Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { changeRecord, checkName, type SetupFamily } from './setup';

/**
 * The organization's profile (organization.profile.get|update): its name, base currency (fixed once
 * it holds a record), time zone, record languages and the seller identity MyInvois documents carry
 * (TIN, BRN, SST and tourism tax numbers, MSIC code and activity, address, phone, e-mail). The
 * identity is kept in `organizations.seller` (SellerIdentity), which issuing freezes onto documents;
 * its `name` follows the organization's name.
 */

/** MyInvois field limits of the supplier party. */
export const PROFILE_LIMITS = {
  tin: 14,
  registration_no: 20,
  sst_no: 35,
  tourism_tax_no: 17,
  business_activity: 300,
  phone: 20,
  email: 320,
  addressLine: 150,
  city: 50,
  postcode: 50,
} as const;

export interface ProfileAddress {
  line1: string;
  line2?: string | null;
  line3?: string | null;
  city: string;
  postcode?: string | null;
  /** MyInvois state code 01-17. */
  state: string;
  /** ISO 3166-1 alpha-2. */
  country_code: string;
}

const ADDRESS_KEYS = ['line1', 'line2', 'line3', 'city', 'postcode', 'state', 'country_code'] as const;

function addressView(a: SellerIdentity['address']) {
  if (!a) return null;
  const out: Record<string, string> = {};
  for (const k of ADDRESS_KEYS) {
    const v = a[k];
    if (typeof v === 'string') out[k] = v;
  }
  return Object.keys(out).length ? out : null;
}

export function profileView(o: OrganizationRow) {
  const s = o.seller ?? {};
  return {
    id: o.id,
    name: o.name,
    base_currency: o.baseCurrency,
    time_zone: o.timeZone,
    record_languages: o.recordLanguages,
    tin: s.tin ?? null,
    registration_no: s.registration_no ?? null,
    sst_no: s.sst_no ?? null,
    tourism_tax_no: s.tourism_tax_no ?? null,
    msic: s.msic ?? null,
    business_activity: s.business_activity ?? null,
    address: addressView(s.address),
    phone: s.phone ?? null,
    email: s.email ?? null,
    bank_name: s.bank_name ?? null,
    bank_account_no: s.bank_account_no ?? null,
    duitnow_id: s.duitnow_id ?? null,
    jompay_biller_code: s.jompay_biller_code ?? null,
    revision: o.revision,
  };
}
export type ProfileView = ReturnType<typeof profileView>;

export async function getProfile(ctx: ServiceContext): Promise<ProfileView> {
  const org = await findOrganization(ctx.db, { organizationId: ctx.org.id });
  if (!org) throw new AppError('not_found', { detail: 'No such organization' });
  return profileView(org);
}

export interface UpdateProfileInput {
  expected_revision: number;
  name?: string;
  base_currency?: string;
  time_zone?: string;
  record_languages?: RecordLanguage[];
  tin?: string | null;
  registration_no?: string | null;
  sst_no?: string | null;
  tourism_tax_no?: string | null;
  msic?: string | null;
  business_activity?: string | null;
  address?: ProfileAddress | null;
  phone?: string | null;
  email?: string | null;
  bank_name?: string | null;
  bank_account_no?: string | null;
  duitnow_id?: string | null;
  jompay_biller_code?: string | null;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9][0-9 ()-]*$/;
const TIN = /^[A-Za-z0-9]+$/;

/** An optional identity text: null clears it; when sent, not blank and within its limit. */
function identityText(r: Refusals, value: string | null | undefined, pointer: string, max: number, format?: { test: RegExp; detail: string }): void {
  if (value === undefined || value === null) return;
  if (!r.check(value.trim().length > 0, pointer, 'must not be blank (send null to clear it)')) return;
  if (!maxLength(r, value, max, pointer)) return;
  if (format) r.check(format.test.test(value), pointer, format.detail);
}

/** An IANA zone name (Asia/Kuala_Lumpur, UTC), not a bare offset. */
function isIanaZone(tz: string): boolean {
  return /^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(tz) && isValidTimeZone(tz);
}

function checkAddress(r: Refusals, a: ProfileAddress): void {
  const text = (k: 'line1' | 'line2' | 'line3' | 'city' | 'postcode', max: number, required: boolean) => {
    const v = a[k];
    if (v === undefined || v === null) return;
    const at = `/address/${k}`;
    if (!r.check(v.trim().length > 0, at, required ? 'must not be blank' : 'must not be blank (leave it out instead)')) return;
    maxLength(r, v, max, at);
  };
  text('line1', PROFILE_LIMITS.addressLine, true);
  text('line2', PROFILE_LIMITS.addressLine, false);
  text('line3', PROFILE_LIMITS.addressLine, false);
  text('city', PROFILE_LIMITS.city, true);
  text('postcode', PROFILE_LIMITS.postcode, false);
  r.check(isStateCode(a.state), '/address/state', 'is not a MyInvois state code (01 to 17)');
  r.check(isCountryCode(a.country_code), '/address/country_code', 'is not an ISO 3166-1 alpha-2 country code (e.g. MY)');
}

function checkProfile(r: Refusals, input: UpdateProfileInput): void {
  checkName(r, input.name);
  if (input.base_currency !== undefined) r.check(isCurrency(input.base_currency), '/base_currency', 'is not an ISO 4217 currency code');
  if (input.time_zone !== undefined) r.check(isIanaZone(input.time_zone), '/time_zone', 'is not an IANA time zone (e.g. Asia/Kuala_Lumpur)');
  if (input.record_languages !== undefined) {
    const langs = input.record_languages;
    r.check(new Set(langs).size === langs.length, '/record_languages', 'names a language twice');
    r.check(langs.includes('en'), '/record_languages', 'must include en');
  }
  identityText(r, input.tin, '/tin', PROFILE_LIMITS.tin, { test: TIN, detail: 'must hold only letters and digits' });
  identityText(r, input.registration_no, '/registration_no', PROFILE_LIMITS.registration_no);
  identityText(r, input.sst_no, '/sst_no', PROFILE_LIMITS.sst_no);
  identityText(r, input.tourism_tax_no, '/tourism_tax_no', PROFILE_LIMITS.tourism_tax_no);
  if (input.msic !== undefined && input.msic !== null) r.check(isMsicCode(input.msic), '/msic', 'is not an MSIC 2008 code as MyInvois lists it (5 digits, e.g. 62010)');
  identityText(r, input.business_activity, '/business_activity', PROFILE_LIMITS.business_activity);
  identityText(r, input.phone, '/phone', PROFILE_LIMITS.phone, { test: PHONE, detail: 'must be a telephone number such as +60312345678' });
  identityText(r, input.email, '/email', PROFILE_LIMITS.email, { test: EMAIL, detail: 'must be an e-mail address' });
  if (input.address) checkAddress(r, input.address);
  identityText(r, input.bank_name, '/bank_name', 100);
  identityText(r, input.bank_account_no, '/bank_account_no', 30, { test: /^(?=(?:\D*\d){5,20}\D*$)\d[\d -]*\d$/, detail: 'must be 5 to 20 digits, with spaces or dashes between them' });
  identityText(r, input.duitnow_id, '/duitnow_id', 100);
  identityText(r, input.jompay_biller_code, '/jompay_biller_code', 6, { test: /^\d{3,6}$/, detail: 'must be 3 to 6 digits' });
}

function normalizedAddress(a: ProfileAddress): NonNullable<SellerIdentity['address']> {
  const out: NonNullable<SellerIdentity['address']> = {};
  for (const k of ADDRESS_KEYS) {
    const v = a[k];
    if (typeof v === 'string') out[k] = k === 'state' || k === 'country_code' ? v : v.trim();
  }
  return out;
}

const profile: SetupFamily<OrganizationRow, ProfileView> = {
  entity: 'profile',
  what: 'organization',
  lock: (ctx) => lockOrganization(ctx.db, { organizationId: ctx.org.id }),
  write: (ctx, current, set) => updateOrganizationRow(ctx.db, { organizationId: current.id }, { ...set, revision: current.revision + 1 }),
  view: (_ctx, row) => profileView(row),
  // The organization itself is never deactivated here.
  inactive: () => undefined,
};

export async function updateProfile(ctx: ServiceContext, input: UpdateProfileInput): Promise<ProfileView> {
  const r = new Refusals();
  checkProfile(r, input);
  r.throwIfAny();
  return changeRecord(ctx, profile, { id: ctx.org.id, expected_revision: input.expected_revision }, async (current) => {
    if (input.base_currency !== undefined && input.base_currency !== current.baseCurrency && (await organizationHasRecords(ctx.db, { organizationId: current.id }))) {
      throw new AppError('conflict', {
        detail: `The base currency is fixed at ${current.baseCurrency}: the organization already holds customers, documents or claims`,
        errors: [{ pointer: '/base_currency', detail: 'cannot change once the organization holds records' }],
      });
    }
    const name = input.name?.trim();
    const seller: SellerIdentity = { ...(current.seller ?? {}) };
    if (name !== undefined) seller.name = name;
    const trimmed = (v: string | null | undefined) => (typeof v === 'string' ? v.trim() : v);
    for (const k of ['tin', 'registration_no', 'sst_no', 'tourism_tax_no', 'msic', 'business_activity', 'phone', 'email', 'bank_name', 'bank_account_no', 'duitnow_id', 'jompay_biller_code'] as const) {
      if (input[k] !== undefined) seller[k] = trimmed(input[k]) ?? null;
    }
    if (input.address !== undefined) seller.address = input.address === null ? null : normalizedAddress(input.address);
    return {
      name,
      baseCurrency: input.base_currency,
      timeZone: input.time_zone,
      recordLanguages: input.record_languages,
      // The identity as a whole: unchanged when every field sent reads as it stands.
      seller: JSON.stringify(seller) === JSON.stringify(current.seller ?? {}) ? undefined : seller,
    };
  });
}
