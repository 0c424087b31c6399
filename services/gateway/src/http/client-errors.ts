import type { Socket } from "node:net";

/** The methods a 405 for a method Node's parser does not know names (the gateway's own ones). */
const ALLOW = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS";

function envelope(code: string, message: string): string {
  return JSON.stringify({ success: false, result: null, errorMessage: message, error: { code } });
}

/**
 * The answer to a request Node's HTTP parser refuses before Express sees it, in the envelope: a
 * method it does not know (`FOO / HTTP/1.1`) → 405 with `Allow`; headers too large → 431; a request
 * that took too long → 408; any other malformed request → 400. Node's own answer has no body.
 */
export function onClientError(error: Error & { code?: string }, socket: Socket): void {
  const sent = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
  if (!socket.writable || sent) {
    socket.destroy();
    return;
  }
  const [status, reason, code, message, extra] =
    error.code === "HPE_INVALID_METHOD"
      ? [405, "Method Not Allowed", "METHOD_NOT_ALLOWED", "This method is not allowed here.", `Allow: ${ALLOW}\r\n`]
      : error.code === "HPE_HEADER_OVERFLOW"
        ? [431, "Request Header Fields Too Large", "CR_ERR_BAD_REQUEST", "The request headers are too large.", ""]
        : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
          ? [408, "Request Timeout", "CR_ERR_BAD_REQUEST", "The request took too long to arrive.", ""]
          : [400, "Bad Request", "CR_ERR_BAD_REQUEST", "The request could not be read.", ""];
  const body = envelope(code, message);
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n${extra}` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
