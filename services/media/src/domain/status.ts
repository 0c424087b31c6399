/** What GetMediaStatus answers. */
export interface Status {
  entries: number;
  empty: boolean;
}

/** The status of a user's entries (pure). */
export function status(entries: number): Status {
  return { entries, empty: entries === 0 };
}
