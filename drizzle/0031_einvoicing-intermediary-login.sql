-- How the service logs in to MyInvois for an organization: `own` (its client id and secret, as before)
-- or `intermediary` (the operator's intermediary system on behalf of the organization's TIN).
ALTER TABLE "einvoicing_settings" ADD COLUMN "login" text DEFAULT 'own' NOT NULL;