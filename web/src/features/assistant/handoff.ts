import { useSyncExternalStore } from "react";

/**
 * "Use in craft": the assistant hands an answer to the craft open in the page. The open step's
 * form registers itself as the one target while it is shown; the panel offers the button only
 * then. The answer goes into a text input of that form (the one last focused, else the first
 * visible), where the user sees it and saves or completes the step as usual.
 */
export interface AnswerTarget {
  /** The craft's id ("" for a draft that is not stored yet). */
  craftId: string;
  /** The step's title, for the button's label and the confirmation. */
  stepTitle: string;
  /** Puts the answer into the step's form; answers where it went, or null when no input takes text. */
  insert(answer: string): AnswerPlacement | null;
}

export interface AnswerPlacement {
  /** The input's label. */
  label: string;
  /** The answer made the value longer than the input's limit (the form shows the rule). */
  overLimit: boolean;
}

/** Input kinds whose value is free text, so an answer can go there. */
export const TEXT_INPUT_KINDS = new Set(["text", "InlineTextGenerator"]);

/**
 * The input an answer goes into: the last focused one when it takes text and is shown, else the
 * first shown input that takes text; null when none does. Pure.
 */
export function answerInput<T extends { name: string; kind: string }>(
  inputs: T[],
  isShown: (input: T) => boolean,
  focused: string | null,
): T | null {
  const candidates = inputs.filter((input) => TEXT_INPUT_KINDS.has(input.kind) && isShown(input));
  return candidates.find((input) => input.name === focused) ?? candidates[0] ?? null;
}

/** Input kinds shown as a multi-line text area; the others are one line, where a browser drops line breaks. */
export const MULTILINE_INPUT_KINDS = new Set(["InlineTextGenerator"]);

/**
 * The input's value with the answer: the answer alone when the input is empty, else after the
 * existing text (nothing the user wrote is lost), separated by a blank line in a text area and by a
 * space on one line, where the answer's own line breaks become spaces too. Pure.
 */
export function withAnswer(current: unknown, answer: string, multiline: boolean): string {
  const before = typeof current === "string" ? current.trimEnd() : "";
  const text = multiline ? answer.trim() : answer.replace(/\s+/g, " ").trim();
  if (!before) return text;
  return multiline ? `${before}\n\n${text}` : `${before} ${text}`;
}

let target: AnswerTarget | null = null;
const listeners = new Set<() => void>();

/** Makes `next` the target until the returned function is called (the form unmounts). */
export function registerAnswerTarget(next: AnswerTarget): () => void {
  target = next;
  for (const listener of listeners) listener();
  return () => {
    if (target !== next) return;
    target = null;
    for (const listener of listeners) listener();
  };
}

/** The form that takes an answer now, if any. */
export function currentAnswerTarget(): AnswerTarget | null {
  return target;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The current target, re-rendering when a form opens or closes. */
export function useAnswerTarget(): AnswerTarget | null {
  return useSyncExternalStore(subscribe, currentAnswerTarget, () => null);
}
