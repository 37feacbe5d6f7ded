CREATE TABLE "throttle_counters" (
	"limiter" text NOT NULL,
	"key" text NOT NULL,
	"events" timestamp with time zone[] NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "throttle_counters_limiter_key_pk" PRIMARY KEY("limiter","key")
);
--> statement-breakpoint
CREATE INDEX "throttle_counters_expires_at_idx" ON "throttle_counters" USING btree ("expires_at");--> statement-breakpoint
-- Change notifications for the caches of every server process (auth/sessions.ts, crud/custom-fields.ts):
-- a trigger on each table a cache copies tells `pg_notify(channel, '<kind> <id>')`, or `all` on TRUNCATE.
-- PostgreSQL delivers a notification when its transaction commits, and never one of a rolled back
-- transaction; the triggers see every write, whichever process, tool or raw statement makes it.
CREATE FUNCTION "notify_cache_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_LEVEL = 'STATEMENT' THEN
		PERFORM pg_notify(TG_ARGV[0], 'all');
	ELSIF TG_OP = 'DELETE' THEN
		PERFORM pg_notify(TG_ARGV[0], TG_ARGV[1] || ' ' || OLD.id);
	ELSE
		PERFORM pg_notify(TG_ARGV[0], TG_ARGV[1] || ' ' || NEW.id);
	END IF;
	RETURN NULL;
END
$$;
--> statement-breakpoint
-- A session's token, owner, end and revocation. Its last use only when moved back (which no request does):
-- written forward once a minute by every process, it would otherwise empty the caches as often.
CREATE TRIGGER "sessions_notify_update" AFTER UPDATE OF "token_hash", "user_id", "expires_at", "revoked_at", "last_used_at"
	ON "sessions" FOR EACH ROW WHEN (
		OLD."token_hash" IS DISTINCT FROM NEW."token_hash" OR OLD."user_id" IS DISTINCT FROM NEW."user_id"
		OR OLD."expires_at" IS DISTINCT FROM NEW."expires_at" OR OLD."revoked_at" IS DISTINCT FROM NEW."revoked_at"
		OR NEW."last_used_at" < OLD."last_used_at"
	) EXECUTE FUNCTION "notify_cache_change"('auth', 'session');
--> statement-breakpoint
CREATE TRIGGER "sessions_notify_delete" AFTER DELETE ON "sessions"
	FOR EACH ROW EXECUTE FUNCTION "notify_cache_change"('auth', 'session');
--> statement-breakpoint
CREATE TRIGGER "sessions_notify_truncate" AFTER TRUNCATE ON "sessions"
	FOR EACH STATEMENT EXECUTE FUNCTION "notify_cache_change"('auth');
--> statement-breakpoint
-- A user's status (only active users are signed in) and role (their permissions).
CREATE TRIGGER "users_notify_update" AFTER UPDATE OF "status", "role_id" ON "users"
	FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status" OR OLD."role_id" IS DISTINCT FROM NEW."role_id")
	EXECUTE FUNCTION "notify_cache_change"('auth', 'user');
--> statement-breakpoint
CREATE TRIGGER "users_notify_delete" AFTER DELETE ON "users"
	FOR EACH ROW EXECUTE FUNCTION "notify_cache_change"('auth', 'user');
--> statement-breakpoint
CREATE TRIGGER "users_notify_truncate" AFTER TRUNCATE ON "users"
	FOR EACH STATEMENT EXECUTE FUNCTION "notify_cache_change"('auth');
--> statement-breakpoint
-- A role's permissions.
CREATE TRIGGER "roles_notify_update" AFTER UPDATE OF "permissions" ON "roles"
	FOR EACH ROW WHEN (OLD."permissions" IS DISTINCT FROM NEW."permissions")
	EXECUTE FUNCTION "notify_cache_change"('auth', 'role');
--> statement-breakpoint
CREATE TRIGGER "roles_notify_delete" AFTER DELETE ON "roles"
	FOR EACH ROW EXECUTE FUNCTION "notify_cache_change"('auth', 'role');
--> statement-breakpoint
CREATE TRIGGER "roles_notify_truncate" AFTER TRUNCATE ON "roles"
	FOR EACH STATEMENT EXECUTE FUNCTION "notify_cache_change"('auth');
--> statement-breakpoint
-- Custom field definitions, whatever changes in them: a deleted group's fields are updated (group_id set null) too.
CREATE TRIGGER "entity_field_types_notify" AFTER INSERT OR UPDATE OR DELETE ON "entity_field_types"
	FOR EACH ROW EXECUTE FUNCTION "notify_cache_change"('fields', 'field');
--> statement-breakpoint
CREATE TRIGGER "entity_field_types_notify_truncate" AFTER TRUNCATE ON "entity_field_types"
	FOR EACH STATEMENT EXECUTE FUNCTION "notify_cache_change"('fields');
