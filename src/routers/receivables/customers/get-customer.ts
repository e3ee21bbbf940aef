import { getCustomer } from '../../../services/receivables/customers';
import { svc } from '../../context';
import { setEtag } from '../../http';
import { readProcedure } from '../../procedures';
import { idInput } from '../../../contract/fields';
import { customerSchema } from '../../../contract/receivables/customers';

export const getCustomerProcedure = readProcedure('receivables.customer.read')
  .meta({
    openapi: {
      method: 'GET',
      path: '/receivables/customers/{id}',
      summary: 'Read a customer',
      description: 'Answers the customer with its revision in the ETag header. Permission: receivables.customer.read.',
      tags: ['Customers'],
      protect: true,
    },
  })
  .input(idInput)
  .output(customerSchema)
  .query(async ({ ctx, input }) => {
    const customer = await getCustomer(svc(ctx), input);
    setEtag(ctx, customer.revision);
    return customer;
  });
