import { Link } from "wouter";
import type { LegalPageContent } from "../content";
import { ROUTES } from "../routes";

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
