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

/** A source map's fields this module reads. */
export interface SourceMap {
  sources: string[];
  mappings: string;
}

/**
 * The original source owning each line's stretches of a generated text, from its source map: each
 * mapping segment owns the text up to the next segment on its line (text before a line's first
 * segment, and segments without a source, are `(unmapped)`). Calls `own(source, start, end)` with
 * offsets into `text` (line breaks go to the stretch before them).
 */
export function forEachOwnedStretch(
  text: string,
  map: SourceMap,
  own: (source: string, start: number, end: number) => void,
): void {
  const lines = text.split("\n");
  let sourceIndex = 0;
  let offset = 0;
  map.mappings.split(";").forEach((lineMappings, lineIndex) => {
    if (lineIndex >= lines.length) return;
    const width = lines[lineIndex]!.length + (lineIndex < lines.length - 1 ? 1 : 0);
    let column = 0;
    const starts: { column: number; source: string }[] = [];
    for (const fields of lineMappings === "" ? [] : lineMappings.split(",").map(decodeSegment)) {
      column += fields[0]!;
      if (fields.length >= 4) {
        sourceIndex += fields[1]!;
        starts.push({ column, source: map.sources[sourceIndex] ?? "(unknown)" });
      } else {
        starts.push({ column, source: "(unmapped)" });
      }
    }
    own("(unmapped)", offset, offset + (starts.length === 0 ? width : starts[0]!.column));
    starts.forEach((start, index) =>
      own(start.source, offset + start.column, offset + (starts[index + 1]?.column ?? width)),
    );
    offset += width;
  });
}

/**
 * Bytes of a generated file by original source, read from its source map ({@link forEachOwnedStretch}).
 * The file is assumed ASCII, as minified output is, so characters are bytes.
 */
export function bytesBySource(file: string, mapFile: string): Map<string, number> {
  const totals = new Map<string, number>();
  const map = JSON.parse(readFileSync(mapFile, "utf8")) as SourceMap;
  forEachOwnedStretch(
    readFileSync(file, "utf8"),
    map,
    (source, start, end) => void totals.set(source, (totals.get(source) ?? 0) + (end - start)),
  );
  return totals;
}
