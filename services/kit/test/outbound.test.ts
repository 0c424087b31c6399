import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { fetch } from "undici";
import { isPublicAddress, OutboundError, outboundAgent, outboundFetch, pinnedAddress } from "../src/net/outbound";

describe("isPublicAddress", () => {
  it("refuses every non-public IPv4 range", () => {
    for (const address of [
      "127.0.0.1",
      "127.0.0.10",
      "127.255.255.254",
      "0.0.0.0",
      "10.1.2.3",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.1.1",
      "169.254.169.254", // cloud metadata
      "100.64.0.1", // CGNAT
      "224.0.0.1", // multicast
      "239.255.255.250",
      "255.255.255.255",
      "192.0.2.1", // documentation
      "198.18.0.1", // benchmarking
      "240.0.0.1", // reserved
    ]) {
      expect(`${address} ${isPublicAddress(address)}`).toBe(`${address} false`);
    }
  });

  it("refuses every non-public IPv6 range, IPv4-mapped and IPv4-embedding forms included", () => {
    for (const address of [
      "::1",
      "[::1]",
      "::",
      "fe80::1",
      "fe80::1%eth0",
      "fc00::1",
      "fd12:3456::1", // unique local
      "ff02::1", // multicast
      "2001:db8::1", // documentation
      "::ffff:127.0.0.10", // IPv4-mapped loopback
      "::ffff:7f00:a", // the same in hex
      "0:0:0:0:0:ffff:7f00:000a",
      "::ffff:10.0.0.1",
      "::ffff:169.254.169.254",
      "::127.0.0.1", // IPv4-compatible (deprecated)
      "::7f00:1",
      "64:ff9b::7f00:1", // NAT64 of 127.0.0.1
      "64:ff9b:1::a00:1",
      "2002:7f00:1::1", // 6to4 of 127.0.0.1
      "2001::1", // Teredo
    ]) {
      expect(`${address} ${isPublicAddress(address)}`).toBe(`${address} false`);
    }
  });

  it("refuses what is not an IP address, whatever it looks like", () => {
    for (const text of ["", "localhost", "2130706442", "0x7f00000a", "017700000012", "127.1", "example.com"]) {
      expect(`${text} ${isPublicAddress(text)}`).toBe(`${text} false`);
    }
  });

  it("accepts public unicast addresses, v4, v6 and IPv4-mapped", () => {
    for (const address of [
      "93.184.216.34",
      "8.8.8.8",
      "1.1.1.1",
      "2606:4700::1111",
      "2a00:1450:4009::200e",
      "::ffff:8.8.8.8",
    ]) {
      expect(`${address} ${isPublicAddress(address)}`).toBe(`${address} true`);
    }
  });

  it("pins a host or its subdomains by configuration only", () => {
    const pins = { "*.crafter.test": "127.0.0.1", "intranet.example": "10.0.0.5" };
    expect(pinnedAddress(pins, "shop.crafter.test")).toBe("127.0.0.1");
    expect(pinnedAddress(pins, "SHOP.Crafter.Test")).toBe("127.0.0.1");
    expect(pinnedAddress(pins, "crafter.test")).toBe("127.0.0.1");
    expect(pinnedAddress(pins, "intranet.example")).toBe("10.0.0.5");
    expect(pinnedAddress(pins, "evilcrafter.test")).toBeUndefined();
    expect(pinnedAddress(pins, "other.example")).toBeUndefined();
  });
});

/** A local site on 127.0.0.1: only reachable through a pin. */
let server: Server;
let port = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname === "/") {
      res.writeHead(200, { "content-type": "text/html" });
      return void res.end("<title>home</title>");
    }
    if (url.pathname === "/to") {
      res.writeHead(302, { location: url.searchParams.get("target") ?? "/" });
      return void res.end();
    }
    if (url.pathname === "/loop") {
      res.writeHead(302, { location: "/loop" });
      return void res.end();
    }
    if (url.pathname === "/big") {
      res.writeHead(200, { "content-type": "text/html" });
      return void res.end("x".repeat(100_000));
    }
    if (url.pathname === "/slow") return; // never answers
    if (url.pathname === "/echo") {
      let body = "";
      req.on("data", (chunk) => {
        body += chunk;
      });
      req.on("end", () => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ method: req.method, type: req.headers["content-type"], body }));
      });
      return;
    }
    res.writeHead(404);
    res.end();
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  server.close();
});

const pins = { "*.crafter.test": "127.0.0.1" };
const options = { timeoutMs: 3000, maxBytes: 10_000, pins };

async function reasonOf(url: string, extra: Partial<typeof options> & { maxRedirects?: number } = {}) {
  try {
    await outboundFetch(url, { ...options, ...extra });
  } catch (error) {
    return error instanceof OutboundError ? error.reason : `other: ${(error as Error).message}`;
  }
  return "fetched";
}

describe("outboundFetch against a local site", () => {
  it("reads a pinned host", async () => {
    const response = await outboundFetch(`http://shop.crafter.test:${port}/`, options);
    expect(response.status).toBe(200);
    expect(new TextDecoder().decode(response.body)).toBe("<title>home</title>");
  });

  it("refuses the local site by every notation of its address, and by a name resolving to it", async () => {
    for (const host of [
      "127.0.0.1",
      "2130706433", // decimal
      "0x7f000001", // hex
      "0177.0.0.1", // octal
      "127.1",
      "[::ffff:127.0.0.1]",
      "[::ffff:7f00:1]",
      "localhost", // resolved by the system, to 127.0.0.1 or ::1
    ]) {
      expect(`${host} ${await reasonOf(`http://${host}:${port}/`)}`).toBe(`${host} blocked-address`);
    }
  });

  it("re-checks every redirect and caps their number", async () => {
    const toPrivate = `http://shop.crafter.test:${port}/to?target=${encodeURIComponent(`http://127.0.0.11:${port}/`)}`;
    expect(await reasonOf(toPrivate)).toBe("blocked-address");
    const toDecimal = `http://shop.crafter.test:${port}/to?target=${encodeURIComponent(`http://2130706443:${port}/`)}`;
    expect(await reasonOf(toDecimal)).toBe("blocked-address");
    const toPinned = `http://shop.crafter.test:${port}/to?target=${encodeURIComponent(`http://www.crafter.test:${port}/`)}`;
    const followed = await outboundFetch(toPinned, options);
    expect(followed.finalUrl).toBe(`http://www.crafter.test:${port}/`);
    expect(followed.redirects).toEqual([`http://www.crafter.test:${port}/`]);
    expect(await reasonOf(`http://shop.crafter.test:${port}/loop`, { maxRedirects: 3 })).toBe("too-many-redirects");
    const toFile = `http://shop.crafter.test:${port}/to?target=${encodeURIComponent("file:///etc/passwd")}`;
    expect(await reasonOf(toFile)).toBe("invalid-url");
  });

  it("checks the peer a socket actually reached, even when no name was looked up", async () => {
    // A literal address skips DNS, so only the check on the connected socket can refuse it.
    expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(200);
    const refused = await fetch(`http://127.0.0.1:${port}/`, { dispatcher: outboundAgent({}, 2000) }).then(
      () => "fetched",
      (error: Error) => (error.cause instanceof OutboundError ? error.cause.reason : String(error.cause)),
    );
    expect(refused).toBe("blocked-address");
    // A pinned host must reach its pinned address and nothing else.
    const elsewhere = await fetch(`http://shop.crafter.test:${port}/`, {
      dispatcher: outboundAgent({ "shop.crafter.test": "127.0.0.2" }, 2000),
    }).then(
      () => "fetched",
      (error: Error) => (error.cause instanceof OutboundError ? error.cause.reason : String(error.cause)),
    );
    expect(elsewhere).not.toBe("fetched");
  });

  it("sends a POST's body and answers a POST's redirect without following it", async () => {
    const posted = await outboundFetch(`http://shop.crafter.test:${port}/echo`, {
      ...options,
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=refresh_token",
    });
    expect(JSON.parse(new TextDecoder().decode(posted.body))).toEqual({
      method: "POST",
      type: "application/x-www-form-urlencoded",
      body: "grant_type=refresh_token",
    });
    const target = encodeURIComponent(`http://www.crafter.test:${port}/`);
    const redirected = await outboundFetch(`http://shop.crafter.test:${port}/to?target=${target}`, {
      ...options,
      method: "POST",
      body: "secret=1",
    });
    expect(redirected.status).toBe(302);
    expect(redirected.redirects).toEqual([]);
  });

  it("caps the body and the time", async () => {
    const big = await outboundFetch(`http://shop.crafter.test:${port}/big`, { ...options, maxBytes: 1000 });
    expect(big.bytes).toBe(1000);
    expect(big.truncated).toBe(true);
    expect(await reasonOf(`http://shop.crafter.test:${port}/slow`, { timeoutMs: 300 })).toBe("timeout");
  });

  it("refuses URLs that are not http(s) or carry credentials", async () => {
    expect(await reasonOf("ftp://shop.crafter.test/")).toBe("invalid-url");
    expect(await reasonOf(`http://user:pw@shop.crafter.test:${port}/`)).toBe("invalid-url");
    expect(await reasonOf("not a url")).toBe("invalid-url");
  });
});
