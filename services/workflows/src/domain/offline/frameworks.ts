/** The named copywriting frameworks the offline engine writes with. */
export const FRAMEWORKS = {
  AIDA: { name: "AIDA", stages: ["Attention", "Interest", "Desire", "Action"] },
  PAS: { name: "PAS", stages: ["Problem", "Agitate", "Solve"] },
  FAB: { name: "FAB", stages: ["Features", "Advantages", "Benefits"] },
  BAB: { name: "BAB", stages: ["Before", "After", "Bridge"] },
} as const;

export type FrameworkName = keyof typeof FRAMEWORKS;

/** "PAS (Problem, Agitate, Solve)". */
export function frameworkTitle(name: string): string {
  const framework = FRAMEWORKS[name as FrameworkName];
  return framework ? `${framework.name} (${framework.stages.join(", ")})` : name;
}

/** The note every offline result carries, so nobody mistakes it for AI writing. */
export function offlineNote(framework: string): string {
  return `Drafted offline with the ${framework} framework from your own inputs — no AI provider is configured.`;
}
