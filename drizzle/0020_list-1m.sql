-- The receivables list at a million documents (issue 13).
-- q: a match at the first character of search_text (a document number typed from its start) is a
-- btree range on the lowered text; a match further on is found by the trigrams of the text after its
-- first character, where no reference keeps its leading `INV`/`CN`/`DN` (the old index intersected
-- the posting lists of such common trigrams for every document-number search).
-- An invoice-date range in creation order: issued documents created within a few days of their
-- invoice date are read from the creation index between the bounds the range implies; the others
-- (openings) from this partial index. Same expression as offDate() in the list query.
DROP INDEX "receivable_documents_search_trgm";--> statement-breakpoint
CREATE INDEX "receivable_documents_search_prefix" ON "receivable_documents" USING btree ("organization_id",lower(left("search_text", 100)) text_pattern_ops);--> statement-breakpoint
CREATE INDEX "receivable_documents_search_rest_trgm" ON "receivable_documents" USING gin (substr("search_text", 2) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "receivable_documents_org_created_off_date" ON "receivable_documents" USING btree ("organization_id","created_at","id") WHERE "receivable_documents"."issued_at" is not null and ("receivable_documents"."created_at" < (("receivable_documents"."invoice_date" - 4)::timestamp at time zone 'UTC') or "receivable_documents"."created_at" >= (("receivable_documents"."invoice_date" + 2)::timestamp at time zone 'UTC'));--> statement-breakpoint
-- Statistics for the new expressions, so that the planner sees how selective a term is at once.
ANALYZE "receivable_documents";
