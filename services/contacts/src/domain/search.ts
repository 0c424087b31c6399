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
 * The tokens stored on a contact: every word of `texts` and its prefixes (2 to 16 characters), plus
 * the whole email address, deduplicated.
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
  if (email) tokens.add(email.trim().toLowerCase());
  return [...tokens];
}

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
 * Whether a contact whose name, company and email have `contactWords` (see `words`) would carry
 * `token` among its `searchTokens`: the token is its whole email, or a prefix of one of its words as
 * `searchTokens` cuts them (2 to 16 characters; a one-letter word is its own token). The same answer
 * as `searchTokens(…).includes(token)` without making every prefix.
 */
export function matchesToken(contactWords: readonly string[], email: string, token: string): boolean {
  if (token === email.trim().toLowerCase()) return true;
  if (token.length > MAX_PREFIX) return false;
  return contactWords.some(
    (word) => word.startsWith(token) && (token.length >= MIN_PREFIX || word.length === token.length),
  );
}
