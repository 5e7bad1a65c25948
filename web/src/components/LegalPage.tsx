import { Fragment, useEffect } from "react";
import { Link } from "wouter";
import { ROUTES } from "../routes";

/** A link in a legal page's text: its words and its address ("#/me", "#contact", "/#/privacy-policy?section=..."). */
type LegalLink = { label: string; href: string };

/** A list item: words, or words ending in a link (and what follows the link). */
type LegalItem = string | { text: string; link: LegalLink; after?: string };

/**
 * A table: its caption, column headings and rows. Each row's first cell heads the row (the
 * retention schedule's "what", the consent ages' country).
 */
type LegalTable = { caption: string; head: readonly string[]; rows: readonly (readonly string[])[] };

/**
 * A list folded under a summary (<details>, which opens without JavaScript): the consent ages'
 * sources, too long for a third column at 360 px.
 */
type LegalFolded = { summary: string; items: readonly string[] };

/**
 * What a section or a block of a part holds, in this order: paragraphs, links, a list, a table,
 * a folded list, paragraphs after them.
 */
type LegalBlock = {
  paragraphs: readonly string[];
  links?: readonly LegalLink[];
  items?: readonly LegalItem[];
  table?: LegalTable;
  folded?: LegalFolded;
  after?: readonly string[];
};

/**
 * A part of a section under a heading of its own (the privacy policy's part for parents), with
 * an id: `?section=<id>` in the page's address scrolls to it. Its blocks may have headings.
 */
type LegalPart = { id: string; heading: string; blocks: readonly (LegalBlock & { heading?: string })[] };

/** A section of a legal page: its heading and block, then its parts, then a contact address. */
type LegalSection = LegalBlock & {
  heading: string;
  parts?: readonly LegalPart[];
  /** Shown as a mailto link after the paragraphs. */
  email?: string;
};

/** What a legal page shows (legal-content.ts holds the two pages' words). */
type LegalPageContent = {
  title: string;
  lastUpdatedLabel: string;
  lastUpdated: string;
  sections: readonly LegalSection[];
  backToHome: string;
};

/** A static legal page: title, last-updated date and its sections (spec §2). */
export function LegalPage({ content }: { content: LegalPageContent }) {
  useSectionOfAddress();
  return (
    <article className="legal container">
      <h1 tabIndex={-1}>{content.title}</h1>
      <p className="legal__updated">
        {content.lastUpdatedLabel} {content.lastUpdated}
      </p>
      {content.sections.map((section) => (
        <section key={section.heading} className="legal__section">
          <h2>{section.heading}</h2>
          <Block block={section} />
          {section.parts?.map((part) => (
            <section key={part.id} id={part.id} className="legal__part" aria-labelledby={`${part.id}-heading`}>
              <h3 id={`${part.id}-heading`} tabIndex={-1}>
                {part.heading}
              </h3>
              {part.blocks.map((block) => (
                <Fragment key={block.heading ?? block.paragraphs[0]}>
                  {block.heading && <h4>{block.heading}</h4>}
                  <Block block={block} />
                </Fragment>
              ))}
            </section>
          ))}
          {section.email && (
            <p>
              <a href={`mailto:${section.email}`}>{section.email}</a>
            </p>
          )}
        </section>
      ))}
      <p className="legal__back">
        <Link href={ROUTES.home}>{content.backToHome}</Link>
      </p>
    </article>
  );
}

function Block({ block }: { block: LegalBlock }) {
  return (
    <>
      {block.paragraphs.map((paragraph) => (
        <p key={paragraph}>{paragraph}</p>
      ))}
      {block.links?.map((link) => (
        <p key={link.href}>
          <a href={link.href}>{link.label}</a>
        </p>
      ))}
      {block.items && (
        <ul>
          {block.items.map((item) =>
            typeof item === "string" ? (
              <li key={item}>{item}</li>
            ) : (
              <li key={item.text}>
                {item.text} <a href={item.link.href}>{item.link.label}</a>
                {item.after}
              </li>
            ),
          )}
        </ul>
      )}
      {block.table && <Table table={block.table} />}
      {block.folded && (
        <details>
          <summary>{block.folded.summary}</summary>
          <ul>
            {block.folded.items.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        </details>
      )}
      {block.after?.map((paragraph) => (
        <p key={paragraph}>{paragraph}</p>
      ))}
    </>
  );
}

function Table({ table }: { table: LegalTable }) {
  return (
    <table>
      <caption>{table.caption}</caption>
      <thead>
        <tr>
          {table.head.map((cell) => (
            <th key={cell} scope="col">
              {cell}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {table.rows.map(([first, ...cells]) => (
          <tr key={first}>
            <th scope="row">{first}</th>
            {cells.map((cell, column) => (
              <td key={table.head[column + 1]}>{cell}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * The part a legal page's address names (`/#/privacy-policy?section=for-parents`: the "For
 * parents" links of the forms, the footer and the parent's e-mail): null when it names none.
 */
export function sectionOfHash(hash: string): string | null {
  const query = hash.indexOf("?");
  if (query === -1) return null;
  const id = new URLSearchParams(hash.slice(query + 1)).get("section");
  return id && /^[a-z0-9-]+$/.test(id) ? id : null;
}

/**
 * Scrolls to the part the address names, its heading taking focus: when the page is shown with
 * such an address (a deep link, prerendered and hydrated, or a navigation from another page) and
 * when the address changes to one on this page (the policy's own "For parents" link). Done after
 * the route change's own effects (navigation.tsx: a new page starts at its top, its h1 focused),
 * which run after this page's in the same commit. Instant, as the browser's own jump to a
 * fragment (and so without motion for those who prefer less; the home page's smooth scroll
 * would bring hooks/reduced-motion's export into the home page's first-load script).
 */
const HEADING_ROOM_PX = 16;

function useSectionOfAddress(): void {
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const reveal = () => {
      const id = sectionOfHash(window.location.hash);
      if (id === null) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        const part = document.getElementById(id);
        if (!part?.closest(".legal")) return;
        // Below the sticky header: the part's scroll margin if the stylesheet gives it one, else
        // the header's height and a line's room, so the heading does not touch it.
        const margin =
          Number.parseFloat(getComputedStyle(part).scrollMarginTop) ||
          Math.max(0, document.querySelector(".site-header")?.getBoundingClientRect().bottom ?? 0) + HEADING_ROOM_PX;
        window.scrollTo({ top: Math.max(0, part.getBoundingClientRect().top + window.scrollY - margin), behavior: "auto" });
        part.querySelector<HTMLElement>("h3[tabindex]")?.focus({ preventScroll: true });
      }, 0);
    };
    reveal();
    window.addEventListener("hashchange", reveal);
    return () => {
      clearTimeout(timer);
      window.removeEventListener("hashchange", reveal);
    };
  }, []);
}
