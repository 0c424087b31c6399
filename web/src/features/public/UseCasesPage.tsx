import { CardGrid, MarketingPage } from "./MarketingPage";

const CASES = [
  {
    title: "Online shops",
    text: "Product pages, launch emails and ads for every new item, from the product's own details.",
  },
  {
    title: "Local businesses",
    text: "Weekly social posts, review replies and offers that bring neighbours through the door.",
  },
  {
    title: "Consultants and coaches",
    text: "Articles and podcasts that show what you know, and a lead form that books calls.",
  },
  { title: "Agencies", text: "One project per client, each with its own profile, voice and content calendar." },
  { title: "Services", text: "Service pages with benefits and terms, and emails that follow up with each lead." },
  { title: "Campaigns", text: "A campaign's audience, message and dates shape every piece crafted for it." },
];

/** /usecases */
export default function UseCasesPage() {
  return (
    <MarketingPage
      path="/usecases"
      heading="Built for the way small businesses market"
      lead="Whatever you sell, Crafter turns what you know about your business into content every week."
    >
      <CardGrid items={CASES} />
    </MarketingPage>
  );
}
