import { router } from '../../trpc';
import { createCustomerProcedure } from './create-customer';
import { getCustomerProcedure } from './get-customer';

export const customersRouter = router({
  get: getCustomerProcedure,
  create: createCustomerProcedure,
});
