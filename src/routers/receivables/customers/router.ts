import { router } from '../../trpc';
import { createCustomerProcedure } from './create-customer';
import { getCustomerProcedure } from './get-customer';
import { listCustomersProcedure } from './list-customers';
import { updateCustomerProcedure } from './update-customer';

export const customersRouter = router({
  get: getCustomerProcedure,
  list: listCustomersProcedure,
  create: createCustomerProcedure,
  update: updateCustomerProcedure,
});
