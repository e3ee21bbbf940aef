import { router } from '../../trpc';
import { getCustomerProcedure } from './get-customer';

export const customersRouter = router({
  get: getCustomerProcedure,
});
