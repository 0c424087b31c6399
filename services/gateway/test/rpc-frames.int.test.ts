import { gzipSync } from "node:zlib";
import { gatewayUrl, stackEnv } from "@crafter/kit/testing";
import { beforeAll, describe, expect, it, jest } from "@jest/globals";
// @ts-expect-error: a plain ES module script without types
import { signedInCookie } from "../../../scripts/security/sweep.mjs";

// /rpc under malformed Connect frames: each is refused invalid_argument or resource_exhausted, the
// way a client can act on, never internal; a well-formed request still reaches the handler.

jest.setTimeout(120_000);

const PATH = "/rpc/crafter.workflows.v1.WorkflowsService/CompleteStep";

/** One Connect envelope: flags, a 4-byte big-endian length, the message. */
function envelope(flags: number, data: Buffer, length = data.length): Buffer {
  const head = Buffer.alloc(5);
  head[0] = flags;
  head.writeUInt32BE(length, 1);
  return Buffer.concat([head, data]);
}

/** A CompleteStepRequest whose craft_id (field 1) is `size` bytes long, of `fill`. */
function craftIdOf(size: number, fill = "a"): Buffer {
  const varint: number[] = [];
  for (let n = size; ; n >>>= 7) {
    if (n < 128) {
      varint.push(n);
      break;
    }
    varint.push((n & 127) | 128);
  }
  return Buffer.concat([Buffer.from([0x0a, ...varint]), Buffer.alloc(size, fill)]);
}

let cookie = "";
beforeAll(async () => {
  cookie = await signedInCookie(gatewayUrl(), stackEnv().MAILPIT_API_URL ?? "http://127.0.0.1:8025");
});

interface EndOfStream {
  error?: { code: string; message: string; details?: unknown[] };
}

/** The end of a streaming call's answer: its last envelope, `{}` or `{ error }`. */
async function endOf(
  body: Buffer,
  headers: Record<string, string> = {},
  type = "application/connect+proto",
): Promise<EndOfStream> {
  const base = gatewayUrl();
  const response = await fetch(`${base}${PATH}`, {
    method: "POST",
    headers: { "content-type": type, origin: base, cookie, ...headers },
    body: new Uint8Array(body),
  });
  expect(response.status).toBe(200);
  const bytes = Buffer.from(await response.arrayBuffer());
  // The last envelope is the end of the stream: {"error":{"code",…}} or {}.
  let at = 0;
  let last = Buffer.alloc(0);
  while (at + 5 <= bytes.length) {
    const length = bytes.readUInt32BE(at + 1);
    last = bytes.subarray(at + 5, at + 5 + length);
    at += 5 + length;
  }
  return JSON.parse(last.toString("utf8")) as EndOfStream;
}

/** The Connect error code a streaming call ends with ("" when it ended without one). */
async function codeOf(body: Buffer, headers: Record<string, string> = {}, type = "application/connect+proto") {
  return (await endOf(body, headers, type)).error?.code ?? "";
}

describe("/rpc frames", () => {
  it("refuses a compressed flag it cannot read as invalid_argument", async () => {
    expect(await codeOf(envelope(1, craftIdOf(4)))).toBe("invalid_argument");
    expect(await codeOf(envelope(1, Buffer.from("not gzip")), { "connect-content-encoding": "gzip" })).toBe(
      "invalid_argument",
    );
  });

  it("refuses envelopes that lie about their length, flags a client may not set, or no message", async () => {
    expect(await codeOf(envelope(0, Buffer.from("abc"), 4096))).toBe("invalid_argument");
    expect(await codeOf(Buffer.from([0, 0, 0]))).toBe("invalid_argument");
    expect(await codeOf(envelope(2, Buffer.from("{}")))).toBe("invalid_argument");
    expect(await codeOf(Buffer.alloc(0))).toBe("invalid_argument");
    expect(await codeOf(Buffer.concat([envelope(0, craftIdOf(4)), envelope(0, craftIdOf(4))]))).toBe(
      "invalid_argument",
    );
  });

  it("refuses a message that does not decode as the method's input as invalid_argument", async () => {
    expect(await codeOf(envelope(0, Buffer.from([0xff, 0xff, 0xff])))).toBe("invalid_argument");
    expect(await codeOf(envelope(0, Buffer.from("{nope")), {}, "application/connect+json")).toBe("invalid_argument");
  });

  it("refuses a message over 1 MiB as resource_exhausted, compressed or not, and a 1 MB field by its rules", async () => {
    expect(await codeOf(envelope(0, craftIdOf(2_000_000)))).toBe("resource_exhausted");
    expect(await codeOf(Buffer.from([0, 0x7f, 0xff, 0xff, 0xff]))).toBe("resource_exhausted");
    const bomb = gzipSync(craftIdOf(5_000_000));
    expect(await codeOf(envelope(1, bomb), { "connect-content-encoding": "gzip" })).toBe("resource_exhausted");
    // Under the limit, a 1 MB craft id is read and refused by what a craft id may be.
    expect(["invalid_argument", "not_found"]).toContain(await codeOf(envelope(0, craftIdOf(1_000_000))));
  });

  it("still hands a well-formed request, plain or gzip, to the handler", async () => {
    // A craft that is not the caller's: the workflows service's own answer, with its ErrorDetail
    // (the frame check's answers carry none).
    const message = Buffer.concat([craftIdOf(24, "0"), Buffer.from([0x12, 5]), Buffer.from("topic")]);
    for (const end of [
      await endOf(envelope(0, message)),
      await endOf(envelope(1, gzipSync(message)), { "connect-content-encoding": "gzip" }),
    ]) {
      expect(end.error?.details?.length).toBeGreaterThan(0);
      expect(end.error?.code).not.toBe("internal");
    }
  });
});
