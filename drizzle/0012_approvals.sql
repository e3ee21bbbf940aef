CREATE TABLE "approval_grants" (
	"organization_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"step" text NOT NULL,
	"axis_id" uuid,
	"holder_position_id" uuid,
	"holder_member_id" uuid,
	"max_levels" integer,
	"fallback_grant_id" uuid,
	"bands" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "approval_grants_organization_id_id_pk" PRIMARY KEY("organization_id","id")
);
--> statement-breakpoint
CREATE TABLE "approver_assignments" (
	"organization_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"analytic_account_id" uuid NOT NULL,
	"member_id" uuid NOT NULL,
	"valid_from" date NOT NULL,
	"valid_to" date,
	"min_amount" numeric(20, 4) DEFAULT '0' NOT NULL,
	"max_amount" numeric(20, 4),
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "approver_assignments_organization_id_id_pk" PRIMARY KEY("organization_id","id")
);
--> statement-breakpoint
CREATE TABLE "claim_policies" (
	"organization_id" uuid PRIMARY KEY NOT NULL,
	"escalation_working_days" integer DEFAULT 3 NOT NULL,
	"escalation_max_hops" integer DEFAULT 2 NOT NULL,
	"weekend_days" integer[],
	"sole_owner_exception" boolean DEFAULT false NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "delegations" (
	"organization_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"delegator_member_id" uuid NOT NULL,
	"delegate_member_id" uuid NOT NULL,
	"valid_from" date NOT NULL,
	"valid_to" date NOT NULL,
	"scope" text DEFAULT 'all' NOT NULL,
	"grant_id" uuid,
	"axis_id" uuid,
	"analytic_account_id" uuid,
	"reason" text,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "delegations_organization_id_id_pk" PRIMARY KEY("organization_id","id"),
	CONSTRAINT "delegations_not_self" CHECK ("delegations"."delegator_member_id" <> "delegations"."delegate_member_id")
);
--> statement-breakpoint
DROP INDEX "claim_signoffs_claim_state_account";--> statement-breakpoint
ALTER TABLE "analytic_axes" ADD COLUMN "required_on_claims" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "claim_signoffs" ADD COLUMN "round" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "claim_signoffs" ADD COLUMN "authorities" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "claim_signoffs" ADD COLUMN "passed_over" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "claim_signoffs" ADD COLUMN "escalation_hops" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "claim_signoffs" ADD COLUMN "escalated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "claims" ADD COLUMN "round" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "claims" ADD COLUMN "claimant_position_id" uuid;--> statement-breakpoint
ALTER TABLE "claims" ADD COLUMN "claimant_unit_name" text;--> statement-breakpoint
ALTER TABLE "claims" ADD COLUMN "dispute_raised_by" uuid;--> statement-breakpoint
ALTER TABLE "approval_grants" ADD CONSTRAINT "approval_grants_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_grants" ADD CONSTRAINT "approval_grants_organization_id_axis_id_analytic_axes_organization_id_id_fk" FOREIGN KEY ("organization_id","axis_id") REFERENCES "public"."analytic_axes"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_grants" ADD CONSTRAINT "approval_grants_organization_id_holder_position_id_positions_organization_id_id_fk" FOREIGN KEY ("organization_id","holder_position_id") REFERENCES "public"."positions"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_grants" ADD CONSTRAINT "approval_grants_organization_id_holder_member_id_members_organization_id_id_fk" FOREIGN KEY ("organization_id","holder_member_id") REFERENCES "public"."members"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_grants" ADD CONSTRAINT "approval_grants_organization_id_fallback_grant_id_approval_grants_organization_id_id_fk" FOREIGN KEY ("organization_id","fallback_grant_id") REFERENCES "public"."approval_grants"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approver_assignments" ADD CONSTRAINT "approver_assignments_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approver_assignments" ADD CONSTRAINT "approver_assignments_organization_id_analytic_account_id_analytic_accounts_organization_id_id_fk" FOREIGN KEY ("organization_id","analytic_account_id") REFERENCES "public"."analytic_accounts"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approver_assignments" ADD CONSTRAINT "approver_assignments_organization_id_member_id_members_organization_id_id_fk" FOREIGN KEY ("organization_id","member_id") REFERENCES "public"."members"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_policies" ADD CONSTRAINT "claim_policies_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delegations" ADD CONSTRAINT "delegations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delegations" ADD CONSTRAINT "delegations_organization_id_delegator_member_id_members_organization_id_id_fk" FOREIGN KEY ("organization_id","delegator_member_id") REFERENCES "public"."members"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delegations" ADD CONSTRAINT "delegations_organization_id_delegate_member_id_members_organization_id_id_fk" FOREIGN KEY ("organization_id","delegate_member_id") REFERENCES "public"."members"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delegations" ADD CONSTRAINT "delegations_organization_id_grant_id_approval_grants_organization_id_id_fk" FOREIGN KEY ("organization_id","grant_id") REFERENCES "public"."approval_grants"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delegations" ADD CONSTRAINT "delegations_organization_id_axis_id_analytic_axes_organization_id_id_fk" FOREIGN KEY ("organization_id","axis_id") REFERENCES "public"."analytic_axes"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delegations" ADD CONSTRAINT "delegations_organization_id_analytic_account_id_analytic_accounts_organization_id_id_fk" FOREIGN KEY ("organization_id","analytic_account_id") REFERENCES "public"."analytic_accounts"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "approval_grants_step_idx" ON "approval_grants" USING btree ("organization_id","step");--> statement-breakpoint
CREATE INDEX "approver_assignments_account_idx" ON "approver_assignments" USING btree ("organization_id","analytic_account_id");--> statement-breakpoint
CREATE INDEX "delegations_delegate_idx" ON "delegations" USING btree ("organization_id","delegate_member_id");--> statement-breakpoint
CREATE UNIQUE INDEX "claim_signoffs_claim_round_state_account" ON "claim_signoffs" USING btree ("organization_id","claim_id","round","state","analytic_account_id");--> statement-breakpoint
CREATE INDEX "claim_signoffs_open_idx" ON "claim_signoffs" USING btree ("organization_id","created_at") WHERE "claim_signoffs"."signature_id" is null;--> statement-breakpoint
UPDATE "claims" SET "round" = 1 WHERE "submitted_at" IS NOT NULL;
