import { z } from 'zod';
import { RECORD_LANGUAGES } from '../../domain/organization';
import { uuid } from '../fields';

/** organization.profile.get|update: the organization's profile and the seller identity MyInvois documents carry. */

const addressOut = z.object({
  line1: z.string().optional(),
  line2: z.string().optional(),
  line3: z.string().optional(),
  city: z.string().optional(),
  postcode: z.string().optional(),
  state: z.string().optional().describe('MyInvois state code 01-17'),
  country_code: z.string().optional().describe('ISO 3166-1 alpha-2'),
});

export const profileSchema = z.object({
  id: uuid(),
  name: z.string(),
  base_currency: z.string(),
  time_zone: z.string(),
  record_languages: z.array(z.string()),
  tin: z.string().nullable(),
  registration_no: z.string().nullable().describe('Business registration number (BRN)'),
  sst_no: z.string().nullable(),
  tourism_tax_no: z.string().nullable(),
  msic: z.string().nullable().describe('MSIC 2008 code'),
  business_activity: z.string().nullable(),
  address: addressOut.nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  bank_name: z.string().nullable().describe('Printed on invoices as where to pay'),
  bank_account_no: z.string().nullable(),
  duitnow_id: z.string().nullable().describe('DuitNow ID (mobile number, business registration number or e-mail)'),
  jompay_biller_code: z.string().nullable().describe('JomPAY biller code; the invoice number is printed as Ref-1'),
  revision: z.int(),
});

const optionalText = () => z.string().nullable().optional();

const addressIn = z.strictObject({
  line1: z.string(),
  line2: optionalText(),
  line3: optionalText(),
  city: z.string(),
  postcode: optionalText(),
  state: z.string().describe('MyInvois state code 01-17 (17: not applicable)'),
  country_code: z.string().describe('ISO 3166-1 alpha-2, e.g. MY'),
});

export const updateProfileInput = z.strictObject({
  name: z.string().optional(),
  base_currency: z.string().optional().describe('ISO 4217; fixed once the organization holds customers, documents or claims'),
  time_zone: z.string().optional().describe('IANA time zone, e.g. Asia/Kuala_Lumpur'),
  record_languages: z
    .array(z.enum(RECORD_LANGUAGES))
    .min(1, { message: 'must name at least one language' })
    .optional()
    .describe('en always included'),
  tin: optionalText(),
  registration_no: optionalText(),
  sst_no: optionalText(),
  tourism_tax_no: optionalText(),
  msic: optionalText(),
  business_activity: optionalText(),
  address: addressIn.nullable().optional(),
  phone: optionalText(),
  email: optionalText(),
  bank_name: optionalText().describe('At most 100 characters; null clears it'),
  bank_account_no: optionalText().describe('Digits, with spaces or dashes between them; 5 to 20 digits'),
  duitnow_id: optionalText().describe('At most 100 characters'),
  jompay_biller_code: optionalText().describe('3 to 6 digits'),
});
