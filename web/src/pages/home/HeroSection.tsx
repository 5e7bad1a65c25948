import Sparkles from "lucide-react/icons/sparkles";
import { Demo } from "../../components/Demo";
import { Icon } from "../../components/Icon";
import { WaitlistForm } from "../../components/WaitlistForm";
import { pageClaimWords } from "../../claims";
import { hero } from "../../content";
import { SECTION_IDS } from "../../routes";

const TITLE_ID = `${SECTION_IDS.hero}-title`;

/** The hero (spec §2): headline, waitlist form, three status badges and the typing demo. */
export function HeroSection() {
  const lead = hero.headline.slice(0, hero.headline.length - hero.headlineAccent.length);
  // The claims the page carries (the worker writes them into the marked elements too).
  const words = pageClaimWords();
  return (
    <section id={SECTION_IDS.hero} className="hero" aria-labelledby={TITLE_ID}>
      <div className="container hero__inner">
        <div className="hero__copy">
          <p className="hero__eyebrow">
            <Sparkles aria-hidden="true" className="icon" />
            {hero.eyebrow}
          </p>
          <h1 id={TITLE_ID} tabIndex={-1}>
            {lead}
            <span className="hero__accent">{hero.headlineAccent}</span>
          </h1>
          <p className="hero__intro" data-claim="heroIntro">
            {words.heroIntro}
          </p>
          <WaitlistForm source="hero" />
          <ul className="badges" aria-label={hero.badgesLabel}>
            {hero.badges.map((badge) => (
              <li key={badge.text} className="badge">
                <Icon name={badge.icon} className="icon" />
                {"claim" in badge ? <span data-claim={badge.claim}>{words[badge.claim]}</span> : badge.text}
              </li>
            ))}
          </ul>
        </div>
        <div className="hero__demo">
          <Demo />
        </div>
      </div>
    </section>
  );
}
