// The local DNS server for the end-to-end tests (@crafter/provider-fakes' dns2 server) at the test
// stack's DNS_SERVERS address: the notifications service checks sending domains' records with it,
// projects checks custom domains', and a test verifies DKIM signatures against it as a receiving
// server would.

import { stackEnv } from "@crafter/kit/testing";
import { type LocalDns, startDnsServer } from "@crafter/provider-fakes";

export type { LocalDns };

/**
 * Starts the DNS server at the test stack's DNS_SERVERS address (`host:port`). Names not
 * published answer NXDOMAIN.
 * @throws when stack.env has no DNS_SERVERS (a stack not started with the test profile).
 */
export async function startLocalDns(): Promise<LocalDns> {
  const address = stackEnv().DNS_SERVERS?.split(",")[0]?.trim();
  if (!address) throw new Error("DNS_SERVERS is not in stack.env: start the stack with --profile test");
  return startDnsServer(address);
}
