// A local DNS server (dns2, UDP and TCP) for tests: the test stack's services check sending domains'
// and custom domains' records against it (DNS_SERVERS, set for the test profile by scripts/stack.mjs
// at 127.0.0.1:28035 + STACK_PORT_OFFSET, and written to stack.env).
import { Resolver } from "node:dns/promises";
import dns2 from "dns2";

/** A zone of TXT and CNAME records served at one address. */
export interface LocalDns {
  /** Publishes (replaces) the TXT record at `name`: one record, split in 255-byte strings as DNS hosts do. */
  publish(name: string, value: string): void;
  /** Publishes (replaces) the CNAME record at `name`, pointing at `target`. */
  publishCname(name: string, target: string): void;
  /** Removes every record at `name`: it answers NXDOMAIN again. */
  unpublish(name: string): void;
  /** Lookups through this server, in dns.promises.resolve's shape (mailauth's `resolver` option). */
  resolve(name: string, type: string): Promise<string[][]>;
  /** How many questions the server answered, per `TYPE name` (e.g. `CNAME www.example.com`). */
  readonly questions: Map<string, number>;
  close(): Promise<void>;
}

/**
 * Starts the DNS server at `address` (`host:port`). A TXT question answers the TXT record; any
 * question at a name with a CNAME answers the CNAME (as a real server does, CNAME and other data do
 * not share a name); names with nothing published answer NXDOMAIN, and a name with records but none
 * of the type asked answers NODATA (no answers, no error).
 */
export async function startDnsServer(address: string): Promise<LocalDns> {
  const [host, port] = [
    address.slice(0, address.lastIndexOf(":")),
    Number(address.slice(address.lastIndexOf(":") + 1)),
  ];
  const txt = new Map<string, string[]>();
  const cname = new Map<string, string>();
  const questions = new Map<string, number>();
  const server = dns2.createServer({
    udp: true,
    tcp: true,
    handle: (request, send) => {
      const response = dns2.Packet.createResponseFromRequest(request);
      const question = request.questions[0];
      const name = question?.name.toLowerCase() ?? "";
      const type = question?.type;
      const typeName = type === dns2.Packet.TYPE.CNAME ? "CNAME" : type === dns2.Packet.TYPE.TXT ? "TXT" : String(type);
      questions.set(`${typeName} ${name}`, (questions.get(`${typeName} ${name}`) ?? 0) + 1);
      const alias = cname.get(name);
      const record = txt.get(name);
      type Answer = (typeof response.answers)[number];
      if (alias !== undefined)
        response.answers.push({
          name,
          type: dns2.Packet.TYPE.CNAME,
          class: dns2.Packet.CLASS.IN,
          ttl: 1,
          domain: alias,
        } as Answer);
      else if (record && type === dns2.Packet.TYPE.TXT)
        response.answers.push({
          name,
          type: dns2.Packet.TYPE.TXT,
          class: dns2.Packet.CLASS.IN,
          ttl: 1,
          data: record,
        } as Answer);
      else if (!record) response.header.rcode = 3; // NXDOMAIN
      send(response);
    },
  });
  await server.listen({ udp: { port, address: host }, tcp: { port, address: host } });
  const resolver = new Resolver({ timeout: 2000, tries: 2 });
  resolver.setServers([address]);
  return {
    publish(name, value) {
      const strings: string[] = [];
      for (let at = 0; at < value.length; at += 255) strings.push(value.slice(at, at + 255));
      txt.set(name.toLowerCase(), strings);
    },
    publishCname(name, target) {
      cname.set(name.toLowerCase(), target);
    },
    unpublish(name) {
      txt.delete(name.toLowerCase());
      cname.delete(name.toLowerCase());
    },
    resolve: (name, type) => resolver.resolve(name, type as "TXT"),
    questions,
    close: () => server.close(),
  };
}
