/** Builds indented source text line by line. */
export class CodeWriter {
  private readonly lines: string[] = [];
  private depth = 0;

  /** Adds one line at the current indentation. */
  line(text: string): void {
    this.lines.push(`${"  ".repeat(this.depth)}${text}`);
  }

  /** Adds a line that opens a block, then indents. */
  open(text: string): void {
    this.line(text);
    this.depth += 1;
  }

  /** Dedents, then adds a line that closes a block (it may open the next one, as `} else {`). */
  close(text: string): void {
    this.depth -= 1;
    this.line(text);
  }

  /** Indents without writing (after a `close("} else {")`). */
  indent(): void {
    this.depth += 1;
  }

  /** The text written so far. */
  text(): string {
    return `${this.lines.join("\n")}\n`;
  }
}
