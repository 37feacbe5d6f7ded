-- The search-words trigger (0017, 0022) built its statement with EXECUTE format(...) from the column it was given, so
-- PostgreSQL parsed, analyzed and planned that statement on every write: about 0.2 ms of a one-row create's time in
-- the database (2,000 single-row inserts into companies in SQL: 463-490 ms with it, 143-197 ms with the same
-- statement written out, 93 ms without the trigger). The columns the triggers name are written out here, each in a
-- statement of its own, which PL/pgSQL prepares once per connection and trigger (its plans are kept per trigger) and
-- plans again only when the tables change or are analyzed. The lookup stays an index probe for statements under
-- 20,000 rows (docs/decisions/0050): sequential scans are off when that statement is planned. Any other column still
-- goes through EXECUTE, as before.
CREATE OR REPLACE FUNCTION "search_words_of"() RETURNS trigger LANGUAGE plpgsql SET enable_seqscan = on AS $$
BEGIN
  IF (SELECT count(*) FROM (SELECT FROM written LIMIT 20000) few) < 20000 THEN
    PERFORM set_config('enable_seqscan', 'off', true);
    IF TG_ARGV[0] = 'name' THEN
      INSERT INTO search_words (word) SELECT d.word FROM (SELECT DISTINCT w.word FROM written n,
        regexp_split_to_table(lower(n.name), '[^[:alnum:]]+') AS w(word) WHERE length(w.word) >= 3) d
        WHERE (SELECT true FROM search_words s WHERE s.word = d.word LIMIT 1) IS NULL;
    ELSIF TG_ARGV[0] = 'full_name' THEN
      INSERT INTO search_words (word) SELECT d.word FROM (SELECT DISTINCT w.word FROM written n,
        regexp_split_to_table(lower(n.full_name), '[^[:alnum:]]+') AS w(word) WHERE length(w.word) >= 3) d
        WHERE (SELECT true FROM search_words s WHERE s.word = d.word LIMIT 1) IS NULL;
    ELSE
      EXECUTE format(
        'INSERT INTO search_words (word) SELECT d.word FROM (SELECT DISTINCT w.word FROM written n, '
        || 'regexp_split_to_table(lower(n.%I), ''[^[:alnum:]]+'') AS w(word) WHERE length(w.word) >= 3) d '
        || 'WHERE (SELECT true FROM search_words s WHERE s.word = d.word LIMIT 1) IS NULL',
        TG_ARGV[0]);
    END IF;
  ELSE
    EXECUTE format(
      'INSERT INTO search_words (word) SELECT DISTINCT w.word FROM written n, '
      || 'regexp_split_to_table(lower(n.%I), ''[^[:alnum:]]+'') AS w(word) '
      || 'WHERE length(w.word) >= 3 AND NOT EXISTS (SELECT 1 FROM search_words s WHERE s.word = w.word)',
      TG_ARGV[0]);
  END IF;
  RETURN NULL;
END
$$;
