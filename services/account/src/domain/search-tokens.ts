/**
 * Search tokens of a user (admin's user search): exact-equality keys, never a pattern. An email
 * gives itself, its local part, its domain and the local part's pieces (split on . _ + -); a
 * display name gives its words. All lower-case, at most 32.
 */
export function searchTokensOf(email: string, displayName: string): string[] {
  const tokens = new Set<string>();
  const address = email.trim().toLowerCase();
  if (address) {
    tokens.add(address);
    const [local = "", domain = ""] = address.split("@");
    if (local) tokens.add(local);
    if (domain) tokens.add(domain);
    for (const piece of local.split(/[._+-]+/)) if (piece) tokens.add(piece);
  }
  for (const word of queryTokens(displayName)) tokens.add(word);
  return [...tokens].slice(0, 32);
}

/** The tokens of a search query: lower-case words (split on spaces and commas), at most 5. */
export function queryTokens(query: string): string[] {
  return [
    ...new Set(
      query
        .toLowerCase()
        .split(/[\s,]+/)
        .map((word) => word.trim())
        .filter((word) => word.length > 0 && word.length <= 120),
    ),
  ].slice(0, 5);
}
