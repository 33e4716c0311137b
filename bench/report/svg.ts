import type { ClientName, TransportName } from "../clients/bench-client.js";
import type { ThroughputCell } from "../sections/throughput.js";
import { CONCURRENCIES, PAYLOADS } from "../sections/throughput.js";

const TRANSPORTS: readonly TransportName[] = ["stdio", "socket", "http", "websocket"];
const CLIENTS: readonly { name: ClientName; color: string }[] = [
  { name: "glass-sdk", color: "#2563eb" },
  { name: "raw", color: "#9ca3af" },
  { name: "raw-parsed", color: "#6b7280" },
  { name: "mcp-sdk", color: "#f59e0b" },
];
const PANEL = { width: 480, height: 300, left: 56, bottom: 40, top: 34 };

const escapeXml = (text: string): string => text.replace(/&/g, "&amp;").replace(/</g, "&lt;");
const short = (value: number): string => {
  if (value < 1000) return value.toFixed(0);
  const thousands = value / 1000;
  return `${thousands >= 10 && Number.isInteger(Math.round(thousands * 10) / 10) ? thousands.toFixed(0) : thousands.toFixed(1)}k`;
};

/** A round axis above `max` (1, 2 or 5 times a power of ten) and how many ticks divide it evenly. */
function niceAxis(max: number): { top: number; ticks: number } {
  const power = 10 ** Math.floor(Math.log10(max));
  const mantissa = [1, 2, 5, 10].find((m) => m * power >= max) ?? 10;
  return { top: mantissa * power, ticks: mantissa === 2 ? 4 : 5 };
}

/** One panel: a payload × concurrency, transports grouped along x, one bar per client. */
function panel(cells: readonly ThroughputCell[], title: string, x: number, y: number): string {
  const { top: max, ticks } = niceAxis(Math.max(1, ...cells.map((c) => c.callsPerSecond)));
  const plotWidth = PANEL.width - PANEL.left - 10;
  const plotHeight = PANEL.height - PANEL.top - PANEL.bottom;
  const groupWidth = plotWidth / TRANSPORTS.length;
  const barWidth = (groupWidth - 16) / CLIENTS.length;
  const toY = (value: number): number => PANEL.top + plotHeight - (value / max) * plotHeight;
  const parts: string[] = [
    `<g transform="translate(${x},${y})">`,
    `<text x="${PANEL.width / 2}" y="18" text-anchor="middle" font-weight="bold">${escapeXml(title)}</text>`,
  ];
  for (let tick = 0; tick <= ticks; tick++) {
    const value = (max / ticks) * tick;
    const ty = toY(value).toFixed(1);
    parts.push(
      `<line x1="${PANEL.left}" x2="${PANEL.left + plotWidth}" y1="${ty}" y2="${ty}" stroke="#e5e7eb"/>`,
      `<text x="${PANEL.left - 6}" y="${ty}" text-anchor="end" dominant-baseline="middle" font-size="11">${short(value)}</text>`,
    );
  }
  TRANSPORTS.forEach((transport, g) => {
    const gx = PANEL.left + g * groupWidth + 8;
    CLIENTS.forEach((client, k) => {
      const cell = cells.find((c) => c.transport === transport && c.client === client.name);
      if (cell === undefined) return;
      const bx = gx + k * barWidth;
      const by = toY(cell.callsPerSecond);
      parts.push(
        `<rect x="${bx.toFixed(1)}" y="${by.toFixed(1)}" width="${(barWidth - 2).toFixed(1)}" height="${(PANEL.top + plotHeight - by).toFixed(1)}" fill="${client.color}"><title>${escapeXml(`${client.name} over ${transport}: ${cell.callsPerSecond.toFixed(0)} calls/s, p50 ${cell.p50Ms.toFixed(3)} ms, p99 ${cell.p99Ms.toFixed(3)} ms`)}</title></rect>`,
        `<text x="${(bx + barWidth / 2 - 1).toFixed(1)}" y="${(by - 3).toFixed(1)}" text-anchor="middle" font-size="9">${short(cell.callsPerSecond)}</text>`,
      );
    });
    parts.push(
      `<text x="${(gx + groupWidth / 2 - 8).toFixed(1)}" y="${PANEL.top + plotHeight + 16}" text-anchor="middle" font-size="12">${transport}</text>`,
    );
  });
  parts.push(
    `<line x1="${PANEL.left}" x2="${PANEL.left}" y1="${PANEL.top}" y2="${PANEL.top + plotHeight}" stroke="#6b7280"/>`,
    "</g>",
  );
  return parts.join("\n");
}

/** A hand-written SVG: throughput (calls/s) per transport and client, one panel per payload × calls in flight. */
export function throughputSvg(cells: readonly ThroughputCell[], subtitle: string): string {
  const width = PANEL.width * 2 + 20;
  const height = PANEL.height * 2 + 90;
  const panels: string[] = [];
  PAYLOADS.forEach((payload, row) => {
    CONCURRENCIES.forEach((concurrency, column) => {
      const selected = cells.filter((c) => c.payload === payload && c.concurrency === concurrency);
      panels.push(
        panel(
          selected,
          `${payload === "small" ? "small read (observe)" : "~100 KB Web IR (webIr.validate)"}, ${concurrency} in flight`,
          10 + column * PANEL.width,
          50 + row * PANEL.height,
        ),
      );
    });
  });
  const legend = CLIENTS.map(
    (client, k) =>
      `<rect x="${20 + k * 130}" y="${height - 24}" width="12" height="12" fill="${client.color}"/><text x="${36 + k * 130}" y="${height - 14}" font-size="12">${client.name}</text>`,
  ).join("");
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="${width / 2}" y="22" text-anchor="middle" font-size="16" font-weight="bold">Throughput (calls/s, higher is better) per transport and client</text>`,
    `<text x="${width / 2}" y="40" text-anchor="middle" font-size="11" fill="#4b5563">${escapeXml(subtitle)}</text>`,
    ...panels,
    legend,
    "</svg>",
    "",
  ].join("\n");
}
