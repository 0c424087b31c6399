import { smartValueLabel, smartValueToken } from "@crafter/email-language";
import { mergeAttributes, Node } from "@tiptap/core";

declare module "@tiptap/core" {
  interface Commands<ReturnType> {
    smartValue: {
      /** Inserts a smart value chip at the selection. */
      insertSmartValue: (name: string, fallback?: string) => ReturnType;
    };
  }
}

/**
 * A smart value (merge field) as one inline, atomic chip: selected, deleted and moved as a whole,
 * shown by its label, stored as `<span data-smart-value="contact.firstName">` (turned back into
 * its `{{…}}` token by chipsToTokens).
 */
export const SmartValue = Node.create({
  name: "smartValue",
  group: "inline",
  inline: true,
  atom: true,
  selectable: true,
  addAttributes() {
    return {
      // Written by renderHTML below as data-* attributes, not as attributes of their own.
      name: { default: "", parseHTML: (el) => el.getAttribute("data-smart-value") ?? "", renderHTML: () => ({}) },
      fallback: { default: null, parseHTML: (el) => el.getAttribute("data-fallback"), renderHTML: () => ({}) },
    };
  },
  parseHTML() {
    return [{ tag: "span[data-smart-value]" }];
  },
  renderHTML({ node, HTMLAttributes }) {
    const { name, fallback } = node.attrs as { name: string; fallback: string | null };
    return [
      "span",
      mergeAttributes(HTMLAttributes, {
        "data-smart-value": name,
        ...(fallback !== null ? { "data-fallback": fallback } : {}),
        class: "crafter-smart-value",
        title: smartValueToken(name, fallback ?? undefined),
      }),
      smartValueLabel(name),
    ];
  },
  renderText({ node }) {
    return smartValueToken(node.attrs.name as string, (node.attrs.fallback as string | null) ?? undefined);
  },
  addCommands() {
    return {
      insertSmartValue:
        (name, fallback) =>
        ({ commands }) =>
          commands.insertContent([
            { type: this.name, attrs: { name, fallback: fallback ?? null } },
            { type: "text", text: " " },
          ]),
    };
  },
});
