import { z } from 'zod';
import { updateExpenseCategory } from '../../../services/expenses/expense-categories';
import { svc } from '../../context';
import { expectedRevision } from '../../http';
import { settingsWriteProcedure } from '../../procedures';
import { recordIdShape } from '../../schemas';
import { answerChanged, text } from '../fields';
import { expenseCategorySchema } from './schemas';

/** settings.expenseCategories.update (If-Match): code and name. */
export const updateExpenseCategoryProcedure = settingsWriteProcedure
  .input(z.strictObject({ ...recordIdShape, code: text(50).optional(), name: text(200).optional() }))
  .output(expenseCategorySchema)
  .mutation(async ({ ctx, input }) => {
    const category = await updateExpenseCategory(svc(ctx), { ...input, expected_revision: expectedRevision(ctx) });
    answerChanged(ctx, category.revision);
    return category;
  });
