-- The auth epoch also covers the organization's configuration a request reads from a process cache
-- (services/org-config-cache.ts): workflows, e-invoicing settings, custom field definitions and the
-- number of active members (members added).
CREATE TRIGGER workflows_auth_epoch AFTER INSERT OR UPDATE OR DELETE ON workflows FOR EACH ROW EXECUTE FUNCTION bump_auth_epoch();
--> statement-breakpoint
CREATE TRIGGER einvoicing_settings_auth_epoch AFTER INSERT OR UPDATE OR DELETE ON einvoicing_settings FOR EACH ROW EXECUTE FUNCTION bump_auth_epoch();
--> statement-breakpoint
CREATE TRIGGER custom_field_definitions_auth_epoch AFTER INSERT OR UPDATE OR DELETE ON custom_field_definitions FOR EACH ROW EXECUTE FUNCTION bump_auth_epoch();
--> statement-breakpoint
CREATE TRIGGER members_auth_epoch_insert AFTER INSERT ON members FOR EACH ROW EXECUTE FUNCTION bump_auth_epoch();
