CREATE TABLE "exchange_rates" (
	"organization_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"currency" text NOT NULL,
	"rate_date" date NOT NULL,
	"rate" numeric(20, 10) NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "exchange_rates_organization_id_id_pk" PRIMARY KEY("organization_id","id")
);
--> statement-breakpoint
ALTER TABLE "org_units" ADD COLUMN "active" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "position_assignments" ADD COLUMN "withdrawn_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "positions" ADD COLUMN "reports_to_position_id" uuid;--> statement-breakpoint
ALTER TABLE "mileage_rates" ADD COLUMN "active" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "per_diem_rates" ADD COLUMN "active" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "exchange_rates" ADD CONSTRAINT "exchange_rates_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "exchange_rates_org_currency_date" ON "exchange_rates" USING btree ("organization_id","currency","rate_date") WHERE "exchange_rates"."active";--> statement-breakpoint
ALTER TABLE "positions" ADD CONSTRAINT "positions_organization_id_reports_to_position_id_positions_organization_id_id_fk" FOREIGN KEY ("organization_id","reports_to_position_id") REFERENCES "public"."positions"("organization_id","id") ON DELETE no action ON UPDATE no action;