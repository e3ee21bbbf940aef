-- The receivables list's state, currency, overdue and updated_after filters and its updated_at sort.
-- updated_at is the start of the transaction that last changed the row (now(); on insert not before
-- created_at), never earlier, so that the list can hold back what writes still in progress have
-- changed (see updatedHorizon in the list's queries). Documents existing
-- before this migration carry the time it ran: a sync from before then receives all of them.
ALTER TABLE "receivable_documents" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
CREATE INDEX "receivable_documents_org_state_created" ON "receivable_documents" USING btree ("organization_id","state","created_at","id");--> statement-breakpoint
CREATE INDEX "receivable_documents_org_currency_created" ON "receivable_documents" USING btree ("organization_id","currency","created_at","id");--> statement-breakpoint
CREATE INDEX "receivable_documents_org_updated" ON "receivable_documents" USING btree ("organization_id","updated_at","id");--> statement-breakpoint
CREATE OR REPLACE FUNCTION receivable_documents_updated_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    -- Never before the document's creation as the service recorded it, never before this transaction began.
    NEW.updated_at := greatest(now(), NEW.created_at);
  -- search_text follows the customer's legal name (another record): it does not change the document.
  ELSIF (to_jsonb(NEW) - 'search_text' - 'updated_at') IS DISTINCT FROM (to_jsonb(OLD) - 'search_text' - 'updated_at') THEN
    NEW.updated_at := now();
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER receivable_documents_updated_at
  BEFORE INSERT OR UPDATE ON receivable_documents
  FOR EACH ROW EXECUTE FUNCTION receivable_documents_updated_at();
