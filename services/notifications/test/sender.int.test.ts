import { randomUUID } from "node:crypto";
import { Resolver } from "node:dns/promises";
import { type Caller, createLogger, keyRing } from "@crafter/kit";
import {
  type GatewaySession,
  stackEnv,
  stackServiceCredentials,
  throwawayDatabase,
  verifiedSession,
} from "@crafter/kit/testing";
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import dns2 from "dns2";
import { dkimVerify } from "mailauth/lib/dkim/verify.js";
import { workflowsEmailCrafts } from "../src/clients/crafts";
import { billingUsage, contactsLinks, contactsPort, fixedProvider, projectsBusiness } from "../src/clients/email-ports";
import { projectsOfCaller } from "../src/clients/sender-ports";
import type { NotificationsDeps } from "../src/deps";
import { EmailEvents } from "../src/events/publishers";
import { txtLookup } from "../src/mail/dns";
import { createSmtpMailer, type Mailer } from "../src/mail/mailer";
import { smtpProvider, Throttle } from "../src/mail/providers";
import { createStores, type NotificationsStores } from "../src/store";
import { createCampaign, sendTestEmail } from "../src/usecases/campaigns";
import {
  addSendingDomain,
  cachedSenders,
  checkSendingDomain,
  confirmSenderAddress,
  getSenderIdentity,
  type SenderDeps,
  sendSenderConfirmation,
  updateSenderIdentity,
} from "../src/usecases/sender";

// Sender identity and DKIM end to end in the notifications use cases: the real projects service
// of the test stack (the caller's token must reach the project), Mailpit for the confirmation link
// and the test send, a local DNS server (dns2) that the record checks and the DKIM verification
// (mailauth) both ask, and a throwaway database.
jest.setTimeout(90_000);

const env = stackEnv();
const mailpit = env.MAILPIT_API_URL ?? "http://127.0.0.1:8025";
const PLATFORM = { name: "Crafter", address: "news@crafter.test" };
const run = randomUUID().slice(0, 8);
const domain = `b${run}.example`;
const fromAddress = `hello@${domain}`;

/** The zone the local DNS server answers: TXT records by name (each record a list of strings). */
const zone = new Map<string, string[][]>();
const dnsServer = dns2.createServer({
  udp: true,
  tcp: true,
  handle: (request, send) => {
    const response = dns2.Packet.createResponseFromRequest(request);
    const question = request.questions[0];
    const name = question?.name.toLowerCase() ?? "";
    for (const data of zone.get(name) ?? [])
      response.answers.push({
        name,
        type: dns2.Packet.TYPE.TXT,
        class: dns2.Packet.CLASS.IN,
        ttl: 1,
        data,
      } as (typeof response.answers)[number]);
    if (!zone.has(name)) response.header.rcode = 3; // NXDOMAIN
    send(response);
  },
});
let dnsAddress = "";

let database: Awaited<ReturnType<typeof throwawayDatabase>>;
let stores: NotificationsStores;
let mailer: Mailer;
let senderDeps: SenderDeps;
let deps: Pick<NotificationsDeps, "stores" | "email" | "publicOrigin" | "logger" | "now">;
let session: GatewaySession;
let caller: Caller;
let projectId: string;
let senders: ReturnType<typeof cachedSenders>;

beforeAll(async () => {
  const port = 40_000 + Math.floor(Math.random() * 20_000);
  await dnsServer.listen({ udp: { port, address: "127.0.0.1" }, tcp: { port, address: "127.0.0.1" } });
  dnsAddress = `127.0.0.1:${port}`;
  database = await throwawayDatabase("notifications_sender");
  stores = await createStores(database.connection);
  mailer = createSmtpMailer({
    url: env.SMTP_URL ?? "smtp://127.0.0.1:1025",
    from: "Crafter <news@crafter.test>",
    timeoutMs: 5000,
  });
  const credentials = stackServiceCredentials("notifications");
  const business = projectsBusiness(env.PROJECTS_URL!, 10_000, database.connection, credentials);
  senderDeps = {
    store: stores.senders,
    projects: projectsOfCaller(env.PROJECTS_URL!, 10_000),
    businessName: async (userId, id, token) => (await business.footer(userId, id, token)).name,
    platform: PLATFORM,
    linkSecret: "l".repeat(40),
    linkTtlMs: 3_600_000,
    linkCooldownMs: 60_000,
    keys: keyRing([{ id: "t1", key: Buffer.alloc(32, 3) }]),
    dns: txtLookup({ servers: [dnsAddress], timeoutMs: 2000 }),
    spfInclude: "_spf.crafter.test",
    dmarcReport: "",
    mailer,
    publicOrigin: "http://localhost:8080",
    logger: createLogger("sender-test", "silent"),
    now: () => new Date(),
    cacheMs: 30_000,
  };
  senders = cachedSenders(senderDeps);
  deps = {
    stores,
    publicOrigin: "http://localhost:8080",
    logger: createLogger("sender-test", "silent"),
    now: () => new Date(),
    email: {
      contacts: contactsPort(env.CONTACTS_URL!, 10_000, credentials),
      links: contactsLinks(env.CONTACTS_URL!, 10_000, credentials),
      usage: billingUsage(env.BILLING_URL!, 10_000, credentials),
      business,
      crafts: workflowsEmailCrafts(env.WORKFLOWS_URL!, 10_000),
      providers: fixedProvider(smtpProvider(mailer), new Throttle(50)),
      senders,
      events: new EmailEvents("inttest"),
      kick: () => {},
      trackingSecret: "t".repeat(40),
      retry: { attempts: 1, baseMs: 50 },
      concurrency: 1,
      attemptLeaseMs: 5000,
      limitRetryMs: 1000,
    },
  };
  ({ session } = await verifiedSession("sender"));
  const project = await session.post("/api/projects/createProject", {
    name: "Leeds Bikes",
    description: "A bicycle shop in north-west Leeds that repairs, sells and rents bikes and e-bikes.",
  });
  projectId = project.body.result.project.projectId;
  const changed = await session.request("PATCH", `/api/profiles/${project.body.result.profile.profileId}`, {
    values: { address: "1 Otley Road\nLeeds" },
  });
  expect(changed.status).toBe(200);
  const token = session.cookies.get("crafter_at")!;
  const userId = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()).sub as string;
  caller = { userId, role: "owner", token, signal: new AbortController().signal, service: undefined };
});

afterAll(async () => {
  mailer?.close();
  dnsServer.close();
  await database?.drop();
});

interface MailpitSummary {
  ID: string;
  Subject: string;
}

async function waitForMail(query: string, count = 1): Promise<MailpitSummary[]> {
  for (let i = 0; i < 50; i++) {
    const response = await fetch(`${mailpit}/api/v1/search?query=${encodeURIComponent(query)}`);
    const { messages } = (await response.json()) as { messages: MailpitSummary[] };
    if (messages.length >= count) return messages;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no mail for ${query}`);
}

async function message(id: string) {
  const response = await fetch(`${mailpit}/api/v1/message/${id}`);
  return (await response.json()) as {
    From: { Name: string; Address: string };
    ReplyTo: { Name: string; Address: string }[];
    Text: string;
  };
}

async function raw(id: string): Promise<string> {
  return (await fetch(`${mailpit}/api/v1/message/${id}/raw`)).text();
}

/** Sends the campaign's test email to a fresh address and answers its Mailpit id. */
async function testSend(campaignId: string): Promise<string> {
  const to = `inbox-${randomUUID().slice(0, 8)}@${run}.mailbox.test`;
  await sendTestEmail(deps, caller, { campaignId, email: to });
  return (await waitForMail(`to:"${to}"`))[0]!.ID;
}

/** The resolver a receiving server would use: the local DNS server, in dns.promises.resolve's shape. */
const receiving = new Resolver();

describe("sender identity and DKIM", () => {
  let campaignId: string;

  it("refuses an unverified address as From: the platform's address, the business's name and Reply-To", async () => {
    receiving.setServers([dnsAddress]);
    const before = await getSenderIdentity(senderDeps, caller, projectId);
    expect(before).toMatchObject({
      addressStatus: "unset",
      effectiveFrom: { name: "Leeds Bikes", address: PLATFORM.address },
    });

    const saved = await updateSenderIdentity(
      senderDeps,
      caller,
      { projectId, fromName: "Leeds Bikes", fromAddress, replyTo: "" },
      senders,
    );
    expect(saved).toMatchObject({
      fromAddress,
      addressStatus: "pending",
      effectiveFrom: { name: "Leeds Bikes", address: PLATFORM.address },
      effectiveReplyTo: fromAddress,
      dkimActive: false,
    });
    const created = await createCampaign(deps, caller, {
      projectId,
      campaign: { name: "Spring service", subject: "Spring service week", html: "<p>Bring your bike in.</p>" },
    });
    campaignId = created._id;
    const mail = await message(await testSend(campaignId));
    expect(mail.From).toEqual({ Name: "Leeds Bikes", Address: PLATFORM.address });
    expect(mail.ReplyTo).toEqual([{ Name: "", Address: fromAddress }]);
  });

  it("confirms the address by its single-use link; a forged or reused link is refused", async () => {
    const [link] = await waitForMail(`to:"${fromAddress}" subject:"Confirm this address"`);
    const text = (await message(link!.ID)).Text;
    const token = /\/confirm-sender\?token=([^\s]+)/.exec(text)?.[1];
    expect(token).toBeTruthy();
    const decoded = decodeURIComponent(token!);
    await expect(confirmSenderAddress(senderDeps, `${decoded}x`, senders)).rejects.toMatchObject({
      fields: { token: "This link is not valid." },
    });
    expect(await confirmSenderAddress(senderDeps, decoded, senders)).toEqual({ address: fromAddress });
    await expect(confirmSenderAddress(senderDeps, decoded, senders)).rejects.toMatchObject({
      fields: { token: "This link was already used." },
    });
    const identity = await getSenderIdentity(senderDeps, caller, projectId);
    expect(identity).toMatchObject({ addressStatus: "verified", effectiveFrom: { address: fromAddress } });
    await expect(sendSenderConfirmation(senderDeps, caller, projectId)).rejects.toMatchObject({ code: "CONFLICT" });
  });

  it("checks the domain's records live: pending, wrong, then verified, per record", async () => {
    const added = await addSendingDomain(senderDeps, caller, { projectId, domain: domain.toUpperCase() });
    expect(added.domain).toBe(domain);
    expect(JSON.stringify(added)).not.toMatch(/PRIVATE KEY/);
    const stored = await stores.senders.domain(projectId, domain);
    expect(stored?.privateKeySealed).toMatch(/^v2\.t1\./);
    const [dkim, spf, dmarc] = added.records;
    expect(dkim!.host).toBe(`${added.selector}._domainkey.${domain}`);

    const first = await checkSendingDomain(senderDeps, caller, { projectId, domain }, senders);
    expect(first.records.map((r) => r.status)).toEqual(["pending", "pending", "pending"]);

    zone.set(dkim!.host, [["v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAwrong"]]);
    zone.set(domain, [["v=spf1 mx -all"]]);
    const second = await checkSendingDomain(senderDeps, caller, { projectId, domain }, senders);
    expect(second.records.map((r) => r.status)).toEqual(["wrong", "wrong", "pending"]);
    expect(second.dkimVerified).toBe(false);

    // Published as shown, the DKIM value split in 255-byte strings as DNS hosts do.
    const value = dkim!.value;
    zone.set(dkim!.host, [[value.slice(0, 255), value.slice(255)]]);
    zone.set(domain, [[spf!.value], ["google-site-verification=abc"]]);
    zone.set(dmarc!.host, [[dmarc!.value]]);
    const third = await checkSendingDomain(senderDeps, caller, { projectId, domain }, senders);
    expect(third.records.map((r) => r.status)).toEqual(["verified", "verified", "verified"]);
    expect(third.dkimVerified).toBe(true);
    expect((await getSenderIdentity(senderDeps, caller, projectId)).dkimActive).toBe(true);
  });

  it("sends the test email from the business's address with a DKIM-Signature that verifies", async () => {
    await updateSenderIdentity(
      senderDeps,
      caller,
      { projectId, fromName: "Leeds Bikes", fromAddress, replyTo: `team@${domain}` },
      senders,
    );
    const id = await testSend(campaignId);
    const mail = await message(id);
    expect(mail.From).toEqual({ Name: "Leeds Bikes", Address: fromAddress });
    expect(mail.ReplyTo).toEqual([{ Name: "", Address: `team@${domain}` }]);
    const source = await raw(id);
    expect(source).toMatch(/^DKIM-Signature: /m);
    const verified = await dkimVerify(Buffer.from(source), {
      resolver: (name: string, rr: string) => receiving.resolve(name, rr as "TXT"),
    });
    expect(verified.results).toHaveLength(1);
    expect(verified.results[0]).toMatchObject({ signingDomain: domain, status: { result: "pass" } });

    // Another key published under the selector: the same message no longer verifies.
    const { records, selector } = await checkSendingDomain(senderDeps, caller, { projectId, domain }, senders);
    expect(records[0]!.status).toBe("verified");
    zone.set(`${selector}._domainkey.${domain}`, [
      ["v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAwrong"],
    ]);
    const forged = await dkimVerify(Buffer.from(source), {
      resolver: (name: string, rr: string) => receiving.resolve(name, rr as "TXT"),
    });
    expect(forged.results[0]!.status.result).not.toBe("pass");
  });

  it("stops signing once the DKIM record no longer checks, and refuses a project the caller cannot reach", async () => {
    const after = await checkSendingDomain(senderDeps, caller, { projectId, domain }, senders);
    expect(after.records[0]!.status).toBe("wrong");
    const source = await raw(await testSend(campaignId));
    expect(source).not.toMatch(/^DKIM-Signature: /m);
    await expect(getSenderIdentity(senderDeps, caller, randomUUID())).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
