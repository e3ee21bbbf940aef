import { ageingInput, ageingSchema } from '../../../contract/receivables/reports';
import { renderAgeingPdf } from '../../../services/receivables/ageing-pdf';
import { ageingCsv, ageingReport } from '../../../services/receivables/reports';
import { svc } from '../../context';
import { readProcedure } from '../../procedures';

/**
 * GET /v1/receivables/reports/ageing and `receivables.reports.ageing`: the ageing as at a day.
 * `format=csv` over REST answers the same figures as text/csv (tRPC always answers the object).
 */
export const ageingProcedure = readProcedure('receivables.invoice.read')
  .meta({
    openapi: {
      method: 'GET',
      path: '/receivables/reports/ageing',
      summary: 'Aged receivables as at a day',
      description:
        'What each customer had open on as_of, per currency, in the buckets current (not yet due), 1–30, 31–60, 61–90, 91–120 and over 120 days past due ' +
        '(the edges the organization set in settings.ageing; bucket_keys names them). ' +
        'Rebuilt from the documents dated and the receipts received on or before as_of and the allocations (and reversals) effective on or before it, ' +
        'never from today\'s balances. Credit notes not yet applied and receipts not yet allocated count against the customer as negative amounts, ' +
        'aged from their own date. total_base is Σ outstanding_base on as_of. A day after the organization\'s today is 422 at /query/as_of. ' +
        'format=csv answers text/csv with the columns customer_code, legal_name, is_group_company, currency, the bucket keys, total, total_base, base_currency ' +
        'and a last TOTAL line; format=pdf answers application/pdf (A4 landscape, the same lines and a line of the totals per bucket in base). ' +
        'Permission: receivables.invoice.read.',
      tags: ['Receivables reports'],
      protect: true,
    },
  })
  .input(ageingInput)
  .output(ageingSchema)
  .query(async ({ ctx, input }) => {
    const report = await ageingReport(svc(ctx), input);
    if (input.format === 'csv' && ctx.transport === 'rest') {
      ctx.out.headers['Content-Type'] = 'text/csv; charset=utf-8';
      ctx.out.headers['Content-Disposition'] = `attachment; filename="ageing-${report.as_of}.csv"`;
      ctx.out.body = ageingCsv(report);
    }
    if (input.format === 'pdf' && ctx.transport === 'rest') {
      ctx.out.headers['Content-Type'] = 'application/pdf';
      ctx.out.headers['Content-Disposition'] = `attachment; filename="ageing-${report.as_of}.pdf"`;
      ctx.out.body = await renderAgeingPdf(report, ctx.org!.name, ctx.deps.now());
    }
    return report;
  });
