import { Typography } from "antd";
import { MarketingPage } from "./MarketingPage";

const QUESTIONS = [
  {
    q: "What is a credit?",
    a: "Each AI generation takes a few credits. New accounts get free credits; paid plans add credits every month.",
  },
  { q: "Which currency do you charge in?", a: "US dollars. Taxes, where they apply, are added at checkout." },
  {
    q: "Can I switch between monthly and yearly?",
    a: "Yes. Paying yearly saves about 17%. Changes are prorated, and you can cancel at the end of any period.",
  },
  { q: "What happens when I reach a limit?", a: "Crafter tells you which limit you reached and which plan lifts it." },
  {
    q: "Who owns the content?",
    a: "You do. Everything you craft is yours to publish, edit and export.",
  },
  {
    q: "Can my team work with me?",
    a: "Yes. Invite people to a project as a manager or a project admin; each role sees only what it may change.",
  },
  { q: "How do I publish a web page?", a: "Craft it with the Web Page Writer, choose an address and publish." },
];

/** /FAQ: questions as a description list (keyboard and screen-reader friendly, no script needed). */
export default function FaqPage() {
  return (
    <MarketingPage
      path="/FAQ"
      heading="Frequently asked questions"
      lead="Credits, plans, billing and your data, in short answers."
    >
      <dl className="crafter-faq">
        {QUESTIONS.map((item) => (
          <div key={item.q} className="crafter-faq__item">
            <dt>
              <Typography.Title level={2} className="crafter-faq__question">
                {item.q}
              </Typography.Title>
            </dt>
            <dd>
              <Typography.Paragraph>{item.a}</Typography.Paragraph>
            </dd>
          </div>
        ))}
      </dl>
    </MarketingPage>
  );
}
