import { CardGrid, MarketingPage } from "./MarketingPage";

const REASONS = [
  {
    title: "Guided, not guessed",
    text: "Proven copywriting frameworks, step by step, instead of one empty prompt box.",
  },
  { title: "Your voice", text: "Your business profile and brand voice shape every draft, so it sounds like you." },
  { title: "You stay in control", text: "Every step can be edited and run again; nothing is published without you." },
  { title: "Fair credits", text: "Credits are taken only for work that succeeds; a failed step gives them back." },
  { title: "Your data stays yours", text: "Export your contacts and content at any time. We never sell your data." },
  { title: "Made for small teams", text: "Invite a manager or a project admin and decide what each one may change." },
];

/** /why-us */
export default function WhyUsPage() {
  return (
    <MarketingPage
      path="/why-us"
      heading="Why small businesses choose Crafter"
      lead="Less time writing, more time running your business, without giving up your voice."
    >
      <CardGrid items={REASONS} />
    </MarketingPage>
  );
}
