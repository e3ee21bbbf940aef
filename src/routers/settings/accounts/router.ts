import { z } from 'zod';
import { ACCOUNT_TYPES } from '../../../domain/receivables';
import { createAccount, deactivateAccount, listAccountsPage, updateAccount } from '../../../services/settings/accounts';
import { svc } from '../../context';
import { settingsReadProcedure, settingsWriteProcedure } from '../../procedures';
import { pageOutput, recordIdShape, uuid } from '../../schemas';
import { router } from '../../trpc';
import { answered, deactivateInput, listInput, withRevision } from '../shared';

/** settings.accounts.*: the chart of accounts. */

export const accountSchema = z.object({
  id: uuid(),
  code: z.string(),
  name: z.string(),
  type: z.enum(ACCOUNT_TYPES),
  active: z.boolean(),
  revision: z.int(),
});

const fields = { code: z.string(), name: z.string(), type: z.enum(ACCOUNT_TYPES) };

export const accountsRouter = router({
  list: settingsReadProcedure
    .input(listInput({}))
    .output(pageOutput(accountSchema))
    .query(({ ctx, input }) => listAccountsPage(svc(ctx), input)),
  create: settingsWriteProcedure
    .input(z.strictObject(fields))
    .output(accountSchema)
    .mutation(async ({ ctx, input }) => answered(ctx, await createAccount(svc(ctx), input))),
  update: settingsWriteProcedure
    .input(z.strictObject({ ...recordIdShape, ...z.object(fields).partial().shape }))
    .output(accountSchema)
    .mutation(async ({ ctx, input }) => answered(ctx, await updateAccount(svc(ctx), withRevision(ctx, input)))),
  deactivate: settingsWriteProcedure
    .input(deactivateInput)
    .output(accountSchema)
    .mutation(async ({ ctx, input }) => answered(ctx, await deactivateAccount(svc(ctx), withRevision(ctx, input)))),
});
