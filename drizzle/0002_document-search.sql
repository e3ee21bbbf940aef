-- The list's substring search (q) reads one trigram-indexed column: the document's reference, its
-- customer reference and its customer's current legal name, joined by U+001F (a character a search
-- term may not contain, so a match never spans two fields). Triggers keep it current: on the
-- document when one of its parts changes, on every document of a customer whose legal name changes.
CREATE OR REPLACE FUNCTION receivable_documents_search_text() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_text := concat_ws(chr(31), NEW.reference, NEW.customer_reference,
    (SELECT c.legal_name FROM customers c WHERE c.organization_id = NEW.organization_id AND c.id = NEW.customer_id));
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER receivable_documents_search_text
  BEFORE INSERT OR UPDATE OF reference, customer_reference, customer_id ON receivable_documents
  FOR EACH ROW EXECUTE FUNCTION receivable_documents_search_text();--> statement-breakpoint
CREATE OR REPLACE FUNCTION customers_legal_name_search_text() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE receivable_documents d
     SET search_text = concat_ws(chr(31), d.reference, d.customer_reference, NEW.legal_name)
   WHERE d.organization_id = NEW.organization_id AND d.customer_id = NEW.id;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER customers_legal_name_search_text
  AFTER UPDATE OF legal_name ON customers
  FOR EACH ROW WHEN (OLD.legal_name IS DISTINCT FROM NEW.legal_name)
  EXECUTE FUNCTION customers_legal_name_search_text();--> statement-breakpoint
UPDATE receivable_documents d
   SET search_text = concat_ws(chr(31), d.reference, d.customer_reference, c.legal_name)
  FROM customers c
 WHERE c.organization_id = d.organization_id AND c.id = d.customer_id;
