CREATE TABLE "ageing_settings" (
	"organization_id" uuid PRIMARY KEY NOT NULL,
	"edges" integer[] NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ageing_settings" ADD CONSTRAINT "ageing_settings_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "receivable_timeline_org_decided" ON "receivable_timeline" USING btree ("organization_id","decided_at");