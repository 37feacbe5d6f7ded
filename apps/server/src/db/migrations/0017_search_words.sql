CREATE TABLE "search_words" (
	"word" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "search_words_word_idx" ON "search_words" USING btree ("word");--> statement-breakpoint
CREATE INDEX "search_words_word_trgm_idx" ON "search_words" USING gin ("word" gin_trgm_ops);--> statement-breakpoint
-- The words (3+ characters, lower case) of the names global search reads, added by every statement that writes a
-- name (docs/decisions/0029, db/search-words-schema.ts). TG_ARGV[0]: the name's column. A word is added only when
-- absent: no unique key, so no writer waits on another.
CREATE FUNCTION "search_words_of"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format(
    'INSERT INTO search_words (word) SELECT DISTINCT w.word FROM written n, '
    || 'regexp_split_to_table(lower(n.%I), ''[^[:alnum:]]+'') AS w(word) '
    || 'WHERE length(w.word) >= 3 AND NOT EXISTS (SELECT 1 FROM search_words s WHERE s.word = w.word)',
    TG_ARGV[0]);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "companies_search_words_insert" AFTER INSERT ON "companies" REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION "search_words_of"('name');--> statement-breakpoint
CREATE TRIGGER "companies_search_words_update" AFTER UPDATE ON "companies" REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION "search_words_of"('name');--> statement-breakpoint
CREATE TRIGGER "funds_search_words_insert" AFTER INSERT ON "funds" REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION "search_words_of"('name');--> statement-breakpoint
CREATE TRIGGER "funds_search_words_update" AFTER UPDATE ON "funds" REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION "search_words_of"('name');--> statement-breakpoint
CREATE TRIGGER "contacts_search_words_insert" AFTER INSERT ON "contacts" REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION "search_words_of"('full_name');--> statement-breakpoint
CREATE TRIGGER "contacts_search_words_update" AFTER UPDATE ON "contacts" REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION "search_words_of"('full_name');--> statement-breakpoint
CREATE TRIGGER "firms_search_words_insert" AFTER INSERT ON "firms" REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION "search_words_of"('name');--> statement-breakpoint
CREATE TRIGGER "firms_search_words_update" AFTER UPDATE ON "firms" REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION "search_words_of"('name');--> statement-breakpoint
CREATE TRIGGER "deals_search_words_insert" AFTER INSERT ON "deals" REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION "search_words_of"('name');--> statement-breakpoint
CREATE TRIGGER "deals_search_words_update" AFTER UPDATE ON "deals" REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION "search_words_of"('name');--> statement-breakpoint
CREATE TRIGGER "investors_search_words_insert" AFTER INSERT ON "investors" REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION "search_words_of"('name');--> statement-breakpoint
CREATE TRIGGER "investors_search_words_update" AFTER UPDATE ON "investors" REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION "search_words_of"('name');--> statement-breakpoint
CREATE TRIGGER "users_search_words_insert" AFTER INSERT ON "users" REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION "search_words_of"('full_name');--> statement-breakpoint
CREATE TRIGGER "users_search_words_update" AFTER UPDATE ON "users" REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION "search_words_of"('full_name');--> statement-breakpoint
INSERT INTO "search_words" ("word")
SELECT DISTINCT w.word FROM (
  SELECT "name" AS n FROM "companies" UNION ALL SELECT "name" FROM "funds" UNION ALL SELECT "full_name" FROM "contacts"
  UNION ALL SELECT "name" FROM "firms" UNION ALL SELECT "name" FROM "deals" UNION ALL SELECT "name" FROM "investors"
  UNION ALL SELECT "full_name" FROM "users"
) names, regexp_split_to_table(lower(names.n), '[^[:alnum:]]+') AS w(word)
WHERE length(w.word) >= 3;
--> statement-breakpoint
ANALYZE "search_words";
