/**
 * The system images shipped with Crafter (stock photos when no Unsplash key is configured, and the
 * backgrounds of the offline composer). They are drawn from these SVG recipes by sharp at start and
 * put in the bucket once, so the repository holds no binary files.
 */
export interface SystemImage {
  id: string;
  description: string;
  keywords: string[];
  svg: string;
}

const W = 1600;
const H = 1067;

function gradient(id: string, from: string, to: string, vertical = true): string {
  return `<linearGradient id="${id}" x1="0" y1="0" x2="${vertical ? 0 : 1}" y2="${vertical ? 1 : 0}"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient>`;
}

function svg(defs: string, body: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}"><defs>${defs}</defs>${body}</svg>`;
}

function mountains(): string {
  return svg(
    gradient("sky", "#f6d365", "#fda085"),
    `<rect width="${W}" height="${H}" fill="url(#sky)"/><circle cx="1150" cy="330" r="120" fill="#fff4d6"/>` +
      `<polygon points="0,800 350,380 700,800" fill="#6b5b95"/><polygon points="400,850 850,300 1300,850" fill="#4a3f6b"/>` +
      `<polygon points="900,850 1300,450 1600,750 1600,850" fill="#5d4e86"/><rect y="820" width="${W}" height="${H - 820}" fill="#2e294e"/>`,
  );
}

function ocean(): string {
  const waves = Array.from({ length: 6 }, (_, i) => {
    const y = 640 + i * 70;
    return `<path d="M0 ${y} Q 200 ${y - 30} 400 ${y} T 800 ${y} T 1200 ${y} T 1600 ${y} V ${H} H 0 Z" fill="#1e6091" opacity="${0.35 + i * 0.1}"/>`;
  }).join("");
  return svg(
    gradient("sky", "#a1c4fd", "#c2e9fb"),
    `<rect width="${W}" height="${H}" fill="url(#sky)"/><circle cx="400" cy="300" r="90" fill="#fffbe6"/>${waves}`,
  );
}

function city(): string {
  let x = 0;
  let buildings = "";
  let n = 0;
  while (x < W) {
    const w = 90 + ((n * 37) % 80);
    const h = 250 + ((n * 97) % 420);
    buildings += `<rect x="${x}" y="${H - h}" width="${w - 8}" height="${h}" fill="${n % 2 ? "#22223b" : "#4a4e69"}"/>`;
    for (let wy = H - h + 20; wy < H - 30; wy += 40) {
      for (let wx = x + 12; wx < x + w - 28; wx += 26) {
        if ((wx + wy + n) % 3 !== 0)
          buildings += `<rect x="${wx}" y="${wy}" width="12" height="18" fill="#f2e9e4" opacity="0.8"/>`;
      }
    }
    x += w;
    n++;
  }
  return svg(gradient("sky", "#0f2027", "#2c5364"), `<rect width="${W}" height="${H}" fill="url(#sky)"/>${buildings}`);
}

function abstract(palette: string[]): string {
  const circles = Array.from({ length: 14 }, (_, i) => {
    const cx = (i * 397) % W;
    const cy = (i * 233) % H;
    const r = 80 + ((i * 71) % 220);
    return `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${palette[i % palette.length]}" opacity="0.75"/>`;
  }).join("");
  return svg(
    gradient("bg", palette[0]!, palette[palette.length - 1]!, false),
    `<rect width="${W}" height="${H}" fill="url(#bg)"/>${circles}`,
  );
}

function desk(): string {
  return svg(
    gradient("wall", "#e9e4d8", "#d6cfc0"),
    `<rect width="${W}" height="${H}" fill="url(#wall)"/><rect y="720" width="${W}" height="${H - 720}" fill="#8d6e63"/>` +
      `<rect x="480" y="380" width="640" height="360" rx="16" fill="#263238"/><rect x="505" y="405" width="590" height="310" fill="#90caf9"/>` +
      `<rect x="700" y="740" width="200" height="20" fill="#37474f"/><circle cx="1300" cy="680" r="60" fill="#ffffff"/>` +
      `<rect x="1270" y="560" width="60" height="80" fill="#4caf50"/><ellipse cx="300" cy="720" rx="120" ry="18" fill="#5d4037"/>`,
  );
}

function forest(): string {
  const trees = Array.from({ length: 16 }, (_, i) => {
    const x = 50 + i * 100;
    const h = 300 + ((i * 53) % 250);
    return `<polygon points="${x},${900 - h} ${x - 70},900 ${x + 70},900" fill="${i % 2 ? "#2d6a4f" : "#40916c"}"/>`;
  }).join("");
  return svg(
    gradient("sky", "#d8f3dc", "#95d5b2"),
    `<rect width="${W}" height="${H}" fill="url(#sky)"/>${trees}<rect y="900" width="${W}" height="${H - 900}" fill="#1b4332"/>`,
  );
}

export const SYSTEM_IMAGES: SystemImage[] = [
  {
    id: "mountains-sunset",
    description: "Mountains at sunset",
    keywords: ["mountains", "sunset", "nature", "landscape", "travel"],
    svg: mountains(),
  },
  {
    id: "ocean-waves",
    description: "Ocean waves under a bright sky",
    keywords: ["ocean", "sea", "waves", "beach", "summer", "nature"],
    svg: ocean(),
  },
  {
    id: "city-night",
    description: "City skyline at night",
    keywords: ["city", "night", "buildings", "urban", "skyline", "business"],
    svg: city(),
  },
  {
    id: "abstract-warm",
    description: "Warm abstract shapes",
    keywords: ["abstract", "warm", "colorful", "background", "shapes"],
    svg: abstract(["#ff9a8b", "#ff6a88", "#ff99ac", "#fcb69f"]),
  },
  {
    id: "abstract-cool",
    description: "Cool abstract shapes",
    keywords: ["abstract", "cool", "blue", "background", "shapes", "technology"],
    svg: abstract(["#667eea", "#764ba2", "#6dd5ed", "#2193b0"]),
  },
  {
    id: "office-desk",
    description: "A desk with a computer and a plant",
    keywords: ["office", "desk", "work", "computer", "business", "workspace"],
    svg: desk(),
  },
  {
    id: "forest",
    description: "A green forest",
    keywords: ["forest", "trees", "green", "nature", "outdoors"],
    svg: forest(),
  },
];
