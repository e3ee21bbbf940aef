CREATE TABLE "claim_signoff_eligibles" (
	"organization_id" uuid NOT NULL,
	"member_id" text NOT NULL,
	"claim_created_at" timestamp with time zone NOT NULL,
	"claim_id" uuid NOT NULL,
	"signoff_id" uuid NOT NULL,
	"round" integer NOT NULL,
	"state" text NOT NULL,
	CONSTRAINT "claim_signoff_eligibles_organization_id_member_id_claim_created_at_claim_id_signoff_id_pk" PRIMARY KEY("organization_id","member_id","claim_created_at","claim_id","signoff_id")
);
--> statement-breakpoint
ALTER TABLE "claim_signoff_eligibles" ADD CONSTRAINT "claim_signoff_eligibles_organization_id_signoff_id_claim_signoffs_organization_id_id_fk" FOREIGN KEY ("organization_id","signoff_id") REFERENCES "public"."claim_signoffs"("organization_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "claim_signoff_eligibles_signoff_idx" ON "claim_signoff_eligibles" USING btree ("organization_id","signoff_id");--> statement-breakpoint
-- Keeps claim_signoff_eligibles: a sign-off's rows are rewritten whenever what they copy changes, and
-- only an unsigned sign-off has any (each member of `eligible` once). Deleting a sign-off removes its
-- rows through the foreign key.
CREATE FUNCTION sync_claim_signoff_eligibles() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    DELETE FROM claim_signoff_eligibles WHERE organization_id = OLD.organization_id AND signoff_id = OLD.id;
  END IF;
  IF NEW.signature_id IS NULL THEN
    INSERT INTO claim_signoff_eligibles (organization_id, member_id, claim_created_at, claim_id, signoff_id, round, state)
      SELECT NEW.organization_id, m.member_id, c.created_at, NEW.claim_id, NEW.id, NEW.round, NEW.state
      FROM (SELECT DISTINCT unnest(NEW.eligible) AS member_id) m
      JOIN claims c ON c.organization_id = NEW.organization_id AND c.id = NEW.claim_id;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER claim_signoffs_eligibles_insert AFTER INSERT ON claim_signoffs FOR EACH ROW EXECUTE FUNCTION sync_claim_signoff_eligibles();
--> statement-breakpoint
CREATE TRIGGER claim_signoffs_eligibles_update AFTER UPDATE ON claim_signoffs FOR EACH ROW
  WHEN (OLD.eligible IS DISTINCT FROM NEW.eligible OR OLD.signature_id IS DISTINCT FROM NEW.signature_id
        OR OLD.round IS DISTINCT FROM NEW.round OR OLD.state IS DISTINCT FROM NEW.state OR OLD.claim_id IS DISTINCT FROM NEW.claim_id)
  EXECUTE FUNCTION sync_claim_signoff_eligibles();
--> statement-breakpoint
-- A claim's created_at is fixed once filed; should it ever be set again, its entries follow it.
CREATE FUNCTION sync_claim_signoff_eligibles_created_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE claim_signoff_eligibles e SET claim_created_at = NEW.created_at
    FROM claim_signoffs s
    WHERE s.organization_id = NEW.organization_id AND s.claim_id = NEW.id
      AND e.organization_id = s.organization_id AND e.signoff_id = s.id;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER claims_signoff_eligibles_created_at AFTER UPDATE OF created_at ON claims FOR EACH ROW
  WHEN (OLD.created_at IS DISTINCT FROM NEW.created_at)
  EXECUTE FUNCTION sync_claim_signoff_eligibles_created_at();
--> statement-breakpoint
-- The open sign-offs already stored.
INSERT INTO claim_signoff_eligibles (organization_id, member_id, claim_created_at, claim_id, signoff_id, round, state)
  SELECT DISTINCT s.organization_id, m.member_id, c.created_at, s.claim_id, s.id, s.round, s.state
  FROM claim_signoffs s
  CROSS JOIN LATERAL unnest(s.eligible) AS m(member_id)
  JOIN claims c ON c.organization_id = s.organization_id AND c.id = s.claim_id
  WHERE s.signature_id IS NULL;
