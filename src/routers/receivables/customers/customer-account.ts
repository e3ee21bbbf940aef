/**
 * A customer's account (tRPC only, for the console): open items, balance and MyInvois readiness.
 * Documents are read with receivables.invoice.read; the readiness is about the customer alone.
 */
import { customerBalance, customerEinvoiceReadiness, customerOpenItems } from '../../../services/receivables/customer-account';
import { svc } from '../../context';
import { readProcedure } from '../../procedures';
import { idInput } from '../../../contract/fields';
import { customerBalanceSchema, customerOpenItemsInput, customerOpenItemsSchema, customerReadinessSchema } from '../../../contract/receivables/customer-account';

/** `receivables.customers.openItems`: issued documents with something outstanding, oldest first. */
export const customerOpenItemsProcedure = readProcedure('receivables.invoice.read')
  .input(customerOpenItemsInput)
  .output(customerOpenItemsSchema)
  .query(({ ctx, input }) => customerOpenItems(svc(ctx), input));

/** `receivables.customers.balance`: what is open per currency, and in the base currency. */
export const customerBalanceProcedure = readProcedure('receivables.invoice.read')
  .input(idInput)
  .output(customerBalanceSchema)
  .query(({ ctx, input }) => customerBalance(svc(ctx), input));

/** `receivables.customers.einvoiceReadiness`: what MyInvois would refuse about this buyer, if anything. */
export const customerReadinessProcedure = readProcedure('receivables.customer.read')
  .input(idInput)
  .output(customerReadinessSchema)
  .query(({ ctx, input }) => customerEinvoiceReadiness(svc(ctx), input));
