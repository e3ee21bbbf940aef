import { listExpenseCategories } from '../../../services/expenses/expense-categories';
import { svc } from '../../context';
import { settingsReadProcedure } from '../../procedures';
import { pageOutput } from '../../../contract/fields';
import { expenseCategoryContract, expenseCategorySchema } from '../../../contract/settings/expense-categories';

/** settings.expenseCategories.list: by code; inactive ones with include_inactive. */
export const listExpenseCategoriesProcedure = settingsReadProcedure
  .input(expenseCategoryContract.list)
  .output(pageOutput(expenseCategorySchema))
  .query(({ ctx, input }) => listExpenseCategories(svc(ctx), input));
