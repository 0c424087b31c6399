// The frameworks each composer writes with are listed on the composer (composers.ts).

/** The note every offline result carries, so nobody mistakes it for AI writing. */
export function offlineNote(framework: string): string {
  return `Drafted offline with the ${framework} framework from your own inputs — no AI provider is configured.`;
}
