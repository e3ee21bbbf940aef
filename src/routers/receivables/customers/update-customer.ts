import { updateCustomer } from '../../../services/receivables/customers';
import { svc } from '../../context';
import { expectedRevision, setEtag } from '../../http';
import { writeProcedure } from '../../procedures';
import { customerSchema, updateCustomerInput } from '../../../contract/receivables/customers';

/** PATCH /v1/receivables/customers/{id} and `receivables.customers.update` (If-Match required). */
export const updateCustomerProcedure = writeProcedure('receivables.customer.update')
  .meta({
    openapi: {
      method: 'PATCH',
      path: '/receivables/customers/{id}',
      summary: 'Change a customer',
      description:
        'Changes the fields sent (any create field, code included, and is_active); fields left out stay as they are, ' +
        'address and custom_fields are replaced whole. Send If-Match with the revision the ETag gave: missing is 428 revision_required, ' +
        'stale is 409 revision_mismatch (RFC 9110 would say 412; the contract says 409). Answers the customer with its new revision in the ETag ' +
        '(unchanged when nothing changed). A code in use is 409 conflict at /code. Permission: receivables.customer.update.',
      tags: ['Customers'],
      protect: true,
    },
    requiresRevision: true,
  })
  .input(updateCustomerInput)
  .output(customerSchema)
  .mutation(async ({ ctx, input }) => {
    const customer = await updateCustomer(svc(ctx), { ...input, expected_revision: expectedRevision(ctx) });
    setEtag(ctx, customer.revision);
    return customer;
  });
