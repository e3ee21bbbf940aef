CREATE TABLE "api_keys" (
	"organization_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"owner_member_id" uuid NOT NULL,
	"name" text NOT NULL,
	"secret_hash" text NOT NULL,
	"permissions" text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	CONSTRAINT "api_keys_organization_id_id_pk" PRIMARY KEY("organization_id","id")
);
--> statement-breakpoint
CREATE TABLE "company_group_members" (
	"group_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	CONSTRAINT "company_group_members_group_id_organization_id_pk" PRIMARY KEY("group_id","organization_id")
);
--> statement-breakpoint
CREATE TABLE "company_groups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "member_roles" (
	"organization_id" uuid NOT NULL,
	"member_id" uuid NOT NULL,
	"role_id" uuid NOT NULL,
	CONSTRAINT "member_roles_organization_id_member_id_role_id_pk" PRIMARY KEY("organization_id","member_id","role_id")
);
--> statement-breakpoint
CREATE TABLE "members" (
	"organization_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"email" text,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "members_organization_id_id_pk" PRIMARY KEY("organization_id","id")
);
--> statement-breakpoint
CREATE TABLE "organizations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"base_currency" text DEFAULT 'MYR' NOT NULL,
	"time_zone" text DEFAULT 'Asia/Kuala_Lumpur' NOT NULL,
	"record_languages" text[] DEFAULT ARRAY['en','ms']::text[] NOT NULL,
	"seller" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "roles" (
	"organization_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"key" text NOT NULL,
	"name" text NOT NULL,
	"permissions" text[] NOT NULL,
	CONSTRAINT "roles_organization_id_id_pk" PRIMARY KEY("organization_id","id")
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"organization_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"member_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "sessions_organization_id_id_pk" PRIMARY KEY("organization_id","id")
);
--> statement-breakpoint
CREATE TABLE "counterparty_mappings" (
	"organization_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"company_organization_id" uuid NOT NULL,
	"valid_from" date NOT NULL,
	"valid_to" date,
	CONSTRAINT "counterparty_mappings_organization_id_id_pk" PRIMARY KEY("organization_id","id")
);
--> statement-breakpoint
CREATE TABLE "customers" (
	"organization_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"legal_name" text NOT NULL,
	"party_kind" text NOT NULL,
	"address" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"country_code" text DEFAULT 'MY' NOT NULL,
	"currency" text NOT NULL,
	"payment_terms_days" integer DEFAULT 30 NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	"custom_fields" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"default_revenue_account_id" uuid,
	"default_tax_code_id" uuid,
	"email" text,
	"phone" text,
	"registration_no" text,
	"registration_type" text,
	"sst_registration_no" text,
	"tin" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customers_organization_id_id_pk" PRIMARY KEY("organization_id","id")
);
--> statement-breakpoint
CREATE TABLE "workflows" (
	"organization_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"record_type" text NOT NULL,
	"definition" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workflows_organization_id_id_pk" PRIMARY KEY("organization_id","id")
);
--> statement-breakpoint
CREATE TABLE "accounts" (
	"organization_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	CONSTRAINT "accounts_organization_id_id_pk" PRIMARY KEY("organization_id","id")
);
--> statement-breakpoint
CREATE TABLE "analytic_accounts" (
	"organization_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"axis_id" uuid NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	CONSTRAINT "analytic_accounts_organization_id_id_pk" PRIMARY KEY("organization_id","id")
);
--> statement-breakpoint
CREATE TABLE "analytic_axes" (
	"organization_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"is_project_axis" boolean DEFAULT false NOT NULL,
	CONSTRAINT "analytic_axes_organization_id_id_pk" PRIMARY KEY("organization_id","id")
);
--> statement-breakpoint
CREATE TABLE "custom_field_definitions" (
	"organization_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"record_type" text NOT NULL,
	"key" text NOT NULL,
	"label" text NOT NULL,
	"type" text NOT NULL,
	"options" text[] DEFAULT ARRAY[]::text[] NOT NULL,
	"required" boolean DEFAULT false NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	CONSTRAINT "custom_field_definitions_organization_id_id_pk" PRIMARY KEY("organization_id","id")
);
--> statement-breakpoint
CREATE TABLE "tax_codes" (
	"organization_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"rate" numeric(20, 10) NOT NULL,
	"tax_type" text NOT NULL,
	"tax_pack_kind" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	CONSTRAINT "tax_codes_organization_id_id_pk" PRIMARY KEY("organization_id","id")
);
--> statement-breakpoint
CREATE TABLE "trade_lines" (
	"organization_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"reference" text NOT NULL,
	"description" text NOT NULL,
	"unit_code" text,
	"quantity" numeric(20, 10) NOT NULL,
	"quantity_invoiced" numeric(20, 10) DEFAULT '0' NOT NULL,
	"line_no" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trade_lines_organization_id_id_pk" PRIMARY KEY("organization_id","id")
);
--> statement-breakpoint
CREATE TABLE "allocations" (
	"organization_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"invoice_id" uuid NOT NULL,
	"source_kind" text NOT NULL,
	"receipt_id" uuid,
	"credit_note_id" uuid,
	"currency" text NOT NULL,
	"amount" numeric(20, 4) NOT NULL,
	"base_amount" numeric(20, 4) NOT NULL,
	"effective_on" date NOT NULL,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reverses_id" uuid,
	"reversed_by_id" uuid,
	CONSTRAINT "allocations_organization_id_id_pk" PRIMARY KEY("organization_id","id")
);
--> statement-breakpoint
CREATE TABLE "receipts" (
	"organization_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"reference" text NOT NULL,
	"currency" text NOT NULL,
	"amount" numeric(20, 4) NOT NULL,
	"base_amount" numeric(20, 4) NOT NULL,
	"received_on" date NOT NULL,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "receipts_organization_id_id_pk" PRIMARY KEY("organization_id","id")
);
--> statement-breakpoint
CREATE TABLE "receivable_document_lines" (
	"organization_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"document_id" uuid NOT NULL,
	"line_no" integer NOT NULL,
	"account_id" uuid NOT NULL,
	"classification_code" text NOT NULL,
	"description" text NOT NULL,
	"unit_code" text,
	"quantity" numeric(24, 10) NOT NULL,
	"unit_price" numeric(20, 4) NOT NULL,
	"discount_amount" numeric(20, 4) NOT NULL,
	"net_amount" numeric(20, 4) NOT NULL,
	"net_base" numeric(20, 4) NOT NULL,
	"tax_amount" numeric(20, 4) NOT NULL,
	"tax_base" numeric(20, 4) NOT NULL,
	"tax_code_id" uuid NOT NULL,
	"tax_code" text NOT NULL,
	"tax_type" text NOT NULL,
	"tax_pack_kind" text NOT NULL,
	"tax_rate" numeric(24, 10) NOT NULL,
	"tax_exemption_reason" text,
	"trade_line_id" uuid,
	CONSTRAINT "receivable_document_lines_organization_id_id_pk" PRIMARY KEY("organization_id","id")
);
--> statement-breakpoint
CREATE TABLE "receivable_documents" (
	"organization_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"state" text NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	"reference" text,
	"customer_id" uuid NOT NULL,
	"customer_reference" text DEFAULT '' NOT NULL,
	"currency" text NOT NULL,
	"fx_rate" numeric(24, 10) NOT NULL,
	"invoice_date" date NOT NULL,
	"due_on" date NOT NULL,
	"payment_terms_days" integer NOT NULL,
	"prepared_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"issued_at" timestamp with time zone,
	"reason" text,
	"original_invoice_id" uuid,
	"original_total" numeric(20, 4),
	"legacy_reference" text,
	"is_opening" boolean DEFAULT false NOT NULL,
	"buyer" jsonb,
	"seller" jsonb,
	"custom_fields" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"net_total" numeric(20, 4) NOT NULL,
	"tax_total" numeric(20, 4) NOT NULL,
	"gross_amount" numeric(20, 4) NOT NULL,
	"gross_base" numeric(20, 4) NOT NULL,
	"outstanding" numeric(20, 4) NOT NULL,
	"outstanding_base" numeric(20, 4) NOT NULL,
	"project_id" uuid,
	"multiple_projects" boolean DEFAULT false NOT NULL,
	"search_text" text DEFAULT '' NOT NULL,
	CONSTRAINT "receivable_documents_organization_id_id_pk" PRIMARY KEY("organization_id","id")
);
--> statement-breakpoint
CREATE TABLE "receivable_line_shares" (
	"organization_id" uuid NOT NULL,
	"line_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"analytic_account_id" uuid NOT NULL,
	"axis_id" uuid NOT NULL,
	"percentage" numeric(24, 10) NOT NULL,
	CONSTRAINT "receivable_line_shares_organization_id_line_id_analytic_account_id_pk" PRIMARY KEY("organization_id","line_id","analytic_account_id")
);
--> statement-breakpoint
CREATE TABLE "receivable_timeline" (
	"organization_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"document_id" uuid NOT NULL,
	"action_key" text NOT NULL,
	"actor_member_id" uuid NOT NULL,
	"decided_at" timestamp with time zone NOT NULL,
	"from_state" text NOT NULL,
	"to_state" text NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"via" text DEFAULT 'grant' NOT NULL,
	CONSTRAINT "receivable_timeline_organization_id_id_pk" PRIMARY KEY("organization_id","id")
);
--> statement-breakpoint
CREATE TABLE "file_attachments" (
	"organization_id" uuid NOT NULL,
	"file_id" uuid NOT NULL,
	"record_type" text NOT NULL,
	"record_id" uuid NOT NULL,
	"ordinal" integer NOT NULL,
	"attached_by" uuid NOT NULL,
	"attached_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "file_attachments_organization_id_file_id_pk" PRIMARY KEY("organization_id","file_id")
);
--> statement-breakpoint
CREATE TABLE "files" (
	"organization_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"filename" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"sha256" text NOT NULL,
	"content" "bytea" NOT NULL,
	"uploaded_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "files_organization_id_id_pk" PRIMARY KEY("organization_id","id")
);
--> statement-breakpoint
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
CREATE TABLE "claim_groups" (
	"organization_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"retired_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "claim_groups_organization_id_id_pk" PRIMARY KEY("organization_id","id")
);
--> statement-breakpoint
CREATE TABLE "claim_line_document_detachments" (
	"organization_id" uuid NOT NULL,
	"file_id" uuid NOT NULL,
	"detached_at" timestamp with time zone NOT NULL,
	CONSTRAINT "claim_line_document_detachments_organization_id_file_id_pk" PRIMARY KEY("organization_id","file_id")
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
CREATE TABLE "idempotency_keys" (
	"organization_id" uuid NOT NULL,
	"scope" text NOT NULL,
	"key" text NOT NULL,
	"fingerprint" text NOT NULL,
	"route" text NOT NULL,
	"status" integer NOT NULL,
	"body" text NOT NULL,
	"headers" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_organization_id_scope_key_pk" PRIMARY KEY("organization_id","scope","key")
);
--> statement-breakpoint
CREATE TABLE "rate_limit_counters" (
	"key" text PRIMARY KEY NOT NULL,
	"points" integer DEFAULT 0 NOT NULL,
	"expire" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "server_secrets" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sequences" (
	"organization_id" uuid NOT NULL,
	"name" text NOT NULL,
	"last_value" integer NOT NULL,
	CONSTRAINT "sequences_organization_id_name_pk" PRIMARY KEY("organization_id","name")
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_organization_id_owner_member_id_members_organization_id_id_fk" FOREIGN KEY ("organization_id","owner_member_id") REFERENCES "public"."members"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_group_members" ADD CONSTRAINT "company_group_members_group_id_company_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."company_groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_group_members" ADD CONSTRAINT "company_group_members_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_roles" ADD CONSTRAINT "member_roles_organization_id_member_id_members_organization_id_id_fk" FOREIGN KEY ("organization_id","member_id") REFERENCES "public"."members"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_roles" ADD CONSTRAINT "member_roles_organization_id_role_id_roles_organization_id_id_fk" FOREIGN KEY ("organization_id","role_id") REFERENCES "public"."roles"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "members" ADD CONSTRAINT "members_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roles" ADD CONSTRAINT "roles_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_organization_id_member_id_members_organization_id_id_fk" FOREIGN KEY ("organization_id","member_id") REFERENCES "public"."members"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "counterparty_mappings" ADD CONSTRAINT "counterparty_mappings_company_organization_id_organizations_id_fk" FOREIGN KEY ("company_organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "counterparty_mappings" ADD CONSTRAINT "counterparty_mappings_organization_id_customer_id_customers_organization_id_id_fk" FOREIGN KEY ("organization_id","customer_id") REFERENCES "public"."customers"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflows" ADD CONSTRAINT "workflows_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytic_accounts" ADD CONSTRAINT "analytic_accounts_organization_id_axis_id_analytic_axes_organization_id_id_fk" FOREIGN KEY ("organization_id","axis_id") REFERENCES "public"."analytic_axes"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytic_axes" ADD CONSTRAINT "analytic_axes_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_field_definitions" ADD CONSTRAINT "custom_field_definitions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tax_codes" ADD CONSTRAINT "tax_codes_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_lines" ADD CONSTRAINT "trade_lines_organization_id_customer_id_customers_organization_id_id_fk" FOREIGN KEY ("organization_id","customer_id") REFERENCES "public"."customers"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "allocations" ADD CONSTRAINT "allocations_organization_id_invoice_id_receivable_documents_organization_id_id_fk" FOREIGN KEY ("organization_id","invoice_id") REFERENCES "public"."receivable_documents"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "allocations" ADD CONSTRAINT "allocations_organization_id_credit_note_id_receivable_documents_organization_id_id_fk" FOREIGN KEY ("organization_id","credit_note_id") REFERENCES "public"."receivable_documents"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "allocations" ADD CONSTRAINT "allocations_organization_id_receipt_id_receipts_organization_id_id_fk" FOREIGN KEY ("organization_id","receipt_id") REFERENCES "public"."receipts"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "allocations" ADD CONSTRAINT "allocations_organization_id_created_by_members_organization_id_id_fk" FOREIGN KEY ("organization_id","created_by") REFERENCES "public"."members"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "allocations" ADD CONSTRAINT "allocations_organization_id_reverses_id_allocations_organization_id_id_fk" FOREIGN KEY ("organization_id","reverses_id") REFERENCES "public"."allocations"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "allocations" ADD CONSTRAINT "allocations_organization_id_reversed_by_id_allocations_organization_id_id_fk" FOREIGN KEY ("organization_id","reversed_by_id") REFERENCES "public"."allocations"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_organization_id_customer_id_customers_organization_id_id_fk" FOREIGN KEY ("organization_id","customer_id") REFERENCES "public"."customers"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_organization_id_created_by_members_organization_id_id_fk" FOREIGN KEY ("organization_id","created_by") REFERENCES "public"."members"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receivable_document_lines" ADD CONSTRAINT "receivable_document_lines_organization_id_document_id_receivable_documents_organization_id_id_fk" FOREIGN KEY ("organization_id","document_id") REFERENCES "public"."receivable_documents"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receivable_document_lines" ADD CONSTRAINT "receivable_document_lines_organization_id_account_id_accounts_organization_id_id_fk" FOREIGN KEY ("organization_id","account_id") REFERENCES "public"."accounts"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receivable_document_lines" ADD CONSTRAINT "receivable_document_lines_organization_id_tax_code_id_tax_codes_organization_id_id_fk" FOREIGN KEY ("organization_id","tax_code_id") REFERENCES "public"."tax_codes"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receivable_document_lines" ADD CONSTRAINT "receivable_document_lines_organization_id_trade_line_id_trade_lines_organization_id_id_fk" FOREIGN KEY ("organization_id","trade_line_id") REFERENCES "public"."trade_lines"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receivable_documents" ADD CONSTRAINT "receivable_documents_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receivable_documents" ADD CONSTRAINT "receivable_documents_organization_id_customer_id_customers_organization_id_id_fk" FOREIGN KEY ("organization_id","customer_id") REFERENCES "public"."customers"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receivable_documents" ADD CONSTRAINT "receivable_documents_organization_id_prepared_by_members_organization_id_id_fk" FOREIGN KEY ("organization_id","prepared_by") REFERENCES "public"."members"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receivable_documents" ADD CONSTRAINT "receivable_documents_organization_id_original_invoice_id_receivable_documents_organization_id_id_fk" FOREIGN KEY ("organization_id","original_invoice_id") REFERENCES "public"."receivable_documents"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receivable_documents" ADD CONSTRAINT "receivable_documents_organization_id_project_id_analytic_accounts_organization_id_id_fk" FOREIGN KEY ("organization_id","project_id") REFERENCES "public"."analytic_accounts"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receivable_line_shares" ADD CONSTRAINT "receivable_line_shares_organization_id_line_id_receivable_document_lines_organization_id_id_fk" FOREIGN KEY ("organization_id","line_id") REFERENCES "public"."receivable_document_lines"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receivable_line_shares" ADD CONSTRAINT "receivable_line_shares_organization_id_analytic_account_id_analytic_accounts_organization_id_id_fk" FOREIGN KEY ("organization_id","analytic_account_id") REFERENCES "public"."analytic_accounts"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receivable_line_shares" ADD CONSTRAINT "receivable_line_shares_organization_id_axis_id_analytic_axes_organization_id_id_fk" FOREIGN KEY ("organization_id","axis_id") REFERENCES "public"."analytic_axes"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receivable_timeline" ADD CONSTRAINT "receivable_timeline_organization_id_document_id_receivable_documents_organization_id_id_fk" FOREIGN KEY ("organization_id","document_id") REFERENCES "public"."receivable_documents"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receivable_timeline" ADD CONSTRAINT "receivable_timeline_organization_id_actor_member_id_members_organization_id_id_fk" FOREIGN KEY ("organization_id","actor_member_id") REFERENCES "public"."members"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_attachments" ADD CONSTRAINT "file_attachments_organization_id_file_id_files_organization_id_id_fk" FOREIGN KEY ("organization_id","file_id") REFERENCES "public"."files"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_attachments" ADD CONSTRAINT "file_attachments_organization_id_attached_by_members_organization_id_id_fk" FOREIGN KEY ("organization_id","attached_by") REFERENCES "public"."members"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_organization_id_uploaded_by_members_organization_id_id_fk" FOREIGN KEY ("organization_id","uploaded_by") REFERENCES "public"."members"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "org_units" ADD CONSTRAINT "org_units_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "org_units" ADD CONSTRAINT "org_units_organization_id_parent_id_org_units_organization_id_id_fk" FOREIGN KEY ("organization_id","parent_id") REFERENCES "public"."org_units"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_channels" ADD CONSTRAINT "payout_channels_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_channels" ADD CONSTRAINT "payout_channels_organization_id_member_id_members_organization_id_id_fk" FOREIGN KEY ("organization_id","member_id") REFERENCES "public"."members"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "position_assignments" ADD CONSTRAINT "position_assignments_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "position_assignments" ADD CONSTRAINT "position_assignments_organization_id_member_id_members_organization_id_id_fk" FOREIGN KEY ("organization_id","member_id") REFERENCES "public"."members"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "position_assignments" ADD CONSTRAINT "position_assignments_organization_id_position_id_positions_organization_id_id_fk" FOREIGN KEY ("organization_id","position_id") REFERENCES "public"."positions"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "positions" ADD CONSTRAINT "positions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "positions" ADD CONSTRAINT "positions_organization_id_org_unit_id_org_units_organization_id_id_fk" FOREIGN KEY ("organization_id","org_unit_id") REFERENCES "public"."org_units"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_decisions" ADD CONSTRAINT "claim_decisions_organization_id_claim_id_claims_organization_id_id_fk" FOREIGN KEY ("organization_id","claim_id") REFERENCES "public"."claims"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_decisions" ADD CONSTRAINT "claim_decisions_organization_id_actor_member_id_members_organization_id_id_fk" FOREIGN KEY ("organization_id","actor_member_id") REFERENCES "public"."members"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_decisions" ADD CONSTRAINT "claim_decisions_organization_id_authority_member_id_members_organization_id_id_fk" FOREIGN KEY ("organization_id","authority_member_id") REFERENCES "public"."members"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_groups" ADD CONSTRAINT "claim_groups_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_line_document_detachments" ADD CONSTRAINT "claim_line_document_detachments_organization_id_file_id_file_attachments_organization_id_file_id_fk" FOREIGN KEY ("organization_id","file_id") REFERENCES "public"."file_attachments"("organization_id","file_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_line_shares" ADD CONSTRAINT "claim_line_shares_organization_id_line_id_claim_lines_organization_id_id_fk" FOREIGN KEY ("organization_id","line_id") REFERENCES "public"."claim_lines"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_line_shares" ADD CONSTRAINT "claim_line_shares_organization_id_analytic_account_id_analytic_accounts_organization_id_id_fk" FOREIGN KEY ("organization_id","analytic_account_id") REFERENCES "public"."analytic_accounts"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_lines" ADD CONSTRAINT "claim_lines_organization_id_claim_id_claims_organization_id_id_fk" FOREIGN KEY ("organization_id","claim_id") REFERENCES "public"."claims"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_lines" ADD CONSTRAINT "claim_lines_organization_id_category_id_expense_categories_organization_id_id_fk" FOREIGN KEY ("organization_id","category_id") REFERENCES "public"."expense_categories"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_lines" ADD CONSTRAINT "claim_lines_organization_id_tax_code_id_tax_codes_organization_id_id_fk" FOREIGN KEY ("organization_id","tax_code_id") REFERENCES "public"."tax_codes"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_settlements" ADD CONSTRAINT "claim_settlements_organization_id_claim_id_claims_organization_id_id_fk" FOREIGN KEY ("organization_id","claim_id") REFERENCES "public"."claims"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_settlements" ADD CONSTRAINT "claim_settlements_organization_id_channel_id_payout_channels_organization_id_id_fk" FOREIGN KEY ("organization_id","channel_id") REFERENCES "public"."payout_channels"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_settlements" ADD CONSTRAINT "claim_settlements_organization_id_settled_by_members_organization_id_id_fk" FOREIGN KEY ("organization_id","settled_by") REFERENCES "public"."members"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_settlements" ADD CONSTRAINT "claim_settlements_organization_id_proof_document_id_files_organization_id_id_fk" FOREIGN KEY ("organization_id","proof_document_id") REFERENCES "public"."files"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_signoffs" ADD CONSTRAINT "claim_signoffs_organization_id_claim_id_claims_organization_id_id_fk" FOREIGN KEY ("organization_id","claim_id") REFERENCES "public"."claims"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_signoffs" ADD CONSTRAINT "claim_signoffs_organization_id_analytic_account_id_analytic_accounts_organization_id_id_fk" FOREIGN KEY ("organization_id","analytic_account_id") REFERENCES "public"."analytic_accounts"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_signoffs" ADD CONSTRAINT "claim_signoffs_organization_id_axis_id_analytic_axes_organization_id_id_fk" FOREIGN KEY ("organization_id","axis_id") REFERENCES "public"."analytic_axes"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_organization_id_claimant_member_id_members_organization_id_id_fk" FOREIGN KEY ("organization_id","claimant_member_id") REFERENCES "public"."members"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_organization_id_group_id_claim_groups_organization_id_id_fk" FOREIGN KEY ("organization_id","group_id") REFERENCES "public"."claim_groups"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_organization_id_payout_channel_id_payout_channels_organization_id_id_fk" FOREIGN KEY ("organization_id","payout_channel_id") REFERENCES "public"."payout_channels"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "expense_categories" ADD CONSTRAINT "expense_categories_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mileage_rate_bands" ADD CONSTRAINT "mileage_rate_bands_organization_id_rate_id_mileage_rates_organization_id_id_fk" FOREIGN KEY ("organization_id","rate_id") REFERENCES "public"."mileage_rates"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mileage_rates" ADD CONSTRAINT "mileage_rates_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "per_diem_rate_bands" ADD CONSTRAINT "per_diem_rate_bands_organization_id_rate_id_per_diem_rates_organization_id_id_fk" FOREIGN KEY ("organization_id","rate_id") REFERENCES "public"."per_diem_rates"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "per_diem_rates" ADD CONSTRAINT "per_diem_rates_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sequences" ADD CONSTRAINT "sequences_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_id_key" ON "api_keys" USING btree ("id");--> statement-breakpoint
CREATE UNIQUE INDEX "members_id_key" ON "members" USING btree ("id");--> statement-breakpoint
CREATE UNIQUE INDEX "roles_org_key" ON "roles" USING btree ("organization_id","key");--> statement-breakpoint
CREATE UNIQUE INDEX "sessions_token_hash_key" ON "sessions" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "sessions_member_idx" ON "sessions" USING btree ("organization_id","member_id");--> statement-breakpoint
CREATE INDEX "counterparty_mappings_customer_idx" ON "counterparty_mappings" USING btree ("organization_id","customer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "customers_org_code" ON "customers" USING btree ("organization_id","code");--> statement-breakpoint
CREATE UNIQUE INDEX "workflows_org_record_type" ON "workflows" USING btree ("organization_id","record_type");--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_org_code" ON "accounts" USING btree ("organization_id","code");--> statement-breakpoint
CREATE UNIQUE INDEX "analytic_accounts_org_axis_code" ON "analytic_accounts" USING btree ("organization_id","axis_id","code");--> statement-breakpoint
CREATE UNIQUE INDEX "analytic_axes_org_code" ON "analytic_axes" USING btree ("organization_id","code");--> statement-breakpoint
CREATE UNIQUE INDEX "analytic_axes_one_project_axis" ON "analytic_axes" USING btree ("organization_id") WHERE "analytic_axes"."is_project_axis";--> statement-breakpoint
CREATE UNIQUE INDEX "custom_field_definitions_org_type_key" ON "custom_field_definitions" USING btree ("organization_id","record_type","key");--> statement-breakpoint
CREATE UNIQUE INDEX "tax_codes_org_code" ON "tax_codes" USING btree ("organization_id","code");--> statement-breakpoint
CREATE INDEX "trade_lines_customer_idx" ON "trade_lines" USING btree ("organization_id","customer_id");--> statement-breakpoint
CREATE INDEX "allocations_invoice_idx" ON "allocations" USING btree ("organization_id","invoice_id","created_at");--> statement-breakpoint
CREATE INDEX "allocations_credit_note_idx" ON "allocations" USING btree ("organization_id","credit_note_id");--> statement-breakpoint
CREATE INDEX "allocations_receipt_idx" ON "allocations" USING btree ("organization_id","receipt_id");--> statement-breakpoint
CREATE UNIQUE INDEX "receivable_document_lines_doc_line_no" ON "receivable_document_lines" USING btree ("organization_id","document_id","line_no");--> statement-breakpoint
CREATE UNIQUE INDEX "receivable_documents_org_reference" ON "receivable_documents" USING btree ("organization_id","reference");--> statement-breakpoint
CREATE INDEX "receivable_documents_org_created" ON "receivable_documents" USING btree ("organization_id","created_at","id");--> statement-breakpoint
CREATE INDEX "receivable_documents_org_kind_created" ON "receivable_documents" USING btree ("organization_id","kind","created_at","id");--> statement-breakpoint
CREATE INDEX "receivable_documents_org_invoice_date" ON "receivable_documents" USING btree ("organization_id","invoice_date","id");--> statement-breakpoint
CREATE INDEX "receivable_documents_org_due_on" ON "receivable_documents" USING btree ("organization_id","due_on","id");--> statement-breakpoint
CREATE INDEX "receivable_documents_org_gross" ON "receivable_documents" USING btree ("organization_id","gross_amount","id");--> statement-breakpoint
CREATE INDEX "receivable_documents_org_reference_asc" ON "receivable_documents" USING btree ("organization_id",("reference" is null),(coalesce("reference", '') collate "C"),"id");--> statement-breakpoint
CREATE INDEX "receivable_documents_org_reference_desc" ON "receivable_documents" USING btree ("organization_id",("reference" is not null),(coalesce("reference", '') collate "C"),"id");--> statement-breakpoint
CREATE INDEX "receivable_documents_org_kind_reference_asc" ON "receivable_documents" USING btree ("organization_id","kind",("reference" is null),(coalesce("reference", '') collate "C"),"id");--> statement-breakpoint
CREATE INDEX "receivable_documents_org_kind_reference_desc" ON "receivable_documents" USING btree ("organization_id","kind",("reference" is not null),(coalesce("reference", '') collate "C"),"id");--> statement-breakpoint
CREATE INDEX "receivable_documents_search_trgm" ON "receivable_documents" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "receivable_documents_org_customer" ON "receivable_documents" USING btree ("organization_id","customer_id");--> statement-breakpoint
CREATE INDEX "receivable_documents_org_original" ON "receivable_documents" USING btree ("organization_id","original_invoice_id");--> statement-breakpoint
CREATE INDEX "receivable_line_shares_org_account" ON "receivable_line_shares" USING btree ("organization_id","analytic_account_id","line_id");--> statement-breakpoint
CREATE INDEX "receivable_timeline_doc_idx" ON "receivable_timeline" USING btree ("organization_id","document_id","decided_at");--> statement-breakpoint
CREATE INDEX "file_attachments_record_idx" ON "file_attachments" USING btree ("organization_id","record_type","record_id","ordinal");--> statement-breakpoint
CREATE INDEX "files_org_sha256" ON "files" USING btree ("organization_id","sha256");--> statement-breakpoint
CREATE UNIQUE INDEX "org_units_org_code" ON "org_units" USING btree ("organization_id","code");--> statement-breakpoint
CREATE INDEX "payout_channels_member_idx" ON "payout_channels" USING btree ("organization_id","member_id") WHERE "payout_channels"."active";--> statement-breakpoint
CREATE INDEX "position_assignments_member_idx" ON "position_assignments" USING btree ("organization_id","member_id","valid_from");--> statement-breakpoint
CREATE INDEX "positions_unit_idx" ON "positions" USING btree ("organization_id","org_unit_id");--> statement-breakpoint
CREATE UNIQUE INDEX "claim_decisions_claim_seq" ON "claim_decisions" USING btree ("organization_id","claim_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "claim_lines_claim_line_no" ON "claim_lines" USING btree ("organization_id","claim_id","line_no");--> statement-breakpoint
CREATE INDEX "claim_settlements_claim_idx" ON "claim_settlements" USING btree ("organization_id","claim_id","settled_at");--> statement-breakpoint
CREATE UNIQUE INDEX "claim_signoffs_claim_state_account" ON "claim_signoffs" USING btree ("organization_id","claim_id","state","analytic_account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "claims_org_reference" ON "claims" USING btree ("organization_id","reference");--> statement-breakpoint
CREATE INDEX "claims_org_claimant_idx" ON "claims" USING btree ("organization_id","claimant_member_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "expense_categories_org_code" ON "expense_categories" USING btree ("organization_id","code");--> statement-breakpoint
CREATE INDEX "idempotency_keys_expires_idx" ON "idempotency_keys" USING btree ("expires_at");