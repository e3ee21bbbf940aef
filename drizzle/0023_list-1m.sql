-- The receivables list at a million documents (issue 13).
-- q on the references (the reference and the customer reference, joined by U+001F): a match at the
-- first character (a document number typed from its start) is a btree range on the lowered text; a
-- match further on is found by the trigrams of the text after its first character, where no
-- reference keeps its leading INV/CN/DN (the old index on search_text intersected the posting lists
-- of such common trigrams for every document-number search). q on the customer's legal name is read
-- from customers, then per customer in creation order (org, customer, created_at, id), which also
-- serves what the (org, customer) index did. search_text stays, kept by its triggers, unread.
-- An invoice-date range in creation order: issued documents created within a few days of their
-- invoice date are read from the creation index between the bounds the range implies; the others
-- (openings) from the partial index below (the same expression as offDate() in the list query).
DROP INDEX "receivable_documents_search_trgm";--> statement-breakpoint
DROP INDEX "receivable_documents_org_customer";--> statement-breakpoint
CREATE INDEX "receivable_documents_references_prefix" ON "receivable_documents" USING btree ("organization_id",lower(left((coalesce("reference" || chr(31), '') || "customer_reference"), 100)) text_pattern_ops);--> statement-breakpoint
CREATE INDEX "receivable_documents_references_rest_trgm" ON "receivable_documents" USING gin (substr((coalesce("reference" || chr(31), '') || "customer_reference"), 2) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "receivable_documents_org_created_off_date" ON "receivable_documents" USING btree ("organization_id","created_at","id") WHERE "receivable_documents"."issued_at" is not null and ("receivable_documents"."created_at" < (("receivable_documents"."invoice_date" - 4)::timestamp at time zone 'UTC') or "receivable_documents"."created_at" >= (("receivable_documents"."invoice_date" + 2)::timestamp at time zone 'UTC'));--> statement-breakpoint
CREATE INDEX "receivable_documents_org_customer_created" ON "receivable_documents" USING btree ("organization_id","customer_id","created_at","id");--> statement-breakpoint
-- Statistics for the new expressions, so that the planner sees how selective a term is at once.
ANALYZE "receivable_documents";
