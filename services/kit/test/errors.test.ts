import { Code, ConnectError, createClient, createRouterTransport } from "@connectrpc/connect";
import { WorkflowsService } from "@crafter/proto/crafter/workflows/v1/workflows_pb";
import { describe, expect, it } from "@jest/globals";
import { exportJWK, generateKeyPair, type JSONWebKeySet, SignJWT } from "jose";
import type { Caller } from "../src/caller";
import { AppError, appError, badRequest, CancelledError } from "../src/errors/app-error";
import { ERROR_CATALOGUE } from "../src/errors/codes";
import type { RpcAccess } from "../src/rpc/access";
import { accessInterceptor } from "../src/rpc/access";
import { callerOf } from "../src/rpc/caller";
import { describeError, errorInterceptor } from "../src/rpc/errors";
import { ACCESS_TOKEN_ALG, createIdentityVerifier } from "../src/rpc/jwks";

// The kit's error path and caller on a real Connect router (in memory), with the interceptors
// runService installs: AppError in a handler → ConnectError with ErrorDetail on the wire →
// describeError on the caller's side, for unary calls and streams alike.

const ISSUER = "crafter-auth";
const AUDIENCE = "crafter";

async function signer() {
  const { privateKey, publicKey } = await generateKeyPair(ACCESS_TOKEN_ALG, { crv: "Ed25519", extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid: "k1", alg: ACCESS_TOKEN_ALG };
  const verify = createIdentityVerifier({
    fetchJwks: async () => ({ keys: [jwk] }) as JSONWebKeySet,
    issuer: ISSUER,
    audience: AUDIENCE,
  });
  const sign = (sub: string, role: string) =>
    new SignJWT({ email: `${sub}@example.test`, role, email_verified: true })
      .setProtectedHeader({ alg: ACCESS_TOKEN_ALG, kid: "k1" })
      .setSubject(sub)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(privateKey);
  return { verify, sign };
}

// The two methods these tests call, open to users (as runService installs the access check).
const ACCESS: RpcAccess = { [WorkflowsService.typeName]: { getHeaders: ["user"], completeStep: ["user"] } };

/** A WorkflowsService whose handlers do what each test sets in `behaviour`. */
async function harness() {
  const { verify, sign } = await signer();
  const seen: { caller?: Caller } = {};
  const behaviour: { unary: () => void; stream: () => void } = { unary: () => {}, stream: () => {} };
  const transport = createRouterTransport(
    (router) =>
      router.service(WorkflowsService, {
        getHeaders: (_req, ctx) => {
          seen.caller = callerOf(ctx);
          behaviour.unary();
          return {};
        },
        async *completeStep() {
          yield {};
          behaviour.stream();
        },
      }),
    { router: { interceptors: [errorInterceptor(), accessInterceptor(ACCESS, verify)] } },
  );
  return { client: createClient(WorkflowsService, transport), sign, seen, behaviour };
}

async function failureOf(call: Promise<unknown>): Promise<ConnectError> {
  const error = await call.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ConnectError);
  return error as ConnectError;
}

describe("callerOf", () => {
  it("reads the verified user, the token to forward and the call's signal", async () => {
    const { client, sign, seen } = await harness();
    const token = await sign("user-1", "owner");
    await client.getHeaders({}, { headers: { authorization: `Bearer ${token}` } });
    expect(seen.caller).toEqual({
      userId: "user-1",
      role: "owner",
      token,
      signal: expect.any(AbortSignal),
      service: undefined,
    });
  });

  it("refuses a call without a token as Unauthenticated", async () => {
    const { client } = await harness();
    const error = await failureOf(client.getHeaders({}));
    expect(error.code).toBe(Code.Unauthenticated);
    expect(describeError(error).code).toBe("UNAUTHENTICATED");
  });
});

describe("AppError", () => {
  it("is a plain Error with the catalogue's status and message", () => {
    const error = appError("NEED_SUBSCRIPTION");
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: "NEED_SUBSCRIPTION", status: 402, fields: undefined });
    expect(error.message).toBe(ERROR_CATALOGUE.NEED_SUBSCRIPTION.message);
    expect(describeError(error)).toEqual({
      code: "NEED_SUBSCRIPTION",
      status: 402,
      message: ERROR_CATALOGUE.NEED_SUBSCRIPTION.message,
    });
  });

  it("reaches the caller of a unary RPC with its code, message and fields", async () => {
    const { client, sign, behaviour } = await harness();
    behaviour.unary = () => {
      throw badRequest({ craftName: "Name must be 1 to 120 characters.", projectId: "Unknown project." });
    };
    const headers = { authorization: `Bearer ${await sign("user-1", "owner")}` };
    const error = await failureOf(client.getHeaders({}, { headers }));
    expect(error.code).toBe(Code.InvalidArgument);
    expect(describeError(error)).toEqual({
      code: "CR_ERR_BAD_REQUEST",
      status: 400,
      message: "Name must be 1 to 120 characters.",
      fields: { craftName: "Name must be 1 to 120 characters.", projectId: "Unknown project." },
    });
  });

  it("reaches the caller of a stream after the messages already sent", async () => {
    const { client, sign, behaviour } = await harness();
    behaviour.stream = () => {
      throw appError("TooManyRunningActions");
    };
    const headers = { authorization: `Bearer ${await sign("user-1", "owner")}` };
    let received = 0;
    const error = await failureOf(
      (async () => {
        for await (const _message of client.completeStep({}, { headers })) received++;
      })(),
    );
    expect(received).toBe(1);
    expect(error.code).toBe(Code.Aborted);
    expect(describeError(error)).toEqual({
      code: "TooManyRunningActions",
      status: 409,
      message: ERROR_CATALOGUE.TooManyRunningActions.message,
    });
  });
});

describe("errorInterceptor", () => {
  it("sends a CancelledError as Canceled", async () => {
    const { client, sign, behaviour } = await harness();
    behaviour.unary = () => {
      throw new CancelledError();
    };
    const headers = { authorization: `Bearer ${await sign("user-1", "owner")}` };
    const error = await failureOf(client.getHeaders({}, { headers }));
    expect(error.code).toBe(Code.Canceled);
    expect(error.rawMessage).toBe("The request was cancelled.");
  });

  it("leaves other errors to Connect, so internal messages reach nobody as a spec code", async () => {
    const { client, sign, behaviour } = await harness();
    behaviour.unary = () => {
      throw new Error("connection string with a password");
    };
    const headers = { authorization: `Bearer ${await sign("user-1", "owner")}` };
    const error = await failureOf(client.getHeaders({}, { headers }));
    expect(describeError(error)).toEqual({
      code: "InternalServerError",
      status: 500,
      message: ERROR_CATALOGUE.InternalServerError.message,
    });
  });

  it("passes a peer's ConnectError through with its own code", async () => {
    const { client, sign, behaviour } = await harness();
    behaviour.unary = () => {
      throw new ConnectError("Project not found.", Code.NotFound);
    };
    const headers = { authorization: `Bearer ${await sign("user-1", "owner")}` };
    const error = await failureOf(client.getHeaders({}, { headers }));
    expect(error.code).toBe(Code.NotFound);
    expect(describeError(error).code).toBe("NOT_FOUND");
  });
});
