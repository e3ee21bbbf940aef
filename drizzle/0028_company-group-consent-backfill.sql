-- Company groups made before membership needed consent. The creator is the organization whose
-- settings history recorded the group's creation; it is (again) an accepted member. Every other
-- organization of an existing group was put there without being asked: it stays, but only invited
-- (0027's column default), and counts as a group company again once a person of it accepts.
UPDATE "company_groups" g
SET "created_by_organization_id" = h."organization_id"
FROM (
  SELECT DISTINCT ON ("record_id") "record_id", "organization_id"
  FROM "settings_history"
  WHERE "entity" = 'companyGroups' AND "action" = 'create'
  ORDER BY "record_id", "changed_at", "seq"
) h
WHERE h."record_id" = g."id" AND g."created_by_organization_id" IS NULL;--> statement-breakpoint
INSERT INTO "company_group_members" ("group_id", "organization_id", "status")
SELECT "id", "created_by_organization_id", 'accepted' FROM "company_groups" WHERE "created_by_organization_id" IS NOT NULL
ON CONFLICT ("group_id", "organization_id") DO UPDATE SET "status" = 'accepted';
