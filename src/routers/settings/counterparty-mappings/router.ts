import { z } from 'zod';
import {
  createCounterpartyMapping,
  deactivateCounterpartyMapping,
  listCounterpartyMappingsPage,
  updateCounterpartyMapping,
} from '../../../services/settings/counterparty-mappings';
import { svc } from '../../context';
import { settingsReadProcedure, settingsWriteProcedure } from '../../procedures';
import { pageOutput, recordIdShape, uuid } from '../../schemas';
import { router } from '../../trpc';
import { answered, deactivateInput, isoDate, listInput, withRevision } from '../shared';

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

export const counterpartyMappingsRouter = router({
  list: settingsReadProcedure
    .input(listInput({ customer_id: uuid().optional() }))
    .output(pageOutput(counterpartyMappingSchema))
    .query(({ ctx, input }) => listCounterpartyMappingsPage(svc(ctx), input)),
  create: settingsWriteProcedure
    .input(z.strictObject({ customer_id: uuid(), company_organization_id: uuid(), valid_from: isoDate(), valid_to: isoDate().nullable().optional() }))
    .output(counterpartyMappingSchema)
    .mutation(async ({ ctx, input }) => answered(ctx, await createCounterpartyMapping(svc(ctx), input))),
  update: settingsWriteProcedure
    .input(
      z.strictObject({ ...recordIdShape, company_organization_id: uuid().optional(), valid_from: isoDate().optional(), valid_to: isoDate().nullable().optional() }),
    )
    .output(counterpartyMappingSchema)
    .mutation(async ({ ctx, input }) => answered(ctx, await updateCounterpartyMapping(svc(ctx), withRevision(ctx, input)))),
  deactivate: settingsWriteProcedure
    .input(deactivateInput)
    .output(counterpartyMappingSchema)
    .mutation(async ({ ctx, input }) => answered(ctx, await deactivateCounterpartyMapping(svc(ctx), withRevision(ctx, input)))),
});
