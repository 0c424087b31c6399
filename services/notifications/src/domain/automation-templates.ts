import type { Step, Trigger } from "./automation-model";

/** A shipped automation to start from (`GET /api/automations/templates`). */
export interface AutomationTemplate {
  id: string;
  name: string;
  description: string;
  trigger: Trigger;
  steps: Step[];
}

const p = (...lines: string[]) => lines.map((line) => `<p>${line}</p>`).join("");

/**
 * The four automation templates: a welcome series, lead nurture, re-engagement and a review request.
 * Email bodies use the campaigns' smart values (`{{contact.firstName | "there"}}`, `{{business.name}}`).
 */
export const AUTOMATION_TEMPLATES: readonly AutomationTemplate[] = [
  {
    id: "welcome-series",
    name: "Welcome series",
    description: "Greets a new lead at once, follows up two days later and tags them as welcomed.",
    trigger: { kind: "lead_captured" },
    steps: [
      {
        id: "welcome",
        kind: "send_email",
        subject: "Welcome to {{business.name}}",
        html: p('Hi {{contact.firstName | "there"}},', "Thanks for getting in touch. Here is what we can do for you."),
      },
      { id: "wait-2d", kind: "wait", duration: "P2D" },
      {
        id: "follow-up",
        kind: "send_email",
        subject: "A few ideas to get started",
        html: p('Hi {{contact.firstName | "there"}},', "Here are three ways our customers get the most from us."),
      },
      { id: "tag-welcomed", kind: "add_tag", tag: "welcomed" },
    ],
  },
  {
    id: "lead-nurture",
    name: "Lead nurture",
    description: "Three emails a few days apart; a lead who became a customer stops getting them and you hear of it.",
    trigger: { kind: "lead_captured" },
    steps: [
      {
        id: "intro",
        kind: "send_email",
        subject: "How {{business.name}} helps",
        html: p('Hi {{contact.firstName | "there"}},', "A short introduction to what we do and for whom."),
      },
      { id: "wait-3d", kind: "wait", duration: "P3D" },
      {
        id: "is-customer",
        kind: "condition",
        query: { combinator: "and", rules: [{ field: "tags", operator: "contains", value: "customer" }] },
        yes: [{ id: "notify-won", kind: "notify_owner", title: "A nurtured lead became a customer", level: "success" }],
        no: [
          {
            id: "case-study",
            kind: "send_email",
            subject: "What our customers say",
            html: p('Hi {{contact.firstName | "there"}},', "A story from a customer like you."),
          },
          { id: "wait-4d", kind: "wait", duration: "P4D" },
          {
            id: "offer",
            kind: "send_email",
            subject: "An offer for you",
            html: p('Hi {{contact.firstName | "there"}},', "Reply to this email and we will set you up."),
          },
          { id: "tag-nurtured", kind: "add_tag", tag: "nurtured" },
        ],
      },
    ],
  },
  {
    id: "re-engagement",
    name: "Re-engagement",
    description: "When a contact is tagged inactive: a we-miss-you email, and a week later a last note or a clean-up.",
    trigger: { kind: "tag_added", tag: "inactive" },
    steps: [
      {
        id: "miss-you",
        kind: "send_email",
        subject: "We miss you at {{business.name}}",
        html: p('Hi {{contact.firstName | "there"}},', "It has been a while. Here is what is new."),
      },
      { id: "wait-7d", kind: "wait", duration: "P7D" },
      {
        id: "still-inactive",
        kind: "condition",
        query: { combinator: "and", rules: [{ field: "tags", operator: "contains", value: "inactive" }] },
        yes: [
          { id: "remove-inactive", kind: "remove_tag", tag: "inactive" },
          { id: "tag-lapsed", kind: "add_tag", tag: "lapsed" },
        ],
        no: [],
      },
    ],
  },
  {
    id: "review-request",
    name: "Review request",
    description: "A day after a contact is tagged customer, asks for a review and tells you it went out.",
    trigger: { kind: "tag_added", tag: "customer" },
    steps: [
      { id: "wait-1d", kind: "wait", duration: "P1D" },
      {
        id: "ask-review",
        kind: "send_email",
        subject: "How did we do?",
        html: p(
          'Hi {{contact.firstName | "there"}},',
          "Thank you for choosing {{business.name}}. Would you leave us a short review?",
        ),
      },
      { id: "tag-asked", kind: "add_tag", tag: "review-requested" },
      { id: "notify-asked", kind: "notify_owner", title: "A review request was sent", level: "info" },
    ],
  },
];

export function automationTemplate(id: string): AutomationTemplate | undefined {
  return AUTOMATION_TEMPLATES.find((t) => t.id === id);
}
