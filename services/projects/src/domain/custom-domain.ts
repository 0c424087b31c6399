import { HOSTNAME_MESSAGES, hostnameProblem, isSameOrSubdomain, normalizeHostname } from "@crafter/validation";
import { apexProblem } from "@crafter/validation/apex";

// A project's custom domain, pure: which records to ask for, and what a lookup's answers mean.

/** The TXT record's name prefix: `_crafter-verification.<domain>` holds the project's token. */
export const VERIFICATION_PREFIX = "_crafter-verification";

export type CustomDomainStatus = "pending" | "verified" | "failing";

/** One DNS answer as the resolver gives it: the values found, none (NXDOMAIN, NODATA), or a failed lookup. */
export type LookupAnswer = { values: string[] } | { error: "none" | "failed" };

export interface RecordCheck {
  type: "CNAME" | "TXT";
  name: string;
  /** The value to create. */
  value: string;
  /** What the check found (empty: nothing, or not checked yet). */
  found: string[];
  ok: boolean;
}

export interface Verdict {
  records: RecordCheck[];
  /** True when both records hold what they should. */
  ok: boolean;
  /** True when a lookup failed (timeout, server failure): nothing can be concluded. */
  inconclusive: boolean;
  /** In words, why it is not verified ("" when ok). */
  problem: string;
}

/**
 * The domain as it is stored, or the field's error message.
 * @param platformHosts the deployment's own host names (its public origin's, the CNAME target):
 *   neither they nor names under them may be a business's domain.
 */
export function checkDomainInput(
  value: string,
  platformHosts: string[],
): { ok: true; domain: string } | { ok: false; message: string } {
  const problem = hostnameProblem(value);
  if (problem) return { ok: false, message: HOSTNAME_MESSAGES[problem] };
  const domain = normalizeHostname(value);
  if (platformHosts.some((host) => host && isSameOrSubdomain(domain, host)))
    return { ok: false, message: "This is the platform's own domain: enter your business's domain" };
  if (domain.split(".")[0] === VERIFICATION_PREFIX) return { ok: false, message: HOSTNAME_MESSAGES.not_a_hostname };
  // The records asked for start with a CNAME at the domain, which an apex cannot hold.
  const apex = apexProblem(domain);
  if (apex) return { ok: false, message: apex };
  return { ok: true, domain };
}

/** The records the business creates: a CNAME to `target` and the TXT record holding `token`. */
export function recordsToCreate(domain: string, target: string, token: string): RecordCheck[] {
  return [
    { type: "CNAME", name: domain, value: target, found: [], ok: false },
    { type: "TXT", name: `${VERIFICATION_PREFIX}.${domain}`, value: token, found: [], ok: false },
  ];
}

const bare = (name: string) => name.trim().toLowerCase().replace(/\.$/, "");

/**
 * What the answers mean. The CNAME must name `target` (case and a trailing dot aside); one of the
 * TXT records must be exactly the token (other TXT records at that name are fine).
 */
export function judge(
  domain: string,
  target: string,
  token: string,
  answers: { cname: LookupAnswer; txt: LookupAnswer },
): Verdict {
  const [cnameRecord, txtRecord] = recordsToCreate(domain, target, token) as [RecordCheck, RecordCheck];
  const cnameFound = "values" in answers.cname ? answers.cname.values.map(bare) : [];
  const txtFound = "values" in answers.txt ? answers.txt.values : [];
  const cname = { ...cnameRecord, found: cnameFound, ok: cnameFound.includes(bare(target)) };
  const txt = { ...txtRecord, found: txtFound, ok: txtFound.includes(token) };
  const inconclusive =
    ("error" in answers.cname && answers.cname.error === "failed") ||
    ("error" in answers.txt && answers.txt.error === "failed");
  const problems: string[] = [];
  if (!cname.ok)
    problems.push(
      "error" in answers.cname && answers.cname.error === "failed"
        ? `The CNAME lookup of ${domain} failed (DNS timeout or server error).`
        : cnameFound.length > 0
          ? `${domain} is a CNAME to ${cnameFound.join(", ")}, not to ${target}.`
          : `No CNAME record found at ${domain}.`,
    );
  if (!txt.ok)
    problems.push(
      "error" in answers.txt && answers.txt.error === "failed"
        ? `The TXT lookup of ${txt.name} failed (DNS timeout or server error).`
        : txtFound.length > 0
          ? `The TXT record at ${txt.name} does not hold the verification token (found ${txtFound.map((v) => `"${v}"`).join(", ")}).`
          : `No TXT record found at ${txt.name}.`,
    );
  return { records: [cname, txt], ok: cname.ok && txt.ok, inconclusive, problem: problems.join(" ") };
}

/**
 * The state after a check: verified when the records hold; a verified domain whose lookup merely
 * failed stays verified (a DNS hiccup does not take a site down); one whose records are gone or
 * wrong is failing; one never verified stays pending.
 */
export function nextStatus(current: CustomDomainStatus, verdict: Verdict): CustomDomainStatus {
  if (verdict.ok) return "verified";
  if (current === "verified" && verdict.inconclusive) return "verified";
  return current === "pending" ? "pending" : "failing";
}
