import { describe, expect, it } from "@jest/globals";
import { htmlToLine, htmlToText, isBlankHtml, sanitizeEmailHtml, sanitizeHtml } from "../src/index";

describe("sanitizeHtml", () => {
  it("keeps the rich-text structure and drops scripts, handlers and unsafe links", () => {
    const html = sanitizeHtml(
      '<h1 class="x">Hi</h1><script>alert(1)</script><p onclick="evil()">A &amp; B < C</p>' +
        '<a href="javascript:alert(1)">bad</a><a href="https://ok.example/?a=1&b=2">ok</a><!-- c -->' +
        '<iframe src="https://evil.test"></iframe><style>p{}</style><form><input name="x"></form>',
    );
    expect(html).toBe(
      '<h1>Hi</h1><p>A &amp; B &lt; C</p><a rel="noopener noreferrer">bad</a><a href="https://ok.example/?a=1&amp;b=2" rel="noopener noreferrer">ok</a>',
    );
  });

  it("keeps smart values as text and images only from http(s)", () => {
    expect(sanitizeHtml('<p>Hi {{contact.firstName}}</p><img src="data:image/png;base64,AA" onerror="x">')).toBe(
      "<p>Hi {{contact.firstName}}</p><img />",
    );
    expect(sanitizeHtml('<img src="https://cdn.test/a.png" alt="A">')).toBe(
      '<img src="https://cdn.test/a.png" alt="A" />',
    );
  });

  it("marks a public page's links as external", () => {
    expect(sanitizeHtml('<a href="https://x.test" rel="me">x</a>', { links: "external" })).toBe(
      '<a href="https://x.test" rel="nofollow noopener noreferrer" target="_blank">x</a>',
    );
  });
});

describe("sanitizeEmailHtml", () => {
  it("keeps email layout and plain inline styles, drops CSS that loads or runs", () => {
    const html = sanitizeEmailHtml(
      '<table width="600" align="center" bgcolor="#fff" onload="x"><tr><td style="color:#333;padding:8px;background-image:url(https://t.test/p.gif)">Hi</td></tr></table>' +
        '<center><a href="{{unsubscribeUrl}}" style="color:red">Unsubscribe</a></center>',
    );
    expect(html).toContain('<table width="600" align="center" bgcolor="#fff">');
    expect(html).toContain('<td style="color:#333;padding:8px">Hi</td>');
    expect(html).toContain('<center><a href="{{unsubscribeUrl}}" style="color:red" rel="noopener noreferrer">');
    expect(html).not.toContain("url(");
  });
});

describe("htmlToText", () => {
  it("puts blocks on their own lines, keeps link targets, drops the head", () => {
    expect(
      htmlToText(
        "<html><head><style>p{}</style><title>T</title></head><body><h2>News</h2><p>Hi &amp; welcome</p><div>Line<br>two</div>" +
          '<p><a href="https://x.test/u">Unsubscribe</a> <a href="https://x.test/">https://x.test/</a></p></body></html>',
      ),
    ).toBe("News\n\nHi & welcome\n\nLine\ntwo\n\nUnsubscribe (https://x.test/u) https://x.test/");
  });

  it("reads lists and drops images", () => {
    expect(htmlToText('<ul><li>One</li><li>Two</li></ul><img src="https://x.test/a.png" alt="A">')).toBe(
      "- One\n- Two",
    );
  });

  it("keeps only link labels when asked", () => {
    expect(htmlToText('<p><a href="https://x.test">Shop</a> now</p>', { links: false })).toBe("Shop now");
  });
});

describe("htmlToLine and isBlankHtml", () => {
  it("collapses to one line", () => {
    expect(htmlToLine("<h1>Spring  sale</h1><p>a &lt;b&gt;</p>")).toBe("Spring sale a <b>");
  });

  it("tells empty HTML", () => {
    expect(isBlankHtml("<p> &nbsp; </p><br>")).toBe(true);
    expect(isBlankHtml("<script>x</script>")).toBe(true);
    expect(isBlankHtml("<p>x</p>")).toBe(false);
  });
});
