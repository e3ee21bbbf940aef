CREATE INDEX "customers_org_code_c" ON "customers" USING btree ("organization_id",("code" collate "C"),"id");--> statement-breakpoint
CREATE INDEX "customers_org_legal_name" ON "customers" USING btree ("organization_id",(lower("legal_name") collate "C"),"id");--> statement-breakpoint
CREATE INDEX "customers_org_created" ON "customers" USING btree ("organization_id","created_at","id");--> statement-breakpoint
CREATE INDEX "customers_search_trgm" ON "customers" USING gin ("code" gin_trgm_ops,"legal_name" gin_trgm_ops);