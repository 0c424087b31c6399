import { promisify } from "node:util";
import { brotliDecompress, gunzip } from "node:zlib";
import { type DescMessage, fromBinary, fromJson } from "@bufbuild/protobuf";
import {
  Code,
  ConnectError,
  type ConnectRouter,
  type ConnectRouterOptions,
  createConnectRouter,
} from "@connectrpc/connect";
import type { UniversalHandler, UniversalServerRequest, UniversalServerResponse } from "@connectrpc/connect/protocol";
import { codeToString } from "@connectrpc/connect/protocol-connect";
import {
  compressionBrotli,
  compressionGzip,
  universalRequestFromNodeRequest,
  universalResponseToNodeResponse,
} from "@connectrpc/connect-node";
import type { RequestHandler } from "express";
import type { Logger } from "pino";

const STREAM_TYPES = new Set(["application/connect+proto", "application/connect+json"]);
const DECOMPRESS = { gzip: promisify(gunzip), br: promisify(brotliDecompress) } as const;
const FLAG_COMPRESSED = 0b01;
const FLAG_END_STREAM = 0b10;

/**
 * The one request message of a Connect streaming call, checked before the handler sees it: the
 * envelopes are read whole (at most `limit` bytes of message), each flag and length must be
 * possible, a compressed message needs a `Connect-Content-Encoding` we take, and the message must
 * decode as the method's input. connect-es answers some of these `internal` (a compressed flag
 * without an encoding, a message that does not decode) or `unimplemented` (no message).
 * @returns the request with its body as the bytes read, or the ConnectError to answer (`unread`: the
 *   rest of the body was left unread, so the connection must close).
 * @throws nothing; a body over `limit` is `resource_exhausted`, anything malformed `invalid_argument`.
 */
export async function checkStreamRequest(
  req: UniversalServerRequest,
  input: DescMessage,
  limit: number,
): Promise<{ body: Uint8Array } | { error: ConnectError; unread?: boolean }> {
  const invalid = (message: string) => ({ error: new ConnectError(message, Code.InvalidArgument) });
  const tooLarge = () => ({
    error: new ConnectError(`The message is larger than ${limit} bytes.`, Code.ResourceExhausted),
  });
  if (!(Symbol.asyncIterator in Object(req.body))) return invalid("A streaming call needs an enveloped body.");
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of req.body as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    // An envelope's header is 5 bytes; allow a second, empty end-of-stream envelope.
    if (size > limit + 10) return { ...tooLarge(), unread: true };
    chunks.push(chunk);
  }
  const body = Buffer.concat(chunks);
  const encoding = req.header.get("connect-content-encoding")?.trim().toLowerCase() ?? "identity";
  const json = req.header.get("content-type")?.split(";")[0]?.trim().toLowerCase() === "application/connect+json";
  let messages = 0;
  for (let at = 0; at < body.length; ) {
    if (body.length - at < 5) return invalid("The request ends inside an envelope header.");
    const flags = body[at]!;
    const length = body.readUInt32BE(at + 1);
    if (length > limit) return tooLarge();
    if (body.length - at - 5 < length) return invalid("The request ends inside an envelope.");
    if (flags & ~(FLAG_COMPRESSED | FLAG_END_STREAM) || flags & FLAG_END_STREAM)
      return invalid("A request envelope has flags a client may not set.");
    let data: Buffer = body.subarray(at + 5, at + 5 + length);
    at += 5 + length;
    if (flags & FLAG_COMPRESSED) {
      if (encoding !== "gzip" && encoding !== "br")
        return invalid("A compressed message needs Connect-Content-Encoding gzip or br.");
      try {
        data = await DECOMPRESS[encoding](data, { maxOutputLength: limit });
      } catch (error) {
        return (error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE"
          ? tooLarge()
          : invalid("The compressed message does not decompress.");
      }
    }
    messages++;
    try {
      if (json) fromJson(input, JSON.parse(data.toString("utf8")));
      else fromBinary(input, data);
    } catch {
      return invalid(`The message is not a valid ${input.typeName}.`);
    }
  }
  if (messages !== 1) return invalid(`A server-streaming call takes one message; this request has ${messages}.`);
  return { body };
}

/** A Connect streaming error answer: HTTP 200 and one end-of-stream envelope holding the error (Connect protocol). */
function streamError(req: UniversalServerRequest, error: ConnectError, close = false): UniversalServerResponse {
  const json = Buffer.from(JSON.stringify({ error: { code: codeToString(error.code), message: error.rawMessage } }));
  const envelope = Buffer.alloc(5 + json.length);
  envelope[0] = FLAG_END_STREAM;
  envelope.writeUInt32BE(json.length, 1);
  json.copy(envelope, 5);
  return {
    status: 200,
    header: new Headers({
      "content-type": req.header.get("content-type") ?? "application/connect+proto",
      ...(close ? { connection: "close" } : {}),
    }),
    body: (async function* () {
      yield envelope;
    })(),
  };
}

/**
 * `expressConnectMiddleware` with every Connect streaming request checked first
 * (`checkStreamRequest`): malformed frames answer `invalid_argument`, oversized ones
 * `resource_exhausted`, never `internal`. Other protocols and unary calls go to the handler as they are.
 * @param limit the largest request message in bytes, also connect-es's `readMaxBytes`.
 */
export function connectMiddleware(
  options: ConnectRouterOptions & { routes: (router: ConnectRouter) => void; limit: number },
  logger: Logger,
): RequestHandler {
  const router = createConnectRouter({
    acceptCompression: [compressionGzip, compressionBrotli],
    readMaxBytes: options.limit,
    ...options,
  });
  options.routes(router);
  const paths = new Map<string, UniversalHandler>(router.handlers.map((handler) => [handler.requestPath, handler]));
  return (req, res, next) => {
    const handler = paths.get(req.url.split("?", 1)[0]!);
    if (!handler) return next();
    const request = universalRequestFromNodeRequest(req, res, undefined, undefined);
    const type = request.header.get("content-type")?.split(";")[0]?.trim().toLowerCase() ?? "";
    const answer = async (): Promise<UniversalServerResponse> => {
      if (!STREAM_TYPES.has(type) || handler.method.methodKind === "unary") return handler(request);
      const checked = await checkStreamRequest(request, handler.method.input, options.limit);
      if ("error" in checked) return streamError(request, checked.error, checked.unread);
      return handler({
        ...request,
        body: (async function* () {
          yield checked.body;
        })(),
      });
    };
    answer()
      .then((response) => universalResponseToNodeResponse(response, res))
      .catch((error: unknown) => {
        if (ConnectError.from(error).code === Code.Aborted) return;
        logger.error({ err: error, rpc: handler.requestPath }, "rpc handler failed");
      });
  };
}
