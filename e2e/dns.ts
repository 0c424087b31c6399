// A local DNS server for the end-to-end tests: the test stack's notifications service checks sending
// domains' records with it (DNS_SERVERS, set for the test profile by scripts/stack.mjs and written to
// stack.env), and a test verifies DKIM signatures against it as a receiving server would.
import { Resolver } from "node:dns/promises";
import { stackEnv } from "@crafter/kit/testing";
import dns2 from "dns2";

/** A zone of TXT records served on the stack's DNS_SERVERS address, UDP and TCP. */
export interface LocalDns {
  /** Publishes (replaces) the TXT record at `name`: one record, split in 255-byte strings as DNS hosts do. */
  publish(name: string, value: string): void;
  /** TXT lookups through this server, in dns.promises.resolve's shape (mailauth's `resolver` option). */
  resolve(name: string, type: string): Promise<string[][]>;
  close(): Promise<void>;
}

/**
 * Starts the DNS server at the test stack's DNS_SERVERS address (`host:port`). Names not
 * published answer NXDOMAIN.
 * @throws when stack.env has no DNS_SERVERS (a stack not started with the test profile).
 */
export async function startLocalDns(): Promise<LocalDns> {
  const address = stackEnv().DNS_SERVERS?.split(",")[0]?.trim();
  if (!address) throw new Error("DNS_SERVERS is not in stack.env: start the stack with --profile test");
  const [host, port] = [
    address.slice(0, address.lastIndexOf(":")),
    Number(address.slice(address.lastIndexOf(":") + 1)),
  ];
  const zone = new Map<string, string[]>();
  const server = dns2.createServer({
    udp: true,
    tcp: true,
    handle: (request, send) => {
      const response = dns2.Packet.createResponseFromRequest(request);
      const name = request.questions[0]?.name.toLowerCase() ?? "";
      const record = zone.get(name);
      if (record)
        response.answers.push({
          name,
          type: dns2.Packet.TYPE.TXT,
          class: dns2.Packet.CLASS.IN,
          ttl: 1,
          data: record,
        } as (typeof response.answers)[number]);
      else response.header.rcode = 3; // NXDOMAIN
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
      zone.set(name.toLowerCase(), strings);
    },
    resolve: (name, type) => resolver.resolve(name, type as "TXT"),
    close: () => server.close(),
  };
}
