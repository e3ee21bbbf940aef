import { z } from 'zod';
import { payoutEncryptionKey } from '../../../config';
import { intermediaryOf, outboundOf } from '../../../services/einvoicing/build-client';
import { testEinvoicingConnection } from '../../../services/einvoicing/connection-test';
import { getEinvoiceSettings, updateEinvoiceSettings } from '../../../services/einvoicing/settings';
import { svc } from '../../context';
import { personReadProcedure, settingsReadProcedure, settingsWriteProcedure } from '../../procedures';
import type { Context } from '../../context';
import { router } from '../../trpc';
import { answered, withRevision } from '../setup-router';
import { flag } from '../../../contract/fields';

/**
 * settings.einvoicing.get|update: LHDN MyInvois settings (one record; defaults at revision 1).
 * Secrets go in and never come out: `client_secret_set` and the certificate's public facts answer them.
 */

const environment = z.enum(['simulator', 'sandbox', 'production']);
const login = z.enum(['own', 'intermediary']);

export const einvoiceSettingsSchema = z
  .object({
    enabled: z.boolean(),
    login: login.describe("own: the organization's client id and secret; intermediary: the operator's intermediary system on behalf of the organization's TIN"),
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

export const connectionTestSchema = z
  .object({
    ok: z.boolean().describe('every step passed'),
    steps: z.array(
      z.object({
        key: z.enum(['credentials', 'token', 'taxpayer']).describe('credentials: the settings hold what a login needs; token: MyInvois gave a token; taxpayer: MyInvois knows the TIN with the BRN'),
        ok: z.boolean(),
        detail: z.string().describe('what happened, and what to do when it failed'),
      }),
    ).describe('in order; the steps after a failed one are not tried'),
  })
  .meta({ id: 'EinvoiceConnectionTest' });

/** How MyInvois is reached from a request: the sealing key, the outbound policy, the time limit, the operator's intermediary system. */
function myinvoisDepsOf(ctx: Context) {
  return {
    key: payoutEncryptionKey(ctx.deps.config),
    outbound: outboundOf(ctx.deps),
    timeoutMs: ctx.deps.config.MYINVOIS_TIMEOUT_MS,
    intermediary: intermediaryOf(ctx.deps.config),
  };
}

export const einvoicingRouter = router({
  get: settingsReadProcedure
    .input(z.strictObject({}).optional())
    .output(einvoiceSettingsSchema)
    .query(async ({ ctx }) => answered(ctx, await getEinvoiceSettings(svc(ctx)))),
  update: settingsWriteProcedure
    .input(
      z.strictObject({
        enabled: flag().optional().describe('turning it on needs the seller identity complete'),
        login: login
          .optional()
          .describe("intermediary: the service logs in as the operator's intermediary system on behalf of the organization's TIN (the organization appointed the operator in MyTax; no client secret of its own); 422 when the operator has none configured. Changing it needs a session"),
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
          .union([
            z.strictObject({ pem: z.string(), private_key: z.string(), passphrase: z.string().optional() }),
            z.strictObject({ pkcs12: z.string().describe('the .p12 / .pfx file, base64'), passphrase: z.string() }),
          ])
          .nullable()
          .optional()
          .describe("PEM certificate and key, or a PKCS#12 file (base64) with its passphrase; its subject must name the organization's TIN or BRN; write only"),
        version: z.enum(['1.0', '1.1']).optional().describe('1.1 (signed) needs a certificate'),
      }),
    )
    .output(einvoiceSettingsSchema)
    .mutation(async ({ ctx, input }) =>
      answered(
        ctx,
        await updateEinvoiceSettings(svc(ctx), withRevision(ctx, input), myinvoisDepsOf(ctx)),
      ),
    ),
  /**
   * Asks MyInvois, with the saved settings, for a token and whether it knows the organization's TIN
   * with its BRN. A person's action (session only): it sends the saved secret out.
   */
  testConnection: personReadProcedure('organization.settings.manage')
    .input(z.strictObject({}).optional())
    .output(connectionTestSchema)
    .mutation(({ ctx }) => testEinvoicingConnection(svc(ctx), myinvoisDepsOf(ctx))),
});
