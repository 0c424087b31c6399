import type { Operation } from "@crafter/media-language";

/**
 * The work an edit asks for, before any pixel is touched: the image's size after each operation
 * (as imaging/edit.ts applies it, `scale` mapping the operation's pixels onto the image) and the
 * cost, the sum over the operations of the pixels each one outputs (output pixels × operations).
 * A resize to 8192×8192, a rotate and a blur of a 1200 px preview cost about 220 million.
 */
export function editCost(
  width: number,
  height: number,
  operations: readonly Operation[],
  scale = 1,
): { width: number; height: number; cost: number } {
  const px = (value: number) => Math.max(1, Math.round(value * scale));
  let w = width;
  let h = height;
  let cost = 0;
  for (const op of operations) {
    switch (op.op) {
      case "crop": {
        const left = Math.round(op.x * scale);
        const top = Math.round(op.y * scale);
        if (left < w && top < h) {
          w = Math.min(px(op.width), w - left);
          h = Math.min(px(op.height), h - top);
        }
        break;
      }
      case "resize": {
        const boxW = px(op.width);
        if (op.height === undefined) {
          h = Math.max(1, Math.round((h * boxW) / w));
          w = boxW;
          break;
        }
        const boxH = px(op.height);
        if (op.fit === "inside" || op.fit === "outside") {
          const ratio = (op.fit === "inside" ? Math.min : Math.max)(boxW / w, boxH / h);
          w = Math.max(1, Math.round(w * ratio));
          h = Math.max(1, Math.round(h * ratio));
        } else {
          w = boxW;
          h = boxH;
        }
        break;
      }
      case "rotate": {
        const radians = (op.degrees * Math.PI) / 180;
        const cos = Math.abs(Math.cos(radians));
        const sin = Math.abs(Math.sin(radians));
        [w, h] = [Math.ceil(w * cos + h * sin), Math.ceil(w * sin + h * cos)];
        break;
      }
      default:
        break;
    }
    cost += w * h;
  }
  return { width: w, height: h, cost };
}
