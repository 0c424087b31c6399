const { call } = require("./api");

// Actions over the public API: create or update a contact by email, add a tag, start a craft.

const CONTACT_FIELDS = ["firstName", "lastName", "phone", "company"];

/** The project's contact with exactly this email (search is by token, so the match is checked here). */
const contactByEmail = async (z, email) => {
  const page = await call(z, "GET", `/api/contacts?q=${encodeURIComponent(email)}&pageSize=100`);
  const wanted = email.trim().toLowerCase();
  return (page.result || []).find((contact) => (contact.email || "").toLowerCase() === wanted) || null;
};

const upsertContact = {
  key: "contact",
  noun: "Contact",
  display: {
    label: "Create or Update Contact",
    description: "Adds a contact, or updates the one with this email. New contacts start with pending consent.",
  },
  operation: {
    inputFields: [
      { key: "email", label: "Email", required: true },
      ...CONTACT_FIELDS.map((key) => ({ key, required: false })),
      { key: "tags", label: "Tags", list: true, required: false },
    ],
    perform: async (z, bundle) => {
      const input = bundle.inputData;
      const fields = Object.fromEntries(CONTACT_FIELDS.filter((key) => input[key]).map((key) => [key, input[key]]));
      const existing = await contactByEmail(z, input.email);
      const tags = input.tags?.length ? input.tags : undefined;
      if (existing) {
        const merged = tags ? [...new Set([...(existing.tags || []), ...tags])] : undefined;
        return call(z, "PATCH", `/api/contacts/${encodeURIComponent(existing.id)}`, {
          ...fields,
          ...(merged ? { tags: merged } : {}),
        });
      }
      return call(z, "POST", "/api/contacts", { email: input.email, ...fields, ...(tags ? { tags } : {}) });
    },
    sample: { id: "c_1", email: "ada@example.com", firstName: "Ada", tags: ["zapier"], consent: "pending" },
  },
};

const addTag = {
  key: "tag",
  noun: "Tag",
  display: { label: "Add Tag to Contact", description: "Adds a tag to the contact with this email." },
  operation: {
    inputFields: [
      { key: "email", label: "Contact email", required: true },
      { key: "tag", label: "Tag", required: true },
    ],
    perform: async (z, bundle) => {
      const contact = await contactByEmail(z, bundle.inputData.email);
      if (!contact) throw new z.errors.Error(`No contact has the email ${bundle.inputData.email}.`, "NOT_FOUND", 404);
      const tags = [...new Set([...(contact.tags || []), bundle.inputData.tag])];
      return call(z, "PATCH", `/api/contacts/${encodeURIComponent(contact.id)}`, { tags });
    },
    sample: { id: "c_1", email: "ada@example.com", tags: ["vip"] },
  },
};

const startCraft = {
  key: "craft",
  noun: "Craft",
  display: {
    label: "Start Craft",
    description: "Starts a craft from a workflow and, given inputs, completes its first step with them.",
  },
  operation: {
    inputFields: [
      { key: "workflowName", label: "Workflow", required: true, helpText: "e.g. BlogWriter" },
      { key: "craftName", label: "Craft name", required: false },
      { key: "inputs", label: "Inputs of the first step", dict: true, required: false },
    ],
    perform: async (z, bundle) => {
      const { workflowName, craftName, inputs } = bundle.inputData;
      const craft = await call(z, "POST", "/api/workflowsV2", { workflowName, ...(craftName ? { craftName } : {}) });
      if (!inputs || Object.keys(inputs).length === 0) return craft;
      const run = await call(z, "PUT", `/api/workflowsV2/${encodeURIComponent(craft.craftId)}/step/complete`, {
        stepName: craft.currentStep,
        values: inputs,
      });
      return run.craft;
    },
    sample: { craftId: "cr_1", workflowName: "BlogWriter", currentStep: "topic" },
  },
};

module.exports = { creates: { contact: upsertContact, tag: addTag, craft: startCraft } };
