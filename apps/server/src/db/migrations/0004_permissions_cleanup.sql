-- customData:* permissions gated nothing (custom fields are customFields:manage; their values follow
-- their record's permissions) and are no longer known: they leave every stored role.
UPDATE "roles" SET
	"permissions" = array(
		SELECT p FROM unnest("permissions") WITH ORDINALITY AS kept(p, n) WHERE p NOT LIKE 'customData:%' ORDER BY n
	),
	"version" = "version" + 1,
	"updated_at" = now()
WHERE EXISTS (SELECT 1 FROM unnest("permissions") AS p WHERE p LIKE 'customData:%');
--> statement-breakpoint
-- Other users' accounts (email, status, sign-ins) are now shown with users:read only, which users:manage
-- needs: a role that managed users keeps seeing them. (Administrator gets it at start, with every permission.)
UPDATE "roles" SET
	"permissions" = array_append("permissions", 'users:read'),
	"version" = "version" + 1,
	"updated_at" = now()
WHERE 'users:manage' = ANY("permissions") AND NOT 'users:read' = ANY("permissions");
