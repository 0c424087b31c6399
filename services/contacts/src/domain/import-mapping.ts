import type { CustomFieldDefinition } from "./fields";

/**
 * Guessing which contact field each column of an uploaded CSV holds, from its header. Knows the
 * layouts marketers bring: Mailchimp's audience export (Email Address, First Name, Last Name,
 * Address, Phone Number, Birthday, TAGS, OPTIN_TIME, CONFIRM_TIME, UNSUB_TIME, CLEAN_TIME…),
 * HubSpot's contacts export (Record ID, First Name, Last Name, Email, Phone Number, Company Name,
 * Create Date, Lifecycle Stage, "Unsubscribed from all email"…) and Shopify's customer export
 * (Accepts Email Marketing…). The user can change every guess before the import runs.
 */

/**
 * Targets a column can map to besides the fields of `fieldCatalogue`: evidence of consent, read by
 * `consentOf` (import-row.ts). A column mapped to nothing is skipped.
 */
export const CONSENT_TARGETS = [
  "consent.optedInAt",
  "consent.unsubscribedAt",
  "consent.bouncedAt",
  "consent.unsubscribedAll",
  "consent.legalBasis",
] as const;
export type ConsentTarget = (typeof CONSENT_TARGETS)[number];

const key = (header: string): string =>
  header
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "");

/** Normalised header → target. Order matters only for readability; keys are unique. */
const SYNONYMS: Record<string, string> = {
  // email
  email: "email",
  emailadresse: "email",
  adresseemail: "email",
  adressemail: "email",
  courriel: "email",
  correoelectronico: "email",
  emailaddress: "email",
  email1: "email",
  emailaddr: "email",
  mail: "email",
  // names
  firstname: "firstName",
  fname: "firstName",
  givenname: "firstName",
  forename: "firstName",
  lastname: "lastName",
  lname: "lastName",
  surname: "lastName",
  familyname: "lastName",
  // names in the languages of European exports
  vorname: "firstName",
  prenom: "firstName",
  nombre: "firstName",
  voornaam: "firstName",
  nachname: "lastName",
  nom: "lastName",
  apellido: "lastName",
  apellidos: "lastName",
  achternaam: "lastName",
  telefon: "phone",
  telefonnummer: "phone",
  telephone: "phone",
  telefono: "phone",
  firma: "company",
  societe: "company",
  entreprise: "company",
  empresa: "company",
  bedrijf: "company",
  // phone
  phone: "phone",
  phonenumber: "phone",
  mobile: "phone",
  mobilephone: "phone",
  mobilephonenumber: "phone",
  tel: "phone",
  defaultaddressphone: "phone",
  // company
  company: "company",
  companyname: "company",
  defaultaddresscompany: "company",
  organisation: "company",
  organization: "company",
  associatedcompany: "company",
  business: "company",
  // time zone
  timezone: "timeZone",
  tz: "timeZone",
  zeitzone: "timeZone",
  fuseauhoraire: "timeZone",
  zonahoraria: "timeZone",
  // tags
  tags: "tags",
  tag: "tags",
  labels: "tags",
  // kind and type
  customerkind: "customerKind",
  customertype: "customerKind",
  contacttype: "contactType",
  lifecyclestage: "contactType",
  kundentyp: "contactType",
  // since
  customersince: "customerSince",
  createdate: "customerSince",
  createdat: "customerSince",
  datecreated: "customerSince",
  signupdate: "customerSince",
  // consent, explicit
  consent: "consent",
  consentstatus: "consent",
  emailconsent: "consent",
  subscribed: "consent",
  subscriptionstatus: "consent",
  emailsubscriptionstatus: "consent",
  marketingconsent: "consent",
  emailmarketingconsent: "consent",
  acceptsemailmarketing: "consent",
  acceptsmarketing: "consent",
  optin: "consent",
  status: "consent",
  einwilligung: "consent",
  newsletter: "consent",
  newsletterabo: "consent",
  newsletteranmeldung: "consent",
  consentement: "consent",
  consentimiento: "consent",
  toestemming: "consent",
  // consent, evidence (Mailchimp)
  optintime: "consent.optedInAt",
  confirmtime: "consent.optedInAt",
  unsubtime: "consent.unsubscribedAt",
  cleantime: "consent.bouncedAt",
  // consent, evidence (HubSpot)
  unsubscribedfromallemail: "consent.unsubscribedAll",
  optedoutofallemail: "consent.unsubscribedAll",
  legalbasisforprocessingcontactsdata: "consent.legalBasis",
};

/**
 * The guessed target of each column: a field key of the catalogue (`firstName`, `custom.plan`…), a
 * consent target, or null to skip. Each target is used once: a later column with the same guess is
 * skipped (Mailchimp has both OPTIN_TIME and CONFIRM_TIME, the first one wins).
 */
export function guessMapping(
  headers: readonly string[],
  custom: readonly CustomFieldDefinition[],
): Array<string | null> {
  const customByKey = new Map<string, string>();
  for (const field of custom) {
    customByKey.set(key(field.label), `custom.${field.key}`);
    customByKey.set(key(field.key), `custom.${field.key}`);
  }
  const used = new Set<string>();
  return headers.map((header) => {
    const k = key(header);
    const target = customByKey.get(k) ?? SYNONYMS[k] ?? null;
    if (target === null || used.has(target)) return null;
    used.add(target);
    return target;
  });
}
