-- The approval engine's set-up joins the configuration a read request takes from the process cache
-- under the organization's epoch (services/org-config-cache.ts): the claim policy, the approval
-- grants, the analytic axes (which of them claims must be allocated on), the delegations, and the
-- organization chart with the approver assignments (org units, positions, who holds them). A change to any of them
-- raises the epoch in its own transaction, as workflows and custom fields do (migration 0022).
CREATE TRIGGER claim_policies_auth_epoch AFTER INSERT OR UPDATE OR DELETE ON claim_policies FOR EACH ROW EXECUTE FUNCTION bump_auth_epoch();
--> statement-breakpoint
CREATE TRIGGER approval_grants_auth_epoch AFTER INSERT OR UPDATE OR DELETE ON approval_grants FOR EACH ROW EXECUTE FUNCTION bump_auth_epoch();
--> statement-breakpoint
CREATE TRIGGER analytic_axes_auth_epoch AFTER INSERT OR UPDATE OR DELETE ON analytic_axes FOR EACH ROW EXECUTE FUNCTION bump_auth_epoch();
--> statement-breakpoint
CREATE TRIGGER delegations_auth_epoch AFTER INSERT OR UPDATE OR DELETE ON delegations FOR EACH ROW EXECUTE FUNCTION bump_auth_epoch();
--> statement-breakpoint
CREATE TRIGGER org_units_auth_epoch AFTER INSERT OR UPDATE OR DELETE ON org_units FOR EACH ROW EXECUTE FUNCTION bump_auth_epoch();
--> statement-breakpoint
CREATE TRIGGER positions_auth_epoch AFTER INSERT OR UPDATE OR DELETE ON positions FOR EACH ROW EXECUTE FUNCTION bump_auth_epoch();
--> statement-breakpoint
CREATE TRIGGER position_assignments_auth_epoch AFTER INSERT OR UPDATE OR DELETE ON position_assignments FOR EACH ROW EXECUTE FUNCTION bump_auth_epoch();
--> statement-breakpoint
CREATE TRIGGER approver_assignments_auth_epoch AFTER INSERT OR UPDATE OR DELETE ON approver_assignments FOR EACH ROW EXECUTE FUNCTION bump_auth_epoch();
