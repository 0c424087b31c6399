/** The draft reader lives in @crafter/email-language (campaigns read email crafts the same way). */
export {
  cleanBodyHtml,
  craftToMjml,
  type DraftStep,
  finalDraft,
  type PouredEmail,
  splitDraft,
} from "@crafter/email-language";
