/**
 * Sender authentication for a domain the business owns, as Mailchimp and SendGrid do it: the DNS
 * records to publish (DKIM TXT at `<selector>._domainkey.<domain>`, an SPF include, a DMARC
 * policy) and the status of each, from what a resolver answers. Pure: the lookups are the caller's.
 */

export type RecordKind = "dkim" | "spf" | "dmarc";
/** verified: published as asked; pending: nothing published yet; wrong: published, but not as asked. */
export type RecordStatus = "verified" | "pending" | "wrong";

/** One DNS record to publish. */
export interface DnsRecord {
  kind: RecordKind;
  type: "TXT";
  /** The fully qualified name, without a trailing dot. */
  host: string;
  /** The TXT value to publish (one string; providers split it into 255-byte chunks). */
  value: string;
}

/** What a lookup of one name answered: its TXT records (each the joined chunks), or none. */
export type TxtAnswer = { records: string[] } | { error: "none" | "failed" };

/** A record's status with what was found (the TXT values at its name that matter), and why. */
export interface RecordCheck {
  kind: RecordKind;
  status: RecordStatus;
  found: string[];
  /** A short reason when not verified ("" when verified). */
  reason: string;
}

/** A sending domain: lower-case labels of letters, digits and hyphens, at least two, ≤ 253 characters. */
export function normalDomain(text: string): string | null {
  const domain = text.trim().toLowerCase().replace(/\.$/, "");
  if (domain.length > 253 || !domain.includes(".")) return null;
  const label = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
  const labels = domain.split(".");
  if (!labels.every((l) => label.test(l)) || /^\d+$/.test(labels.at(-1)!)) return null;
  return domain;
}

/** A selector for a key made at `at`: `crafter<yyyymm>` (a new key gets a new name, so rotation never breaks the old one). */
export function selectorFor(at: Date): string {
  return `crafter${at.getUTCFullYear()}${String(at.getUTCMonth() + 1).padStart(2, "0")}`;
}

/** The DKIM record's name. */
export function dkimHost(selector: string, domain: string): string {
  return `${selector}._domainkey.${domain}`;
}

/**
 * The records to publish for `domain`.
 * @param publicKey the DKIM public key, base64 DER (SubjectPublicKeyInfo), as in `p=`.
 * @param spfInclude the platform's SPF domain (`include:` mechanism), e.g. `_spf.crafter.example`.
 * @param dmarcReport where aggregate DMARC reports go (`rua=mailto:`); "" leaves it out.
 */
export function recordsFor(input: {
  domain: string;
  selector: string;
  publicKey: string;
  spfInclude: string;
  dmarcReport: string;
}): DnsRecord[] {
  const { domain } = input;
  return [
    {
      kind: "dkim",
      type: "TXT",
      host: dkimHost(input.selector, domain),
      value: `v=DKIM1; k=rsa; p=${input.publicKey}`,
    },
    { kind: "spf", type: "TXT", host: domain, value: `v=spf1 include:${input.spfInclude} ~all` },
    {
      kind: "dmarc",
      type: "TXT",
      host: `_dmarc.${domain}`,
      value: `v=DMARC1; p=none;${input.dmarcReport ? ` rua=mailto:${input.dmarcReport};` : ""} adkim=r; aspf=r`,
    },
  ];
}

/** The tags of a DKIM or DMARC record (`k=v; k=v`), names lower case, spaces removed from values. */
export function tagsOf(record: string): Map<string, string> {
  const tags = new Map<string, string>();
  for (const part of record.split(";")) {
    const eq = part.indexOf("=");
    if (eq <= 0) continue;
    tags.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).replace(/\s+/g, ""));
  }
  return tags;
}

const missing = (kind: RecordKind, answer: TxtAnswer): RecordCheck | null => {
  if ("records" in answer) return null;
  return {
    kind,
    status: "pending",
    found: [],
    reason: answer.error === "none" ? "Not published yet." : "The DNS lookup failed; try again.",
  };
};

/** The DKIM record's status: verified when a TXT record at its name carries our public key. */
export function dkimStatus(publicKey: string, answer: TxtAnswer): RecordCheck {
  const none = missing("dkim", answer);
  if (none) return none;
  const records = (answer as { records: string[] }).records;
  const keys = records.filter((r) => tagsOf(r).has("p"));
  if (keys.length === 0)
    return records.length === 0
      ? { kind: "dkim", status: "pending", found: [], reason: "Not published yet." }
      : { kind: "dkim", status: "wrong", found: records, reason: "The record has no public key (p=)." };
  if (keys.some((r) => tagsOf(r).get("p") === publicKey))
    return { kind: "dkim", status: "verified", found: keys, reason: "" };
  return { kind: "dkim", status: "wrong", found: keys, reason: "The published key is not this domain's key." };
}

/**
 * The SPF record's status: verified when the domain's one `v=spf1` record includes `spfInclude`;
 * wrong when it does not, or when there are several (RFC 7208 §4.5: a permanent error).
 */
export function spfStatus(spfInclude: string, answer: TxtAnswer): RecordCheck {
  const none = missing("spf", answer);
  if (none) return none;
  const spf = (answer as { records: string[] }).records.filter((r) => /^v=spf1(\s|$)/i.test(r.trim()));
  if (spf.length === 0) return { kind: "spf", status: "pending", found: [], reason: "Not published yet." };
  if (spf.length > 1)
    return { kind: "spf", status: "wrong", found: spf, reason: "There are several SPF records; merge them into one." };
  const terms = spf[0]!.trim().toLowerCase().split(/\s+/);
  if (terms.some((t) => /^[+?~]?include:/.test(t) && t.replace(/^[+?~]?include:/, "") === spfInclude.toLowerCase()))
    return { kind: "spf", status: "verified", found: spf, reason: "" };
  return { kind: "spf", status: "wrong", found: spf, reason: `The SPF record does not include ${spfInclude}.` };
}

/** The DMARC record's status: verified when `_dmarc.<domain>` has one `v=DMARC1` record with a policy (p=). */
export function dmarcStatus(answer: TxtAnswer): RecordCheck {
  const none = missing("dmarc", answer);
  if (none) return none;
  const dmarc = (answer as { records: string[] }).records.filter((r) => /^v=DMARC1\s*(;|$)/i.test(r.trim()));
  if (dmarc.length === 0) return { kind: "dmarc", status: "pending", found: [], reason: "Not published yet." };
  if (dmarc.length > 1)
    return { kind: "dmarc", status: "wrong", found: dmarc, reason: "There are several DMARC records; keep one." };
  const policy = tagsOf(dmarc[0]!).get("p")?.toLowerCase();
  if (policy === "none" || policy === "quarantine" || policy === "reject")
    return { kind: "dmarc", status: "verified", found: dmarc, reason: "" };
  return {
    kind: "dmarc",
    status: "wrong",
    found: dmarc,
    reason: "The DMARC record needs a policy: p=none, quarantine or reject.",
  };
}
