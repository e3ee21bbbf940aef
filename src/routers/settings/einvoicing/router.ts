import { z } from 'zod';
import { payoutEncryptionKey } from '../../../config';
import { outboundOf } from '../../../services/einvoicing/build-client';
import { getEinvoiceSettings, updateEinvoiceSettings } from '../../../services/einvoicing/settings';
import { svc } from '../../context';
import { settingsReadProcedure, settingsWriteProcedure } from '../../procedures';
import { router } from '../../trpc';
import { answered, bool, withRevision } from '../shared';

/**
 * settings.einvoicing.get|update: LHDN MyInvois settings (one record; defaults at revision 1).
 * Secrets go in and never come out: `client_secret_set` and the certificate's public facts answer them.
 */

const environment = z.enum(['simulator', 'sandbox', 'production']);

export const einvoiceSettingsSchema = z
  .object({
    enabled: z.boolean(),
    environment,
    api_base_url: z.string().describe('API and identity base URL of the environment (its default unless overridden)'),
    portal_base_url: z.string().describe('Portal base URL of the environment, for validation links'),
    client_id: z.string().nullable(),
    client_secret_set: z.boolean(),
    certificate: z.object({ subject: z.string(), issuer: z.string(), serial: z.string(), not_after: z.string() }).nullable(),
    version: z.enum(['1.0', '1.1']),
    revision: z.int(),
  })
  .meta({ id: 'EinvoiceSettings' });

export const einvoicingRouter = router({
  get: settingsReadProcedure
    .input(z.strictObject({}).optional())
    .output(einvoiceSettingsSchema)
    .query(async ({ ctx }) => answered(ctx, await getEinvoiceSettings(svc(ctx)))),
  update: settingsWriteProcedure
    .input(
      z.strictObject({
        enabled: bool().optional().describe('turning it on needs the seller identity complete'),
        environment: environment.optional(),
        api_base_url: z
          .string()
          .nullable()
          .optional()
          .describe("override for the environment in effect; null: its default. https, no user, query or fragment, not an internal address (OUTBOUND_ALLOWED_NETWORKS). Changing it or the environment needs a session and clears the stored client secret unless client_secret is given again"),
        portal_base_url: z.string().nullable().optional(),
        client_id: z.string().nullable().optional(),
        client_secret: z.string().nullable().optional().describe('write only; null removes it'),
        certificate: z
          .strictObject({ pem: z.string(), private_key: z.string(), passphrase: z.string().optional() })
          .nullable()
          .optional()
          .describe("PEM certificate and key (PKCS#12 not accepted); its subject must name the organization's TIN or BRN; write only"),
        version: z.enum(['1.0', '1.1']).optional().describe('1.1 (signed) needs a certificate'),
      }),
    )
    .output(einvoiceSettingsSchema)
    .mutation(async ({ ctx, input }) =>
      answered(
        ctx,
        await updateEinvoiceSettings(svc(ctx), withRevision(ctx, input), {
          key: payoutEncryptionKey(ctx.deps.config),
          outbound: outboundOf(ctx.deps),
          timeoutMs: ctx.deps.config.MYINVOIS_TIMEOUT_MS,
        }),
      ),
    ),
});
