import { rpcAccess } from "@crafter/kit";
import { ContactsService } from "@crafter/proto/crafter/contacts/v1/contacts_pb";

/** Who may call each ContactsService RPC: a method without an entry is refused. Every RPC acts on
 * the caller's own contacts; StreamSegmentMembers, GetContact and SetConsent also serve the email issue's
 * services, naming the user (notifications: consent before a send, bounces and complaints). */
export const access = rpcAccess(ContactsService, {
  getContactsStatus: ["user"],
  createContact: ["user"],
  getContact: ["user", "service:notifications"],
  updateContact: ["user"],
  deleteContacts: ["user"],
  listContacts: ["user"],
  tagContacts: ["user"],
  setConsent: ["user", "service:notifications"],
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
});
