import { readFileSync } from "node:fs";

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const DIGIT = new Map([...BASE64].map((char, index) => [char, index]));

/** The numbers of one source-map segment (base64 VLQ). */
function decodeSegment(segment: string): number[] {
  const values: number[] = [];
  let value = 0;
  let shift = 0;
  for (const char of segment) {
    const digit = DIGIT.get(char)!;
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
      continue;
    }
    values.push(value & 1 ? -(value >>> 1) : value >>> 1);
    value = 0;
    shift = 0;
  }
  return values;
}

/**
 * Bytes of a generated file by original source, read from its source map: each mapping segment
 * owns the generated text up to the next segment on its line (text before a line's first segment,
 * and segments without a source, count as `(unmapped)`). The file is assumed ASCII, as minified
 * output is, so characters are bytes.
 */
export function bytesBySource(file: string, mapFile: string): Map<string, number> {
  const lines = readFileSync(file, "utf8").split("\n");
  const map = JSON.parse(readFileSync(mapFile, "utf8")) as { sources: string[]; mappings: string };
  const totals = new Map<string, number>();
  const add = (source: string, bytes: number): void => void totals.set(source, (totals.get(source) ?? 0) + bytes);
  let sourceIndex = 0;
  map.mappings.split(";").forEach((lineMappings, lineIndex) => {
    const line = lines[lineIndex] ?? "";
    let column = 0;
    const segments = lineMappings === "" ? [] : lineMappings.split(",").map(decodeSegment);
    const starts: { column: number; source: string }[] = [];
    for (const fields of segments) {
      column += fields[0]!;
      if (fields.length >= 4) {
        sourceIndex += fields[1]!;
        starts.push({ column, source: map.sources[sourceIndex] ?? "(unknown)" });
      } else {
        starts.push({ column, source: "(unmapped)" });
      }
    }
    add("(unmapped)", starts.length === 0 ? line.length + 1 : starts[0]!.column);
    starts.forEach((start, index) => add(start.source, (starts[index + 1]?.column ?? line.length + 1) - start.column));
  });
  return totals;
}
