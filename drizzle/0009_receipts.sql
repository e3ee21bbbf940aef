ALTER TABLE "allocations" ADD COLUMN "exchange_difference" numeric(20, 4) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "receipts" ADD COLUMN "fx_rate" numeric(24, 10) DEFAULT '1' NOT NULL;--> statement-breakpoint
ALTER TABLE "receipts" ADD COLUMN "unallocated" numeric(20, 4) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "receipts" ADD COLUMN "method" text DEFAULT 'other' NOT NULL;--> statement-breakpoint
ALTER TABLE "receipts" ADD COLUMN "revision" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE INDEX "receipts_org_received_on" ON "receipts" USING btree ("organization_id","received_on","id");--> statement-breakpoint
CREATE INDEX "receipts_org_created" ON "receipts" USING btree ("organization_id","created_at","id");--> statement-breakpoint
CREATE INDEX "receipts_org_customer_received_on" ON "receipts" USING btree ("organization_id","customer_id","received_on","id");