/**
 * Search by token equality (docs/adr/0001: equality, including "array contains", is pushed down to
 * the database, and never `$regex`). A contact stores `searchTokens`: the normalised words of its name,
 * email and company and every prefix of each word from 2 characters on, so "jo", "joh" and "john"
 * each find John by one indexed equality.
 */

/** Words longer than this keep prefixes only up to it; a longer query word is cut to it too. */
export const MAX_PREFIX = 16;
const MIN_PREFIX = 2;

/** Lower case, accents folded (é → e), everything but letters and digits a separator. */
export function words(text: string): string[] {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

/**
 * The tokens stored on a contact: every word of `texts` and its prefixes (2 to 16 characters), the
 * whole email address and its beginnings from one character after the "@", and every 3-to-16-character
 * piece inside the words of the email's local part; deduplicated.
 */
export function searchTokens(texts: ReadonlyArray<string | undefined>, email?: string): string[] {
  const tokens = new Set<string>();
  for (const text of texts) {
    if (!text) continue;
    for (const word of words(text)) {
      const longest = Math.min(word.length, MAX_PREFIX);
      for (let end = Math.min(MIN_PREFIX, longest); end <= longest; end++) tokens.add(word.slice(0, end));
    }
  }
  if (email) {
    const address = email.trim().toLowerCase();
    tokens.add(address);
    const at = address.lastIndexOf("@");
    if (at > 0) {
      // The address as typed so far, once it has its "@" ("irossi5@exa").
      for (let end = at + 2; end < address.length; end++) tokens.add(address.slice(0, end));
      // Inside the local part's words, from 3 characters ("rossi" finds irossi5@…).
      for (const word of words(address.slice(0, at))) {
        for (let start = 1; start + MIN_INFIX <= word.length; start++) {
          const longest = Math.min(word.length, start + MAX_PREFIX);
          for (let end = start + MIN_INFIX; end <= longest; end++) tokens.add(word.slice(start, end));
        }
      }
    }
  }
  return [...tokens];
}

const NON_ASCII = /\P{ASCII}/u;

/** A query word this long is also looked for inside the email's local part, not only at a word's start. */
export const MIN_INFIX = 3;

/**
 * The tokens a query must all match, longest first (the longest is the most selective, so it goes to
 * the database and the rest filter the few documents it returns). A query that is a whole email
 * address is that address. Empty for a blank query.
 */
export function queryTokens(query: string): string[] {
  const trimmed = query.trim().toLowerCase();
  if (trimmed === "") return [];
  if (/^[^\s@]+@[^\s@]+$/.test(trimmed)) return [trimmed];
  const unique = new Set(words(trimmed).map((word) => word.slice(0, MAX_PREFIX)));
  return [...unique].sort((a, b) => b.length - a.length);
}

/**
 * Whether a contact whose name, company and email have `contactWords` (see `words`) matches a query
 * word `token`: the token is its whole email or the start of it, a prefix of one of its words (2 to
 * 16 characters; a one-letter word is its own token), or — from 3 characters — any part of a word
 * of the email's local part ("rossi" finds irossi5@…). Matched in memory over the project's
 * snapshot, so no `$regex` is ever sent to the database.
 */
export function matchesToken(contactWords: readonly string[], email: string, token: string): boolean {
  const address = email.trim().toLowerCase();
  if (token === address) return true;
  const at = address.lastIndexOf("@");
  if (token.includes("@")) return at > 0 && token.length >= at + 2 && address.startsWith(token);
  if (token.length > MAX_PREFIX) return false;
  if (token.length >= MIN_INFIX && at > 0) {
    const local = address.slice(0, at);
    // ASCII (nearly every address): a token found anywhere in it starts a word or sits inside one,
    // both stored. Otherwise fold it as the stored tokens were.
    if (NON_ASCII.test(local)) {
      if (words(local).some((word) => word.indexOf(token, 1) > 0)) return true;
    } else if (local.includes(token)) return true;
  }
  return contactWords.some(
    (word) => word.startsWith(token) && (token.length >= MIN_PREFIX || word.length === token.length),
  );
}
