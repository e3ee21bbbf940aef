import { createCustomerFor } from '../../../services/receivables/customers';
import { svc } from '../../context';
import { setCreated, setEtag } from '../../http';
import { writeProcedure } from '../../procedures';
import { createCustomerInput, customerSchema } from '../../../contract/receivables/customers';

export { createCustomerInput };

/** POST /v1/receivables/customers and `receivables.customers.create`: one procedure, both surfaces. */
export const createCustomerProcedure = writeProcedure('receivables.customer.create')
  .meta({
    openapi: {
      method: 'POST',
      path: '/receivables/customers',
      summary: 'Create a customer',
      description:
        'Creates a customer of the caller\'s organization and answers it with 201, Location and ETag. ' +
        'Defaults: party_kind organization, country_code MY, the organization\'s base currency, payment_terms_days 30. ' +
        'A code already in use is 409 conflict at /code; blank text, an unknown country (ISO 3166-1 alpha-2) or currency, ' +
        'or payment_terms_days above 365 is 422 validation; custom field values are checked against the active customer definitions ' +
        '(422 custom_field_invalid). Permission: receivables.customer.create.',
      tags: ['Customers'],
      protect: true,
    },
    successStatus: 201,
  })
  .input(createCustomerInput)
  .output(customerSchema)
  .mutation(async ({ ctx, input }) => {
    const customer = await createCustomerFor(svc(ctx), input);
    setEtag(ctx, customer.revision);
    setCreated(ctx, `/v1/receivables/customers/${customer.id}`);
    return customer;
  });
