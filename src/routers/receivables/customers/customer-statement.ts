import { statementInput, statementSchema } from '../../../contract/receivables/statements';
import { customerStatement } from '../../../services/receivables/customer-statement';
import { svc } from '../../context';
import { readProcedure } from '../../procedures';

/** GET /v1/receivables/customers/{id}/statement and `receivables.customers.statement`. */
export const customerStatementProcedure = readProcedure('receivables.invoice.read')
  .meta({
    openapi: {
      method: 'GET',
      path: '/receivables/customers/{id}/statement',
      summary: "A customer's statement",
      description:
        'open_items (default): every document and receipt with something open as at `to`, with days overdue, the closing balance and the overdue part. ' +
        'activity: the opening balance at the end of the day before `from`, each document dated, receipt received and allocation (and reversal) effective ' +
        'from `from` to `to` with a running balance, and the closing balance. One section per currency. Rebuilt from invoice dates, days received and allocation ' +
        "effective days. `to` after the organization's today is 422 at /query/to; `from` after `to`, or with open_items, is 422 at /query/from. " +
        'The same as a bilingual PDF: GET /v1/receivables/customers/{id}/statement/pdf. Permission: receivables.invoice.read.',
      tags: ['Customers'],
      protect: true,
    },
  })
  .input(statementInput)
  .output(statementSchema)
  .query(({ ctx, input }) => customerStatement(svc(ctx), input));
