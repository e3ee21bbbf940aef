import { updateExpenseCategory } from '../../../services/expenses/expense-categories';
import { svc } from '../../context';
import { expectedRevision } from '../../http';
import { settingsWriteProcedure } from '../../procedures';
import { answered } from '../setup-router';
import { expenseCategoryContract, expenseCategorySchema } from '../../../contract/settings/expense-categories';

/** settings.expenseCategories.update (If-Match): code and name. */
export const updateExpenseCategoryProcedure = settingsWriteProcedure
  .input(expenseCategoryContract.update)
  .output(expenseCategorySchema)
  .mutation(async ({ ctx, input }) => {
    return answered(ctx, await updateExpenseCategory(svc(ctx), { ...input, expected_revision: expectedRevision(ctx) }));
  });
