import { z } from 'zod';
import { createCustomerFor } from '../../../services/receivables/customers';
import { setCreated, setEtag } from '../../http';
import { writeProcedure } from '../../procedures';
import { customFieldsSchema } from '../../schemas';
import { customerSchema } from './schemas';

const text = (max: number) => z.string().max(max, { message: `must be at most ${max} characters` });

/** The address as sent: unknown keys are refused (400), unlike the output's `Address`, which may grow. */
const addressInput = z.strictObject({
  line1: text(200).optional(),
  line2: text(200).optional(),
  city: text(100).optional(),
  postcode: text(20).optional(),
  state: text(100).optional(),
});

export const createCustomerInput = z.strictObject({
  code: text(50).min(1, { message: 'must not be blank' }),
  legal_name: text(300).min(1, { message: 'must not be blank' }),
  party_kind: z.enum(['organization', 'individual']).optional(),
  currency: z.string().regex(/^[A-Z]{3}$/, { message: 'must be an ISO 4217 code' }).optional(),
  country_code: z.string().regex(/^[A-Z]{2}$/, { message: 'must be an ISO 3166-1 alpha-2 code' }).optional(),
  // A pipe keeps trpc-to-openapi's coercion away from a body number (STACK-NOTES: the coercion trap).
  payment_terms_days: z.int().pipe(z.int()).optional(),
  address: addressInput.optional(),
  email: text(254).nullable().optional(),
  phone: text(50).nullable().optional(),
  registration_no: text(50).nullable().optional(),
  registration_type: z.enum(['brn', 'nric', 'passport', 'army']).nullable().optional(),
  sst_registration_no: text(50).nullable().optional(),
  tin: text(50).nullable().optional(),
  custom_fields: customFieldsSchema.optional(),
});

/**
 * tRPC-only (no /v1 operation in the contract): set-up of a customer. Also the first write to carry
 * the idempotency step of every writeProcedure.
 */
export const createCustomerProcedure = writeProcedure('receivables.customer.create')
  .meta({ successStatus: 201 })
  .input(createCustomerInput)
  .output(customerSchema)
  .mutation(async ({ ctx, input }) => {
    const customer = await createCustomerFor(ctx.db, ctx.principal, {
      code: input.code,
      legalName: input.legal_name,
      partyKind: input.party_kind,
      currency: input.currency,
      countryCode: input.country_code,
      paymentTermsDays: input.payment_terms_days,
      address: input.address,
      email: input.email,
      phone: input.phone,
      registrationNo: input.registration_no,
      registrationType: input.registration_type,
      sstRegistrationNo: input.sst_registration_no,
      tin: input.tin,
      customFields: input.custom_fields,
    });
    setEtag(ctx, customer.revision);
    setCreated(ctx, `/v1/receivables/customers/${customer.id}`);
    return customer;
  });
