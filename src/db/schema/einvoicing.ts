import { boolean, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations';

/**
 * The organization's e-invoicing settings (LHDN MyInvois, MYINVOIS.md point 1), one row per
 * organization; defaults when absent (off, sandbox, version 1.0). The client secret and the
 * certificate with its key and passphrase are sealed with the payout-channel secret box
 * (AES-256-GCM under PAYOUT_ENCRYPTION_KEY, the organization id as associated data); only the
 * certificate's public facts are kept in clear.
 */
export interface EinvoiceCertificateFacts {
  subject: string;
  issuer: string;
  serial: string;
  not_after: string;
}

export const einvoicingSettings = pgTable('einvoicing_settings', {
  organizationId: uuid('organization_id')
    .primaryKey()
    .references(() => organizations.id),
  enabled: boolean('enabled').notNull().default(false),
  environment: text('environment', { enum: ['simulator', 'sandbox', 'production'] }).notNull().default('sandbox'),
  /** Per-environment URL overrides: `{ [environment]: { api_base_url?, portal_base_url? } }`. */
  urls: jsonb('urls').$type<Record<string, { api_base_url?: string; portal_base_url?: string }>>().notNull().default({}),
  clientId: text('client_id'),
  clientSecretSealed: text('client_secret_sealed'),
  /** Sealed JSON `{certificate, private_key, passphrase}` (PEM). */
  certificateSealed: text('certificate_sealed'),
  certificate: jsonb('certificate').$type<EinvoiceCertificateFacts>(),
  version: text('version', { enum: ['1.0', '1.1'] }).notNull().default('1.0'),
  revision: integer('revision').notNull().default(1),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
