/**
 * The templates that ship with the service: predefined emails and social posts, and section
 * templates (blocks to start from, behind flag `email_designer_section_template`). Read-only; ids are
 * stable (`predefined-…`, `section-…`) so a campaign may name one. Pure data.
 */

export interface ShippedTemplate {
  id: string;
  kind: "email" | "social";
  scope: "predefined" | "section";
  name: string;
  category: string;
  subject: string;
  mjml: string;
}

const FONT = "Helvetica, Arial, sans-serif";

const head = (accent: string) => `  <mj-head>
    <mj-attributes>
      <mj-all font-family="${FONT}" />
      <mj-text font-size="16px" line-height="1.6" color="#1f2937" />
      <mj-button background-color="${accent}" color="#ffffff" font-weight="bold" border-radius="6px" inner-padding="14px 28px" />
    </mj-attributes>
  </mj-head>`;

const footer = `    <mj-section padding="24px 0">
      <mj-column>
        <mj-text align="center" font-size="12px" color="#6b7280">{{business.name}} · {{business.address}}</mj-text>
        <mj-text align="center" font-size="12px" color="#6b7280"><a href="{{unsubscribe_url}}" style="color:#6b7280">Unsubscribe</a> · <a href="{{preferences_url}}" style="color:#6b7280">Email preferences</a></mj-text>
      </mj-column>
    </mj-section>`;

const email = (accent: string, body: string) => `<mjml>
${head(accent)}
  <mj-body background-color="#f3f4f6" width="600px">
${body}
${footer}
  </mj-body>
</mjml>
`;

const NEWSLETTER = email(
  "#2563eb",
  `    <mj-section background-color="#2563eb" padding="32px 24px">
      <mj-column>
        <mj-text align="center" color="#ffffff" font-size="28px" font-weight="bold">{{business.name}} Monthly</mj-text>
        <mj-text align="center" color="#dbeafe" font-size="14px">News, tips and what we have been working on</mj-text>
      </mj-column>
    </mj-section>
    <mj-section background-color="#ffffff" padding="32px 24px 8px">
      <mj-column>
        <mj-text>Hi {{contact.firstName | "there"}},</mj-text>
        <mj-text>Here is what happened this month. Three short stories, one idea to try, and a thank-you for reading.</mj-text>
      </mj-column>
    </mj-section>
    <mj-section background-color="#ffffff" padding="8px 24px">
      <mj-column>
        <mj-text font-size="18px" font-weight="bold">Story one</mj-text>
        <mj-text>Tell your readers what is new and why it matters to them.</mj-text>
      </mj-column>
      <mj-column>
        <mj-text font-size="18px" font-weight="bold">Story two</mj-text>
        <mj-text>Share a result, a lesson learned or a customer's story.</mj-text>
      </mj-column>
    </mj-section>
    <mj-section background-color="#ffffff" padding="8px 24px 32px">
      <mj-column>
        <mj-divider border-color="#e5e7eb" border-width="1px" />
        <mj-button href="https://example.com">Read more</mj-button>
      </mj-column>
    </mj-section>`,
);

const PROMOTION = email(
  "#dc2626",
  `    <mj-section background-color="#111827" padding="40px 24px">
      <mj-column>
        <mj-text align="center" color="#fca5a5" font-size="14px" font-weight="bold" letter-spacing="2px">LIMITED TIME</mj-text>
        <mj-text align="center" color="#ffffff" font-size="40px" font-weight="bold" line-height="1.2">25% off everything</mj-text>
        <mj-text align="center" color="#d1d5db">Use code <strong>THANKYOU25</strong> at checkout, until Sunday.</mj-text>
        <mj-button href="https://example.com">Shop the sale</mj-button>
      </mj-column>
    </mj-section>
    <mj-section background-color="#ffffff" padding="32px 24px">
      <mj-column>
        <mj-text>Hi {{contact.firstName | "there"}}, as one of our regulars you get first pick. Here is what is popular right now.</mj-text>
      </mj-column>
    </mj-section>
    <mj-section background-color="#ffffff" padding="0 24px 32px">
      <mj-column>
        <mj-text align="center" font-weight="bold">Best seller</mj-text>
        <mj-text align="center" color="#6b7280">Describe it in a line.</mj-text>
      </mj-column>
      <mj-column>
        <mj-text align="center" font-weight="bold">New arrival</mj-text>
        <mj-text align="center" color="#6b7280">Describe it in a line.</mj-text>
      </mj-column>
      <mj-column>
        <mj-text align="center" font-weight="bold">Staff pick</mj-text>
        <mj-text align="center" color="#6b7280">Describe it in a line.</mj-text>
      </mj-column>
    </mj-section>`,
);

const WELCOME = email(
  "#059669",
  `    <mj-section background-color="#ffffff" padding="48px 24px 16px">
      <mj-column>
        <mj-text align="center" font-size="32px" font-weight="bold" color="#065f46">Welcome aboard, {{contact.firstName | "friend"}}!</mj-text>
        <mj-text align="center">Thank you for joining {{business.name}}. We are glad you are here.</mj-text>
      </mj-column>
    </mj-section>
    <mj-section background-color="#ffffff" padding="0 24px 16px">
      <mj-column>
        <mj-text font-weight="bold">1. Say hello</mj-text>
        <mj-text>Reply to this email and tell us what brought you here.</mj-text>
        <mj-text font-weight="bold">2. Explore</mj-text>
        <mj-text>Have a look around: our most loved products and guides are one click away.</mj-text>
        <mj-text font-weight="bold">3. Stay in touch</mj-text>
        <mj-text>We write about once a month, never more than we have to say.</mj-text>
      </mj-column>
    </mj-section>
    <mj-section background-color="#ffffff" padding="0 24px 48px">
      <mj-column>
        <mj-button href="https://example.com">Get started</mj-button>
      </mj-column>
    </mj-section>`,
);

const ANNOUNCEMENT = email(
  "#7c3aed",
  `    <mj-section background-color="#7c3aed" padding="48px 24px">
      <mj-column>
        <mj-text align="center" color="#ede9fe" font-size="14px" font-weight="bold" letter-spacing="2px">ANNOUNCEMENT</mj-text>
        <mj-text align="center" color="#ffffff" font-size="32px" font-weight="bold" line-height="1.25">Something new is here</mj-text>
      </mj-column>
    </mj-section>
    <mj-section background-color="#ffffff" padding="32px 24px">
      <mj-column>
        <mj-text>Hi {{contact.firstName | "there"}},</mj-text>
        <mj-text>We have news we have been waiting to share: say what changed, who it is for, and when it starts.</mj-text>
        <mj-button href="https://example.com">Find out more</mj-button>
        <mj-text color="#6b7280" font-size="14px">Questions? Just reply, a person reads every answer.</mj-text>
      </mj-column>
    </mj-section>`,
);

const social = (background: string, color: string, headline: string, line: string) => `<mjml>
  <mj-head>
    <mj-attributes>
      <mj-all font-family="${FONT}" />
    </mj-attributes>
  </mj-head>
  <mj-body width="600px" background-color="${background}">
    <mj-section padding="120px 40px" background-color="${background}">
      <mj-column>
        <mj-text align="center" color="${color}" font-size="44px" font-weight="bold" line-height="1.15">${headline}</mj-text>
        <mj-text align="center" color="${color}" font-size="20px" line-height="1.5">${line}</mj-text>
        <mj-text align="center" color="${color}" font-size="14px" padding-top="40px">{{business.name}}</mj-text>
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>
`;

const section = (body: string) => `<mjml>
  <mj-head>
    <mj-attributes>
      <mj-all font-family="${FONT}" />
    </mj-attributes>
  </mj-head>
  <mj-body background-color="#ffffff" width="600px">
${body}
  </mj-body>
</mjml>
`;

/** In the order the gallery shows them. */
export const SHIPPED_TEMPLATES: readonly ShippedTemplate[] = [
  {
    id: "predefined-newsletter",
    kind: "email",
    scope: "predefined",
    name: "Newsletter",
    category: "Newsletter",
    subject: "This month at {{business.name}}",
    mjml: NEWSLETTER,
  },
  {
    id: "predefined-promotion",
    kind: "email",
    scope: "predefined",
    name: "Promotion",
    category: "Promotion",
    subject: '25% off everything, {{contact.firstName | "friend"}}',
    mjml: PROMOTION,
  },
  {
    id: "predefined-welcome",
    kind: "email",
    scope: "predefined",
    name: "Welcome",
    category: "Welcome",
    subject: "Welcome to {{business.name}}",
    mjml: WELCOME,
  },
  {
    id: "predefined-announcement",
    kind: "email",
    scope: "predefined",
    name: "Announcement",
    category: "Announcement",
    subject: "Something new from {{business.name}}",
    mjml: ANNOUNCEMENT,
  },
  {
    id: "predefined-social-quote",
    kind: "social",
    scope: "predefined",
    name: "Quote",
    category: "Quote",
    subject: "",
    mjml: social("#fef3c7", "#78350f", "“Small steps every day.”", "Share a line your audience will remember."),
  },
  {
    id: "predefined-social-launch",
    kind: "social",
    scope: "predefined",
    name: "Product launch",
    category: "Promotion",
    subject: "",
    mjml: social("#1e3a8a", "#ffffff", "New: say what it is", "One line on why people will love it."),
  },
  {
    id: "predefined-social-tip",
    kind: "social",
    scope: "predefined",
    name: "Tip of the week",
    category: "Education",
    subject: "",
    mjml: social("#ecfdf5", "#065f46", "Tip of the week", "Teach one useful thing in a sentence or two."),
  },
  {
    id: "section-hero",
    kind: "email",
    scope: "section",
    name: "Hero with button",
    category: "Header",
    subject: "",
    mjml: section(`    <mj-section background-color="#2563eb" padding="40px 24px">
      <mj-column>
        <mj-text align="center" color="#ffffff" font-size="30px" font-weight="bold">A headline that says it</mj-text>
        <mj-button background-color="#ffffff" color="#2563eb" href="https://example.com">Call to action</mj-button>
      </mj-column>
    </mj-section>`),
  },
  {
    id: "section-two-columns",
    kind: "email",
    scope: "section",
    name: "Two columns",
    category: "Content",
    subject: "",
    mjml: section(`    <mj-section padding="24px">
      <mj-column>
        <mj-text font-weight="bold">Left title</mj-text>
        <mj-text>Some words on the left.</mj-text>
      </mj-column>
      <mj-column>
        <mj-text font-weight="bold">Right title</mj-text>
        <mj-text>Some words on the right.</mj-text>
      </mj-column>
    </mj-section>`),
  },
  {
    id: "section-footer",
    kind: "email",
    scope: "section",
    name: "Footer with unsubscribe",
    category: "Footer",
    subject: "",
    mjml: section(footer),
  },
];
