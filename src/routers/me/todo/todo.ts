import { z } from 'zod';
import { todo } from '../../../services/todo';
import { svc } from '../../context';
import { authedProcedure } from '../../procedures';

const count = (what: string) => z.number().int().min(0).describe(`${what}; counting stops at cap`);
const countOrNull = (what: string, permission: string) => count(what).nullable().describe(`${what}; counting stops at cap; null without ${permission}`);

export const todoOutput = z.object({
  claims_to_sign: count('Claims whose approve action signs a share for you now (the claim list\'s scope=to_act)'),
  your_share_total: z.string().describe('The sum of your_share over those claims, a decimal in the organization\'s base currency'),
  claims_to_pay: countOrNull('Approved claims you may pay now', 'expenses.claim.pay'),
  own_claims_returned: count('Your own claims returned to you (in draft after a return), waiting for your change'),
  drafts_to_issue: countOrNull('Receivables documents still in draft', 'receivables.invoice.issue'),
  einvoices_needing_attention: countOrNull('Documents whose e-invoice MyInvois found invalid, not sent again since', 'receivables.invoice.issue'),
  overdue_invoices: countOrNull('Issued invoices and debit notes with a balance open past their due date', 'receivables.invoice.read'),
  currency: z.string().describe('The organization\'s base currency (of your_share_total)'),
  cap: z.number().int().describe('The largest count answered: a count equal to it means that many or more'),
});

/**
 * me.todo (tRPC, a session or an API key): the counts of the console's To do, each what the caller
 * can act on now; a count the caller's permissions do not cover is null.
 */
export const todoProcedure = authedProcedure
  .input(z.strictObject({}).optional())
  .output(todoOutput)
  .query(({ ctx }) => todo(svc(ctx)));
