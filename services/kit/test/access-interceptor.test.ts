// The access interceptor in a real Connect router, in memory: a small service with a unary and a
// server-streaming method that name a user, tokens signed with a real Ed25519 key.
import { create, createFileRegistry, type DescService } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, createClient, createRouterTransport } from "@connectrpc/connect";
import { describe, expect, it } from "@jest/globals";
import { Redis } from "ioredis";
import { exportJWK, generateKeyPair, type JSONWebKeySet, SignJWT } from "jose";
import { redisDenylist } from "../src/redis/denylist";
import { accessInterceptor, rpcAccess } from "../src/rpc/access";
import { describeError, errorInterceptor } from "../src/rpc/errors";
import { kService, kUser, SERVICE_TOKEN_AUDIENCE } from "../src/rpc/identity";
import { ACCESS_TOKEN_ALG, type AccessTokenVerifierOptions, createIdentityVerifier } from "../src/rpc/jwks";

const ISSUER = "crafter-auth";
const AUDIENCE = "crafter";

// crafter.test.v1.NotesService { rpc Read(NoteRequest) returns (Note); rpc Watch(NoteRequest) returns (stream Note); }
const file = create(FileDescriptorProtoSchema, {
  name: "crafter/test/v1/notes.proto",
  package: "crafter.test.v1",
  syntax: "proto3",
  messageType: [
    { name: "NoteRequest", field: [{ name: "user_id", jsonName: "userId", number: 1, type: 9, label: 1 }] },
    { name: "Note", field: [{ name: "text", jsonName: "text", number: 1, type: 9, label: 1 }] },
  ],
  service: [
    {
      name: "NotesService",
      method: [
        { name: "Read", inputType: ".crafter.test.v1.NoteRequest", outputType: ".crafter.test.v1.Note" },
        {
          name: "Watch",
          inputType: ".crafter.test.v1.NoteRequest",
          outputType: ".crafter.test.v1.Note",
          serverStreaming: true,
        },
        { name: "Unlisted", inputType: ".crafter.test.v1.NoteRequest", outputType: ".crafter.test.v1.Note" },
      ],
    },
  ],
});
const Notes = createFileRegistry(file, () => undefined).getService("crafter.test.v1.NotesService") as DescService;

async function setup(options: Partial<AccessTokenVerifierOptions> = {}) {
  const { privateKey, publicKey } = await generateKeyPair(ACCESS_TOKEN_ALG, { crv: "Ed25519", extractable: true });
  const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: "k1", alg: ACCESS_TOKEN_ALG }] } as JSONWebKeySet;
  // Users are verified unless a test says otherwise (services refuse unverified users).
  const sign = (sub: string, aud: string, claims: Record<string, unknown> = { email_verified: true }) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: ACCESS_TOKEN_ALG, kid: "k1" })
      .setSubject(sub)
      .setIssuer(ISSUER)
      .setAudience(aud)
      .setExpirationTime("5m")
      .sign(privateKey);
  const verify = createIdentityVerifier({
    fetchJwks: async () => jwks,
    issuer: ISSUER,
    audience: AUDIENCE,
    ...options,
  });
  // Unlisted has no entry: the cast stands for a table that forgot a method.
  const access = rpcAccess(Notes as never, { read: ["user", "service:workflows"], watch: ["user"] } as never);
  const who = (ctx: { values: { get: typeof Map.prototype.get } }) =>
    ctx.values.get(kUser)?.userId ?? `service:${ctx.values.get(kService)}`;
  const transport = createRouterTransport(
    (router) =>
      router.service(Notes, {
        read: (req: { userId: string }, ctx: never) => ({ text: `${who(ctx)} read ${req.userId || "own"}` }),
        async *watch(req: { userId: string }, ctx: never) {
          yield { text: `${who(ctx)} watched ${req.userId || "own"}` };
        },
        unlisted: () => ({ text: "should not run" }),
      } as never),
    // As runService installs them: AppErrors of the access check become ConnectErrors outside it.
    { router: { interceptors: [errorInterceptor(), accessInterceptor(access, verify)] } },
  );
  const client = createClient(Notes, transport) as unknown as {
    read(req: object, options?: object): Promise<{ text: string }>;
    watch(req: object, options?: object): AsyncIterable<{ text: string }>;
    unlisted(req: object, options?: object): Promise<{ text: string }>;
  };
  return { client, sign };
}

const as = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

async function codeOf(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
    return "OK";
  } catch (error) {
    return Code[ConnectError.from(error).code];
  }
}

async function drain(stream: AsyncIterable<{ text: string }>): Promise<string[]> {
  const texts: string[] = [];
  for await (const note of stream) texts.push(note.text);
  return texts;
}

describe("accessInterceptor", () => {
  it("hands the verified caller to the handler", async () => {
    const { client, sign } = await setup();
    expect((await client.read({}, as(await sign("alice", AUDIENCE)))).text).toBe("alice read own");
    expect(
      (await client.read({ userId: "bob" }, as(await sign("service:workflows", SERVICE_TOKEN_AUDIENCE)))).text,
    ).toBe("service:workflows read bob");
    expect(await drain(client.watch({ userId: "alice" }, as(await sign("alice", AUDIENCE))))).toEqual([
      "alice watched alice",
    ]);
  });

  it("refuses a user whose email is not verified with EMAIL_NOT_VERIFIED", async () => {
    const { client, sign } = await setup();
    const unverified = as(await sign("alice", AUDIENCE, { email_verified: false }));
    const error = await client.read({}, unverified).catch((e: unknown) => e);
    expect(describeError(error)).toMatchObject({ code: "EMAIL_NOT_VERIFIED", status: 403 });
  });

  it("refuses another user's id in a unary request and in a stream's request", async () => {
    const { client, sign } = await setup();
    const alice = as(await sign("alice", AUDIENCE));
    expect(await codeOf(() => client.read({ userId: "bob" }, alice))).toBe("PermissionDenied");
    expect(await codeOf(() => drain(client.watch({ userId: "bob" }, alice)))).toBe("PermissionDenied");
  });

  it("refuses no token, a service not listed, and a method without an entry", async () => {
    const { client, sign } = await setup();
    expect(await codeOf(() => client.read({ userId: "bob" }))).toBe("Unauthenticated");
    expect(await codeOf(() => drain(client.watch({})))).toBe("Unauthenticated");
    const gateway = as(await sign("service:gateway", SERVICE_TOKEN_AUDIENCE));
    expect(await codeOf(() => client.read({ userId: "bob" }, gateway))).toBe("PermissionDenied");
    const workflows = as(await sign("service:workflows", SERVICE_TOKEN_AUDIENCE));
    expect(await codeOf(() => drain(client.watch({}, workflows)))).toBe("PermissionDenied");
    const alice = as(await sign("alice", AUDIENCE));
    expect(await codeOf(() => client.unlisted({}, alice))).toBe("PermissionDenied");
  });

  it("answers a present but invalid token with Unauthenticated", async () => {
    const { client } = await setup();
    expect(await codeOf(() => client.read({}, as("not-a-jwt")))).toBe("Unauthenticated");
    expect(await codeOf(() => client.read({}, { headers: { authorization: "Basic YTpi" } }))).toBe("Unauthenticated");
  });

  it("answers Unavailable, not Unauthenticated, when the denylist's Redis or the JWKS cannot be reached", async () => {
    // A real ioredis client on a closed port (9, discard): the command fails as it would in an outage.
    const deadRedis = new Redis("redis://127.0.0.1:9", {
      maxRetriesPerRequest: 1,
      retryStrategy: () => 50,
    });
    deadRedis.on("error", () => {});
    const down = await setup({ isDenied: redisDenylist(deadRedis) });
    const token = await down.sign("alice", AUDIENCE, { email_verified: true, sid: "s1" });
    const error = await down.client.read({}, as(token)).catch((e: unknown) => e);
    deadRedis.disconnect();
    expect(describeError(error)).toMatchObject({ code: "UNAVAILABLE", status: 503 });
    const unreachable = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9"), { code: "ECONNREFUSED" });
    const { client, sign } = await setup({
      fetchJwks: () =>
        Promise.reject(new ConnectError("auth is down", Code.Unavailable, undefined, undefined, unreachable)),
    });
    expect(await codeOf(() => client.read({}, as("not-a-jwt")))).toBe("Unauthenticated");
    expect(await codeOf(() => client.read({}, as("x.y.z")))).toBe("Unauthenticated");
    expect(await codeOf(async () => client.read({}, as(await sign("alice", AUDIENCE))))).toBe("Unavailable");
  });
});
