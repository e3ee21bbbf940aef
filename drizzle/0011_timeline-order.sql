DROP INDEX "receivable_timeline_doc_idx";--> statement-breakpoint
ALTER TABLE "receivable_timeline" ADD COLUMN "seq" bigserial NOT NULL;--> statement-breakpoint
CREATE INDEX "receivable_timeline_doc_idx" ON "receivable_timeline" USING btree ("organization_id","document_id","decided_at","seq");