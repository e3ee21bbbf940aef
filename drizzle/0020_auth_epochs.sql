CREATE TABLE "auth_epochs" (
	"organization_id" uuid PRIMARY KEY NOT NULL,
	"epoch" bigint DEFAULT 0 NOT NULL
);
