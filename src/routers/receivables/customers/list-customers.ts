import { listCustomers } from '../../../services/receivables/customers';
import { svc } from '../../context';
import { readProcedure } from '../../procedures';
import { customerListSchema, listCustomersInput } from '../../../contract/receivables/customers';

/** GET /v1/receivables/customers and `receivables.customers.list`: a keyset page with a signed cursor. */
export const listCustomersProcedure = readProcedure('receivables.customer.read')
  .meta({
    openapi: {
      method: 'GET',
      path: '/receivables/customers',
      summary: 'List customers',
      description:
        'By code, ascending, by default. Keyset pagination: pass next_cursor back as cursor, with the same sort, order and filters ' +
        '(a cursor sent with others is 422 validation at /query/cursor; one that does not decode or verify is 400). ' +
        'Filters combine with AND. Permission: receivables.customer.read.',
      tags: ['Customers'],
      protect: true,
    },
  })
  .input(listCustomersInput)
  .output(customerListSchema)
  .query(({ ctx, input }) => listCustomers(svc(ctx), input));
