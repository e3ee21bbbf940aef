import { z } from 'zod';
import { isoDateInput, listInput, recordIdShape, uuid } from '../fields';

/**
 * settings.counterpartyMappings.*: the dated counterparty map (a customer is, for a period, another
 * company of one of the organization's groups). Periods are inclusive; one customer's never overlap.
 */

export const counterpartyMappingSchema = z.object({
  id: uuid(),
  customer_id: uuid(),
  company_organization_id: uuid(),
  valid_from: z.string(),
  valid_to: z.string().nullable().describe('Inclusive; null while open-ended'),
  active: z.boolean(),
  revision: z.int(),
});

/** The schemas of settings.counterpartyMappings.* (routers/settings/setup-router.ts). */
export const counterpartyMappingContract = {
  record: counterpartyMappingSchema,
  list: listInput({ customer_id: uuid().optional() }),
  create: z.strictObject({ customer_id: uuid(), company_organization_id: uuid(), valid_from: isoDateInput(), valid_to: isoDateInput().nullable().optional() }),
  update: z.strictObject({ ...recordIdShape, company_organization_id: uuid().optional(), valid_from: isoDateInput().optional(), valid_to: isoDateInput().nullable().optional() }),
};
