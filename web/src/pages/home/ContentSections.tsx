import Check from "lucide-react/icons/check";
import { ContactForm } from "../../components/ContactForm";
import { Icon } from "../../components/Icon";
import { WaitlistForm } from "../../components/WaitlistForm";
import { pageClaimWords } from "../../claims";
import { advancedAi, closingCta, contactEmail, contactSection, features, howItWorks, subjects } from "../../content";
import { waitlistForm } from "../../form-content";
import { SECTION_IDS } from "../../routes";
import { Section } from "./Section";

export function FeaturesSection() {
  const words = pageClaimWords();
  return (
    <Section id={SECTION_IDS.features} title={features.title} intro={features.intro}>
      <ul className="card-grid card-grid--four">
        {features.items.map((item) => (
          <li key={item.title} className="tile">
            <Icon name={item.icon} className="tile__icon" />
            <h3>{item.title}</h3>
            {"claim" in item ? <p data-claim={item.claim}>{words[item.claim]}</p> : <p>{item.text}</p>}
          </li>
        ))}
      </ul>
    </Section>
  );
}

/** Spec §1: Snap or Type, AI Analyzes, Learn & Excel. */
export function HowItWorksSection() {
  return (
    <Section id={SECTION_IDS.howItWorks} title={howItWorks.title} intro={howItWorks.intro} className="section--alt">
      <ol className="card-grid card-grid--three steps">
        {howItWorks.steps.map((step, index) => (
          <li key={step.title} className="tile">
            <Icon name={step.icon} className="tile__icon" />
            <p className="steps__number">
              {howItWorks.stepLabel} {index + 1}
            </p>
            <h3>{step.title}</h3>
            <p>{step.text}</p>
          </li>
        ))}
      </ol>
    </Section>
  );
}

/** The advanced-AI section with the stats claims (99% accuracy, under 30 s, 1,000+ waiting). */
export function AdvancedAiSection() {
  const words = pageClaimWords();
  return (
    <Section id={SECTION_IDS.advancedAi} title={advancedAi.title} intro={advancedAi.intro}>
      <div className="ai">
        <ul className="ai__points">
          {advancedAi.points.map((point) => (
            <li key={point}>
              <Check aria-hidden="true" className="icon" />
              {point}
            </li>
          ))}
        </ul>
        <dl className="stats">
          {advancedAi.stats.map((stat) => {
            const value = words[stat.claim];
            // The students' line is left out while the count is below the threshold.
            if (value === null) return null;
            return (
              <div key={stat.label} className="stats__item" data-claim={"line" in stat ? stat.line : undefined}>
                <dt>{stat.label}</dt>
                <dd data-claim={stat.claim}>{value}</dd>
              </div>
            );
          })}
        </dl>
      </div>
    </Section>
  );
}

/** Spec §1: six subjects, "from basic arithmetic to advanced calculus". */
export function SubjectsSection() {
  return (
    <Section id={SECTION_IDS.subjects} title={subjects.title} intro={subjects.intro} className="section--alt">
      <ul className="card-grid card-grid--three">
        {subjects.items.map((subject) => (
          <li key={subject.name} className="tile tile--row">
            <Icon name={subject.icon} className="tile__icon" />
            <div>
              <h3>{subject.name}</h3>
              <p>{subject.text}</p>
            </div>
          </li>
        ))}
      </ul>
    </Section>
  );
}

/** The contact section (anchor id "contact", spec §2) with the contact form. */
export function ContactSection() {
  return (
    <Section id={SECTION_IDS.contact} title={contactSection.title} intro={contactSection.intro}>
      <div className="contact">
        <p className="contact__email">
          {contactSection.emailPrompt} <a href={`mailto:${contactEmail}`}>{contactEmail}</a>
        </p>
        <div className="card contact__card">
          <ContactForm />
        </div>
      </div>
    </Section>
  );
}

/** The closing waitlist call to action (spec §1: 'Get Early Access'). */
export function ClosingCtaSection() {
  return (
    <Section
      id={SECTION_IDS.earlyAccess}
      title={closingCta.title}
      intro={pageClaimWords()[closingCta.introClaim]}
      introClaim={closingCta.introClaim}
      className="section--cta"
    >
      <div className="cta__form">
        <WaitlistForm label={waitlistForm.ctaLabel} source="cta" />
      </div>
    </Section>
  );
}
