import { rpcAccess } from "@crafter/kit";
import { ContactsService } from "@crafter/proto/crafter/contacts/v1/contacts_pb";

/** Who may call each ContactsService RPC: a method without an entry is refused. Every RPC acts on
 * the caller's own contacts; StreamSegmentMembers also serves the email issue's services, and GetContact,
 * UpdateContact, TagContacts and MatchContact the automations (notifications), naming the user. */
export const access = rpcAccess(ContactsService, {
  getContactsStatus: ["user"],
  createContact: ["user"],
  getContact: ["user", "service:notifications"],
  updateContact: ["user", "service:notifications"],
  deleteContacts: ["user"],
  listContacts: ["user"],
  tagContacts: ["user", "service:notifications"],
  setConsent: ["user"],
  addInteraction: ["user"],
  exportContactData: ["user"],
  exportContacts: ["user"],
  uploadImportFile: ["user"],
  startImport: ["user"],
  getImport: ["user"],
  exportImportErrors: ["user"],
  saveSegment: ["user"],
  listSegments: ["user"],
  deleteSegment: ["user"],
  countSegment: ["user"],
  streamSegmentMembers: ["user", "service:notifications", "service:workflows"],
  listInteractions: ["user"],
  getContactSettings: ["user"],
  saveContactSettings: ["user"],
  listImports: ["user"],
  getSegment: ["user"],
  addToSegment: ["user"],
  listContactIds: ["user"],
  // Automations' condition steps (notifications names the user).
  matchContact: ["service:notifications"],
});
