CREATE TABLE "org_units" (
	"organization_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"parent_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "org_units_organization_id_id_pk" PRIMARY KEY("organization_id","id")
);
--> statement-breakpoint
CREATE TABLE "payout_channels" (
	"organization_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"member_id" uuid NOT NULL,
	"channel_key" text NOT NULL,
	"name" text NOT NULL,
	"fields_ciphertext" text NOT NULL,
	"fields_masked" jsonb NOT NULL,
	"account_tail" text,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payout_channels_organization_id_id_pk" PRIMARY KEY("organization_id","id")
);
--> statement-breakpoint
CREATE TABLE "position_assignments" (
	"organization_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"member_id" uuid NOT NULL,
	"position_id" uuid NOT NULL,
	"is_primary" boolean DEFAULT true NOT NULL,
	"valid_from" date NOT NULL,
	"valid_to" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "position_assignments_organization_id_id_pk" PRIMARY KEY("organization_id","id")
);
--> statement-breakpoint
CREATE TABLE "positions" (
	"organization_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"org_unit_id" uuid NOT NULL,
	"title" text NOT NULL,
	"is_unit_head" boolean DEFAULT false NOT NULL,
	"retired_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "positions_organization_id_id_pk" PRIMARY KEY("organization_id","id")
);
--> statement-breakpoint
CREATE TABLE "claim_analytic_accounts" (
	"organization_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"axis_id" uuid NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	CONSTRAINT "claim_analytic_accounts_organization_id_id_pk" PRIMARY KEY("organization_id","id")
);
--> statement-breakpoint
CREATE TABLE "claim_analytic_axes" (
	"organization_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"is_project_axis" boolean DEFAULT false NOT NULL,
	CONSTRAINT "claim_analytic_axes_organization_id_id_pk" PRIMARY KEY("organization_id","id")
);
--> statement-breakpoint
CREATE TABLE "claim_decisions" (
	"organization_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"claim_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"action_key" text NOT NULL,
	"actor_member_id" uuid NOT NULL,
	"authority_member_id" uuid NOT NULL,
	"decided_at" timestamp with time zone NOT NULL,
	"from_state" text NOT NULL,
	"to_state" text NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"via" text NOT NULL,
	CONSTRAINT "claim_decisions_organization_id_id_pk" PRIMARY KEY("organization_id","id")
);
--> statement-breakpoint
CREATE TABLE "claim_files" (
	"organization_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"sha256" text NOT NULL,
	"uploaded_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "claim_files_organization_id_id_pk" PRIMARY KEY("organization_id","id")
);
--> statement-breakpoint
CREATE TABLE "claim_groups" (
	"organization_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"retired_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "claim_groups_organization_id_id_pk" PRIMARY KEY("organization_id","id")
);
--> statement-breakpoint
CREATE TABLE "claim_line_documents" (
	"organization_id" uuid NOT NULL,
	"line_id" uuid NOT NULL,
	"file_id" uuid NOT NULL,
	"attached_at" timestamp with time zone DEFAULT now() NOT NULL,
	"detached_at" timestamp with time zone,
	CONSTRAINT "claim_line_documents_organization_id_line_id_file_id_pk" PRIMARY KEY("organization_id","line_id","file_id")
);
--> statement-breakpoint
CREATE TABLE "claim_line_shares" (
	"organization_id" uuid NOT NULL,
	"line_id" uuid NOT NULL,
	"analytic_account_id" uuid NOT NULL,
	"percentage" numeric(20, 10) NOT NULL,
	CONSTRAINT "claim_line_shares_organization_id_line_id_analytic_account_id_pk" PRIMARY KEY("organization_id","line_id","analytic_account_id")
);
--> statement-breakpoint
CREATE TABLE "claim_lines" (
	"organization_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"claim_id" uuid NOT NULL,
	"line_no" integer NOT NULL,
	"type" text NOT NULL,
	"withdrawn" boolean DEFAULT false NOT NULL,
	"expense_date" date NOT NULL,
	"category_id" uuid NOT NULL,
	"description" text NOT NULL,
	"currency" text NOT NULL,
	"amount" numeric(20, 4) NOT NULL,
	"base_amount" numeric(20, 4) NOT NULL,
	"fx_rate" numeric(20, 10) NOT NULL,
	"fx_rate_source" text NOT NULL,
	"reimbursement_basis" text NOT NULL,
	"quantity" numeric(20, 10) NOT NULL,
	"rate_id" uuid,
	"band" text,
	"tax_amount" numeric(20, 4) NOT NULL,
	"tax_code_id" uuid,
	"supplier_name" text,
	"supplier_tin" text,
	"document_basis" text NOT NULL,
	"einvoice_uuid" text,
	"einvoice_validated_at" timestamp with time zone,
	"relaxation_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "claim_lines_organization_id_id_pk" PRIMARY KEY("organization_id","id")
);
--> statement-breakpoint
CREATE TABLE "claim_sequences" (
	"organization_id" uuid NOT NULL,
	"year" integer NOT NULL,
	"last_value" integer NOT NULL,
	CONSTRAINT "claim_sequences_organization_id_year_pk" PRIMARY KEY("organization_id","year")
);
--> statement-breakpoint
CREATE TABLE "claim_settlements" (
	"organization_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"claim_id" uuid NOT NULL,
	"channel_id" uuid NOT NULL,
	"channel_key" text NOT NULL,
	"channel_name" text NOT NULL,
	"amount" numeric(20, 4) NOT NULL,
	"currency" text NOT NULL,
	"settled_at" timestamp with time zone NOT NULL,
	"settled_by" uuid NOT NULL,
	"proof_document_id" uuid,
	"account_tail" text,
	"fields_ciphertext" text NOT NULL,
	"fields_masked" jsonb NOT NULL,
	CONSTRAINT "claim_settlements_organization_id_id_pk" PRIMARY KEY("organization_id","id")
);
--> statement-breakpoint
CREATE TABLE "claim_signoffs" (
	"organization_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"claim_id" uuid NOT NULL,
	"state" text NOT NULL,
	"analytic_account_id" uuid NOT NULL,
	"axis_id" uuid NOT NULL,
	"account_code" text NOT NULL,
	"account_name" text NOT NULL,
	"amount" numeric(20, 4) NOT NULL,
	"currency" text NOT NULL,
	"eligible" text[] NOT NULL,
	"gap" jsonb,
	"signature_id" uuid,
	"signed_actor_member_id" uuid,
	"signed_authority_member_id" uuid,
	"signed_at" timestamp with time zone,
	"signed_via" text,
	"approver_assignment_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "claim_signoffs_organization_id_id_pk" PRIMARY KEY("organization_id","id")
);
--> statement-breakpoint
CREATE TABLE "claims" (
	"organization_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"reference" text NOT NULL,
	"title" text NOT NULL,
	"claimant_member_id" uuid NOT NULL,
	"group_id" uuid,
	"payout_channel_id" uuid,
	"currency" text NOT NULL,
	"state" text NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"submitted_at" timestamp with time zone,
	CONSTRAINT "claims_organization_id_id_pk" PRIMARY KEY("organization_id","id")
);
--> statement-breakpoint
CREATE TABLE "expense_categories" (
	"organization_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	CONSTRAINT "expense_categories_organization_id_id_pk" PRIMARY KEY("organization_id","id")
);
--> statement-breakpoint
CREATE TABLE "mileage_rate_bands" (
	"organization_id" uuid NOT NULL,
	"rate_id" uuid NOT NULL,
	"band" text NOT NULL,
	"from_km" numeric(20, 10) NOT NULL,
	"to_km" numeric(20, 10),
	"rate_per_km" numeric(20, 10) NOT NULL,
	CONSTRAINT "mileage_rate_bands_organization_id_rate_id_band_pk" PRIMARY KEY("organization_id","rate_id","band")
);
--> statement-breakpoint
CREATE TABLE "mileage_rates" (
	"organization_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"currency" text NOT NULL,
	"valid_from" date NOT NULL,
	"valid_to" date,
	CONSTRAINT "mileage_rates_organization_id_id_pk" PRIMARY KEY("organization_id","id")
);
--> statement-breakpoint
CREATE TABLE "per_diem_rate_bands" (
	"organization_id" uuid NOT NULL,
	"rate_id" uuid NOT NULL,
	"band" text NOT NULL,
	"amount_per_day" numeric(20, 4) NOT NULL,
	CONSTRAINT "per_diem_rate_bands_organization_id_rate_id_band_pk" PRIMARY KEY("organization_id","rate_id","band")
);
--> statement-breakpoint
CREATE TABLE "per_diem_rates" (
	"organization_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"currency" text NOT NULL,
	"valid_from" date NOT NULL,
	"valid_to" date,
	CONSTRAINT "per_diem_rates_organization_id_id_pk" PRIMARY KEY("organization_id","id")
);
--> statement-breakpoint
ALTER TABLE "org_units" ADD CONSTRAINT "org_units_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "org_units" ADD CONSTRAINT "org_units_organization_id_parent_id_org_units_organization_id_id_fk" FOREIGN KEY ("organization_id","parent_id") REFERENCES "public"."org_units"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_channels" ADD CONSTRAINT "payout_channels_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_channels" ADD CONSTRAINT "payout_channels_organization_id_member_id_members_organization_id_id_fk" FOREIGN KEY ("organization_id","member_id") REFERENCES "public"."members"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "position_assignments" ADD CONSTRAINT "position_assignments_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "position_assignments" ADD CONSTRAINT "position_assignments_organization_id_member_id_members_organization_id_id_fk" FOREIGN KEY ("organization_id","member_id") REFERENCES "public"."members"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "position_assignments" ADD CONSTRAINT "position_assignments_organization_id_position_id_positions_organization_id_id_fk" FOREIGN KEY ("organization_id","position_id") REFERENCES "public"."positions"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "positions" ADD CONSTRAINT "positions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "positions" ADD CONSTRAINT "positions_organization_id_org_unit_id_org_units_organization_id_id_fk" FOREIGN KEY ("organization_id","org_unit_id") REFERENCES "public"."org_units"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_analytic_accounts" ADD CONSTRAINT "claim_analytic_accounts_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_analytic_accounts" ADD CONSTRAINT "claim_analytic_accounts_organization_id_axis_id_claim_analytic_axes_organization_id_id_fk" FOREIGN KEY ("organization_id","axis_id") REFERENCES "public"."claim_analytic_axes"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_analytic_axes" ADD CONSTRAINT "claim_analytic_axes_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_decisions" ADD CONSTRAINT "claim_decisions_organization_id_claim_id_claims_organization_id_id_fk" FOREIGN KEY ("organization_id","claim_id") REFERENCES "public"."claims"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_decisions" ADD CONSTRAINT "claim_decisions_organization_id_actor_member_id_members_organization_id_id_fk" FOREIGN KEY ("organization_id","actor_member_id") REFERENCES "public"."members"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_decisions" ADD CONSTRAINT "claim_decisions_organization_id_authority_member_id_members_organization_id_id_fk" FOREIGN KEY ("organization_id","authority_member_id") REFERENCES "public"."members"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_files" ADD CONSTRAINT "claim_files_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_files" ADD CONSTRAINT "claim_files_organization_id_uploaded_by_members_organization_id_id_fk" FOREIGN KEY ("organization_id","uploaded_by") REFERENCES "public"."members"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_groups" ADD CONSTRAINT "claim_groups_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_line_documents" ADD CONSTRAINT "claim_line_documents_organization_id_line_id_claim_lines_organization_id_id_fk" FOREIGN KEY ("organization_id","line_id") REFERENCES "public"."claim_lines"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_line_documents" ADD CONSTRAINT "claim_line_documents_organization_id_file_id_claim_files_organization_id_id_fk" FOREIGN KEY ("organization_id","file_id") REFERENCES "public"."claim_files"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_line_shares" ADD CONSTRAINT "claim_line_shares_organization_id_line_id_claim_lines_organization_id_id_fk" FOREIGN KEY ("organization_id","line_id") REFERENCES "public"."claim_lines"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_line_shares" ADD CONSTRAINT "claim_line_shares_organization_id_analytic_account_id_claim_analytic_accounts_organization_id_id_fk" FOREIGN KEY ("organization_id","analytic_account_id") REFERENCES "public"."claim_analytic_accounts"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_lines" ADD CONSTRAINT "claim_lines_organization_id_claim_id_claims_organization_id_id_fk" FOREIGN KEY ("organization_id","claim_id") REFERENCES "public"."claims"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_lines" ADD CONSTRAINT "claim_lines_organization_id_category_id_expense_categories_organization_id_id_fk" FOREIGN KEY ("organization_id","category_id") REFERENCES "public"."expense_categories"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_sequences" ADD CONSTRAINT "claim_sequences_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_settlements" ADD CONSTRAINT "claim_settlements_organization_id_claim_id_claims_organization_id_id_fk" FOREIGN KEY ("organization_id","claim_id") REFERENCES "public"."claims"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_settlements" ADD CONSTRAINT "claim_settlements_organization_id_channel_id_payout_channels_organization_id_id_fk" FOREIGN KEY ("organization_id","channel_id") REFERENCES "public"."payout_channels"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_settlements" ADD CONSTRAINT "claim_settlements_organization_id_settled_by_members_organization_id_id_fk" FOREIGN KEY ("organization_id","settled_by") REFERENCES "public"."members"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_settlements" ADD CONSTRAINT "claim_settlements_organization_id_proof_document_id_claim_files_organization_id_id_fk" FOREIGN KEY ("organization_id","proof_document_id") REFERENCES "public"."claim_files"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_signoffs" ADD CONSTRAINT "claim_signoffs_organization_id_claim_id_claims_organization_id_id_fk" FOREIGN KEY ("organization_id","claim_id") REFERENCES "public"."claims"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_signoffs" ADD CONSTRAINT "claim_signoffs_organization_id_analytic_account_id_claim_analytic_accounts_organization_id_id_fk" FOREIGN KEY ("organization_id","analytic_account_id") REFERENCES "public"."claim_analytic_accounts"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_organization_id_claimant_member_id_members_organization_id_id_fk" FOREIGN KEY ("organization_id","claimant_member_id") REFERENCES "public"."members"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_organization_id_group_id_claim_groups_organization_id_id_fk" FOREIGN KEY ("organization_id","group_id") REFERENCES "public"."claim_groups"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_organization_id_payout_channel_id_payout_channels_organization_id_id_fk" FOREIGN KEY ("organization_id","payout_channel_id") REFERENCES "public"."payout_channels"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "expense_categories" ADD CONSTRAINT "expense_categories_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mileage_rate_bands" ADD CONSTRAINT "mileage_rate_bands_organization_id_rate_id_mileage_rates_organization_id_id_fk" FOREIGN KEY ("organization_id","rate_id") REFERENCES "public"."mileage_rates"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mileage_rates" ADD CONSTRAINT "mileage_rates_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "per_diem_rate_bands" ADD CONSTRAINT "per_diem_rate_bands_organization_id_rate_id_per_diem_rates_organization_id_id_fk" FOREIGN KEY ("organization_id","rate_id") REFERENCES "public"."per_diem_rates"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "per_diem_rates" ADD CONSTRAINT "per_diem_rates_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "org_units_org_code" ON "org_units" USING btree ("organization_id","code");--> statement-breakpoint
CREATE INDEX "payout_channels_member_idx" ON "payout_channels" USING btree ("organization_id","member_id") WHERE "payout_channels"."active";--> statement-breakpoint
CREATE INDEX "position_assignments_member_idx" ON "position_assignments" USING btree ("organization_id","member_id","valid_from");--> statement-breakpoint
CREATE INDEX "positions_unit_idx" ON "positions" USING btree ("organization_id","org_unit_id");--> statement-breakpoint
CREATE UNIQUE INDEX "claim_analytic_accounts_org_axis_code" ON "claim_analytic_accounts" USING btree ("organization_id","axis_id","code");--> statement-breakpoint
CREATE UNIQUE INDEX "claim_decisions_claim_seq" ON "claim_decisions" USING btree ("organization_id","claim_id","seq");--> statement-breakpoint
CREATE INDEX "claim_files_org_sha256_idx" ON "claim_files" USING btree ("organization_id","sha256");--> statement-breakpoint
CREATE INDEX "claim_line_documents_file_idx" ON "claim_line_documents" USING btree ("organization_id","file_id");--> statement-breakpoint
CREATE UNIQUE INDEX "claim_lines_claim_line_no" ON "claim_lines" USING btree ("organization_id","claim_id","line_no");--> statement-breakpoint
CREATE INDEX "claim_settlements_claim_idx" ON "claim_settlements" USING btree ("organization_id","claim_id","settled_at");--> statement-breakpoint
CREATE UNIQUE INDEX "claim_signoffs_claim_state_account" ON "claim_signoffs" USING btree ("organization_id","claim_id","state","analytic_account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "claims_org_reference" ON "claims" USING btree ("organization_id","reference");--> statement-breakpoint
CREATE INDEX "claims_org_claimant_idx" ON "claims" USING btree ("organization_id","claimant_member_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "expense_categories_org_code" ON "expense_categories" USING btree ("organization_id","code");