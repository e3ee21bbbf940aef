import { z } from 'zod';
import { decimalString } from '../../../lib/money';
import { createTaxCode, deactivateTaxCode, listTaxCodesPage, TAX_PACK_KINDS, updateTaxCode } from '../../../services/settings/tax-codes';
import { svc } from '../../context';
import { settingsReadProcedure, settingsWriteProcedure } from '../../procedures';
import { pageOutput, rateOut, recordIdShape, uuid } from '../../schemas';
import { router } from '../../trpc';
import { answered, deactivateInput, listInput, withRevision } from '../shared';

/** settings.taxCodes.*: tax codes (a used code's rate and tax type are fixed). */

export const taxCodeSchema = z.object({
  id: uuid(),
  code: z.string(),
  name: z.string(),
  rate: rateOut().describe('Percent, plain decimal ("8")'),
  tax_type: z.string().describe('MyInvois tax type: 01 sales, 02 service, 03 tourism, 04 high-value goods, 05 low-value goods, 06 not applicable, E exempt'),
  tax_pack_kind: z.string(),
  active: z.boolean(),
  revision: z.int(),
});

const fields = {
  code: z.string(),
  name: z.string(),
  rate: decimalString().describe('Percent from 0 to 100, up to 10 decimal places'),
  tax_type: z.string(),
};

export const taxCodesRouter = router({
  list: settingsReadProcedure
    .input(listInput({}))
    .output(pageOutput(taxCodeSchema))
    .query(({ ctx, input }) => listTaxCodesPage(svc(ctx), input)),
  create: settingsWriteProcedure
    .input(z.strictObject({ ...fields, tax_pack_kind: z.enum(TAX_PACK_KINDS).optional() }))
    .output(taxCodeSchema)
    .mutation(async ({ ctx, input }) => answered(ctx, await createTaxCode(svc(ctx), input))),
  update: settingsWriteProcedure
    .input(z.strictObject({ ...recordIdShape, ...z.object(fields).partial().shape }))
    .output(taxCodeSchema)
    .mutation(async ({ ctx, input }) => answered(ctx, await updateTaxCode(svc(ctx), withRevision(ctx, input)))),
  deactivate: settingsWriteProcedure
    .input(deactivateInput)
    .output(taxCodeSchema)
    .mutation(async ({ ctx, input }) => answered(ctx, await deactivateTaxCode(svc(ctx), withRevision(ctx, input)))),
});
