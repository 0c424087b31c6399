import type { ComposeContext } from "../../domain/prompt";
import { aud, briefOf } from "./brief";
import { capitalize, lowerFirst } from "./text";

/**
 * Offline smart-document writing: a first draft from a brief (AIDA) and rule-based edits of the
 * user's own text (shorten, expand, simplify, bullet points, summary, formal / friendly). The
 * edits rearrange and rephrase what is there; they add no claims the user did not make.
 */

export function sentences(text: string): string[] {
  return (text.replace(/\s+/g, " ").match(/[^.!?]+[.!?]+["”')\]]*|[^.!?]+$/g) ?? [])
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Paragraphs, or lines: a heading or an HTML block sits on its own line with no blank line after. */
function paragraphs(text: string): string[] {
  return text
    .split(/\n\s*/)
    .map((p) => p.trim())
    .filter(Boolean);
}

const CONTRACTIONS: [RegExp, string][] = [
  [/\bdo not\b/gi, "don't"],
  [/\bdoes not\b/gi, "doesn't"],
  [/\bcannot\b/gi, "can't"],
  [/\bwill not\b/gi, "won't"],
  [/\bit is\b/gi, "it's"],
  [/\bwe are\b/gi, "we're"],
  [/\byou are\b/gi, "you're"],
  [/\bthat is\b/gi, "that's"],
  [/\bis not\b/gi, "isn't"],
  [/\bare not\b/gi, "aren't"],
];

const WORDY: [RegExp, string][] = [
  [/\bin order to\b/gi, "to"],
  [/\bat this point in time\b/gi, "now"],
  [/\bdue to the fact that\b/gi, "because"],
  [/\ba large number of\b/gi, "many"],
  [/\bin the event that\b/gi, "if"],
  [/\bis able to\b/gi, "can"],
  [/\butili[sz]e\b/gi, "use"],
  [/\bcommence\b/gi, "start"],
  [/\bpurchase\b/gi, "buy"],
  [/\b(really|very|actually|basically|just)\s+/gi, ""],
];

function keepCase(match: string, replacement: string): string {
  return /^[A-Z]/.test(match) ? capitalize(replacement) : replacement;
}

function replaceAll(text: string, table: [RegExp, string][]): string {
  return table.reduce((out, [pattern, replacement]) => out.replace(pattern, (m) => keepCase(m, replacement)), text);
}

/** Applies one edit command to `text`. Unknown commands return the text tidied. */
export function editText(text: string, command: string): string {
  const tidy = text.replace(/[ \t]+/g, " ").trim();
  switch (command) {
    case "shorten":
      // The lead sentence of each paragraph carries its point; wordy phrases go.
      return paragraphs(replaceAll(tidy, WORDY))
        .map((p) =>
          sentences(p)
            .slice(0, Math.max(1, Math.ceil(sentences(p).length / 2)))
            .join(" "),
        )
        .join("\n\n");
    case "simplify":
      return replaceAll(tidy, WORDY)
        .split(/\n\s*\n/)
        .map((p) =>
          sentences(p)
            .flatMap((s) =>
              s
                .split(/[,;]\s+(?:and|but|which|so)\s+/i)
                .map((part, i, all) => (i < all.length - 1 ? `${part.replace(/[.!?]$/, "")}.` : capitalize(part))),
            )
            .map((s) => capitalize(s.trim()))
            .join(" "),
        )
        .join("\n\n");
    case "bullets":
      return sentences(tidy)
        .map((s) => `- ${s.replace(/[.!?]+$/, "")}`)
        .join("\n");
    case "summarize": {
      const firsts = paragraphs(tidy).map((p) => sentences(p)[0] ?? "");
      return `In short: ${firsts.map((s, i) => (i === 0 ? s : lowerFirst(s))).join(" ")}`.trim();
    }
    case "friendly":
      return replaceAll(tidy, CONTRACTIONS);
    case "formal":
      return CONTRACTIONS.reduce((out, [pattern, contraction]) => {
        const full = pattern.source.replace(/\\b/g, "");
        return out.replace(new RegExp(`\\b${contraction.replace("'", "['’]")}\\b`, "gi"), (m) => keepCase(m, full));
      }, tidy)
        .replace(/!+/g, ".")
        .replace(/\s*:\)\s*/g, " ");
    case "expand":
      return paragraphs(tidy)
        .map((p) => {
          const first = sentences(p)[0] ?? p;
          return `${p} In practice, this means: ${lowerFirst(first.replace(/[.!?]+$/, ""))} — and it is worth checking what changes as a result.`;
        })
        .join("\n\n");
    default:
      return tidy;
  }
}

/** A document's first draft from its brief (purpose, audience, key points), AIDA. */
export function documentDraft(ctx: ComposeContext): string {
  const b = briefOf(ctx, "document");
  const title = b.text("title") || capitalize(b.topic);
  const points = b.list("keyPoints");
  const purpose = b.text("purpose");
  const parts = [
    title,
    "",
    `${capitalize(aud(b))}: this is about ${lowerFirst(b.topic)}${purpose ? ` — ${lowerFirst(purpose)}` : ""}.`,
    "",
    b.description ? `${b.business ? `At ${b.business}, ` : ""}${lowerFirst(b.description)}.` : "",
    "",
    ...points.map((point) => `- ${capitalize(point)}`),
    "",
    `${b.cta || "Next step"}: ${b.website ? b.website : "reply to this document with your questions"}.`,
  ];
  return parts
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** The text an edit command works on: the inline params' `text` (the selection), else the document. */
export function editSource(ctx: ComposeContext): string {
  const param = ctx.params?.text;
  if (typeof param === "string" && param.trim()) return param;
  const b = briefOf(ctx, "edit");
  return b.text("text") || b.text("selection") || b.text("document");
}
