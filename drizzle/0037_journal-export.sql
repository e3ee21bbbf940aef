CREATE TABLE "journal_accounts" (
	"organization_id" uuid NOT NULL,
	"role" text NOT NULL,
	"key" text DEFAULT '' NOT NULL,
	"account_id" uuid NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "journal_accounts_organization_id_role_key_pk" PRIMARY KEY("organization_id","role","key")
);
--> statement-breakpoint
CREATE TABLE "journal_batches" (
	"organization_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"up_to" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid NOT NULL,
	"entry_count" integer NOT NULL,
	CONSTRAINT "journal_batches_organization_id_number_pk" PRIMARY KEY("organization_id","number")
);
--> statement-breakpoint
CREATE TABLE "journal_entries" (
	"organization_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigserial NOT NULL,
	"entry_date" date NOT NULL,
	"kind" text NOT NULL,
	"source_type" text NOT NULL,
	"source_id" uuid NOT NULL,
	"reference" text DEFAULT '' NOT NULL,
	"narration" text DEFAULT '' NOT NULL,
	"reverses_id" uuid,
	"batch_number" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "journal_entries_organization_id_id_pk" PRIMARY KEY("organization_id","id")
);
--> statement-breakpoint
CREATE TABLE "journal_lines" (
	"organization_id" uuid NOT NULL,
	"entry_id" uuid NOT NULL,
	"line_no" integer NOT NULL,
	"account_id" uuid NOT NULL,
	"account_code" text NOT NULL,
	"debit" numeric(20, 4) NOT NULL,
	"credit" numeric(20, 4) NOT NULL,
	"currency" text NOT NULL,
	"amount" numeric(20, 4) NOT NULL,
	"analytic_account_id" uuid,
	CONSTRAINT "journal_lines_organization_id_entry_id_line_no_pk" PRIMARY KEY("organization_id","entry_id","line_no")
);
--> statement-breakpoint
ALTER TABLE "journal_accounts" ADD CONSTRAINT "journal_accounts_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journal_accounts" ADD CONSTRAINT "journal_accounts_organization_id_account_id_accounts_organization_id_id_fk" FOREIGN KEY ("organization_id","account_id") REFERENCES "public"."accounts"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journal_batches" ADD CONSTRAINT "journal_batches_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journal_entries" ADD CONSTRAINT "journal_entries_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journal_lines" ADD CONSTRAINT "journal_lines_organization_id_entry_id_journal_entries_organization_id_id_fk" FOREIGN KEY ("organization_id","entry_id") REFERENCES "public"."journal_entries"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journal_lines" ADD CONSTRAINT "journal_lines_organization_id_account_id_accounts_organization_id_id_fk" FOREIGN KEY ("organization_id","account_id") REFERENCES "public"."accounts"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journal_lines" ADD CONSTRAINT "journal_lines_organization_id_analytic_account_id_analytic_accounts_organization_id_id_fk" FOREIGN KEY ("organization_id","analytic_account_id") REFERENCES "public"."analytic_accounts"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "journal_entries_org_kind_source" ON "journal_entries" USING btree ("organization_id","kind","source_id") WHERE kind <> 'claim_difference_approved';--> statement-breakpoint
CREATE INDEX "journal_entries_org_unexported" ON "journal_entries" USING btree ("organization_id","entry_date","seq") WHERE batch_number is null;--> statement-breakpoint
CREATE INDEX "journal_entries_org_batch" ON "journal_entries" USING btree ("organization_id","batch_number","seq");--> statement-breakpoint
CREATE INDEX "journal_entries_org_date" ON "journal_entries" USING btree ("organization_id","entry_date");--> statement-breakpoint
CREATE INDEX "journal_entries_org_source" ON "journal_entries" USING btree ("organization_id","source_id");--> statement-breakpoint
CREATE INDEX "journal_lines_org_account" ON "journal_lines" USING btree ("organization_id","account_id");--> statement-breakpoint
-- Customer deposits (receipts not yet applied) joined the default chart with the journal export:
-- organizations created before it get the account unless they already use the code.
INSERT INTO "accounts" ("organization_id", "code", "name", "type")
SELECT o."id", '2040', 'Customer deposits (unapplied receipts)', 'liability' FROM "organizations" o
WHERE NOT EXISTS (SELECT 1 FROM "accounts" a WHERE a."organization_id" = o."id" AND a."code" = '2040');
--> statement-breakpoint
-- Built-in roles gain the journal export (src/domain/permissions.ts BUILT_IN_ROLES): owners and accountants.
UPDATE "roles" SET "permissions" = ARRAY(SELECT DISTINCT p FROM unnest("permissions" || ARRAY['receivables.journal.export']::text[]) AS p ORDER BY p)
WHERE "key" IN ('owner', 'accountant') AND NOT ("permissions" @> ARRAY['receivables.journal.export']::text[]);
