import { figuresInput, figuresSchema } from '../../../contract/receivables/reports';
import { receivablesFigures } from '../../../services/receivables/reports';
import { svc } from '../../context';
import { readProcedure } from '../../procedures';

/** GET /v1/receivables/reports/figures and `receivables.reports.figures`: the collection figures as at a day. */
export const figuresProcedure = readProcedure('receivables.invoice.read')
  .meta({
    openapi: {
      method: 'GET',
      path: '/receivables/reports/figures',
      summary: 'Collection figures as at a day',
      description:
        'Outstanding, credits and overdue on as_of (in base, rebuilt as the ageing is), the receipts collected from `from` to as_of, ' +
        'and days sales outstanding by countback over the three 30-day periods before as_of. A day after the organization\'s today is 422 at /query/as_of; ' +
        'from after as_of is 422 at /query/from. Permission: receivables.invoice.read.',
      tags: ['Receivables reports'],
      protect: true,
    },
  })
  .input(figuresInput)
  .output(figuresSchema)
  .query(({ ctx, input }) => receivablesFigures(svc(ctx), input));
