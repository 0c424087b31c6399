import { MAX_BYTES } from "@crafter/media-language";
import { describe, expect, it } from "@jest/globals";
import { chunkCount, expectedChunkSize, receivedBytes } from "../src/domain/chunks";
import { headlineOf, parseSize, pickImage, wrapHeadline } from "../src/domain/compose";
import { parseOperations } from "../src/domain/operations";
import { expiryOf, signedUrl, verifySignedUrl } from "../src/domain/signing";
import { assetName, classifyUpload, nameTokens } from "../src/domain/upload";
import { voicesFor } from "../src/providers/speech";

const codeOf = (run: () => unknown) => {
  try {
    run();
    return "ok";
  } catch (error) {
    return (error as { code?: string }).code;
  }
};

describe("upload checks", () => {
  it("classifies by the detected type and refuses what no kind accepts", () => {
    expect(classifyUpload({ mime: "image/png", ext: "png" }, 1000)).toEqual({
      type: "image",
      mime: "image/png",
      ext: "png",
    });
    expect(classifyUpload({ mime: "audio/mpeg", ext: "mp3" }, 1000).type).toBe("audio");
    expect(codeOf(() => classifyUpload(undefined, 10))).toBe("MEDIA_UNSUPPORTED_TYPE");
    expect(codeOf(() => classifyUpload({ mime: "application/pdf", ext: "pdf" }, 10))).toBe("MEDIA_UNSUPPORTED_TYPE");
    expect(codeOf(() => classifyUpload({ mime: "image/png", ext: "png" }, 10, "video"))).toBe("MEDIA_UNSUPPORTED_TYPE");
  });

  it("applies the limit of the detected kind: 15 MB images, 50 MB audio", () => {
    expect(codeOf(() => classifyUpload({ mime: "image/jpeg", ext: "jpg" }, MAX_BYTES.image))).toBe("ok");
    expect(codeOf(() => classifyUpload({ mime: "image/jpeg", ext: "jpg" }, MAX_BYTES.image + 1))).toBe(
      "MEDIA_TOO_LARGE",
    );
    expect(codeOf(() => classifyUpload({ mime: "audio/wav", ext: "wav" }, 20 * 1024 * 1024))).toBe("ok");
    expect(codeOf(() => classifyUpload({ mime: "audio/wav", ext: "wav" }, MAX_BYTES.audio + 1))).toBe(
      "MEDIA_TOO_LARGE",
    );
  });

  it("keeps only the base name, without control characters, and tokenises it", () => {
    expect(assetName("C:\\photos\\../Été\u0000 2024.jpg", "x")).toBe("Été 2024.jpg");
    expect(assetName("   ", "fallback")).toBe("fallback");
    expect(nameTokens("Été 2024 – Beach.JPG")).toEqual(["ete", "2024", "beach", "jpg"]);
  });
});

describe("signed URLs", () => {
  const secret = "s".repeat(40);
  const now = new Date("2026-01-01T00:00:00Z");
  const key = "crafter/u1/a1/original.jpg";

  it("verify until they expire, and not for another key or signature", () => {
    const exp = expiryOf(now, 3600);
    const url = new URL(signedUrl(secret, key, exp), "http://x");
    const sig = url.searchParams.get("sig")!;
    expect(url.pathname).toBe(`/media/${key}`);
    expect(verifySignedUrl(secret, key, exp, sig, now)).toBe(true);
    expect(verifySignedUrl(secret, key, exp, sig, new Date(exp * 1000 + 1000))).toBe(false);
    expect(verifySignedUrl(secret, "crafter/u2/a1/original.jpg", exp, sig, now)).toBe(false);
    expect(verifySignedUrl(secret, key, exp + 1, sig, now)).toBe(false);
    expect(verifySignedUrl("t".repeat(40), key, exp, sig, now)).toBe(false);
    expect(verifySignedUrl(secret, "crafter/../x/y", exp, sig, now)).toBe(false);
  });
});

describe("chunks", () => {
  it("count, size and the contiguous resume point", () => {
    expect(chunkCount(12, 5)).toBe(3);
    expect([0, 1, 2].map((i) => expectedChunkSize(i, 12, 5))).toEqual([5, 5, 2]);
    expect(receivedBytes([0, 2], 12, 5)).toBe(5);
    expect(receivedBytes([1, 0, 2], 12, 5)).toBe(12);
    expect(receivedBytes([], 12, 5)).toBe(0);
  });
});

describe("edit operations", () => {
  it("parse the contract's operations and name the bad field", () => {
    const ops = parseOperations(
      JSON.stringify([
        { op: "crop", x: 0, y: 0, width: 100, height: 50 },
        { op: "resize", width: 40 },
        { op: "filter", name: "sepia" },
        { op: "text", text: "Hi", x: 1, y: 2, size: 12, color: "#fff" },
        { op: "background", color: "#112233" },
        { op: "rotate", degrees: 90 },
      ]),
    );
    expect(ops.map((o) => o.op)).toEqual(["crop", "resize", "filter", "text", "background", "rotate"]);
    expect(ops[1]).toMatchObject({ fit: "cover" });
    expect(codeOf(() => parseOperations("{"))).toBe("CR_ERR_BAD_REQUEST");
    expect(codeOf(() => parseOperations("[]"))).toBe("CR_ERR_BAD_REQUEST");
    expect(codeOf(() => parseOperations(JSON.stringify([{ op: "crop", x: -1, y: 0, width: 1, height: 1 }])))).toBe(
      "CR_ERR_BAD_REQUEST",
    );
    expect(
      codeOf(() => parseOperations(JSON.stringify([{ op: "text", text: "a", x: 0, y: 0, size: 9, color: "red" }]))),
    ).toBe("CR_ERR_BAD_REQUEST");
  });
});

describe("composer layout", () => {
  it("parses network sizes and refuses others", () => {
    expect(parseSize("")).toEqual({ width: 1080, height: 1080 });
    expect(parseSize("1200x628")).toEqual({ width: 1200, height: 628 });
    expect(parseSize("99999x1")).toBeUndefined();
    expect(parseSize("abc")).toBeUndefined();
  });

  it("picks the image the prompt names, stably otherwise", () => {
    const images = [
      { id: "a", keywords: ["ocean"] },
      { id: "b", keywords: ["city"] },
    ];
    expect(pickImage("A night in the city", images)).toBe("b");
    expect(pickImage("xyz", images)).toBe(pickImage("xyz", images));
  });

  it("wraps a headline within the width, shrinking the font when needed", () => {
    const { lines, size } = wrapHeadline("Fresh bread every morning from our family bakery", 600, 90);
    expect(lines.length).toBeLessThanOrEqual(4);
    for (const line of lines) expect(line.length * size * 0.55).toBeLessThanOrEqual(600);
    expect(headlineOf("", "Grand opening. Come by on Saturday")).toBe("Grand opening.");
  });
});

describe("voices", () => {
  it("gives each speaker their own voice in order of appearance", () => {
    const voices = voicesFor(
      [
        { speaker: "Ann", text: "a" },
        { speaker: "Bob", text: "b" },
        { speaker: "Ann", text: "c" },
      ],
      ["v1", "v2"],
    );
    expect([...voices]).toEqual([
      ["Ann", "v1"],
      ["Bob", "v2"],
    ]);
  });
});
