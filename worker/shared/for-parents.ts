/**
 * The privacy policy's part for parents and the neutral "For parents" link to it (issue 23 §5),
 * apart from age.ts: the policy's chunk imports only these, so the home page's script keeps the
 * age question's module to itself (a module shared by the home page and the policy's chunk split
 * the framework into a chunk of its own, preloaded before the first paint).
 */
export const FOR_PARENTS_LINK = "For parents";
export const FOR_PARENTS_SECTION = "for-parents";
export const FOR_PARENTS_PATH = `/#/privacy-policy?section=${FOR_PARENTS_SECTION}`;
