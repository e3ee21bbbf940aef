import { z } from 'zod';

/** organization.readiness: what is missing before invoices can be issued, e-invoicing turned on and claims approved. */
export const readinessSchema = z
  .object({
    areas: z.array(
      z.object({
        key: z.enum(['invoicing', 'einvoicing', 'claims']),
        /** Every item done. */
        ready: z.boolean(),
        items: z.array(
          z.object({
            key: z.string().describe('stable, e.g. customers.any, members.issuer, profile.seller_identity, einvoicing.credentials, approvals.review'),
            done: z.boolean(),
            detail: z.string().describe('what to do (or, when done, what is in place), in English'),
          }),
        ),
      }),
    ),
  })
  .meta({ id: 'Readiness' });
