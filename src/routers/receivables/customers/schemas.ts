import { z } from 'zod';
import { addressSchema, customFieldsSchema, uuid } from '../../schemas';

export const customerSchema = z
  .object({
    id: uuid(),
    code: z.string(),
    legal_name: z.string(),
    party_kind: z.enum(['organization', 'individual']),
    address: addressSchema,
    country_code: z.string(),
    currency: z.string(),
    payment_terms_days: z.int().max(365),
    is_active: z.boolean(),
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
    registration_type: z.enum(['brn', 'nric', 'passport', 'army']).nullable().optional(),
    sst_registration_no: z.string().nullable().optional(),
    tin: z.string().nullable().optional(),
  })
  .meta({ id: 'Customer' });
