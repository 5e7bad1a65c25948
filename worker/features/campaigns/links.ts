/**
 * The one reading of a campaign body's links (worker/features/campaigns/content.ts): the renderer turns
 * its pieces into links and text, and campaignBodyProblem refuses a body whose `[words](…)` it
 * would not turn into a link, so the operator never sends raw markdown or half a link. Before,
 * the check and the renderer had a regex each: `[Foo](https://en.wikipedia.org/wiki/Foo_(bar))`
 * passed the check and went out as "[Foo](" + a link to …/Foo_ + "(bar))".
 *
 * A link is `[words](address)`, its address running to the `)` that balances the opening one
 * (so parentheses inside it, as Wikipedia's, belong to it), or a bare http(s) address, whose end
 * leaves out the sentence's punctuation and a `)` it did not open. Only http(s) addresses with a
 * host become links: no `javascript:` or `data:` link ever reaches a recipient.
 */

/** A piece of a line: text as typed, or a link with its words (a bare address: as typed) and its http(s) address. */
export type LinkPiece = { text: string } | { text: string; href: string; bare: boolean };

/** Why a `[words](…)` is no link: its address is not http(s) (or has spaces), or its `(` is never closed on the line. */
export type LinkProblem = { words: string; problem: "address" | "unclosed" };

/** Where a link may start: `[words](`, or a bare http(s):// address. */
const START = /\[([^\]\n]+)\]\(|\bhttps?:\/\//gi;
/** What a bare address does not end with: the sentence's punctuation. */
const TRAILING = /[.,;:!?'"]$/;

/** An address a recipient may follow: http or https, and a host; null for anything else. */
export function safeHref(address: string): string | null {
  if (/\s/.test(address)) return null;
  try {
    const url = new URL(address);
    return (url.protocol === "https:" || url.protocol === "http:") && url.hostname ? url.href : null;
  } catch {
    return null;
  }
}

/** The index of the `)` that closes the `(` just before `from`, or -1 when the line never closes it. */
function closingParen(line: string, from: number): number {
  let depth = 1;
  for (let at = from; at < line.length; at += 1) {
    if (line[at] === "(") depth += 1;
    else if (line[at] === ")" && --depth === 0) return at;
  }
  return -1;
}

/** A bare address from `start`: up to a space or `<>`, less trailing punctuation and unbalanced `)`. */
function bareEnd(line: string, start: number): number {
  let address = /^[^\s<>]+/.exec(line.slice(start))?.[0] ?? "";
  for (;;) {
    const opened = address.split("(").length - 1;
    const closed = address.split(")").length - 1;
    if (TRAILING.test(address) || (address.endsWith(")") && closed > opened)) address = address.slice(0, -1);
    else break;
  }
  return start + address.length;
}

/** One line read into text and links, with what the body check refuses. */
export function scanLine(line: string): { pieces: LinkPiece[]; problems: LinkProblem[] } {
  const pieces: LinkPiece[] = [];
  const problems: LinkProblem[] = [];
  let text = 0;
  let at = 0;
  const flush = (end: number) => {
    if (end > text) pieces.push({ text: line.slice(text, end) });
  };
  for (;;) {
    START.lastIndex = at;
    const match = START.exec(line);
    if (!match) break;
    const words = match[1];
    const open = match.index + match[0].length;
    if (words !== undefined) {
      const close = closingParen(line, open);
      if (close < 0) {
        // Shown as typed; the scan goes on inside (a bare address there is still a link).
        problems.push({ words, problem: "unclosed" });
        at = open;
        continue;
      }
      const href = safeHref(line.slice(open, close));
      if (href) {
        flush(match.index);
        pieces.push({ text: words, href, bare: false });
        text = close + 1;
      } else problems.push({ words, problem: "address" });
      // A refused link stays text, all of it: nothing inside it becomes a link either.
      at = close + 1;
      continue;
    }
    const end = bareEnd(line, match.index);
    const href = safeHref(line.slice(match.index, end));
    if (href && end > open) {
      flush(match.index);
      pieces.push({ text: line.slice(match.index, end), href, bare: true });
      text = end;
    }
    at = Math.max(end, open);
  }
  flush(line.length);
  return { pieces, problems };
}
