import { router } from '../../trpc';
import { createExpenseCategoryProcedure } from './create-expense-category';
import { deactivateExpenseCategoryProcedure } from './deactivate-expense-category';
import { listExpenseCategoriesProcedure } from './list-expense-categories';
import { updateExpenseCategoryProcedure } from './update-expense-category';

/** settings.expenseCategories.*: what claim lines are spent on. */
export const expenseCategoriesRouter = router({
  list: listExpenseCategoriesProcedure,
  create: createExpenseCategoryProcedure,
  update: updateExpenseCategoryProcedure,
  deactivate: deactivateExpenseCategoryProcedure,
});
