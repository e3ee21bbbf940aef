-- The organization's day as of which its open sign-offs were last refreshed by the calendar (the
-- refresh-signoffs-on-dates job): a dated start or end of an approver assignment or a position
-- assignment passing after that day makes them due again.
CREATE TABLE "signoff_refresh_days" (
	"organization_id" uuid PRIMARY KEY NOT NULL,
	"refreshed_on" date NOT NULL
);
--> statement-breakpoint
ALTER TABLE "signoff_refresh_days" ADD CONSTRAINT "signoff_refresh_days_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;