import { z } from 'zod';
import { listExpenseCategories } from '../../../services/expenses/expense-categories';
import { svc } from '../../context';
import { settingsReadProcedure } from '../../procedures';
import { pageOutput } from '../../schemas';
import { listInputShape } from '../fields';
import { expenseCategorySchema } from './schemas';

/** settings.expenseCategories.list: by code; inactive ones with include_inactive. */
export const listExpenseCategoriesProcedure = settingsReadProcedure
  .input(z.strictObject(listInputShape))
  .output(pageOutput(expenseCategorySchema))
  .query(({ ctx, input }) => listExpenseCategories(svc(ctx), input));
