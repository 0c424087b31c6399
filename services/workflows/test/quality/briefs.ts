import type { JsonValue } from "@bufbuild/protobuf";
import type { ProfileSnapshot, Values } from "../../src/domain/types";

/**
 * Real-business briefs for the offline quality check: a profile and the answers a marketer of
 * that business would give, by the input names the definitions share.
 */
export interface Brief {
  key: string;
  profile: ProfileSnapshot;
  /** Answers by input name; an input not listed gets its prefill, default or first option. */
  answers: Values;
  /** The question the blog topic asks, and facts the answer must draw on (words of the inputs). */
  question: { topic: string; facts: string[] };
}

const list = (...items: string[]): JsonValue => items;

export const BRIEFS: Brief[] = [
  {
    key: "bike-repair",
    profile: {
      profileId: "p-bike",
      name: "Spoke & Sprocket",
      description:
        "Spoke & Sprocket is a family-run bicycle repair shop in Bristol. We service road, gravel and cargo bikes, build wheels by hand and fix punctures the same day.",
      audience: "commuters who ride every day",
      keywords: ["bike service", "wheel building", "puncture repair"],
      websiteUrl: "https://spokeandsprocket.example.com",
    },
    answers: {
      topic: "How often should you service your bike",
      offering: "Full bike service",
      name: "Full bike service",
      businessName: "Spoke & Sprocket",
      audience: "commuters who ride every day",
      keywords: list("bike service", "wheel building", "puncture repair"),
      benefits: list("Same-day puncture repair", "Brakes and gears adjusted", "Free safety check"),
      features: list("Hand-built wheels", "Cargo bike specialists", "Loan bike while you wait"),
      painPoints: list("squeaky brakes", "gears that slip on hills"),
      offer: "20% off your first service",
      keyPoints: list("A quick check every month", "A full service every 3,000 miles or once a year"),
      description:
        "A full service every 3,000 miles or once a year keeps brakes, gears and wheels safe; commuters who ride daily need a quick check every month.",
      url: "https://spokeandsprocket.example.com/service",
      websiteUrl: "https://spokeandsprocket.example.com",
      idea: "Mobile bike repair for offices",
      goal: "Book 100 services before spring",
      campaignName: "Spring tune-up",
      startDate: "2027-03-01",
      endDate: "2027-03-31",
      title: "How often should you service your bike?",
    },
    question: { topic: "How often should you service your bike", facts: ["3,000 miles", "once a year", "every month"] },
  },
  {
    key: "bakery",
    profile: {
      profileId: "p-bakery",
      name: "Crumb & Co",
      description:
        "A neighbourhood sourdough bakery in Leeds baking naturally leavened bread every morning since 2015.",
      audience: "home bakers",
      keywords: ["sourdough starter", "rye bread", "baking classes"],
      websiteUrl: "https://crumb.example.com",
    },
    answers: {
      topic: "How do you keep a sourdough starter alive",
      offering: "Sourdough starter kit",
      name: "Sourdough starter kit",
      businessName: "Crumb & Co",
      audience: "home bakers",
      keywords: list("sourdough starter", "wild yeast", "rye bread"),
      benefits: list("Bake your first loaf in a week", "Step-by-step video lessons", "Starter guaranteed alive"),
      features: list("Live rye starter", "Proofing basket", "Bench scraper"),
      painPoints: list("flat, dense loaves", "starters that die"),
      offer: "15% off your first kit",
      keyPoints: list("Feed it flour and water every day", "Keep it in the fridge between bakes"),
      description:
        "Feed a starter equal weights of flour and water every day at room temperature, or once a week when it lives in the fridge.",
      url: "https://crumb.example.com/kit",
      websiteUrl: "https://crumb.example.com",
      idea: "Sourdough subscription box",
      goal: "Sell 200 kits before Christmas",
      campaignName: "Winter bake",
      startDate: "2026-12-01",
      endDate: "2026-12-24",
      title: "How to keep a sourdough starter alive",
    },
    question: { topic: "How do you keep a sourdough starter alive", facts: ["flour and water", "every day", "fridge"] },
  },
  {
    key: "dentist",
    profile: {
      profileId: "p-dent",
      name: "Harbour Dental",
      description:
        "Harbour Dental is a family dental practice in Portsmouth offering check-ups, hygiene visits and Invisalign.",
      audience: "busy parents",
      keywords: ["dental check-up", "teeth whitening", "family dentist"],
      websiteUrl: "https://harbourdental.example.com",
    },
    answers: {
      topic: "How often should children see the dentist",
      offering: "Family check-up",
      name: "Family check-up",
      businessName: "Harbour Dental",
      audience: "busy parents",
      keywords: list("family dentist", "children's dentist", "dental check-up"),
      benefits: list("Evening appointments", "Gentle care for nervous children", "Reminders by text"),
      features: list("Check-ups in 20 minutes", "Fluoride varnish", "Free parking"),
      painPoints: list("toothache at the weekend", "long waits for an appointment"),
      offer: "Free first check-up for under-fives",
      keyPoints: list("A check-up every six months", "The first visit by their first birthday"),
      description:
        "Children should see a dentist every six months, starting by their first birthday; a check-up takes about 20 minutes.",
      url: "https://harbourdental.example.com/children",
      websiteUrl: "https://harbourdental.example.com",
      idea: "School visit programme",
      goal: "Register 150 new families",
      campaignName: "Back to school smiles",
      startDate: "2026-09-01",
      endDate: "2026-09-30",
      title: "How often should children see the dentist?",
    },
    question: {
      topic: "How often should children see the dentist",
      facts: ["every six months", "first birthday", "20 minutes"],
    },
  },
  {
    key: "accountant",
    profile: {
      profileId: "p-acc",
      name: "Ledgerline Accountants",
      description:
        "Ledgerline helps freelancers and small businesses in Manchester with bookkeeping, VAT and self-assessment.",
      audience: "freelancers",
      keywords: ["self-assessment", "bookkeeping", "VAT returns"],
      websiteUrl: "https://ledgerline.example.com",
    },
    answers: {
      topic: "When is the self-assessment deadline",
      offering: "Self-assessment filing",
      name: "Self-assessment filing",
      businessName: "Ledgerline Accountants",
      audience: "freelancers",
      keywords: list("self-assessment", "tax return", "bookkeeping"),
      benefits: list("Filed before the deadline", "No penalties", "A fixed fee"),
      features: list("Secure document upload", "A named accountant", "Receipts scanned by app"),
      painPoints: list("late filing penalties", "lost receipts"),
      offer: "Fixed fee of £150",
      keyPoints: list("Online returns are due by 31 January", "Paper returns are due by 31 October"),
      description:
        "Online self-assessment returns are due by 31 January and paper returns by 31 October; a late return costs a £100 penalty.",
      url: "https://ledgerline.example.com/self-assessment",
      websiteUrl: "https://ledgerline.example.com",
      idea: "Bookkeeping for food trucks",
      goal: "Sign 60 new clients before January",
      campaignName: "Beat the deadline",
      startDate: "2026-11-01",
      endDate: "2027-01-31",
      title: "When is the self-assessment deadline?",
    },
    question: { topic: "When is the self-assessment deadline", facts: ["31 January", "31 October", "£100"] },
  },
];
