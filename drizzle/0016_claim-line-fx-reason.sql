ALTER TABLE "claim_lines" ADD COLUMN "fx_rate_reason" text;--> statement-breakpoint
ALTER TABLE "claim_lines" ADD COLUMN "supplier_country" text;