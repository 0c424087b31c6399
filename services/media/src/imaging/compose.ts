import sharp, { type OverlayOptions } from "sharp";
import { DEFAULT_COLORS, wrapHeadline } from "../domain/compose";
import { escapeXml } from "./xml";

export interface Composition {
  width: number;
  height: number;
  /** The background photo (any format sharp reads). */
  background: Buffer;
  headline: string;
  /** Brand colours, #rrggbb: the first tints the image, the second is the accent band. */
  colors: readonly string[];
  /** The business's logo (any format sharp reads), placed top-left. */
  logo?: Buffer;
}

/**
 * The offline composer: the background cropped to the network's size, tinted with the brand's
 * first colour, the headline in white over it, an accent band and the logo. PNG.
 */
export async function compose(c: Composition): Promise<Buffer> {
  const [main, accent] = [c.colors[0] ?? DEFAULT_COLORS[0], c.colors[1] ?? DEFAULT_COLORS[1]];
  const margin = Math.round(Math.min(c.width, c.height) * 0.07);
  const { lines, size } = wrapHeadline(c.headline, c.width - 2 * margin, Math.round(c.width / 12));
  const lineHeight = Math.round(size * 1.2);
  const textTop = c.height - margin - Math.round(c.height * 0.04) - lines.length * lineHeight;
  const band = Math.max(8, Math.round(c.height * 0.025));
  const overlay = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${c.width}" height="${c.height}">` +
      `<defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0.25" stop-color="${main}" stop-opacity="0.15"/>` +
      `<stop offset="1" stop-color="${main}" stop-opacity="0.85"/></linearGradient></defs>` +
      `<rect width="${c.width}" height="${c.height}" fill="url(#g)"/>` +
      `<rect y="${c.height - band}" width="${c.width}" height="${band}" fill="${accent}"/>` +
      `<text font-family="Liberation Sans, DejaVu Sans, sans-serif" font-weight="bold" font-size="${size}" fill="#ffffff">` +
      lines
        .map((line, i) => `<tspan x="${margin}" y="${textTop + (i + 1) * lineHeight}">${escapeXml(line)}</tspan>`)
        .join("") +
      `</text></svg>`,
  );
  const layers: OverlayOptions[] = [{ input: overlay, top: 0, left: 0 }];
  if (c.logo) {
    const side = Math.round(Math.min(c.width, c.height) * 0.18);
    const logo = await sharp(c.logo).resize(side, side, { fit: "inside" }).png().toBuffer();
    layers.push({ input: logo, top: margin, left: margin });
  }
  return sharp(c.background)
    .resize(c.width, c.height, { fit: "cover" })
    .composite(layers)
    .png({ compressionLevel: 6 })
    .toBuffer();
}

/** A system image's SVG recipe as JPEG bytes. */
export function renderSvg(svg: string): Promise<Buffer> {
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}
