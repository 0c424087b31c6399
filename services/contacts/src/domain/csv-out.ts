/**
 * Writing CSV (RFC 4180): every cell quoted when it holds a quote, separator or line break, CRLF
 * line ends. A cell a spreadsheet would run as a formula (= + - @ tab CR first) gets a leading `'`
 * (OWASP's CSV injection advice), since exports are opened in Excel.
 */
export function csvCell(value: unknown): string {
  let text = value === undefined || value === null ? "" : value instanceof Date ? value.toISOString() : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV line, with its CRLF. */
export function csvLine(cells: readonly unknown[]): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}
