-- The receivables list's q on customer names: lower(legal_name) like lower(term), what ILIKE compares,
-- served by trigrams when an organization has many customers (issue 13).
CREATE INDEX "customers_legal_name_lower_trgm" ON "customers" USING gin (lower("legal_name") gin_trgm_ops);