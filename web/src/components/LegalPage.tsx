import { Link } from "wouter";
import { ROUTES } from "../routes";

/** A section of a legal page: its heading and paragraphs, a list, a table and paragraphs after them, a contact address. */
type LegalSection = {
  heading: string;
  paragraphs: readonly string[];
  items?: readonly string[];
  /** A two-column table (the privacy policy's retention schedule): its caption, column headings and rows. */
  table?: { caption: string; head: readonly [string, string]; rows: readonly (readonly [string, string])[] };
  after?: readonly string[];
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
  return (
    <article className="legal container">
      <h1 tabIndex={-1}>{content.title}</h1>
      <p className="legal__updated">
        {content.lastUpdatedLabel} {content.lastUpdated}
      </p>
      {content.sections.map((section) => (
        <section key={section.heading} className="legal__section">
          <h2>{section.heading}</h2>
          {section.paragraphs.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
          {section.items && (
            <ul>
              {section.items.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          )}
          {section.table && (
            <table>
              <caption>{section.table.caption}</caption>
              <thead>
                <tr>
                  {section.table.head.map((cell) => (
                    <th key={cell} scope="col">
                      {cell}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {section.table.rows.map(([what, howLong]) => (
                  <tr key={what}>
                    <th scope="row">{what}</th>
                    <td>{howLong}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {section.after?.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
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
