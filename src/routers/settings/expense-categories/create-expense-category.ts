import { createExpenseCategory } from '../../../services/expenses/expense-categories';
import { svc } from '../../context';
import { settingsWriteProcedure } from '../../procedures';
import { created } from '../setup-router';
import { expenseCategoryContract, expenseCategorySchema } from '../../../contract/settings/expense-categories';

/** settings.expenseCategories.create: a code unique in the organization (409). */
export const createExpenseCategoryProcedure = settingsWriteProcedure
  .input(expenseCategoryContract.create)
  .output(expenseCategorySchema)
  .mutation(async ({ ctx, input }) => {
    return created(ctx, await createExpenseCategory(svc(ctx), input));
  });
