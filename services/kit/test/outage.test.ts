import { Code, ConnectError, createClient, createRouterTransport } from "@connectrpc/connect";
import { AuthService } from "@crafter/proto/crafter/auth/v1/auth_pb";
import { describe, expect, it } from "@jest/globals";
import mongoose from "mongoose";
import { createLogger } from "../src/logger/logger";
import { describeError, errorInterceptor, isOutage } from "../src/rpc/errors";
import { loggingInterceptor } from "../src/rpc/interceptors";

describe("isOutage", () => {
  it("recognises a database that cannot be reached (a real driver error) and answers it 503", async () => {
    // Port 9 (discard) is closed on the test machines: the driver fails server selection.
    const connection = mongoose.createConnection("mongodb://127.0.0.1:9/outage", { serverSelectionTimeoutMS: 300 });
    const error = await connection.asPromise().then(
      () => undefined,
      (failure: unknown) => failure,
    );
    await connection.close().catch(() => undefined);
    expect(isOutage(error)).toBe(true);
    expect(describeError(error)).toMatchObject({ code: "UNAVAILABLE", status: 503 });
  });

  it("treats Unavailable and DeadlineExceeded from a peer as outages, other errors not", () => {
    expect(isOutage(new ConnectError("down", Code.Unavailable))).toBe(true);
    expect(describeError(new ConnectError("slow", Code.DeadlineExceeded)).status).toBe(503);
    expect(isOutage(new ConnectError("bad", Code.InvalidArgument))).toBe(false);
    expect(isOutage(new TypeError("x is undefined"))).toBe(false);
    expect(describeError(new Error("boom")).status).toBe(500);
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:6379"), { code: "ECONNREFUSED" });
    expect(isOutage(new Error("wrapped", { cause: refused }))).toBe(true);
  });
});

describe("errorInterceptor", () => {
  it("answers a handler's database outage as Unavailable, and leaves other errors alone", async () => {
    const unreachable = mongoose.createConnection("mongodb://127.0.0.1:9/outage", { serverSelectionTimeoutMS: 300 });
    const outage = await unreachable.asPromise().then(
      () => undefined,
      (failure: unknown) => failure,
    );
    await unreachable.close().catch(() => undefined);
    const transport = createRouterTransport(
      (router) =>
        router.service(AuthService, {
          signUp: () => {
            throw outage;
          },
          signIn: () => {
            throw new TypeError("a bug of ours");
          },
        }),
      // As runService installs them: logging outside the error interceptor.
      { router: { interceptors: [loggingInterceptor(createLogger("outage-test", "silent")), errorInterceptor()] } },
    );
    const client = createClient(AuthService, transport);
    const down = await client.signUp({ email: "a@example.test", password: "password-123" }).catch((e: unknown) => e);
    expect(ConnectError.from(down).code).toBe(Code.Unavailable);
    expect(describeError(down)).toMatchObject({ code: "UNAVAILABLE", status: 503 });
    const bug = await client.signIn({ email: "a@example.test", password: "x" }).catch((e: unknown) => e);
    expect(describeError(bug).status).toBe(500);
  });
});
