-- Raises an organization's auth epoch (auth_epochs) in the transaction of every change to what its
-- principals may do: a cached principal whose epoch differs is authenticated afresh. Epochs come from
-- one sequence, so a value taken by a transaction that rolled back is never used again (a process
-- cannot mistake what it read inside that transaction for a later committed state).
CREATE SEQUENCE auth_epoch_seq;
--> statement-breakpoint
CREATE FUNCTION bump_auth_epoch() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  org uuid;
BEGIN
  IF TG_TABLE_NAME = 'organizations' THEN
    org := NEW.id;
  ELSIF TG_OP = 'DELETE' THEN
    org := OLD.organization_id;
  ELSE
    org := NEW.organization_id;
  END IF;
  INSERT INTO auth_epochs (organization_id, epoch) VALUES (org, nextval('auth_epoch_seq'))
    ON CONFLICT (organization_id) DO UPDATE SET epoch = nextval('auth_epoch_seq');
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER api_keys_auth_epoch AFTER UPDATE ON api_keys FOR EACH ROW
  WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at OR OLD.expires_at IS DISTINCT FROM NEW.expires_at
        OR OLD.permissions IS DISTINCT FROM NEW.permissions OR OLD.secret_hash IS DISTINCT FROM NEW.secret_hash
        OR OLD.owner_member_id IS DISTINCT FROM NEW.owner_member_id)
  EXECUTE FUNCTION bump_auth_epoch();
--> statement-breakpoint
CREATE TRIGGER api_keys_auth_epoch_delete AFTER DELETE ON api_keys FOR EACH ROW EXECUTE FUNCTION bump_auth_epoch();
--> statement-breakpoint
CREATE TRIGGER members_auth_epoch AFTER UPDATE ON members FOR EACH ROW
  WHEN (OLD.active IS DISTINCT FROM NEW.active)
  EXECUTE FUNCTION bump_auth_epoch();
--> statement-breakpoint
CREATE TRIGGER members_auth_epoch_delete AFTER DELETE ON members FOR EACH ROW EXECUTE FUNCTION bump_auth_epoch();
--> statement-breakpoint
CREATE TRIGGER member_roles_auth_epoch AFTER INSERT OR UPDATE OR DELETE ON member_roles FOR EACH ROW EXECUTE FUNCTION bump_auth_epoch();
--> statement-breakpoint
CREATE TRIGGER roles_auth_epoch AFTER UPDATE ON roles FOR EACH ROW
  WHEN (OLD.permissions IS DISTINCT FROM NEW.permissions)
  EXECUTE FUNCTION bump_auth_epoch();
--> statement-breakpoint
CREATE TRIGGER roles_auth_epoch_delete AFTER DELETE ON roles FOR EACH ROW EXECUTE FUNCTION bump_auth_epoch();
--> statement-breakpoint
CREATE TRIGGER organizations_auth_epoch AFTER UPDATE ON organizations FOR EACH ROW
  WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.base_currency IS DISTINCT FROM NEW.base_currency
        OR OLD.time_zone IS DISTINCT FROM NEW.time_zone OR OLD.record_languages IS DISTINCT FROM NEW.record_languages
        OR OLD.seller IS DISTINCT FROM NEW.seller)
  EXECUTE FUNCTION bump_auth_epoch();
