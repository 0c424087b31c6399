import type { Readable } from "node:stream";
import { parse } from "csv-parse";

/** One CSV record: its cells and the line it ends on (1-based; header is line 1). */
export interface CsvRecord {
  line: number;
  cells: string[];
}

/** A record csv-parse could not read (an unclosed quote…), reported instead of stopping the import. */
export interface CsvProblem {
  line: number;
  reason: string;
}

export type CsvDelimiter = "," | ";" | "\t";

/**
 * The separator of a file from its first line, outside quotes: the most frequent of `,` `;` and tab
 * (European Excel writes `;`). Comma when none appears.
 */
export function sniffDelimiter(sample: string): CsvDelimiter {
  const firstLine = sample.replace(/^\uFEFF/, "").split(/\r?\n/, 1)[0] ?? "";
  const counts = new Map<CsvDelimiter, number>([
    [",", 0],
    [";", 0],
    ["\t", 0],
  ]);
  let quoted = false;
  for (const char of firstLine) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && counts.has(char as CsvDelimiter))
      counts.set(char as CsvDelimiter, (counts.get(char as CsvDelimiter) ?? 0) + 1);
  }
  let best: CsvDelimiter = ",";
  for (const [delimiter, count] of counts) if (count > (counts.get(best) ?? 0)) best = delimiter;
  return best;
}

/**
 * Streams the records of a CSV file with csv-parse: UTF-8 BOM dropped, quoted separators and
 * newlines kept, CRLF or LF, blank lines skipped, rows of any length. A record that cannot be parsed
 * goes to `onProblem` with its line, and reading goes on.
 */
export async function* readCsv(
  source: Readable | AsyncIterable<Buffer | string>,
  delimiter: CsvDelimiter,
  onProblem: (problem: CsvProblem) => void,
): AsyncGenerator<CsvRecord> {
  const parser = parse({
    bom: true,
    delimiter,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    info: true,
  });
  parser.on("skip", (error: Error & { lines?: number }) => {
    onProblem({ line: error.lines ?? 0, reason: `Unreadable row: ${error.message}` });
  });
  const feed = (async () => {
    try {
      for await (const chunk of source) {
        if (!parser.write(chunk)) await new Promise((resolve) => parser.once("drain", resolve));
      }
      parser.end();
    } catch (error) {
      parser.destroy(error as Error);
    }
  })();
  for await (const item of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
    yield { line: item.info.lines, cells: item.record };
  }
  await feed;
}
