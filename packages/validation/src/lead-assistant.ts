/** The tones a lead assistant answers in (its system prompt says the tone); "friendly" by default. */
export const ASSISTANT_TONES = ["friendly", "professional", "casual", "enthusiastic", "concise"] as const;

export type AssistantTone = (typeof ASSISTANT_TONES)[number];
