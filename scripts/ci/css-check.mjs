#!/usr/bin/env node
// Fails when a stylesheet does not parse: an unclosed or extra brace, an unclosed string, bracket or
// comment, a `//` "comment" (not CSS: it swallows the selector or declaration after it), or a rule
// without a selector. Browsers recover from all of these silently by dropping or swallowing rules,
// so a page just loses its styles at some width; neither Biome nor a test that clicks notices.
//
// Usage: node scripts/ci/css-check.mjs [file.css ...]   (default: every tracked *.css)
// Prints `file:line:column: reason` per problem; exit 1 when any, 0 otherwise.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import postcss from "postcss";

/**
 * Problems in one stylesheet's text.
 * @param {string} css the stylesheet
 * @param {string} file its name, used in the messages
 * @returns {string[]} `file:line:column: reason`, empty when it parses cleanly
 */
export function cssProblems(css, file) {
  let root;
  try {
    root = postcss.parse(css, { from: file });
  } catch (error) {
    if (error?.name !== "CssSyntaxError") throw error;
    return [`${file}:${error.line}:${error.column}: ${error.reason}`];
  }
  const problems = [];
  const at = (node, reason) =>
    problems.push(`${file}:${node.source?.start?.line ?? 0}:${node.source?.start?.column ?? 0}: ${reason}`);
  root.walk((node) => {
    if (node.type === "rule") {
      if (/(^|[^:])\/\//.test(node.selector)) at(node, `"//" is not a CSS comment (in selector "${node.selector}")`);
      if (node.selector.trim() === "") at(node, "rule without a selector");
    } else if (node.type === "decl" && (node.prop.startsWith("//") || node.value.includes(" //"))) {
      at(node, `"//" is not a CSS comment (in "${node.prop}: ${node.value}")`);
    }
  });
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const files = process.argv.slice(2).length
    ? process.argv.slice(2)
    : execFileSync("git", ["ls-files", "-z", "*.css"], { encoding: "utf8" }).split("\0").filter(Boolean);
  const problems = files.flatMap((file) => cssProblems(readFileSync(file, "utf8"), file));
  for (const problem of problems) console.error(problem);
  console.log(`css-check: ${files.length} stylesheet(s), ${problems.length} problem(s)`);
  process.exit(problems.length ? 1 : 0);
}
