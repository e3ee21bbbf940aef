import { z } from 'zod';
import { uuid } from '../../schemas';

export const expenseCategorySchema = z
  .object({ id: uuid(), code: z.string(), name: z.string(), active: z.boolean(), revision: z.int() })
  .meta({ id: 'ExpenseCategory' });
