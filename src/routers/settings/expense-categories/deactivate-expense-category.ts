import { z } from 'zod';
import { deactivateExpenseCategory } from '../../../services/expenses/expense-categories';
import { svc } from '../../context';
import { expectedRevision } from '../../http';
import { settingsWriteProcedure } from '../../procedures';
import { recordIdShape } from '../../../contract/fields';
import { answered } from '../setup-router';
import { expenseCategorySchema } from '../../../contract/settings/expense-categories';

/** settings.expenseCategories.deactivate (If-Match). */
export const deactivateExpenseCategoryProcedure = settingsWriteProcedure
  .input(z.strictObject(recordIdShape))
  .output(expenseCategorySchema)
  .mutation(async ({ ctx, input }) => {
    return answered(ctx, await deactivateExpenseCategory(svc(ctx), { ...input, expected_revision: expectedRevision(ctx) }));
  });
