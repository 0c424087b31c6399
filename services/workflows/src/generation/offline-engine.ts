import { setTimeout as sleep } from "node:timers/promises";
import { scrubAvoided } from "../domain/brand-voice";
import type { GenerationRequest } from "../domain/prompt";
import { COMPOSERS } from "./offline/composers";
import { offlineNote } from "./offline/frameworks";
import type { GenerationRun, TextEngine } from "./text-engine";

/** Below this many words a draft streams word by word (ads, emails, posts); longer ones 3 at a time. */
export const WORD_BY_WORD_BELOW = 400;

/**
 * Splits text into chunks of `words` words (by default one word for a short draft, three for a long
 * one, so every result is seen being written); joined back they are the text, whitespace included.
 */
export function wordChunks(text: string, words?: number): string[] {
  const tokens = text.match(/\s+|\S+\s*/g) ?? [];
  const size = words ?? (tokens.length < WORD_BY_WORD_BELOW ? 1 : 3);
  const chunks: string[] = [];
  for (let i = 0; i < tokens.length; i += size) chunks.push(tokens.slice(i, i + size).join(""));
  return chunks;
}

/**
 * Writes the whole text of a request with its offline composer (pure and deterministic), without
 * any of the brand voice's words to avoid.
 */
export function composeOffline(request: GenerationRequest): string {
  const composer = COMPOSERS[request.offline.composer];
  if (!composer) throw new Error(`unknown offline composer ${request.offline.composer}`);
  const text = composer.compose(request.context, {
    framework: request.offline.framework,
    params: request.offline.params,
    output: request.output,
  });
  // The output's own section headings are structure the result is parsed by, not copy.
  const headings =
    request.output.format === "list" ? request.output.sections.map((section) => `## ${section.heading}`) : [];
  return scrubAvoided(text, request.context.avoid, headings);
}

/**
 * The engine used when no AI provider is configured (DESIGN section 6): it drafts from the user's
 * own inputs with the framework the definition names and says so on every result. It streams in
 * word chunks with `delayMs` between them when the stream is `paced` (someone watches it being
 * written), else in one chunk at once; it uses no tokens.
 */
export function createOfflineEngine(options: { delayMs: number }): TextEngine {
  return {
    name: "offline",
    isOffline: () => true,
    describe: (request) => ({
      engine: "offline",
      framework: request.offline.framework,
      note: offlineNote(request.offline.framework),
    }),
    stream(request, signal, { paced } = { paced: true }): GenerationRun {
      return {
        usage: { inputTokens: 0, outputTokens: 0 },
        async *[Symbol.asyncIterator]() {
          signal.throwIfAborted();
          const text = composeOffline(request);
          if (!paced) {
            yield text;
            return;
          }
          const chunks = wordChunks(text);
          for (const [i, chunk] of chunks.entries()) {
            signal.throwIfAborted();
            yield chunk;
            if (options.delayMs > 0 && i < chunks.length - 1) {
              // Rejects on abort; stop with the signal's own reason, as every engine does.
              await sleep(options.delayMs, undefined, { signal }).catch(() => signal.throwIfAborted());
            }
          }
        },
      };
    },
  };
}
