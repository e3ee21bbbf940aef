CREATE TABLE "einvoicing_settings" (
	"organization_id" uuid PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"environment" text DEFAULT 'sandbox' NOT NULL,
	"urls" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"client_id" text,
	"client_secret_sealed" text,
	"certificate_sealed" text,
	"certificate" jsonb,
	"version" text DEFAULT '1.0' NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "einvoicing_settings" ADD CONSTRAINT "einvoicing_settings_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;