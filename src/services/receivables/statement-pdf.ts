/**
 * A customer statement as the bilingual PDF the customer receives (GET
 * /v1/receivables/customers/{id}/statement/pdf, and the attachment of a payment reminder): the
 * statement exactly as customerStatement answers it, with the customer's address as it reads now.
 * Read only.
 */
import { findCustomer } from '../../db/queries/customers';
import { countryAlpha2 } from '../../lib/code-lists';
import { notFound } from '../../lib/errors';
import type { ServiceContext } from '../context';
import { customerStatement, type StatementRequest } from './customer-statement';
import type { DocumentPdf } from './document-pdf';

export async function statementPdf(ctx: ServiceContext, input: StatementRequest): Promise<DocumentPdf> {
  const statement = await customerStatement(ctx, input);
  const customer = await findCustomer(ctx.db, { organizationId: ctx.org.id, id: statement.customer.id, today: ctx.today });
  if (!customer) throw notFound('customer');
  // pdfkit and the fonts are loaded on the first PDF, not by every process at start.
  const { renderStatementPdf } = await import('./pdf/render-statement-pdf');
  const content = await renderStatementPdf({
    statement,
    seller: { ...ctx.org.seller, name: ctx.org.seller.name ?? ctx.org.name },
    customer_address: { ...customer.address, country_code: customer.countryCode ? countryAlpha2(customer.countryCode) : null },
    created_at: ctx.now,
  });
  return { filename: `statement-${customer.code}-${statement.to}.pdf`, content };
}
