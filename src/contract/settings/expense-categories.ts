import { z } from 'zod';
import { listInputShape, recordIdShape, text, uuid } from '../fields';

export const expenseCategorySchema = z
  .object({ id: uuid(), code: z.string(), name: z.string(), active: z.boolean(), revision: z.int() })
  .meta({ id: 'ExpenseCategory' });

/** The inputs of settings.expenseCategories.* (a code unique in the organization). */
export const expenseCategoryContract = {
  record: expenseCategorySchema,
  list: z.strictObject(listInputShape),
  create: z.strictObject({ code: text(50), name: text(200) }),
  update: z.strictObject({ ...recordIdShape, code: text(50).optional(), name: text(200).optional() }),
};
