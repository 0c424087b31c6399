import { CardGrid, MarketingPage } from "./MarketingPage";

const FEATURES = [
  {
    title: "Blog posts",
    text: "Topic, keywords and an outline first; then a draft in your voice, section by section.",
  },
  {
    title: "Ads and social posts",
    text: "Headlines and copy for each channel, with images generated or chosen from your library.",
  },
  {
    title: "Emails and campaigns",
    text: "Templates, segments of your contacts and a content calendar that keeps you on schedule.",
  },
  {
    title: "Web pages",
    text: "The Web Page Writer drafts a page and publishes it on its own address with your business name.",
  },
  { title: "Podcasts and voice", text: "Scripts turned into audio with AI voices, ready to publish." },
  {
    title: "Smart documents",
    text: "Proposals, briefs and one-pagers that reuse what Crafter knows about your business.",
  },
  {
    title: "Contacts and leads",
    text: "A customer table, segments, a lead form and a lead assistant that answers visitors.",
  },
  { title: "Every step editable", text: "Each workflow step can be read, changed and run again before you move on." },
];

/** /features */
export default function FeaturesPage() {
  return (
    <MarketingPage
      path="/features"
      heading="Everything your marketing needs, crafted with you"
      lead="Crafter's workflows guide each piece from idea to publish, using your business profile, audience and keywords."
    >
      <CardGrid items={FEATURES} />
    </MarketingPage>
  );
}
