-- Trigram indexes serve the receivables list's substring search (q); the embedded database loads
-- pg_trgm in src/db/client.ts, PostgreSQL ships it in contrib.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
