import { describe, expect, it } from "@jest/globals";
import { attachmentProblem, MAX_ATTACHMENT_BYTES } from "./attachments";

describe("email attachments", () => {
  it("accepts images up to 10 MB and at most 5 files", () => {
    expect(attachmentProblem({ type: "image/png", size: 1000 }, 0)).toBeNull();
    expect(attachmentProblem({ type: "image/png", size: MAX_ATTACHMENT_BYTES }, 4)).toBeNull();
    expect(attachmentProblem({ type: "image/png", size: MAX_ATTACHMENT_BYTES + 1 }, 0)).toMatch(/10 MB/);
    expect(attachmentProblem({ type: "application/x-msdownload", size: 10 }, 0)).toMatch(/image/);
    expect(attachmentProblem({ type: "image/png", size: 10 }, 5)).toMatch(/At most 5/);
    expect(attachmentProblem({ type: "image/png", size: 0 }, 0)).toMatch(/empty/);
  });
});
