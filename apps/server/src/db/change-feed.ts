import type { Database } from './client.ts';

/**
 * What a cache of database rows needs to stay exact: it may keep anything
 * only while the channel its triggers notify on is heard, and must drop what
 * a notification names. A read the cache wants to keep is bracketed: `begin`
 * before the statement, `mayKeep` after. A notification (or a change of
 * listening) in between means the read may predate a change that has already
 * been told, so its result is used but not kept.
 */
export class ChangeFeed {
  private listening = false;
  /** Moves on every notification and every change of listening. */
  private generation = 0;
  private readonly stop: () => void;

  constructor(
    database: Database,
    channel: string,
    /** A notification's payload: drop what it names. */
    onChange: (payload: string) => void,
    /** Listening started or stopped: drop everything (notifications may have been missed). */
    onReset: () => void,
  ) {
    this.stop = database.listen(
      channel,
      (payload) => {
        this.generation++;
        onChange(payload);
      },
      (listening) => {
        this.generation++;
        this.listening = listening;
        onReset();
      },
    );
  }

  /** Whether cached rows can be trusted now (else read the database, as without a cache). */
  get trusted(): boolean {
    return this.listening;
  }

  /** Taken before a read whose result the cache wants to keep. */
  begin(): number {
    return this.generation;
  }

  /** After that read: whether nothing was told since `begin`, so the result may be kept. */
  mayKeep(begun: number): boolean {
    return this.listening && begun === this.generation;
  }

  /**
   * This process changed rows the cache copies and dropped them itself,
   * before its own notification arrives: reads in flight may not be kept.
   */
  changedHere(): void {
    this.generation++;
  }

  /** Ends listening for this cache (the database's close ends the connection itself). */
  close(): void {
    this.stop();
  }
}
