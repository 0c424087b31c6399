import { createHash } from "node:crypto";
import { describe, expect, it } from "@jest/globals";
import {
  approvalState,
  approvalSummary,
  commentText,
  craftSections,
  linkDays,
  linkStatus,
  newReviewToken,
  reviewNotice,
  reviewTokenHash,
} from "../src/domain/approval";
import { renderReviewNoticeEmail, renderReviewRequestEmail } from "../src/domain/templates";

const at = (minute: number) => new Date(Date.UTC(2026, 10, 27, 12, minute));

describe("review tokens", () => {
  it("are random, opaque and stored as their SHA-256", () => {
    const tokens = new Set(Array.from({ length: 200 }, newReviewToken));
    expect(tokens.size).toBe(200);
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(reviewTokenHash(token)).toBe(createHash("sha256").update(token).digest("hex"));
    }
  });

  it("refuse anything of another shape (cut, padded, escaped)", () => {
    const token = newReviewToken();
    for (const bad of [
      "",
      token.slice(1),
      `${token}=`,
      `${token.slice(0, 42)}/`,
      `${token.slice(0, 42)}%`,
      "x".repeat(5000),
    ])
      expect(reviewTokenHash(bad)).toBeNull();
  });
});

describe("a link's status and days", () => {
  it("is revoked before expired, expired at its end", () => {
    const link = { expiresAt: at(10) };
    expect(linkStatus(link, null, at(9))).toBe("active");
    expect(linkStatus(link, null, at(10))).toBe("expired");
    expect(linkStatus(link, at(5), at(9))).toBe("revoked");
    expect(linkStatus(link, at(5), at(11))).toBe("revoked");
  });

  it("works 1 to 30 days, 7 by default", () => {
    expect(linkDays(0)).toBe(7);
    expect(linkDays(1)).toBe(1);
    expect(linkDays(30)).toBe(30);
    for (const bad of [-1, 31, 2.5, Number.NaN]) expect(linkDays(bad)).toBeNull();
  });
});

describe("the approval state", () => {
  it("is none until shared, then awaiting until a decision; the latest decision or share wins", () => {
    expect(approvalState([], []).state).toBe("none");
    const links = [{ createdAt: at(0) }];
    expect(approvalState(links, [{ kind: "comment", createdAt: at(1) }])).toEqual({ state: "awaiting", since: at(0) });
    const decided = [
      { kind: "changes_requested", createdAt: at(2) },
      { kind: "approved", createdAt: at(3) },
      { kind: "comment", createdAt: at(4) },
    ];
    expect(approvalState(links, decided)).toEqual({ state: "approved", since: at(3) });
    // A new share after the decision asks for a review again.
    expect(approvalState([...links, { createdAt: at(5) }], decided).state).toBe("awaiting");
    // Revocations are not decisions.
    expect(approvalState(links, [{ kind: "revoked", createdAt: at(6) }]).state).toBe("awaiting");
  });
});

describe("a craft as a reviewer reads it", () => {
  it("takes each step's selected (else latest) result, sanitised, text as paragraphs, lists as lists", () => {
    const sections = craftSections([
      { name: "brief", title: "Brief", results: [] },
      {
        name: "subjectLines",
        results: [{ content: ["Spring is here", "Bake with us"], format: "list" }],
      },
      {
        name: "body",
        title: "Email",
        results: [
          { content: "<p>old</p>", format: "html" },
          {
            content: '<p onclick="x()">Chosen <script>alert(1)</script><a href="javascript:x()">l</a></p>',
            format: "html",
            selected: true,
          },
        ],
      },
      { name: "notes", title: "Notes", results: [{ content: "One <b>\n\nTwo", format: "text" }] },
      { name: "draft", title: "Draft", results: [{ content: "<p>Same</p>", format: "html" }] },
      { name: "final", title: "Final", results: [{ content: "<p>Same</p>", format: "html" }] },
      { name: "data", title: "Data", results: [{ content: { a: 1 }, format: "data" }] },
    ]);
    expect(sections.map((s) => s.title)).toEqual(["Subject lines", "Email", "Notes", "Final"]);
    expect(sections[0]!.html).toBe("<ul><li>Spring is here</li><li>Bake with us</li></ul>");
    expect(sections[1]!.html).toContain("Chosen");
    expect(sections[1]!.html).not.toMatch(/script|onclick|javascript:|old/);
    expect(sections[2]!.html).toBe("<p>One &lt;b&gt;</p><p>Two</p>");
  });
});

describe("the owner's notice", () => {
  it("says who did what, and its email escapes the reviewer's words", () => {
    const notice = reviewNotice({
      kind: "changes_requested",
      author: "Dana",
      title: "Spring",
      body: "Add <b>price</b>",
    });
    expect(notice).toMatchObject({ level: "warning", title: "Dana asked for changes to “Spring”" });
    const email = renderReviewNoticeEmail({
      headline: notice.title,
      comment: "Add <b>price</b>",
      link: "http://x/app/a",
    });
    expect(email.subject).toBe("Dana asked for changes to “Spring”");
    expect(email.html).toContain("Add &lt;b&gt;price&lt;/b&gt;");
    expect(email.text).toContain("http://x/app/a");
    expect(commentText(" a\r\nb\u0007 ")).toBe("a\nb");
  });
});

describe("a listed item's approval summary", () => {
  const link = (minute: number, reviewerName: string, reviewerEmail = "") => ({
    createdAt: at(minute),
    reviewerName,
    reviewerEmail,
  });
  const event = (minute: number, kind: string, authorName: string) => ({ createdAt: at(minute), kind, authorName });
  it("names who decided, else the latest link's reviewer, else nobody", () => {
    expect(approvalSummary([], [])).toEqual({ state: "none", since: null, reviewer: "" });
    expect(approvalSummary([link(1, "Dana"), link(2, "", "lee@x.test")], [])).toMatchObject({
      state: "awaiting",
      reviewer: "lee@x.test",
    });
    expect(
      approvalSummary([link(1, "Dana")], [event(2, "comment", "Sam"), event(3, "approved", "Dana K.")]),
    ).toMatchObject({ state: "approved", reviewer: "Dana K." });
    expect(
      approvalSummary([link(1, "Dana")], [event(2, "approved", "Dana"), event(4, "changes_requested", "Lee")]),
    ).toMatchObject({ state: "changes_requested", reviewer: "Lee" });
    // A new share after the decision asks again, of the new link's reviewer.
    expect(approvalSummary([link(1, "Dana"), link(5, "Kim")], [event(2, "approved", "Dana")])).toMatchObject({
      state: "awaiting",
      reviewer: "Kim",
    });
  });
});

describe("the reviewer's email", () => {
  it("comes from the business, with the link, its expiry and no raw markup from names", () => {
    const email = renderReviewRequestEmail({
      reviewerName: "Dana",
      sharedBy: "Olive <b>",
      title: "Spring <sale>",
      link: "https://app.example/review/abc",
      expiresAt: at(0),
      now: new Date(at(0).getTime() - 7 * 86_400_000),
      brand: { name: "Crumb & Co.", logoUrl: "https://cdn.example/logo.png" },
    });
    expect(email.subject).toContain("Crumb & Co.");
    expect(email.text).toContain("https://app.example/review/abc");
    expect(email.text).toContain("in 7 days");
    expect(email.html).toContain('src="https://cdn.example/logo.png"');
    expect(email.html).not.toContain("<sale>");
    expect(email.html).not.toContain("Olive <b>");
  });
});
