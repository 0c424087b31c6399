/**
 * The reply prompt sent to the assistant for a review, and the offline draft used when no AI
 * provider is configured (the assistant then answers with the offline engine). Pure.
 */
export interface ReviewForReply {
  author: string;
  rating: number;
  text: string;
}

/** The message asking the assistant to draft a reply. */
export function replyPrompt(review: ReviewForReply, business: string): string {
  return [
    `Draft a short, warm public reply from ${business || "the business"} to this ${review.rating}-star review by ${review.author}.`,
    "Thank them by first name, answer what they said specifically, and for 3 stars or fewer apologise and offer to put it right.",
    "At most 80 words, no hashtags, no invented facts. Reply with the text only.",
    "",
    `Review: ${review.text || "(no text)"}`,
  ].join("\n");
}

const firstName = (author: string) => author.trim().split(/\s+/)[0] || "there";

/**
 * A reply drafted from the review itself, without AI: thanks by name, echoes the rating, and for
 * a low rating apologises and invites the reviewer to get in touch. The page labels it as offline.
 */
export function offlineReplyDraft(review: ReviewForReply, business: string): string {
  const name = firstName(review.author);
  const from = business ? `— the ${business} team` : "— the team";
  if (review.rating >= 4) {
    return `Thank you, ${name}! We're so glad you had a good experience and really appreciate you taking the time to leave a ${review.rating}-star review. We look forward to seeing you again. ${from}`;
  }
  if (review.rating === 3) {
    return `Thank you for your feedback, ${name}. We're glad some things went well, and we'd love to hear what would have made it a 5-star visit — please get in touch so we can do better next time. ${from}`;
  }
  return `${name}, we're sorry your experience fell short. This isn't the standard we aim for. Please contact us directly so we can understand what happened and put it right. ${from}`;
}
