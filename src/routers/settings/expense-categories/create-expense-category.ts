import { z } from 'zod';
import { createExpenseCategory } from '../../../services/expenses/expense-categories';
import { svc } from '../../context';
import { settingsWriteProcedure } from '../../procedures';
import { answerCreated, text } from '../fields';
import { expenseCategorySchema } from './schemas';

/** settings.expenseCategories.create: a code unique in the organization (409). */
export const createExpenseCategoryProcedure = settingsWriteProcedure
  .input(z.strictObject({ code: text(50), name: text(200) }))
  .output(expenseCategorySchema)
  .mutation(async ({ ctx, input }) => {
    const category = await createExpenseCategory(svc(ctx), input);
    answerCreated(ctx, category.revision);
    return category;
  });
