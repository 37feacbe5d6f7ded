-- An import's batch of new names once took 0.3 s in its search-words trigger alone: the lookup of each new word
-- (0021) was planned as a sequential scan of search_words whenever that table was small, or had no statistics yet
-- (a new database: autovacuum had not visited it), and the statement itself then grew the table it scanned, so each
-- of a batch's 5,000 words read the words written before it (docs/decisions/0050). The lookup is an index probe
-- whatever the planner knows: sequential scans are off for that statement alone (set_config's `true` keeps it to the
-- transaction, and the function's own SET clause restores the setting when the function returns). A statement of
-- 20,000 rows or more hashes the stored words as before.
CREATE OR REPLACE FUNCTION "search_words_of"() RETURNS trigger LANGUAGE plpgsql SET enable_seqscan = on AS $$
BEGIN
  IF (SELECT count(*) FROM (SELECT FROM written LIMIT 20000) few) < 20000 THEN
    PERFORM set_config('enable_seqscan', 'off', true);
    EXECUTE format(
      'INSERT INTO search_words (word) SELECT d.word FROM (SELECT DISTINCT w.word FROM written n, '
      || 'regexp_split_to_table(lower(n.%I), ''[^[:alnum:]]+'') AS w(word) WHERE length(w.word) >= 3) d '
      || 'WHERE (SELECT true FROM search_words s WHERE s.word = d.word LIMIT 1) IS NULL',
      TG_ARGV[0]);
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
