-- E-mail to people: each member's mail language and the notification kinds they switched off, and
-- the one-time links of invitations and password resets (only the token's SHA-256 is stored).
CREATE TABLE "member_tokens" (
	"organization_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"member_id" uuid NOT NULL,
	"purpose" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "member_tokens_organization_id_id_pk" PRIMARY KEY("organization_id","id"),
	CONSTRAINT "member_tokens_purpose_known" CHECK ("member_tokens"."purpose" in ('invitation', 'password_reset'))
);
--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "language" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "mail_off" text[] DEFAULT ARRAY[]::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "member_tokens" ADD CONSTRAINT "member_tokens_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_tokens" ADD CONSTRAINT "member_tokens_organization_id_member_id_members_organization_id_id_fk" FOREIGN KEY ("organization_id","member_id") REFERENCES "public"."members"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "member_tokens_token_hash_key" ON "member_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "member_tokens_member_idx" ON "member_tokens" USING btree ("organization_id","member_id");--> statement-breakpoint
ALTER TABLE "members" ADD CONSTRAINT "members_language_known" CHECK ("members"."language" in ('en', 'ms'));