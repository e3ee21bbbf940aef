CREATE TABLE "einvoices" (
	"organization_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"document_id" uuid NOT NULL,
	"state" text NOT NULL,
	"code_number" text NOT NULL,
	"version" text NOT NULL,
	"document" text,
	"document_hash" text,
	"requested_by" uuid NOT NULL,
	"queued_at" timestamp with time zone NOT NULL,
	"sending_at" timestamp with time zone,
	"send_attempts" integer DEFAULT 0 NOT NULL,
	"submission_uid" text,
	"uuid" text,
	"long_id" text,
	"submitted_at" timestamp with time zone,
	"validated_at" timestamp with time zone,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"cancel_reason" text,
	"cancel_requested_at" timestamp with time zone,
	"cancel_requested_by" uuid,
	"cancel_errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"cancelled_at" timestamp with time zone,
	"rejection_requested_at" timestamp with time zone,
	"rejection_reason" text,
	"next_poll_at" timestamp with time zone,
	CONSTRAINT "einvoices_organization_id_id_pk" PRIMARY KEY("organization_id","id")
);
--> statement-breakpoint
ALTER TABLE "claim_lines" ADD COLUMN "einvoice_check_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "claim_lines" ADD COLUMN "einvoice_checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "claim_lines" ADD COLUMN "einvoice_check_detail" text;--> statement-breakpoint
ALTER TABLE "einvoices" ADD CONSTRAINT "einvoices_organization_id_document_id_receivable_documents_organization_id_id_fk" FOREIGN KEY ("organization_id","document_id") REFERENCES "public"."receivable_documents"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "einvoices" ADD CONSTRAINT "einvoices_organization_id_requested_by_members_organization_id_id_fk" FOREIGN KEY ("organization_id","requested_by") REFERENCES "public"."members"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "einvoices" ADD CONSTRAINT "einvoices_organization_id_cancel_requested_by_members_organization_id_id_fk" FOREIGN KEY ("organization_id","cancel_requested_by") REFERENCES "public"."members"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "einvoices_live_document_uidx" ON "einvoices" USING btree ("organization_id","document_id") WHERE state <> 'invalid';--> statement-breakpoint
CREATE INDEX "einvoices_document_idx" ON "einvoices" USING btree ("organization_id","document_id","queued_at");--> statement-breakpoint
CREATE INDEX "einvoices_work_idx" ON "einvoices" USING btree ("state","organization_id") WHERE state in ('queued', 'sending', 'submitted') or cancel_requested_at is not null or (state = 'valid' and next_poll_at is not null);--> statement-breakpoint
CREATE UNIQUE INDEX "einvoices_uuid_uidx" ON "einvoices" USING btree ("organization_id","uuid");--> statement-breakpoint
CREATE INDEX "claim_lines_einvoice_check_due" ON "claim_lines" USING btree ("einvoice_check_due_at") WHERE einvoice_check_due_at is not null;