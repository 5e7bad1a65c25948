import { home } from "../content";

/** The home page (/). A placeholder until the marketing sections (hero, features, ...) land. */
export function HomePage() {
  return (
    <section className="home">
      <h1>{home.headline}</h1>
      <p>
        {home.comingSoon} {home.apiHint} <a href={home.apiLink.href}>{home.apiLink.label}</a>.
      </p>
    </section>
  );
}
