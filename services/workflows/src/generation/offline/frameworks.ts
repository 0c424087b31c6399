/** The named copywriting and planning frameworks the offline engine writes with. */
export const FRAMEWORKS = {
  AIDA: { name: "AIDA", stages: ["Attention", "Interest", "Desire", "Action"] },
  PAS: { name: "PAS", stages: ["Problem", "Agitate", "Solve"] },
  FAB: { name: "FAB", stages: ["Features", "Advantages", "Benefits"] },
  BAB: { name: "BAB", stages: ["Before", "After", "Bridge"] },
  "4Ps": { name: "4Ps", stages: ["Product", "Price", "Place", "Promotion"] },
  StoryBrand: { name: "StoryBrand", stages: ["Hero", "Problem", "Guide", "Plan", "Call to action", "Success"] },
  LeanCanvas: {
    name: "Lean Canvas",
    stages: ["Problem", "Customers", "Value proposition", "Solution", "Channels", "Revenue"],
  },
  ICE: { name: "ICE", stages: ["Impact", "Confidence", "Ease"] },
  STP: { name: "STP", stages: ["Segmentation", "Targeting", "Positioning"] },
  JTBD: { name: "Jobs to be done", stages: ["Job", "Situation", "Outcome"] },
  SearchIntent: { name: "Search intent", stages: ["Informational", "Commercial", "Transactional"] },
  TopicClusters: { name: "Topic clusters", stages: ["Questions", "Pillars", "Angles"] },
  ColorHarmony: { name: "Colour harmony", stages: ["Primary", "Complementary", "Analogous", "Tints and shades"] },
  PlainLanguage: { name: "Plain language", stages: ["Shorter sentences", "Everyday words", "One idea per sentence"] },
} as const;

export type FrameworkName = keyof typeof FRAMEWORKS;

/** The note every offline result carries, so nobody mistakes it for AI writing. */
export function offlineNote(framework: string): string {
  return `Drafted offline with the ${framework} framework from your own inputs — no AI provider is configured.`;
}
