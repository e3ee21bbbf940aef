import { z } from 'zod';
import { deactivateExpenseCategory } from '../../../services/expenses/expense-categories';
import { svc } from '../../context';
import { expectedRevision } from '../../http';
import { settingsWriteProcedure } from '../../procedures';
import { recordIdShape } from '../../schemas';
import { answerChanged } from '../fields';
import { expenseCategorySchema } from './schemas';

/** settings.expenseCategories.deactivate (If-Match). */
export const deactivateExpenseCategoryProcedure = settingsWriteProcedure
  .input(z.strictObject(recordIdShape))
  .output(expenseCategorySchema)
  .mutation(async ({ ctx, input }) => {
    const category = await deactivateExpenseCategory(svc(ctx), { ...input, expected_revision: expectedRevision(ctx) });
    answerChanged(ctx, category.revision);
    return category;
  });
