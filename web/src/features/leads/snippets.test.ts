import { describe, expect, it } from "@jest/globals";
import { assistantSnippet, embedFormUrl, iframeSnippet, publicFormUrl, scriptSnippet } from "./snippets";

const origin = "https://app.crafter.example";

describe("lead capture snippets", () => {
  it("gives the form's public and embed addresses", () => {
    expect(publicFormUrl(origin, "f1")).toBe("https://app.crafter.example/f/f1");
    expect(embedFormUrl(origin, "a b")).toBe("https://app.crafter.example/f/a%20b/embed");
  });

  it("embeds with an iframe of the frameless page", () => {
    expect(iframeSnippet(origin, "f1")).toBe(
      '<iframe src="https://app.crafter.example/f/f1/embed" title="Sign up" width="100%" height="560" style="border:0;max-width:640px" loading="lazy"></iframe>',
    );
  });

  it("embeds with a script tag", () => {
    expect(scriptSnippet(origin, "f1")).toBe(
      '<script async src="https://app.crafter.example/widget/lead-form.js" data-form-id="f1"></script>',
    );
    expect(assistantSnippet(origin, "a1")).toBe(
      '<script async src="https://app.crafter.example/widget/lead-assistant.js" data-assistant-id="a1"></script>',
    );
  });

  it("escapes what it puts in attributes", () => {
    expect(iframeSnippet(origin, "f1", 'Say "hi" <now>')).toContain('title="Say &quot;hi&quot; &lt;now&gt;"');
    expect(scriptSnippet(origin, '"><script>')).toContain('data-form-id="&quot;&gt;&lt;script&gt;"');
  });
});
