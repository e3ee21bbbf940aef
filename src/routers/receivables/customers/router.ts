import { router } from '../../trpc';
import { createCustomerProcedure } from './create-customer';
import { customerBalanceProcedure, customerOpenItemsProcedure, customerReadinessProcedure } from './customer-account';
import { customerStatementProcedure } from './customer-statement';
import { getCustomerProcedure } from './get-customer';
import { listCustomersProcedure } from './list-customers';
import { updateCustomerProcedure } from './update-customer';

export const customersRouter = router({
  get: getCustomerProcedure,
  list: listCustomersProcedure,
  create: createCustomerProcedure,
  update: updateCustomerProcedure,
  openItems: customerOpenItemsProcedure,
  balance: customerBalanceProcedure,
  einvoiceReadiness: customerReadinessProcedure,
  statement: customerStatementProcedure,
});
