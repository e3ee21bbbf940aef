import { z } from 'zod';
import { CUSTOMER_LIST_SORTS, PARTY_KINDS, REGISTRATION_TYPES } from '../../domain/receivables';
import { booleanParam, limitParam } from './document-list';
import { addressSchema, customFieldsSchema, uuid } from '../fields';

const text = (max: number) => z.string().max(max, { message: `must be at most ${max} characters` });

/** The address as sent: unknown keys are refused (400), unlike the output's `Address`, which may grow. */
const addressInput = z.strictObject({
  line1: text(200).optional(),
  line2: text(200).optional(),
  city: text(100).optional(),
  postcode: text(20).optional(),
  state: text(100).optional(),
});

/**
 * Every field a caller may send to create a customer; an update takes any of them (all optional)
 * plus `is_active`. Blank text, unknown country or currency codes and out-of-range terms are the
 * service's rules (422); shape and lengths are checked here.
 */
export const customerFieldsShape = {
  code: text(50).min(1, { message: 'must not be blank' }),
  legal_name: text(300).min(1, { message: 'must not be blank' }),
  party_kind: z.enum(PARTY_KINDS).optional(),
  currency: z.string().regex(/^[A-Z]{3}$/, { message: 'must be an ISO 4217 code' }).optional(),
  country_code: z
    .string()
    .regex(/^[A-Z]{2}$/, { message: 'must be an ISO 3166-1 alpha-2 code' })
    .optional()
    .describe('ISO 3166-1 alpha-2 (MY, SG); MY by default'),
  // A pipe keeps trpc-to-openapi's coercion away from a body number (STACK-NOTES: the coercion trap).
  payment_terms_days: z.int().pipe(z.int()).optional().describe('0 to 365; 30 by default'),
  address: addressInput.optional(),
  email: text(254).nullable().optional(),
  phone: text(50).nullable().optional(),
  registration_no: text(50).nullable().optional(),
  registration_type: z.enum(REGISTRATION_TYPES).nullable().optional(),
  sst_registration_no: text(50).nullable().optional(),
  tin: text(50).nullable().optional(),
  custom_fields: customFieldsSchema.optional(),
  reminders_off: z.boolean().pipe(z.boolean()).optional().describe("true: no payment reminder is sent to this customer, whatever the organization's schedule; false by default"),
};

export const createCustomerInput = z.strictObject(customerFieldsShape);

export const updateCustomerInput = z.strictObject({
  id: uuid().describe('The customer id'),
  code: customerFieldsShape.code.optional(),
  legal_name: customerFieldsShape.legal_name.optional(),
  party_kind: customerFieldsShape.party_kind,
  currency: customerFieldsShape.currency,
  country_code: customerFieldsShape.country_code,
  payment_terms_days: customerFieldsShape.payment_terms_days,
  address: customerFieldsShape.address.describe('Replaces the whole address'),
  email: customerFieldsShape.email,
  phone: customerFieldsShape.phone,
  registration_no: customerFieldsShape.registration_no,
  registration_type: customerFieldsShape.registration_type,
  sst_registration_no: customerFieldsShape.sst_registration_no,
  tin: customerFieldsShape.tin,
  custom_fields: customerFieldsShape.custom_fields.describe('Replaces every custom field value'),
  reminders_off: customerFieldsShape.reminders_off,
  is_active: z.boolean().pipe(z.boolean()).optional().describe('false: the customer can no longer be invoiced'),
});

export const customerSchema = z
  .object({
    id: uuid(),
    code: z.string(),
    legal_name: z.string(),
    party_kind: z.enum(PARTY_KINDS),
    address: addressSchema,
    country_code: z.string().describe('ISO 3166-1 alpha-2 (MY, SG)'),
    currency: z.string(),
    payment_terms_days: z.int().max(365),
    is_active: z.boolean(),
    reminders_off: z.boolean().describe('No payment reminders are sent to this customer'),
    is_group_company: z
      .boolean()
      .describe("True while mapped to another company of a group the organization belongs to, as at the organization's today"),
    revision: z.int(),
    custom_fields: customFieldsSchema.optional(),
    default_revenue_account_id: uuid().nullable().optional(),
    default_tax_code_id: uuid().nullable().optional(),
    email: z.string().nullable().optional(),
    phone: z.string().nullable().optional(),
    registration_no: z.string().nullable().optional(),
    registration_type: z.enum(REGISTRATION_TYPES).nullable().optional(),
    sst_registration_no: z.string().nullable().optional(),
    tin: z.string().nullable().optional(),
  })
  .meta({ id: 'Customer' });

export const listCustomersInput = z.strictObject({
  q: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain control characters')
    .optional()
    .describe('Case-insensitive substring of the code or legal name; % and _ are literal'),
  is_active: booleanParam.optional().describe('true: active customers only; false: inactive ones only'),
  group: z
    .enum(['only', 'none'])
    .optional()
    .describe("only: customers mapped to a company of the organization's group as at today; none: the rest"),
  sort: z
    .enum(CUSTOMER_LIST_SORTS)
    .optional()
    .describe('Ordering key, then id: code (default, compared bytewise), legal_name (case-insensitive) or created_at'),
  order: z.enum(['asc', 'desc']).optional().describe('asc by default'),
  limit: limitParam.optional(),
  cursor: z.string().max(2000).optional().describe("The previous page's next_cursor, with the same sort, order and filters"),
});

export const customerListSchema = z
  .object({
    customers: z.array(customerSchema),
    next_cursor: z.string().nullable().describe('Pass as cursor for the next page; null on the last page'),
  })
  .meta({ id: 'CustomerList' });
