import Atom from "lucide-react/icons/atom";
import BadgeCheck from "lucide-react/icons/badge-check";
import BookOpen from "lucide-react/icons/book-open";
import Brain from "lucide-react/icons/brain";
import Calculator from "lucide-react/icons/calculator";
import Camera from "lucide-react/icons/camera";
import Dna from "lucide-react/icons/dna";
import FlaskConical from "lucide-react/icons/flask-conical";
import Gift from "lucide-react/icons/gift";
import GraduationCap from "lucide-react/icons/graduation-cap";
import Landmark from "lucide-react/icons/landmark";
import Lightbulb from "lucide-react/icons/lightbulb";
import Rocket from "lucide-react/icons/rocket";
import Zap from "lucide-react/icons/zap";

/**
 * The icons the copy may name (content.ts's `icon` values). Written out, not `keyof typeof ICONS`:
 * the declaration of a lucide icon's own type cannot be named outside the package.
 */
export type IconName =
  | "atom"
  | "badge-check"
  | "book-open"
  | "brain"
  | "calculator"
  | "camera"
  | "dna"
  | "flask"
  | "gift"
  | "graduation-cap"
  | "landmark"
  | "lightbulb"
  | "rocket"
  | "zap";

// Imported one by one so the bundle holds only these icons (inline SVG, no icon font or CDN).
const ICONS: Record<IconName, typeof Zap> = {
  atom: Atom,
  "badge-check": BadgeCheck,
  "book-open": BookOpen,
  brain: Brain,
  calculator: Calculator,
  camera: Camera,
  dna: Dna,
  flask: FlaskConical,
  gift: Gift,
  "graduation-cap": GraduationCap,
  landmark: Landmark,
  lightbulb: Lightbulb,
  rocket: Rocket,
  zap: Zap,
};

/** A decorative icon named by the copy: hidden from assistive technology. */
export function Icon({ name, className }: { name: IconName; className?: string }) {
  const Component = ICONS[name];
  return <Component className={className} aria-hidden="true" />;
}
