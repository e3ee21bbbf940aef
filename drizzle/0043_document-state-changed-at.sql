-- When each issued document last changed state after its issue (a dispute, a resolution, a
-- cancellation, LHDN's answer), so that the reports as at a day read the timeline only for the
-- documents that changed state since the day. Filled from the timeline for the documents that have
-- such a change (issuing itself is dated by issued_at), which leaves most documents as they are;
-- the fill is no change to the documents as the list sees them, so updated_at is left as it is (its
-- trigger is off for the fill).
ALTER TABLE "receivable_documents" ADD COLUMN "state_changed_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "receivable_documents_org_state_changed" ON "receivable_documents" USING btree ("organization_id","state_changed_at") WHERE "receivable_documents"."state_changed_at" is not null;--> statement-breakpoint
ALTER TABLE "receivable_documents" DISABLE TRIGGER "receivable_documents_updated_at";--> statement-breakpoint
UPDATE "receivable_documents" d
   SET "state_changed_at" = t.changed_at
  FROM (SELECT x.organization_id, x.document_id, max(x.decided_at) AS changed_at
          FROM receivable_timeline x
          JOIN receivable_documents o ON o.organization_id = x.organization_id AND o.id = x.document_id
         WHERE x.from_state <> x.to_state AND x.decided_at > o.issued_at
         GROUP BY x.organization_id, x.document_id) t
 WHERE d.organization_id = t.organization_id AND d.id = t.document_id;--> statement-breakpoint
ALTER TABLE "receivable_documents" ENABLE TRIGGER "receivable_documents_updated_at";
