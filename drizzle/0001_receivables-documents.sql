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
CREATE TABLE "number_sequences" (
	"organization_id" uuid NOT NULL,
	"key" text NOT NULL,
	"last_value" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "number_sequences_organization_id_key_pk" PRIMARY KEY("organization_id","key")
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
ALTER TABLE "number_sequences" ADD CONSTRAINT "number_sequences_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
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
CREATE INDEX "receivable_documents_org_customer" ON "receivable_documents" USING btree ("organization_id","customer_id");--> statement-breakpoint
CREATE INDEX "receivable_documents_org_original" ON "receivable_documents" USING btree ("organization_id","original_invoice_id");--> statement-breakpoint
CREATE INDEX "receivable_timeline_doc_idx" ON "receivable_timeline" USING btree ("organization_id","document_id","decided_at");--> statement-breakpoint
CREATE INDEX "file_attachments_record_idx" ON "file_attachments" USING btree ("organization_id","record_type","record_id","ordinal");--> statement-breakpoint
CREATE INDEX "files_org_sha256" ON "files" USING btree ("organization_id","sha256");