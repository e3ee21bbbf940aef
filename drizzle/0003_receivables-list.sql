CREATE TABLE "server_secrets" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "receivable_documents" ADD COLUMN "search_text" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX "receivable_documents_org_invoice_date" ON "receivable_documents" USING btree ("organization_id","invoice_date","id");--> statement-breakpoint
CREATE INDEX "receivable_documents_org_due_on" ON "receivable_documents" USING btree ("organization_id","due_on","id");--> statement-breakpoint
CREATE INDEX "receivable_documents_org_gross" ON "receivable_documents" USING btree ("organization_id","gross_amount","id");--> statement-breakpoint
CREATE INDEX "receivable_documents_org_reference_asc" ON "receivable_documents" USING btree ("organization_id",("reference" is null),(coalesce("reference", '') collate "C"),"id");--> statement-breakpoint
CREATE INDEX "receivable_documents_org_reference_desc" ON "receivable_documents" USING btree ("organization_id",("reference" is not null),(coalesce("reference", '') collate "C"),"id");--> statement-breakpoint
CREATE INDEX "receivable_documents_search_trgm" ON "receivable_documents" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "receivable_line_shares_org_account" ON "receivable_line_shares" USING btree ("organization_id","analytic_account_id","line_id");