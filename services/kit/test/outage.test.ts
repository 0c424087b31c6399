import { Code, ConnectError } from "@connectrpc/connect";
import { describe, expect, it } from "@jest/globals";
import mongoose from "mongoose";
import { describeError, isOutage } from "../src/errors/app-error";

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
