-- The new words of a statement that wrote fewer than 20,000 rows (a create, an update, an import's batch) are each
-- looked up in the word index; a larger statement (a seed's load) hashes the stored words once, as before. The
-- planner cannot choose between them: it reckons regexp_split_to_table at 333 words a name (there are 2 to 5), and
-- even knowing better it prices an index lookup as a disk read. It hashed every stored word for each of an import's
-- batches: 290 ms a batch of 5,000 companies once a million words were stored, against 28 ms looked up
-- (docs/decisions/0045). A scalar subquery is never made a join, so the lookup stays one per word.
CREATE OR REPLACE FUNCTION "search_words_of"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (SELECT count(*) FROM (SELECT FROM written LIMIT 20000) few) < 20000 THEN
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
