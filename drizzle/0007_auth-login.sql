CREATE TABLE "login_failures" (
	"kind" text NOT NULL,
	"subject" text NOT NULL,
	"failures" integer NOT NULL,
	"window_started_at" timestamp with time zone NOT NULL,
	"last_failed_at" timestamp with time zone NOT NULL,
	"locked_until" timestamp with time zone,
	CONSTRAINT "login_failures_kind_subject_pk" PRIMARY KEY("kind","subject")
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "idle_seconds" integer DEFAULT 43200 NOT NULL;